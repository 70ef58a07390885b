// Background tasks (docs/api/background-tasks.md): create (the type checks its queueData and the
// starter's permission), list and detail under the visibility rule, error acknowledgement,
// archive, cancel, the result download and the live progress subscription. The work itself runs
// in background-tasks.jobs.ts.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { parsePaging } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction } from '../../app/transaction.ts';
import type { BackgroundTaskError } from '../../generated/prisma/client.ts';
import { TaskResultUnavailableError, TaskStateConflictError, TaskTypeNotSupportedError } from './background-tasks.errors.ts';
import { taskTopicId, type BackgroundTaskEvent } from './background-tasks.events.ts';
import { backgroundTaskErrorId, backgroundTaskId } from './background-tasks.ids.ts';
import { FINAL_STATUSES, TASK_LIMITS, createTaskInput, listTasksInput } from './background-tasks.input.ts';
import { cancelledOutcome, startTask } from './background-tasks.jobs.ts';
import { finishTask } from './task-finish.ts';
import { publicObject } from './task-public.ts';
import { taskTypeOf } from './task-type-list.ts';
import { canViewTasks, visibilityOf } from './task-visibility.ts';
import { findVisibleTask, listVisibleTasks, type ListedTask } from './tasks.sql.ts';

/** A task as one caller sees it. */
export interface TaskView {
  row: ListedTask;
  /** whether this caller may fetch the result file now (the starter, a finished task with a file) */
  canDownloadResult: boolean;
  /** detail only: unacknowledged error entries, oldest first */
  errors: BackgroundTaskError[] | null;
  /** detail only: the sanitized result (lists answer null) */
  result: Record<string, unknown> | null;
}

export interface ResultFile {
  storageKey: string;
  filename: string;
  contentType: string;
  sizeBytes?: number;
}

function resultFileOf(internal: unknown): ResultFile | null {
  const file = (internal as { resultFile?: ResultFile } | null)?.resultFile;
  return file && typeof file.storageKey === 'string' ? file : null;
}

function isFinished(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

function canDownload(ctx: RequestContext, row: ListedTask): boolean {
  return row.status !== 'FAILED' && isFinished(row.status) && row.hasResultFile && row.userId !== null && row.userId === ctx.principal.userId;
}

function listed(ctx: RequestContext, row: ListedTask): TaskView {
  return { row, canDownloadResult: canDownload(ctx, row), errors: null, result: null };
}

/** A task the caller may see; anything else (another team's, someone else's) is 404, a malformed id 400. */
async function visibleTask(ctx: RequestContext, simplyId: string): Promise<ListedTask> {
  const team = requireTeam(ctx);
  backgroundTaskId.assert(simplyId, 'backgroundTaskSimplyId');
  const row = await findVisibleTask(ctx.services.pool, team.id, ctx.principal, simplyId);
  if (!row) throw new NotFoundError('Background task', simplyId);
  return row;
}

async function unacknowledgedErrors(ctx: RequestContext, row: ListedTask): Promise<BackgroundTaskError[]> {
  return ctx.services.prisma.backgroundTaskError.findMany({
    where: { teamId: row.teamId, taskId: row.id, acknowledgedAt: null },
    orderBy: { id: 'asc' },
    take: TASK_LIMITS.maxErrorsInDetail,
  });
}

export async function createTask(ctx: RequestContext, raw: unknown): Promise<TaskView> {
  const team = requireTeam(ctx);
  const input = parseInput(createTaskInput, raw, 'Invalid background task');
  const type = taskTypeOf(input.enumBackgroundTaskTypeId);
  if (!type) throw new TaskTypeNotSupportedError(input.enumBackgroundTaskTypeId, 'are not run by this platform');
  if (!type.creatableByApi) throw new TaskTypeNotSupportedError(input.enumBackgroundTaskTypeId, 'are started by the platform itself, not through this route');
  const prepared = await type.prepare(ctx, input.queueData ?? {});
  const row = await runTransaction(ctx.services.prisma, (tx) =>
    startTask(ctx.services, tx, { teamId: team.id, taskType: type.type, userId: ctx.principal.userId, queueData: prepared.queueData, internal: prepared.internal, totalCount: prepared.totalCount }),
  );
  // the task as created (QUEUED): a worker may already be at it, but this answer is the creation's
  const { queueData: _queueData, internal: _internal, result: _result, ...created } = row;
  return { ...listed(ctx, { ...created, progress: created.progress as Record<string, unknown> }), errors: [], result: null };
}

export interface ListTasksArgs {
  limit?: number | null;
  offset?: number | null;
  status?: string | null;
  enumBackgroundTaskTypeId?: string | null;
  teamIntegrationSimplyId?: string | null;
  includeArchived?: boolean | null;
}

export interface TaskPage {
  nodes: TaskView[];
  canViewBackgroundTasks: boolean;
  total: number;
  limit: number;
  offset: number;
}

export async function listTasks(ctx: RequestContext, args: ListTasksArgs): Promise<TaskPage> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args, { defaultLimit: TASK_LIMITS.defaultLimit, maxLimit: TASK_LIMITS.maxLimit });
  const filters = parseInput(listTasksInput, {
    status: args.status ?? undefined,
    enumBackgroundTaskTypeId: args.enumBackgroundTaskTypeId ?? undefined,
    teamIntegrationSimplyId: args.teamIntegrationSimplyId ?? undefined,
    includeArchived: args.includeArchived ?? undefined,
  }, 'Invalid background task filters');
  // no team integrations exist on this platform yet: every id is "not in the selected team"
  if (filters.teamIntegrationSimplyId !== undefined) throw new NotFoundError('Team integration', filters.teamIntegrationSimplyId);
  if (!canViewTasks(visibilityOf(ctx.principal))) return { nodes: [], canViewBackgroundTasks: false, total: 0, limit: paging.limit, offset: paging.offset };
  const { rows, total } = await listVisibleTasks(ctx.services.pool, {
    teamId: team.id,
    principal: ctx.principal,
    status: filters.status,
    taskType: filters.enumBackgroundTaskTypeId,
    includeArchived: filters.includeArchived === true,
    ...paging,
  });
  return { nodes: rows.map((row) => listed(ctx, row)), canViewBackgroundTasks: true, total, limit: paging.limit, offset: paging.offset };
}

