// The conversations area's queues: the notifications of conversation activity
// (conversation-notifications.ts), and the end of snoozes: one wake-up job per snooze at its time,
// and a minute's sweep that ends any snooze past due whose job did not (a job lost with its
// worker is retried by pg-boss; the sweep is the backstop). Waking is a conditional update, so the
// job of a snooze that was moved or ended finds nothing to do.
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { inTransaction } from '../../app/transaction.ts';
import { notificationJobs } from './conversation-notifications.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { wakeDue } from './conversations.sql.ts';

export const WAKE_CONVERSATION = 'conversations.wake';
export const WAKE_DUE_CONVERSATIONS = 'conversations.wake-due';

export interface WakeJob {
  teamId: string;
  conversationId: string;
}

/** Ends the due snoozes (of one conversation, or any) and tells their subscribers, in one transaction per batch. */
async function wake(services: Services, only: { teamId: bigint; id: bigint } | null): Promise<number> {
  return inTransaction(services.pool, async (db) => {
    const woken = await wakeDue(db, only);
    for (const row of woken) {
      await publishConversationEvent(services, db, {
        teamSimplyId: row.teamSimplyId,
        type: 'CONVERSATION_WOKEN',
        conversationSimplyId: row.simplyId,
        actor: { kind: 'SYSTEM', id: null },
        assignees: [row.assignedUserSimplyId],
      });
    }
    return woken.length;
  });
}

export function conversationJobs(services: Services): JobDefinition<never>[] {
  return [
    ...notificationJobs(services),
    {
      name: WAKE_CONVERSATION,
      retryLimit: 5,
      batchSize: 20,
      handler: async (jobs: { data: WakeJob }[]) => {
        for (const job of jobs) await wake(services, { teamId: BigInt(job.data.teamId), id: BigInt(job.data.conversationId) });
      },
    },
    {
      name: WAKE_DUE_CONVERSATIONS,
      schedule: '* * * * *',
      handler: async () => {
        // batches of 500 until none is due
        while ((await wake(services, null)) === 500);
      },
    },
  ] as JobDefinition<never>[];
}
