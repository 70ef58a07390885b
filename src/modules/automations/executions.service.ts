// The execution log of an automation, and reconciling an execution nobody will finish: a
// wizard-completion execution whose worker died while it was RUNNING is an ambiguous claim (its
// actions may or may not have taken effect); the queue never hands it out again (Document 1 §6
// rule 6), so an administrator decides: RETRY (queued again under the same claim, so payment,
// mail and notification idempotency keys still hold) or ABANDON (FAILED, with who decided).
import type { AutomationExecution } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { hasFeature } from '../../app/auth/principal.ts';
import type { AutomationExecutionEvent } from './automations.events.ts';
import { AUTOMATION_ADMIN_FEATURE } from './automations.service.ts';
import { parsePaging, type PageInput, type PaginationShape, paginationOf, byCreation } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../app/errors.ts';
import { automationId, automationExecutionId } from './automations.ids.ts';
import { AutomationNotFoundError } from './automations.errors.ts';
import { announce, EXECUTE_AUTOMATION, type ExecutionJobData, sendExecutionJob, toExecutionRow } from './execution-claims.ts';
import { inTransaction } from '../../app/transaction.ts';

export const EXECUTION_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'PARTIALLY_FAILED', 'FAILED', 'SKIPPED'] as const;
export const RECONCILE_RESOLUTIONS = ['RETRY', 'ABANDON'] as const;
export type ReconcileResolution = (typeof RECONCILE_RESOLUTIONS)[number];

export interface ExecutionItem {
  row: AutomationExecution;
  automationSimplyId: string;
}

export interface ExecutionPage {
  nodes: ExecutionItem[];
  pagination: PaginationShape;
}

export interface ListExecutionsArgs extends PageInput {
  status?: string | null;
  triggerEventId?: string | null;
}

/** Newest first; optionally one status, or the execution of one trigger event (a stable wizard key). */
export async function listExecutions(ctx: RequestContext, automationSimplyId: string, args: ListExecutionsArgs): Promise<ExecutionPage> {
  const team = requireTeam(ctx);
  automationId.assert(automationSimplyId, 'automationSimplyId');
  const paging = parsePaging(args);
  if (args.status && !(EXECUTION_STATUSES as readonly string[]).includes(args.status)) {
    throw new ValidationError(`status must be one of ${EXECUTION_STATUSES.join(', ')}`, [{ field: 'status', message: `one of ${EXECUTION_STATUSES.join(', ')}` }]);
  }
  if (args.triggerEventId !== undefined && args.triggerEventId !== null && (args.triggerEventId.length === 0 || args.triggerEventId.length > 200)) {
    throw new ValidationError('triggerEventId must be 1 to 200 characters', [{ field: 'triggerEventId', message: '1 to 200 characters' }]);
  }
  const automation = await ctx.services.prisma.automation.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: automationSimplyId } }, select: { id: true } });
  if (!automation) throw new AutomationNotFoundError(automationSimplyId);
  const where = {
    teamId: team.id,
    automationId: automation.id,
    ...(args.status ? { status: args.status as AutomationExecution['status'] } : {}),
    ...(args.triggerEventId ? { triggerEventId: args.triggerEventId } : {}),
  };
  const rows = await ctx.services.prisma.automationExecution.findMany({ where, ...byCreation(paging, 'desc') });
  return { nodes: rows.map((row) => ({ row, automationSimplyId })), pagination: await paginationOf(rows.length, paging, () => ctx.services.prisma.automationExecution.count({ where })) };
}