export async function getTask(ctx: RequestContext, simplyId: string): Promise<TaskView> {
  const row = await visibleTask(ctx, simplyId);
  const [errors, stored] = await Promise.all([
    unacknowledgedErrors(ctx, row),
    ctx.services.prisma.backgroundTask.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: row.teamId, simplyId: row.simplyId } }, select: { result: true } }),
  ]);
  const result = stored.result ? publicObject(stored.result as Record<string, unknown>) : null;
  return { ...listed(ctx, row), errors, result };
}

export interface AcknowledgeResult {
  success: true;
  backgroundTaskErrorSimplyId: string;
  acknowledgedAt: Date;
  unacknowledgedCount: number;
}

/** Marks one error entry seen (again: the first time stays); the task's unacknowledged count is recounted. */
export async function acknowledgeTaskError(ctx: RequestContext, taskSimplyId: string, errorSimplyId: string): Promise<AcknowledgeResult> {
  const task = await visibleTask(ctx, taskSimplyId);
  backgroundTaskErrorId.assert(errorSimplyId, 'backgroundTaskErrorSimplyId');
  return runTransaction(ctx.services.prisma, async (tx) => {
    // the task row is the lock: acknowledgements and new error entries of one task take turns
    await tx.$queryRawUnsafe('SELECT 1 FROM "BackgroundTask" WHERE "teamId" = $1 AND id = $2 FOR NO KEY UPDATE', task.teamId, task.id);
    const entry = await tx.backgroundTaskError.findUnique({ where: { teamId_simplyId: { teamId: task.teamId, simplyId: errorSimplyId } } });
    if (!entry || entry.taskId !== task.id) throw new NotFoundError('Background task error', errorSimplyId);
    const acknowledgedAt = entry.acknowledgedAt ?? new Date();
    if (!entry.acknowledgedAt) await tx.backgroundTaskError.updateMany({ where: { teamId: task.teamId, id: entry.id }, data: { acknowledgedAt } });
    const unacknowledgedCount = await tx.backgroundTaskError.count({ where: { teamId: task.teamId, taskId: task.id, acknowledgedAt: null } });
    await tx.backgroundTask.updateMany({ where: { teamId: task.teamId, id: task.id }, data: { unacknowledgedErrorCount: unacknowledgedCount } });
    return { success: true as const, backgroundTaskErrorSimplyId: errorSimplyId, acknowledgedAt, unacknowledgedCount };
  });
}

