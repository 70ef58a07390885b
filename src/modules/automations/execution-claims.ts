// Claiming executions: one AutomationExecution per (automation, trigger event or schedule tick),
// enforced by its unique key, so a redelivered event or a second instance's tick finds the claim
// taken and does nothing. A claim and the job that runs it are written on the caller's connection
// in the caller's transaction (the outbox dispatch, the schedule tick, a reconcile), so neither
// exists without the other. Wizard-completion claims are sent with retryLimit 0: the queue never
// hands them out twice (Document 1 §6 rule 6).
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { queueForEvents } from '../../app/outbox.ts';
import type { StoredTrace } from '../../app/telemetry/stored-trace.ts';
import type { AutomationExecutionEvent } from './automations.events.ts';
import { automationExecutionId } from './automations.ids.ts';
import { WIZARD_TRIGGERS, type TriggerType } from './automations.input.ts';

export const EXECUTE_AUTOMATION = 'automations.execute';
/** record and schedule executions: the queue retries a run whose worker died (at least once) */
export const EXECUTION_RETRY_LIMIT = 2;
/** a run may take long (retries with delays inside it); then the queue considers the worker dead */
export const EXECUTION_EXPIRE_SECONDS = 30 * 60;

export interface ExecutionJobData {
  teamId: string;
  executionSimplyId: string;
}

export interface Claim {
  teamId: bigint;
  teamSimplyId: string;
  automationId: bigint;
  automationSimplyId: string;
  triggerType: TriggerType;
  triggerEventId: string;
  depth: number;
  /** SKIPPED claims are recorded for the log (loop guard) and never run */
  status: 'QUEUED' | 'SKIPPED';
  errorDetails?: unknown;
  /** the trigger event's trace, which the run continues (none for a schedule tick) */
  trace?: StoredTrace;
}

export interface ExecutionRow {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  automationId: bigint;
  triggerType: TriggerType;
  triggerEventId: string;
  status: string;
  depth: number;
  startedAt: Date | null;
  completedAt: Date | null;
  recordsProcessed: number;
  recordsFailed: number;
  executionDurationMs: number | null;
  errorDetails: unknown;
  createdAt: Date;
}

export function toExecutionRow(r: Record<string, any>): ExecutionRow {
  return { ...r, id: BigInt(r.id), teamId: BigInt(r.teamId), automationId: BigInt(r.automationId) } as ExecutionRow;
}

// NOTIFY payloads are limited to 8000 bytes: long error details are left to the execution log
const MAX_EVENT_DETAILS = 3000;

function eventDetails(details: unknown): unknown {
  if (details === null || details === undefined) return null;
  return JSON.stringify(details).length > MAX_EVENT_DETAILS ? { truncated: true, message: 'see the execution log (GET /v1/automations/{automationSimplyId}/executions)' } : details;
}

export function executionEvent(automationSimplyId: string, row: ExecutionRow): AutomationExecutionEvent {
  return {
    automationSimplyId,
    executionSimplyId: row.simplyId,
    triggerType: row.triggerType,
    status: row.status,
    recordsProcessed: row.recordsProcessed,
    recordsFailed: row.recordsFailed,
    startedAt: row.startedAt ? new Date(row.startedAt).toISOString() : null,
    completedAt: row.completedAt ? new Date(row.completedAt).toISOString() : null,
    executionDurationMs: row.executionDurationMs,
    errorDetails: eventDetails(row.errorDetails),
  };
}


export async function sendExecutionJob(services: Services, db: pg.PoolClient, teamId: bigint, executionSimplyId: string, triggerType: TriggerType): Promise<void> {
  await sendExecutionJobs(services, db, [{ row: { teamId, simplyId: executionSimplyId, triggerType } }]);
}

/** One statement per trace for every job of a dispatch batch (a 500-event batch is not 500 round trips). */
async function sendExecutionJobs(
  services: Services,
  db: pg.PoolClient,
  items: readonly { row: Pick<ExecutionRow, 'teamId' | 'simplyId' | 'triggerType'>; trace?: StoredTrace }[],
): Promise<void> {
  if (items.length === 0) return;
  const jobs = items.map(({ row, trace }) => ({
    trace: trace ?? NO_TRACE,
    job: {
      data: { teamId: String(row.teamId), executionSimplyId: row.simplyId } satisfies ExecutionJobData,
      retryLimit: WIZARD_TRIGGERS.includes(row.triggerType) ? 0 : EXECUTION_RETRY_LIMIT,
      expireInSeconds: EXECUTION_EXPIRE_SECONDS,
    },
  }));
  await queueForEvents(services.jobs, db, EXECUTE_AUTOMATION, jobs);
}

const NO_TRACE: StoredTrace = { traceparent: null, tracestate: null };

/** Inserts the claims that are not taken yet, sends a job for each new QUEUED one, and announces
 *  them; returns the new rows. */
export async function claimExecutions(services: Services, db: pg.PoolClient, claims: readonly Claim[]): Promise<ExecutionRow[]> {
  if (claims.length === 0) return [];
  const { rows } = await db.query(
    `INSERT INTO "AutomationExecution" ("simplyId", "teamId", "automationId", "triggerType", "triggerEventId", status, depth, "errorDetails", "completedAt")
     SELECT s, t, a, tt::"AutomationTriggerType", e, st::"AutomationExecutionStatus", d, ed::jsonb, CASE WHEN st = 'SKIPPED' THEN now() END
       FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[]) AS u(s, t, a, tt, e, st, d, ed)
     ON CONFLICT ("automationId", "triggerEventId") DO NOTHING
     RETURNING *`,
    [
      claims.map(() => automationExecutionId.create()),
      claims.map((c) => c.teamId),
      claims.map((c) => c.automationId),
      claims.map((c) => c.triggerType),
      claims.map((c) => c.triggerEventId),
      claims.map((c) => c.status),
      claims.map((c) => c.depth),
      claims.map((c) => (c.errorDetails === undefined ? null : JSON.stringify(c.errorDetails))),
    ],
  );
  const created = rows.map(toExecutionRow);
  const claimOf = new Map(claims.map((c) => [`${c.automationId}:${c.triggerEventId}`, c]));
  const queued = created.filter((row) => row.status === 'QUEUED');
  await sendExecutionJobs(services, db, queued.map((row) => ({ row, trace: claimOf.get(`${row.automationId}:${row.triggerEventId}`)!.trace })));
  await announce(services, db, created.map((row) => ({ row, claim: claimOf.get(`${row.automationId}:${row.triggerEventId}`)! })));
  return created;
}

/** `automationExecutions` events, delivered on commit. */
export async function announce(services: Services, db: pg.Pool | pg.PoolClient, items: readonly { row: ExecutionRow; claim: Pick<Claim, 'teamSimplyId' | 'automationSimplyId'> }[]): Promise<void> {
  if (items.length === 0) return;
  const notes = items.map(({ row, claim }) => services.events.notification('automationExecutions', claim.teamSimplyId, executionEvent(claim.automationSimplyId, row)));
  await db.query(`SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)`, [notes.map((n) => n.channel), notes.map((n) => n.payload)]);
}
