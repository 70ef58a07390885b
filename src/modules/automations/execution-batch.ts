// The bookkeeping around `automations.execute` jobs, in a few statements per batch rather than a
// few per run: taking a batch's executions (QUEUED → RUNNING) and announcing that, reading the
// automations, teams, actions and trigger events its runs need; and recording outcomes (with the
// automations' lastRunAt) and announcing them, for every run that ended since the last statement.
import type pg from 'pg';
import type { Automation, AutomationAction } from '../../generated/prisma/client.ts';
import type { TeamRef } from '../../app/auth/principal.ts';
import type { Services } from '../../app/context.ts';
import type { DomainEventRow } from '../../app/outbox.ts';
import { WIZARD_TRIGGERS } from './automations.input.ts';
import { announce, type ExecutionJobData, type ExecutionRow, toExecutionRow } from './execution-claims.ts';

export type DomainEventPayload = DomainEventRow['payload'];

export interface Outcome {
  status: 'SUCCEEDED' | 'PARTIALLY_FAILED' | 'FAILED' | 'SKIPPED';
  recordsProcessed: number;
  recordsFailed: number;
  errorDetails: unknown;
}

/** A taken execution with everything its run reads besides records. */
export interface StartedExecution {
  execution: ExecutionRow;
  automation: Automation;
  team: TeamRef & { simplyId: string };
  /** in executionRank order */
  actions: AutomationAction[];
  /** the trigger event's payload (null for schedules, or when the event is no longer stored) */
  triggerPayload: DomainEventPayload | null;
}

export interface StartedBatch {
  /** by execution simplyId */
  started: Map<string, StartedExecution>;
  /** the job (its data) that runs each started execution: the first one of the batch naming it */
  claimedBy: Map<string, ExecutionJobData>;
}

/**
 * Takes the batch's QUEUED executions and, for jobs the queue retried after a crash, RUNNING record
 * and schedule executions (a wizard-completion claim is never run twice), in one statement.
 */
export async function startExecutions(services: Services, attempts: readonly { data: ExecutionJobData; retryCount: number }[]): Promise<StartedBatch> {
  const { pool, prisma } = services;
  const claimedBy = new Map<string, ExecutionJobData>();
  for (const { data } of attempts) if (!claimedBy.has(data.executionSimplyId)) claimedBy.set(data.executionSimplyId, data);
  const { rows } = await pool.query(
    `UPDATE "AutomationExecution" e SET status = 'RUNNING', "startedAt" = now()
       FROM (SELECT t, s, bool_or(retry) AS retry FROM unnest($1::bigint[], $2::text[], $3::bool[]) AS k(t, s, retry) GROUP BY t, s) k
      WHERE e."teamId" = k.t AND e."simplyId" = k.s
        AND (e.status = 'QUEUED' OR (k.retry AND e.status = 'RUNNING' AND NOT (e."triggerType" = ANY($4::"AutomationTriggerType"[]))))
      RETURNING e.*`,
    [attempts.map((a) => BigInt(a.data.teamId)), attempts.map((a) => a.data.executionSimplyId), attempts.map((a) => a.retryCount > 0), WIZARD_TRIGGERS],
  );
  const executions = rows.map(toExecutionRow);
  const started = new Map<string, StartedExecution>();
  if (executions.length === 0) return { started, claimedBy };

  const automationIds = [...new Set(executions.map((e) => e.automationId))];
  const teamIds = [...new Set(executions.map((e) => e.teamId))];
  const eventIds = executions.filter((e) => e.triggerType !== 'SCHEDULE').map((e) => e.triggerEventId);
  const [automations, teams, actions, events] = await Promise.all([
    prisma.automation.findMany({ where: { id: { in: automationIds }, teamId: { in: teamIds } } }),
    prisma.team.findMany({ where: { id: { in: teamIds } }, select: { id: true, simplyId: true, name: true } }),
    prisma.automationAction.findMany({ where: { automationId: { in: automationIds }, teamId: { in: teamIds } }, orderBy: [{ executionRank: 'asc' }, { id: 'asc' }] }),
    eventIds.length === 0 ? { rows: [] } : pool.query(`SELECT "eventId", payload FROM "DomainEvent" WHERE "eventId" = ANY($1::text[])`, [eventIds]),
  ]);
  const automationById = new Map(automations.map((a) => [a.id, a]));
  const teamById = new Map(teams.map((t) => [t.id, t]));
  const payloadByEvent = new Map<string, DomainEventPayload>(events.rows.map((r: { eventId: string; payload: DomainEventPayload }) => [r.eventId, r.payload]));
  for (const execution of executions) {
    const automation = automationById.get(execution.automationId);
    const team = teamById.get(execution.teamId);
    if (!automation || automation.teamId !== execution.teamId || !team) continue; // deleted meanwhile (its log goes with it)
    started.set(execution.simplyId, {
      execution,
      automation,
      team,
      actions: actions.filter((a) => a.automationId === automation.id),
      triggerPayload: payloadByEvent.get(execution.triggerEventId) ?? null,
    });
  }
  const runs = [...started.values()];
  await announce(services, pool, runs.map((r) => ({ row: r.execution, claim: { teamSimplyId: r.team.simplyId, automationSimplyId: r.automation.simplyId } })));
  return { started, claimedBy };
}