/** Archives a finished task (clearedAt); archiving again keeps the first time. */
export async function archiveTask(ctx: RequestContext, simplyId: string): Promise<{ success: true; clearedAt: Date }> {
  const task = await visibleTask(ctx, simplyId);
  if (!isFinished(task.status)) throw new TaskStateConflictError(`Task ${simplyId} is ${task.status}: only finished tasks (COMPLETED, FAILED, PARTIAL_SUCCESS) can be archived`);
  const clearedAt = task.clearedAt ?? new Date();
  if (!task.clearedAt) await ctx.services.prisma.backgroundTask.updateMany({ where: { teamId: task.teamId, id: task.id, clearedAt: null }, data: { clearedAt } });
  const now = await ctx.services.prisma.backgroundTask.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: task.teamId, simplyId: task.simplyId } }, select: { clearedAt: true } });
  return { success: true, clearedAt: now.clearedAt ?? clearedAt };
}

export async function unarchiveTask(ctx: RequestContext, simplyId: string): Promise<{ success: true }> {
  const task = await visibleTask(ctx, simplyId);
  await ctx.services.prisma.backgroundTask.updateMany({ where: { teamId: task.teamId, id: task.id }, data: { clearedAt: null } });
  return { success: true };
}

/**
 * Cancels a queued task at once (FAILED, error entry CANCELLED), or asks a processing one to stop:
 * its worker notices at its next progress update and ends it the same way, keeping what it already
 * did. The starter or a team admin may cancel.
 */
export async function cancelTask(ctx: RequestContext, simplyId: string): Promise<TaskView> {
  const task = await visibleTask(ctx, simplyId);
  const p = ctx.principal;
  if (task.userId !== p.userId && !p.isTeamAdmin && !p.isSystemAdmin) throw new PermissionDeniedError('Only the person who started a task or a team admin can cancel it');
  if (isFinished(task.status)) throw new TaskStateConflictError(`Task ${simplyId} is already ${task.status}`);
  const team = requireTeam(ctx);
  await ctx.services.prisma.backgroundTask.updateMany({
    where: { teamId: task.teamId, id: task.id, status: { in: ['QUEUED', 'PROCESSING'] }, cancelRequestedAt: null },
    data: { cancelRequestedAt: new Date(), cancelledByUserId: p.userId },
  });
  const ref = { id: task.id, teamId: task.teamId, teamSimplyId: team.simplyId, simplyId: task.simplyId, taskType: task.taskType, userId: task.userId };
  // a queued task never started: it ends now (its job will find it finished)
  await finishTask(ctx.services, ref, cancelledOutcome(task.progress as Record<string, unknown>), ['QUEUED']);
  return getTask(ctx, simplyId);
}

export interface ResultDownload {
  url: string;
  expiresIn: number;
  expiresAt: Date;
  filename: string;
  contentType: string;
}

/** Rule 3: the result file, for the active starter only, after the type rechecks its scope. */
export async function resultDownload(ctx: RequestContext, simplyId: string): Promise<ResultDownload> {
  const task = await visibleTask(ctx, simplyId);
  if (task.userId === null || task.userId !== ctx.principal.userId) throw new PermissionDeniedError('Only the person who started this task can download its result');
  const stored = await ctx.services.prisma.backgroundTask.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: task.teamId, simplyId: task.simplyId } }, select: { internal: true, queueData: true } });
  const file = resultFileOf(stored.internal);
  if (!isFinished(task.status) || task.status === 'FAILED' || !file) {
    throw new TaskResultUnavailableError(`Task ${simplyId} has no result to download (${isFinished(task.status) ? (file ? task.status : 'it produced no file') : `it is ${task.status}`})`);
  }
  const type = taskTypeOf(task.taskType);
  await type?.checkResultAccess?.(ctx, { queueData: stored.queueData as never, internal: stored.internal as Record<string, unknown> });
  const signed = await ctx.services.fileStorage.presignDownload({ key: file.storageKey, filename: file.filename, contentType: file.contentType, expiresInSeconds: TASK_LIMITS.downloadSeconds });
  return { url: signed.url, expiresAt: signed.expiresAt, expiresIn: TASK_LIMITS.downloadSeconds, filename: file.filename, contentType: file.contentType };
}

/** Live changes of one visible task; each event is delivered only while the caller may still see it. */
export async function subscribeTask(ctx: RequestContext, simplyId: string): Promise<AsyncIterable<BackgroundTaskEvent>> {
  const task = await visibleTask(ctx, simplyId);
  const team = requireTeam(ctx);
  return ctx.services.events.pubsub.subscribe('backgroundTaskProgress', taskTopicId(team.simplyId, task.simplyId), {
    context: ctx,
    accept: async (now) => {
      if (now.principal.team?.id !== task.teamId) return false;
      return (await findVisibleTask(ctx.services.pool, task.teamId, now.principal, task.simplyId)) !== null;
    },
  });
}
