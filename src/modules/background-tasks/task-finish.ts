// A task's one move to a final status, with what comes with it in the same transaction: the
// closing error entry (failure, cancel), the starter's notification (category `system`) and the
// realtime event. Exactly once: the move is conditional on the status it leaves.
import type { Services } from '../../app/context.ts';
import { runTransaction } from '../../app/transaction.ts';
import { notify } from '../notifications/index.ts';
import { taskTopicId } from './background-tasks.events.ts';
import { eventOf, insertErrorsStatement, type TaskErrorEntry, type TaskRow } from './tasks.sql.ts';
import type { FinalStatus } from './task-types.ts';
import { publicObject } from './task-public.ts';

const NOTIFICATION_TYPE = {
  COMPLETED: 'BACKGROUND_TASK_COMPLETED',
  FAILED: 'BACKGROUND_TASK_FAILED',
  PARTIAL_SUCCESS: 'BACKGROUND_TASK_PARTIAL_SUCCESS',
} as const;

const TITLE: Record<FinalStatus, (type: string) => string> = {
  COMPLETED: (type) => `${label(type)} finished`,
  FAILED: (type) => `${label(type)} failed`,
  PARTIAL_SUCCESS: (type) => `${label(type)} finished with errors`,
};

function label(type: string): string {
  const words = type.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Moves the task from one of `from` to `status`; answers false when it was not in one of them
 * (already final: a retry or a parallel cancel got there first).
 */
export async function finishTask(
  services: Services,
  task: Pick<TaskRow, 'id' | 'teamId' | 'teamSimplyId' | 'simplyId' | 'taskType' | 'userId'>,
  outcome: { status: FinalStatus; result: Record<string, unknown>; error?: TaskErrorEntry },
  from: readonly string[] = ['PROCESSING'],
): Promise<boolean> {
  return runTransaction(services.prisma, async (tx) => {
    const now = new Date();
    const moved = await tx.backgroundTask.updateMany({
      where: { teamId: task.teamId, id: task.id, status: { in: [...from] } },
      data: { status: outcome.status, result: publicObject(outcome.result) as never, completedAt: now, lastUpdatedAt: now },
    });
    if (moved.count === 0) return false;
    if (outcome.error) {
      const added = insertErrorsStatement(task.teamId, task.id, [outcome.error]);
      await tx.$executeRawUnsafe(added.text, ...added.values);
    }
    const row = await tx.backgroundTask.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: task.teamId, simplyId: task.simplyId } } });
    if (task.userId !== null) {
      await notify(services, tx, {
        teamId: task.teamId,
        userId: task.userId,
        notificationType: NOTIFICATION_TYPE[outcome.status],
        title: TITLE[outcome.status](task.taskType),
        body: bodyOf(outcome.status, row.errorCount),
        actionUrl: `/background-tasks/${task.simplyId}`,
        referenceEntityType: 'BACKGROUND_TASK',
        referenceEntityId: task.simplyId,
        source: 'BACKGROUND_TASK',
        sourceId: task.simplyId,
      });
    }
    const note = services.events.notification(
      'backgroundTaskProgress',
      taskTopicId(task.teamSimplyId, task.simplyId),
      eventOf({ ...row, taskType: row.taskType, progress: row.progress as Record<string, unknown> }),
    );
    await tx.$executeRawUnsafe('SELECT pg_notify($1, $2)', note.channel, note.payload);
    return true;
  });
}

function bodyOf(status: FinalStatus, errorCount: number): string {
  if (status === 'COMPLETED') return 'Open the task to see its result.';
  const errors = `${errorCount} error${errorCount === 1 ? '' : 's'}`;
  return status === 'FAILED' ? `Open the task to see what went wrong (${errors}).` : `Some items could not be processed (${errors}).`;
}
