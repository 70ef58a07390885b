// What the AI's answer to a visitor message writes, in one transaction under the conversation's
// row lock, together with the move of its ConversationAiReply row out of PENDING (so a retried job
// finds it settled and writes nothing twice):
//
//   a reply     an AI message to the visitor on their channel, delivered like an agent's (chat:
//               SENT; email: mailed), in the constituent's communication history when the
//               conversation has a record
//   a hand-back aiHandling false, a SYSTEM internal note saying why, the AI's run of replies
//               starts over, and the conversation goes back to people: unassigned, it re-enters
//               routing (routing-hooks.ts); assigned, its assignee is told
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { recordDelivery } from '../communications/index.ts';
import { countAiReply, resetAiStreak } from './ai-reply-queue.ts';
import { queueNotifications } from './conversation-notifications.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { conversationMessageId } from './conversations.ids.ts';
import { updateConversation, type ConversationRow } from './conversations.sql.ts';
import { linkOutboundEmail, queueConversationEmail } from './email-outbound.ts';
import { previewOf } from './message-content.ts';
import { insertMessage, type MessageRow } from './messages.sql.ts';
import type { OutboundPlan } from './outbound-channels.ts';
import { afterConversationChanged, afterMessagePosted } from './routing-hooks.ts';
import { big } from './sql-helpers.ts';

/** the credential id the AI's messages and notes are stored with */
export const AI_CREDENTIAL = 'conversation-ai';
const SYSTEM_ACTOR = { kind: 'SYSTEM', id: null };

export type AiReplyState = 'PENDING' | 'REPLIED' | 'HANDED_BACK' | 'SUPERSEDED' | 'SKIPPED';

export interface AiReplyRow {
  id: bigint;
  teamId: bigint;
  conversationId: bigint;
  messageId: bigint;
  state: AiReplyState;
  createdAt: Date;
}

function rowOf(r: Record<string, unknown>): AiReplyRow {
  return { id: big(r.id), teamId: big(r.teamId), conversationId: big(r.conversationId), messageId: big(r.messageId), state: r.state as AiReplyState, createdAt: r.createdAt as Date };
}

export async function findAiReply(db: pg.Pool | pg.PoolClient, teamId: bigint, id: bigint, lock = false): Promise<AiReplyRow | null> {
  const { rows } = await db.query(
    `SELECT id, "teamId", "conversationId", "messageId", state, "createdAt" FROM "ConversationAiReply" WHERE "teamId" = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [teamId, id],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}

/** Whether a later visitor message of the conversation waits for the AI (then it answers that one, seeing this one too). */
export async function laterPending(db: pg.Pool | pg.PoolClient, row: AiReplyRow): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM "ConversationAiReply" WHERE "teamId" = $1 AND "conversationId" = $2 AND state = 'PENDING' AND "messageId" > $3 LIMIT 1`,
    [row.teamId, row.conversationId, row.messageId],
  );
  return rows.length > 0;
}

export async function settleRow(db: pg.PoolClient, row: AiReplyRow, state: Exclude<AiReplyState, 'PENDING'>, facts: { reason?: string | null; confidence?: number | null; replyMessageId?: bigint | null } = {}): Promise<void> {
  await db.query(
    `UPDATE "ConversationAiReply" SET state = $3, reason = $4, confidence = $5, "replyMessageId" = $6, "decidedAt" = now() WHERE "teamId" = $1 AND id = $2`,
    [row.teamId, row.id, state, facts.reason ?? null, facts.confidence ?? null, facts.replyMessageId ?? null],
  );
}

/** The AI's message to the visitor on the planned channel (the caller holds the conversation's lock). */
export async function postAiReply(services: Services, db: pg.PoolClient, conversation: ConversationRow, teamSimplyId: string, text: string, plan: OutboundPlan, channel: string): Promise<MessageRow> {
  const simplyId = conversationMessageId.create();
  const email = plan.historyChannel === 'EMAIL' ? await queueConversationEmail(services, db, conversation, { simplyId, content: text, contentType: 'TEXT' }) : null;
  const deliverySimplyId =
    conversation.dataRecordId !== null
      ? await recordDelivery(db, {
          teamId: conversation.teamId,
          dataRecordId: conversation.dataRecordId,
          sourceType: 'CONVERSATION',
          sourceSimplyId: conversation.simplyId,
          channelId: plan.historyChannel,
          state: plan.historyState,
          mailMessageId: email?.mailId ?? null,
          destination: plan.destination,
          subject: conversation.subject,
          text,
          html: null,
        })
      : null;
  const message = await insertMessage(
    db,
    {
      simplyId,
      teamId: conversation.teamId,
      conversationId: conversation.id,
      channel,
      authorType: 'AI',
      authorUserId: null,
      authorCredentialKind: 'SYSTEM',
      authorCredentialId: AI_CREDENTIAL,
      content: text,
      contentType: 'TEXT',
      deliveryStatus: plan.deliveryStatus,
      deliverySimplyId,
      mentionedUserIds: [],
    },
    previewOf(text, 'TEXT'),
  );
  if (email) await linkOutboundEmail(db, email, message);
  await countAiReply(db, conversation.teamId, conversation.id);
  await afterMessagePosted(services, db, conversation, false);
  await publishConversationEvent(services, db, {
    teamSimplyId,
    type: 'MESSAGE_CREATED',
    conversationSimplyId: conversation.simplyId,
    messageSimplyId: message.simplyId,
    actor: SYSTEM_ACTOR,
    assignees: [conversation.assignedUserSimplyId],
  });
  return message;
}

/** Hands the conversation back to people with a note saying why (the caller holds the conversation's lock). */
export async function handBackToPeople(services: Services, db: pg.PoolClient, conversation: ConversationRow, teamSimplyId: string, why: string): Promise<MessageRow> {
  const text = `The AI assistant handed this conversation back to the team: ${why}`;
  const note = await insertMessage(
    db,
    {
      simplyId: conversationMessageId.create(),
      teamId: conversation.teamId,
      conversationId: conversation.id,
      channel: 'INTERNAL_NOTE',
      authorType: 'SYSTEM',
      authorUserId: null,
      authorCredentialKind: 'SYSTEM',
      authorCredentialId: AI_CREDENTIAL,
      content: text,
      contentType: 'TEXT',
      deliveryStatus: null,
      deliverySimplyId: null,
      mentionedUserIds: [],
    },
    previewOf(text, 'TEXT'),
  );
  await resetAiStreak(db, conversation.teamId, conversation.id);
  const after = await updateConversation(db, conversation.teamId, conversation.id, { aiHandling: false });
  // unassigned and open: it waits for routing again (its rules decided anew)
  await afterConversationChanged(services, db, conversation, after);
  await afterMessagePosted(services, db, after, false);
  const assignees = [conversation.assignedUserSimplyId];
  await publishConversationEvent(services, db, { teamSimplyId, type: 'MESSAGE_CREATED', conversationSimplyId: after.simplyId, messageSimplyId: note.simplyId, actor: SYSTEM_ACTOR, assignees });
  await publishConversationEvent(services, db, { teamSimplyId, type: 'CONVERSATION_UPDATED', conversationSimplyId: after.simplyId, actor: SYSTEM_ACTOR, assignees });
  if (after.assignedUserSimplyId !== null) {
    await queueNotifications(services, db, {
      teamId: String(after.teamId),
      conversationId: String(after.id),
      kind: 'ASSIGNMENT',
      key: `${after.simplyId}:ai-hand-back:${note.simplyId}`,
      messageId: null,
      actorUserId: null,
      recipients: [after.assignedUserSimplyId],
    });
  }
  return note;
}