export async function reconcileExecution(ctx: RequestContext, executionSimplyId: string, resolution: string): Promise<ExecutionItem> {
  const team = requireTeam(ctx);
  automationExecutionId.assert(executionSimplyId, 'executionSimplyId');
  if (!(RECONCILE_RESOLUTIONS as readonly string[]).includes(resolution)) {
    throw new ValidationError(`resolution must be RETRY or ABANDON`, [{ field: 'resolution', message: 'RETRY or ABANDON' }]);
  }
  const { services } = ctx;
  const current = await services.prisma.automationExecution.findUnique({
    where: { teamId_simplyId: { teamId: team.id, simplyId: executionSimplyId } },
    include: { automation: { select: { simplyId: true } } },
  });
  if (!current) throw new NotFoundError('Automation execution', executionSimplyId);
  if (current.status !== 'QUEUED' && current.status !== 'RUNNING') {
    throw new ConflictError(`Execution ${executionSimplyId} is ${current.status}: only a QUEUED or RUNNING execution that no worker holds can be reconciled`);
  }
  const live = await services.jobs.boss.findJobs<ExecutionJobData>(EXECUTE_AUTOMATION, { data: { executionSimplyId } });
  if (live.some((job) => job.state === 'created' || job.state === 'retry' || job.state === 'active')) {
    throw new ConflictError(`Execution ${executionSimplyId} is still held by the job queue (queued or running); reconcile it once its job has ended`);
  }
  const decision = { resolution, by: { kind: ctx.principal.kind, id: ctx.principal.credentialId }, at: new Date().toISOString(), previousStatus: current.status };
  const row = await inTransaction(services.pool, async (db) => {
    const { rows } =
      resolution === 'RETRY'
        ? await db.query(
            `UPDATE "AutomationExecution" SET status = 'QUEUED', "startedAt" = NULL, "completedAt" = NULL, "executionDurationMs" = NULL,
                    "recordsProcessed" = 0, "recordsFailed" = 0, "errorDetails" = $2::jsonb
              WHERE id = $1 AND status IN ('QUEUED', 'RUNNING') RETURNING *`,
            [current.id, JSON.stringify({ reconciled: decision })],
          )
        : await db.query(
            `UPDATE "AutomationExecution" SET status = 'FAILED', "completedAt" = now(),
                    "executionDurationMs" = CASE WHEN "startedAt" IS NULL THEN NULL ELSE GREATEST(0, (EXTRACT(EPOCH FROM (now() - "startedAt")) * 1000)::int) END,
                    "errorDetails" = $2::jsonb
              WHERE id = $1 AND status IN ('QUEUED', 'RUNNING') RETURNING *`,
            [current.id, JSON.stringify({ code: 'ABANDONED', message: 'Abandoned by an administrator: its effects, if any, were not retried', reconciled: decision })],
          );
    if (!rows[0]) throw new ConflictError(`Execution ${executionSimplyId} changed while being reconciled; read it again`);
    const row = toExecutionRow(rows[0]);
    if (resolution === 'RETRY') await sendExecutionJob(services, db, team.id, row.simplyId, row.triggerType);
    await announce(services, db, [{ row, claim: { teamSimplyId: team.simplyId, automationSimplyId: current.automation.simplyId } }]);
    return row;
  });
  const fresh = await services.prisma.automationExecution.findUniqueOrThrow({ where: { id: row.id } });
  return { row: fresh, automationSimplyId: current.automation.simplyId };
}

/** The team's execution updates from every instance (the automationExecutions subscription). */
export function subscribeExecutionEvents(ctx: RequestContext): AsyncIterable<AutomationExecutionEvent> {
  return ctx.services.events.pubsub.subscribe('automationExecutions', requireTeam(ctx).simplyId) as AsyncIterable<AutomationExecutionEvent>;
}

/**
 * Whether a subscriber still gets this event: of the automation it asked for (if any), and its
 * credential, read again now, still has the feature; one that lost the permission stops receiving.
 */
export async function mayReceiveExecutionEvent(ctx: RequestContext, event: AutomationExecutionEvent, automationSimplyId?: string | null): Promise<boolean> {
  if (automationSimplyId && event.automationSimplyId !== automationSimplyId) return false;
  if (ctx.refreshPrincipal) {
    const fresh = await ctx.refreshPrincipal().catch(() => null);
    if (!fresh) return false;
    ctx.principal = fresh;
  }
  return hasFeature(ctx.principal, AUTOMATION_ADMIN_FEATURE, 'VIEW');
}
