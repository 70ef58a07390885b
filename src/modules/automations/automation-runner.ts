// Runs claimed executions (`automations.execute` jobs, a batch side by side; the batch's
// bookkeeping is in execution-batch.ts): each QUEUED → RUNNING → SUCCEEDED,
// PARTIALLY_FAILED, FAILED or SKIPPED. The records are chosen when it runs (automation-records.ts);
// each record gets the actions in executionRank order, an action being tried up to its
// retryConfig.maxAttempts times (delaySeconds apart) inside this one job; a finally failed action
// runs its onFailureActions and, unless continueOnError, ends that record's run. Every step is
// announced on `automationExecutions`.
import type { Automation, AutomationAction } from '../../generated/prisma/client.ts';
import type { TeamRef } from '../../app/auth/principal.ts';
import { findRecords, type RecordRow } from '../../kernel/index.ts';
import type { Services } from '../../app/context.ts';
import { type ActionRun, failureOf } from './actions/action-run.ts';
import { ACTION_HANDLERS } from './actions/index.ts';
import { currentFilters, recordIfMatching, scheduledRecords } from './automation-records.ts';
import { InvalidConditionsError } from './automations.errors.ts';
import { automationContext, automationPrincipal } from './automation-principal.ts';
import { type ActionType, type RetryConfig } from './automations.input.ts';
import { EXECUTION_EXPIRE_SECONDS, type ExecutionJobData, type ExecutionRow } from './execution-claims.ts';
import { type DomainEventPayload, type Outcome, recordOutcome, type StartedExecution, startExecutions } from './execution-batch.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import { TestPaymentProvider } from './payments/test-payment-provider.ts';

const MAX_LOGGED_FAILURES = 50;
/** stop taking new records well before the queue would think the worker died */
const TIME_BUDGET_MS = EXECUTION_EXPIRE_SECONDS * 1000 * 0.8;

export const defaultPaymentProvider: PaymentProvider = new TestPaymentProvider();

