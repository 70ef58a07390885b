// Tasks another area queues from its own routes (a website import): the task type's prepare has
// already run in the caller's service, so this writes the task and its job in the caller's
// transaction, and reads back how far a task got.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { Tx } from '../../app/transaction.ts';
import { startTask } from './background-tasks.jobs.ts';
import { FINAL_STATUSES } from './background-tasks.input.ts';
import type { Prepared } from './task-types.ts';
import type { TaskTypeName } from './task-type-names.ts';

/** Queues a task of `type` started by the caller, in `tx`; answers its backgroundTaskSimplyId. */
export async function queueTask<Q>(ctx: RequestContext, tx: Tx, type: TaskTypeName, prepared: Prepared<Q>): Promise<string> {
  const team = requireTeam(ctx);
  const row = await startTask(ctx.services, tx, { teamId: team.id, taskType: type, userId: ctx.principal.userId, queueData: prepared.queueData, internal: prepared.internal, totalCount: prepared.totalCount });
  return row.simplyId;
}

export interface TaskState {
  taskType: string;
  status: string;
  finished: boolean;
}

/** The task's type and status, or null when the team has no such task. */
export async function taskState(ctx: RequestContext, simplyId: string): Promise<TaskState | null> {
  const team = requireTeam(ctx);
  const row = await ctx.services.prisma.backgroundTask.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, select: { taskType: true, status: true } });
  return row ? { ...row, finished: (FINAL_STATUSES as readonly string[]).includes(row.status) } : null;
}
