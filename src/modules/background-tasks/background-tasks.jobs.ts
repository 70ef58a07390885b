// Every task runs as one pg-boss job carrying only its ids (singletonKey: the task's simplyId).
// The job claims the task (QUEUED → PROCESSING, or PROCESSING again after a crash: the type's
// run resumes from what committed), runs its type and finishes it. A worker that dies stops
// heartbeating and pg-boss hands the job to another; an unexpected error is retried up to
// RETRY_LIMIT times and then ends the task FAILED. A sweep fails tasks whose job is gone for good.
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import type { Tx } from '../../app/transaction.ts';
import type { BackgroundTask } from '../../generated/prisma/client.ts';
import { ApiError } from '../../app/errors.ts';
import { finishTask } from './task-finish.ts';
import { TaskCancelledError, TaskFailedError, TaskRun } from './task-run.ts';
import { claimTask, orphanedTasks, readTask } from './tasks.sql.ts';
import { taskTypeOf } from './task-type-list.ts';
import { backgroundTaskId } from './background-tasks.ids.ts';

export const RUN_TASK = 'background-tasks.run';
const SWEEP_TASKS = 'background-tasks.sweep';
const RETRY_LIMIT = 3;
/** a task no job can still run, quiet for this long, is failed by the sweep */
const ORPHAN_QUIET_SECONDS = 120;

export interface RunTaskJob {
  teamId: string;
  taskId: string;
}

export interface NewTask {
  teamId: bigint;
  taskType: string;
  /** the member who starts it; null: the platform */
  userId: bigint | null;
  queueData: unknown;
  internal?: Record<string, unknown>;
  totalCount?: number | null;
}

/** The one way a task comes to exist: its row (QUEUED) and its job, in the caller's transaction. */
export async function startTask(services: Services, tx: Tx, task: NewTask): Promise<BackgroundTask> {
  const created = await tx.backgroundTask.create({
    data: {
      simplyId: backgroundTaskId.create(),
      teamId: task.teamId,
      taskType: task.taskType,
      userId: task.userId,
      queueData: task.queueData as never,
      internal: (task.internal ?? {}) as never,
      progress: { processedCount: 0, totalCount: task.totalCount ?? null },
    },
  });
  const job: RunTaskJob = { teamId: String(task.teamId), taskId: String(created.id) };
  await services.jobs.sendInTransaction(tx, RUN_TASK, job, { singletonKey: created.simplyId });
  return created;
}

export async function runTask(services: Services, job: Pick<Job<RunTaskJob>, 'data' | 'retryCount'>): Promise<void> {
  const teamId = BigInt(job.data.teamId);
  const id = BigInt(job.data.taskId);
  // null: the task already finished (a duplicate delivery, or a cancel while it was queued)
  const task = await claimTask(services.pool, teamId, id);
  if (!task) return;
  const logger = services.logger.child({ task: task.simplyId, taskType: task.taskType, attempt: task.attempts });
  if (task.cancelRequestedAt) {
    await finishTask(services, task, cancelledOutcome(task.progress));
    return;
  }
  const type = taskTypeOf(task.taskType);
  if (!type) {
    await finishTask(services, task, { status: 'FAILED', result: {}, error: { errorType: 'TASK_TYPE_NOT_SUPPORTED', errorMessage: `No worker runs ${task.taskType} tasks` } });
    return;
  }
  const run = new TaskRun(services, task, logger);
  const started = Date.now();
  try {
    const outcome = await type.run(run).finally(() => run.close());
    const now = await readTask(services.pool, teamId, id);
    const status = outcome.status ?? ((now?.errorCount ?? 0) > 0 ? 'PARTIAL_SUCCESS' : 'COMPLETED');
    await finishTask(services, task, { status, result: { ...outcome.result, durationMs: Date.now() - started } });
  } catch (error) {
    if (error instanceof TaskCancelledError) {
      const now = await readTask(services.pool, teamId, id);
      await finishTask(services, task, cancelledOutcome(now?.progress ?? task.progress));
      return;
    }
    if (error instanceof TaskFailedError || error instanceof ApiError) {
      const errorType = error instanceof TaskFailedError ? error.errorType : error.code;
      const errorContext = error instanceof TaskFailedError ? error.errorContext : { details: error.details ?? [] };
      await finishTask(services, task, { status: 'FAILED', result: { durationMs: Date.now() - started }, error: { errorType, errorMessage: error.message, errorContext } });
      return;
    }
    logger.error({ err: error, retryCount: job.retryCount }, 'background task attempt failed');
    if (job.retryCount < RETRY_LIMIT) throw error;
    await finishTask(services, task, {
      status: 'FAILED',
      result: { durationMs: Date.now() - started },
      error: { errorType: 'INTERNAL_ERROR', errorMessage: 'The task failed unexpectedly after several attempts; nothing more will be done. Records already written stay written (see progress).' },
    });
  }
}

export function cancelledOutcome(progress: Record<string, unknown>) {
  return {
    status: 'FAILED' as const,
    result: { cancelled: true, processedCount: progress.processedCount ?? 0 },
    error: { errorType: 'CANCELLED', errorMessage: 'The task was cancelled; work already done (see processedCount) stays done', errorContext: { processedCount: progress.processedCount ?? 0 } },
  };
}

/** Fails tasks whose job is gone for good (run every minute; exported for tests). */
export async function sweepOrphanedTasks(services: Services): Promise<void> {
  for (const ref of await orphanedTasks(services.pool, RUN_TASK, ORPHAN_QUIET_SECONDS)) {
    const task = await readTask(services.pool, ref.teamId, ref.id);
    if (!task) continue;
    await finishTask(
      services,
      task,
      { status: 'FAILED', result: {}, error: { errorType: 'WORKER_LOST', errorMessage: 'The worker running this task stopped and the task could not be resumed' } },
      ['QUEUED', 'PROCESSING'],
    );
  }
}

export function backgroundTaskJobs(services: Services): JobDefinition<never>[] {
  return [
    {
      name: RUN_TASK,
      retryLimit: RETRY_LIMIT,
      concurrency: 2,
      heartbeatSeconds: 10,
      expireInSeconds: 4 * 3600,
      handler: async (jobs) => {
        for (const job of jobs as unknown as Job<RunTaskJob>[]) await runTask(services, job);
      },
    },
    { name: SWEEP_TASKS, schedule: '* * * * *', handler: async () => sweepOrphanedTasks(services) },
  ] as JobDefinition<never>[];
}
