// Where the conversation lifecycle hands over to routing and SLAs, called inside the writing
// transaction of phase 1's services (so a conversation is queued exactly when its change commits):
//
//   created                 it waits for routing (unassigned, OPEN)
//   reopened unassigned     it waits for routing again (its rule decided anew)
//   an assignee's open one closes, is reassigned or unassigned: their capacity frees, routing runs
//   status, priority or a message changes: its SLA clocks are looked at again
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import type { ConversationRow } from './conversations.sql.ts';
import { OPEN_STATUSES } from './routing-people.sql.ts';
import { enqueueConversation, queueRouting } from './routing-queue.ts';
import { touchSla } from './sla-apply.ts';

const isOpen = (c: Pick<ConversationRow, 'status' | 'mergedIntoId'>) => c.mergedIntoId === null && (OPEN_STATUSES as readonly string[]).includes(c.status);

export async function afterConversationCreated(services: Services, db: pg.PoolClient, row: ConversationRow): Promise<void> {
  await enqueueConversation(services, db, row.teamId, row.id);
}

export async function afterConversationChanged(services: Services, db: pg.PoolClient, before: ConversationRow, after: ConversationRow): Promise<void> {
  const waitsNow = isOpen(after) && after.assignedUserId === null && !after.aiHandling;
  const waitedBefore = isOpen(before) && before.assignedUserId === null && !before.aiHandling;
  if (waitsNow && !waitedBefore) await enqueueConversation(services, db, after.teamId, after.id);
  else if (before.assignedUserId !== null && isOpen(before) && (!isOpen(after) || after.assignedUserId !== before.assignedUserId)) {
    await queueRouting(services, db, after.teamId);
  }
  if (before.status !== after.status || before.priority !== after.priority) await touchSla(services, db, after.teamId, after.id);
}

/** A message was posted (`reopened`: the visitor's message reopened a finished conversation). */
export async function afterMessagePosted(services: Services, db: pg.PoolClient, conversation: ConversationRow, reopened: boolean): Promise<void> {
  if (reopened && conversation.assignedUserId === null && !conversation.aiHandling) await enqueueConversation(services, db, conversation.teamId, conversation.id);
  await touchSla(services, db, conversation.teamId, conversation.id);
}
