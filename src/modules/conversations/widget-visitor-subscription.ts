// widgetVisitorEvents (docs/api/conversations.md "The visitor's side"): one of the visitor's own
// conversations, live. It listens on the conversation's key of the conversationEvents topic (the
// same events the team's apps hear) and passes on only what a visitor may see: new messages that
// are not internal notes, read as the visitor's view (no author ids, no delivery state, text only),
// and status changes. An internal note is dropped before anything of it is sent, so the visitor
// cannot even tell that one was written. The visitor token is checked again before each event.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { conversationKey, type ConversationEvent } from './conversations.events.ts';
import { findConversation } from './conversations.sql.ts';
import { findMessage } from './messages.sql.ts';
import { visitorConversation, visitorFacts, visitorMessage, type VisitorMessage } from './widget-visitor.service.ts';

export interface VisitorEvent {
  type: 'MESSAGE_CREATED' | 'STATUS_CHANGED';
  conversationSimplyId: string;
  message: VisitorMessage | null;
  status: string | null;
}

export async function subscribeVisitorEvents(ctx: RequestContext, conversationSimplyId: string): Promise<AsyncIterable<VisitorEvent>> {
  const facts = visitorFacts(ctx);
  const team = requireTeam(ctx);
  const conversation = await visitorConversation(ctx, conversationSimplyId);
  const stream = ctx.services.events.pubsub.subscribe('conversationEvents', conversationKey(team.simplyId, conversation.conversationSimplyId), {
    context: ctx,
    // the same visitor, still holding a valid token (the principal was refreshed before this is asked)
    accept: async (now) => now.principal.kind === 'WIDGET_VISITOR' && now.principal.widgetVisitor?.visitorId === facts.visitorId,
  });
  // listen now, not when the first event is asked for
  const iterator = stream[Symbol.asyncIterator]();
  return visitorEvents(ctx, conversation.conversationSimplyId, iterator);
}

async function* visitorEvents(ctx: RequestContext, conversationSimplyId: string, iterator: AsyncIterator<ConversationEvent>): AsyncGenerator<VisitorEvent> {
  const team = requireTeam(ctx);
  const { pool } = ctx.services;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const event = next.value;
      if (event.type === 'MESSAGE_CREATED' && event.messageSimplyId) {
        const message = await findMessage(pool, team.id, event.messageSimplyId);
        if (!message || message.channel === 'INTERNAL_NOTE') continue;
        yield { type: 'MESSAGE_CREATED', conversationSimplyId, message: visitorMessage(message), status: null };
      } else if (event.type === 'CONVERSATION_UPDATED') {
        const row = await findConversation(pool, team.id, conversationSimplyId);
        if (row) yield { type: 'STATUS_CHANGED', conversationSimplyId, message: null, status: row.status };
      }
    }
  } finally {
    await iterator.return?.(undefined);
  }
}
