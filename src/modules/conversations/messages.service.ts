// A conversation's messages (docs/api/conversations.md "Messages"): the thread oldest first, and
// posting. A post is one transaction under the conversation's row lock: the message, the
// conversation's activity, the poster's read position, the communication history row of a message
// to a constituent, the realtime event and the notifications' job commit together or not at all.
//
// Who writes: AGENT (default) and SYSTEM messages go to the visitor on their channel
// (outbound-channels.ts) unless they are an INTERNAL_NOTE; END_USER messages are what the visitor
// wrote, relayed by an integration: they reopen a RESOLVED or CLOSED conversation, end a snooze and
// tell the assignee and followers. An agent's INTERNAL_NOTE may mention members (@usr-…).
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { parsePaging, pagination, type Page } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { inTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { recordDelivery } from '../communications/index.ts';
import { actorOf, ALL, canSee, inboxVisibility, personOf, type Visibility } from './conversation-access.ts';
import { queueNotifications } from './conversation-notifications.ts';
import { ConversationMergedError } from './conversations.errors.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { conversationId, conversationMessageId } from './conversations.ids.ts';
import { CONVERSATION_LIMITS, pageInput, postMessageInput } from './conversations.input.ts';
import { findConversation, updateConversation, type ConversationChanges } from './conversations.sql.ts';
import { insertMessage, messagePage, upsertReadMarker, type MessageRow } from './messages.sql.ts';
import { activeMembers } from './people.sql.ts';
import { visibleConversation } from './conversations.service.ts';
import { htmlText, mentionedSimplyIds, previewOf, storableContent } from './message-content.ts';
import { planOutbound } from './outbound-channels.ts';
import { afterMessagePosted } from './routing-hooks.ts';
import { linkOutboundEmail, queueConversationEmail } from './email-outbound.ts';
import { afterVisitorMessage } from './ai-hooks.ts';

export type { MessageRow };

/** GET …/messages: the thread (the conversation and those merged into it), oldest first; limit 1-100, default 50. */
export async function listMessages(ctx: RequestContext, simplyId: string, raw: unknown, visibility: Visibility = ALL): Promise<Page<MessageRow>> {
  const team = requireTeam(ctx);
  const input = parseInput(pageInput, raw, 'Invalid paging parameters');
  const paging = parsePaging(input, { defaultLimit: CONVERSATION_LIMITS.messagesDefaultLimit, maxLimit: CONVERSATION_LIMITS.messagesMaxLimit });
  const conversation = await visibleConversation(ctx, simplyId, visibility);
  const nodes = await messagePage(ctx.services.pool, team.id, conversation.id, paging);
  // the thread's total is kept on the conversation with every post, merge and unmerge
  return { nodes, pagination: pagination(conversation.messageCount, paging) };
}

/** POST …/messages (the table's, and the inbox's with the caller's inbox reach). */
export async function postMessage(ctx: RequestContext, simplyId: string, raw: unknown, visibility: Visibility): Promise<MessageRow> {
  const team = requireTeam(ctx);
  conversationId.assert(simplyId, 'conversationSimplyId');
  const input = parseInput(postMessageInput, raw, 'Invalid message');
  const channel = input.channel ?? 'CHAT';
  const contentType = input.contentType ?? 'TEXT';
  const authorType = input.authorType ?? 'AGENT';
  if (channel === 'INTERNAL_NOTE' && authorType === 'END_USER') {
    throw new ValidationError('An internal note is the team’s own', [{ field: 'authorType', message: 'an INTERNAL_NOTE is written by an AGENT or the SYSTEM, not the END_USER' }]);
  }
  const stored = storableContent(input.content, contentType);
  if ('field' in stored) throw new ValidationError('Invalid message', [stored]);
  const content = stored.content;
  const person = personOf(ctx);
  const actor = actorOf(ctx);
  const mentioned = channel === 'INTERNAL_NOTE' && authorType === 'AGENT' ? [...(await activeMembers(ctx.services.pool, team.id, mentionedSimplyIds(content))).entries()] : [];

  return inTransaction(ctx.services.pool, async (db) => {
    const conversation = await findConversation(db, team.id, simplyId, { lock: true });
    if (!conversation || !canSee(visibility, conversation.assignedUserId)) throw new NotFoundError('Conversation', simplyId);
    if (conversation.mergedIntoId !== null) throw new ConversationMergedError(conversation.simplyId, conversation.mergedIntoSimplyId);
    const outbound = authorType !== 'END_USER' && channel !== 'INTERNAL_NOTE' ? planOutbound(conversation, channel) : null;
    const messageSimplyId = conversationMessageId.create();
    // an EMAIL message is mailed: queued here, with the message, and retried until sent (email-outbound.ts)
    const email = outbound?.historyChannel === 'EMAIL' ? await queueConversationEmail(ctx.services, db, conversation, { simplyId: messageSimplyId, content, contentType }) : null;

    // what the constituent was sent is part of their history (the record's communications)
    const deliverySimplyId =
      outbound && conversation.dataRecordId !== null
        ? await recordDelivery(db, {
            teamId: team.id,
            dataRecordId: conversation.dataRecordId,
            sourceType: 'CONVERSATION',
            sourceSimplyId: conversation.simplyId,
            channelId: outbound.historyChannel,
            state: outbound.historyState,
            mailMessageId: email?.mailId ?? null,
            destination: outbound.destination,
            subject: conversation.subject,
            text: contentType === 'HTML' ? htmlText(content) : content,
            html: contentType === 'HTML' ? content : null,
          })
        : null;

    const message = await insertMessage(
      db,
      {
        simplyId: messageSimplyId,
        teamId: team.id,
        conversationId: conversation.id,
        channel,
        authorType,
        // the visitor's words are nobody's of the team, whoever relays them
        authorUserId: authorType === 'END_USER' ? null : person,
        authorCredentialKind: ctx.principal.kind,
        authorCredentialId: actor.id,
        content,
        contentType,
        deliveryStatus: outbound?.deliveryStatus ?? null,
        deliverySimplyId,
        mentionedUserIds: mentioned.map(([, m]) => m.userId),
      },
      previewOf(content, contentType),
    );
    if (email) await linkOutboundEmail(db, email, message);
    // the visitor's language, and the AI's reply while it handles the conversation (ai-hooks.ts)
    if (authorType === 'END_USER') await afterVisitorMessage(ctx.services, db, conversation, message);

    // the visitor writing again reopens a finished conversation and ends its snooze
    if (authorType === 'END_USER') {
      const changes: ConversationChanges = {};
      if (conversation.status === 'RESOLVED' || conversation.status === 'CLOSED') Object.assign(changes, { status: 'OPEN', resolvedAt: null });
      if (conversation.snoozedUntil !== null) changes.snoozedUntil = null;
      if (Object.keys(changes).length > 0) await updateConversation(db, team.id, conversation.id, changes);
    }
    // a reopened unassigned conversation waits for routing again; its SLA clocks may have moved (routing-hooks.ts)
    await afterMessagePosted(ctx.services, db, conversation, authorType === 'END_USER' && (conversation.status === 'RESOLVED' || conversation.status === 'CLOSED'));
    // whoever posts has read the thread up to their own message
    if (person !== null) await upsertReadMarker(db, team.id, conversation.id, person, message.id, message.createdAt);

    await publishConversationEvent(ctx.services, db, {
      teamSimplyId: team.simplyId,
      type: 'MESSAGE_CREATED',
      conversationSimplyId: conversation.simplyId,
      messageSimplyId: message.simplyId,
      actor,
      assignees: [conversation.assignedUserSimplyId],
    });
    const notification = { teamId: String(team.id), conversationId: String(conversation.id), key: message.simplyId, messageId: String(message.id), actorUserId: person === null ? null : String(person) };
    if (authorType === 'END_USER') await queueNotifications(ctx.services, db, { ...notification, kind: 'NEW_MESSAGE', recipients: null });
    if (mentioned.length > 0) await queueNotifications(ctx.services, db, { ...notification, kind: 'MENTION', recipients: mentioned.map(([userSimplyId]) => userSimplyId) });
    return message;
  });
}

/** POST …/inbox/{id}/messages: as the table's post, within the caller's inbox reach at edit level. */
export async function postInboxMessage(ctx: RequestContext, simplyId: string, raw: unknown): Promise<MessageRow> {
  return postMessage(ctx, simplyId, raw, inboxVisibility(ctx, 'EDIT'));
}