interface Finished {
  started: StartedExecution;
  outcome: Outcome;
  settle: (row: ExecutionRow | null, error?: unknown) => void;
}

/** per process (its pool): the outcomes waiting for the next statement, and whether one is under way */
const recorders = new WeakMap<pg.Pool, { waiting: Finished[]; busy: boolean }>();

/**
 * Records a run's outcome; resolves with the finished row (null when the run was no longer RUNNING)
 * once it is committed and announced. Outcomes that end while a statement is under way wait for it
 * and go together in the next one (and so does the automations' lastRunAt), so concurrent runs
 * share commits instead of queueing on the automation's row one commit each.
 */
export function recordOutcome(services: Services, started: StartedExecution, outcome: Outcome): Promise<ExecutionRow | null> {
  let recorder = recorders.get(services.pool);
  if (!recorder) recorders.set(services.pool, (recorder = { waiting: [], busy: false }));
  const done = new Promise<ExecutionRow | null>((resolve, reject) => {
    recorder.waiting.push({ started, outcome, settle: (row, error) => (error === undefined ? resolve(row) : reject(error)) });
  });
  if (!recorder.busy) void drainOutcomes(services, recorder);
  return done;
}

async function drainOutcomes(services: Services, recorder: { waiting: Finished[]; busy: boolean }): Promise<void> {
  recorder.busy = true;
  while (recorder.waiting.length > 0) {
    const batch = recorder.waiting.splice(0);
    try {
      const rows = await finishExecutions(services, batch);
      for (const item of batch) item.settle(rows.get(item.started.execution.simplyId) ?? null);
    } catch (error) {
      for (const item of batch) item.settle(null, error ?? new Error('recording the outcome failed'));
    }
  }
  recorder.busy = false;
}

async function finishExecutions(services: Services, batch: readonly Finished[]): Promise<Map<string, ExecutionRow>> {
  const { rows } = await services.pool.query(
    // lastRunAt is run state, not schema: written without touching updatedAt
    `WITH done AS (
       UPDATE "AutomationExecution" e
          SET status = u.status::"AutomationExecutionStatus", "completedAt" = now(),
              "executionDurationMs" = GREATEST(0, (EXTRACT(EPOCH FROM (now() - e."startedAt")) * 1000)::int),
              "recordsProcessed" = u.processed, "recordsFailed" = u.failed, "errorDetails" = u.details::jsonb
         FROM unnest($1::bigint[], $2::text[], $3::int[], $4::int[], $5::text[]) AS u(id, status, processed, failed, details)
        WHERE e.id = u.id AND e.status = 'RUNNING' RETURNING e.*),
     ran AS (UPDATE "Automation" SET "lastRunAt" = now() WHERE id = ANY($6::bigint[]))
     SELECT * FROM done`,
    [
      batch.map((f) => f.started.execution.id),
      batch.map((f) => f.outcome.status),
      batch.map((f) => f.outcome.recordsProcessed),
      batch.map((f) => f.outcome.recordsFailed),
      batch.map((f) => (f.outcome.errorDetails === null ? null : JSON.stringify(f.outcome.errorDetails))),
      [...new Set(batch.map((f) => f.started.automation.id))],
    ],
  );
  const finished = new Map(rows.map((r) => [r.simplyId as string, toExecutionRow(r)]));
  const startedOf = new Map(batch.map((f) => [f.started.execution.simplyId, f.started]));
  // a NOTIFY of its own, after the commit above: a notifying commit holds PostgreSQL's one notify
  // lock through its WAL flush, so the outcome's commit does not carry it
  await announce(
    services,
    services.pool,
    [...finished.values()].map((row) => {
      const { team, automation } = startedOf.get(row.simplyId)!;
      return { row, claim: { teamSimplyId: team.simplyId, automationSimplyId: automation.simplyId } };
    }),
  );
  return finished;
}