export interface ActionFailure {
  dataRecordSimplyId: string | null;
  automationActionSimplyId: string;
  actionType: string;
  attempts: number;
  code: string;
  message: string;
  /** set on a follow-up's failure: its index in the failed action's onFailureActions */
  onFailureAction?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ExecutionAttempt {
  data: ExecutionJobData;
  /** the job's retryCount: above 0, a RUNNING record or schedule execution is taken again (its worker died) */
  retryCount: number;
  /** runs the execution in its job's trace (a batch's jobs each continue the event that caused them) */
  inJobTrace?: <T>(work: () => T) => T;
}

export async function runExecution(services: Services, data: ExecutionJobData, attempt: { retryCount: number }, payments: PaymentProvider = defaultPaymentProvider): Promise<void> {
  const [outcome] = await runExecutions(services, [{ data, retryCount: attempt.retryCount }], payments);
  if (outcome instanceof Error) throw outcome;
}

/**
 * Runs a batch of jobs' executions side by side. What every run needs is read once for the batch
 * (execution-batch.ts); each run records its own outcome as soon as it ends. Answers, per attempt,
 * null or the error that kept its outcome from being recorded (that job alone is retried).
 */
export async function runExecutions(services: Services, attempts: readonly ExecutionAttempt[], payments: PaymentProvider = defaultPaymentProvider): Promise<(Error | null)[]> {
  const batch = await startExecutions(services, attempts);
  return Promise.all(
    attempts.map(async ({ data, inJobTrace }) => {
      const started = batch.started.get(data.executionSimplyId);
      // a batch holding two jobs of one execution (a reconcile's retry beside the old job) runs it once
      if (!started || batch.claimedBy.get(data.executionSimplyId) !== data) return null;
      try {
        await (inJobTrace ? inJobTrace(() => runStarted(services, started, payments)) : runStarted(services, started, payments));
        return null;
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    }),
  );
}

async function runStarted(services: Services, started: StartedExecution, payments: PaymentProvider): Promise<void> {
  const { execution, automation, team, actions, triggerPayload } = started;
  let outcome: Outcome;
  try {
    outcome = await perform(services, team, automation, actions, execution, triggerPayload, payments);
  } catch (error) {
    services.logger.error({ err: error, execution: execution.simplyId }, 'automation execution failed');
    const failure = error instanceof InvalidConditionsError ? { code: error.code, message: error.message } : failureOf(error);
    outcome = { status: 'FAILED', recordsProcessed: 0, recordsFailed: 0, errorDetails: failure };
  }
  await recordOutcome(services, started, outcome);
}

const skipped = (code: string, message: string): Outcome => ({ status: 'SKIPPED', recordsProcessed: 0, recordsFailed: 0, errorDetails: { code, message } });

async function perform(
  services: Services,
  team: TeamRef,
  automation: Automation,
  actions: readonly AutomationAction[],
  execution: ExecutionRow,
  triggerPayload: DomainEventPayload | null,
  payments: PaymentProvider,
): Promise<Outcome> {
  if (!automation.isEnabled) return skipped('AUTOMATION_DISABLED', 'The automation was disabled before this execution ran');
  const schema = await services.schemas.get(team.id);
  const collection = automation.collectionId === null ? null : (schema.collectionsById.get(automation.collectionId) ?? null);
  if (automation.collectionId !== null && !collection) return { status: 'FAILED', recordsProcessed: 0, recordsFailed: 0, errorDetails: { code: 'COLLECTION_GONE', message: 'The automation’s collection no longer exists' } };
  let targets: (RecordRow | null)[];
  if (execution.triggerType === 'SCHEDULE') {
    targets = collection ? await scheduledRecords(services.pool, schema, collection, currentFilters(schema, collection, automation.filterConditions), automation.maxRecordsPerExecution) : [null];
    if (targets.length === 0) return skipped('NO_MATCHING_RECORDS', 'No record of the collection meets the filter conditions');
  } else {
    if (!triggerPayload) return { status: 'FAILED', recordsProcessed: 0, recordsFailed: 0, errorDetails: { code: 'TRIGGER_EVENT_GONE', message: `The trigger event ${execution.triggerEventId} is no longer stored` } };
    const recordSimplyId = (triggerPayload.data?.dataRecordSimplyId as string | undefined) ?? null;
    if (collection) {
      if (!recordSimplyId) return skipped('NO_RECORD', 'The trigger event names no record');
      const record = await recordIfMatching(services.pool, schema, collection, recordSimplyId, currentFilters(schema, collection, automation.filterConditions));
      if (!record) return skipped('CONDITIONS_NOT_MET', `Record ${recordSimplyId} does not meet the filter conditions now (or is no longer a live member of the collection)`);
      targets = [record];
    } else {
      targets = [recordSimplyId ? ((await findRecords(services.pool, team.id, [recordSimplyId]))[0] ?? null) : null];
    }
  }
  const depth = execution.depth + 1;
  const ctx = automationContext(services, automationPrincipal(team, automation.simplyId, execution.simplyId, depth));
  const failures: ActionFailure[] = [];
  let processed = 0;
  let failed = 0;
  let succeededActions = 0;
  const deadline = Date.now() + TIME_BUDGET_MS;
  let outOfTime = false;
  for (const target of targets) {
    if (Date.now() > deadline) {
      outOfTime = true;
      break;
    }
    let record = target;
    let recordFailed = false;
    for (const action of actions) {
      const run = (type: ActionType, config: unknown, key: string): ActionRun => ({
        services,
        ctx,
        team,
        schema,
        automationSimplyId: automation.simplyId,
        executionSimplyId: execution.simplyId,
        depth,
        collection,
        record,
        config: (config ?? {}) as Record<string, unknown>,
        idempotencyKey: `${execution.simplyId}:${key}:${record?.simplyId ?? '-'}`,
        payments,
      });
      const result = await withRetries(action.actionType, run(action.actionType, action.actionConfig, action.simplyId), action.retryConfig as RetryConfig | null);
      if (result.ok) {
        succeededActions++;
        if (result.record) record = result.record;
        continue;
      }
      recordFailed = true;
      failures.push({ dataRecordSimplyId: record?.simplyId ?? null, automationActionSimplyId: action.simplyId, actionType: action.actionType, attempts: result.attempts, ...result.failure });
      await runFollowUps(action, (type, config, key) => run(type, config, key), failures, record);
      if (!action.continueOnError) break;
    }
    processed++;
    if (recordFailed) failed++;
  }
  const status = failures.length === 0 && !outOfTime ? 'SUCCEEDED' : succeededActions === 0 && failures.length > 0 ? 'FAILED' : 'PARTIALLY_FAILED';
  const errorDetails =
    failures.length === 0 && !outOfTime
      ? null
      : {
          failures: failures.slice(0, MAX_LOGGED_FAILURES),
          ...(failures.length > MAX_LOGGED_FAILURES ? { moreFailures: failures.length - MAX_LOGGED_FAILURES } : {}),
          ...(outOfTime ? { code: 'TIME_BUDGET_EXCEEDED', message: `Stopped after ${processed} of ${targets.length} records: the run reached its time budget` } : {}),
        };
  return { status, recordsProcessed: processed, recordsFailed: failed, errorDetails };
}

type Attempted = { ok: true; record?: RecordRow } | { ok: false; attempts: number; failure: { code: string; message: string } };

async function withRetries(type: ActionType, run: ActionRun, retry: RetryConfig | null): Promise<Attempted> {
  const maxAttempts = Math.max(1, Math.min(retry?.maxAttempts ?? 1, 5));
  const delayMs = Math.max(0, Math.min(retry?.delaySeconds ?? 0, 60)) * 1000;
  let failure = { code: 'ACTION_FAILED', message: '' };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      const result = await ACTION_HANDLERS[type](run);
      return { ok: true, record: result?.record };
    } catch (error) {
      failure = failureOf(error);
      if (attempt < maxAttempts && delayMs > 0) await sleep(delayMs);
    }
  }
  return { ok: false, attempts: maxAttempts, failure };
}

/** The failed action's onFailureActions, each tried once; their own failures are logged too. */
async function runFollowUps(action: AutomationAction, run: (type: ActionType, config: unknown, key: string) => ActionRun, failures: ActionFailure[], record: RecordRow | null): Promise<void> {
  const followUps = Array.isArray(action.onFailureActions) ? (action.onFailureActions as { actionType: ActionType; actionConfig: unknown }[]) : [];
  for (const [i, followUp] of followUps.entries()) {
    const result = await withRetries(followUp.actionType, run(followUp.actionType, followUp.actionConfig, `${action.simplyId}.onFailure${i}`), null);
    if (!result.ok) {
      failures.push({ dataRecordSimplyId: record?.simplyId ?? null, automationActionSimplyId: action.simplyId, actionType: followUp.actionType, attempts: 1, onFailureAction: i, ...result.failure });
    }
  }
}
