// GraphQL face of a widget's visitor (docs/api/conversations.md "The visitor's side"): the widget's
// page opens a session without a credential (rate-limited per address like every anonymous call),
// then uses the visitor token for these operations only; the widgetVisitor tier refuses every
// other credential, and every other tier refuses the visitor's token.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { subscribeVisitorEvents, type VisitorEvent } from './widget-visitor-subscription.ts';
import { openWidgetVisitorSession } from './widget-tokens.service.ts';
import { listVisitorConversations, listVisitorMessages, postVisitorMessage, startVisitorConversation, visitorSession, type VisitorConversation, type VisitorMessage } from './widget-visitor.service.ts';
import { PublicWidgetRef, TokenInput, WidgetVisitorConversationRef, WidgetVisitorMessageRef, WidgetVisitorRef, WidgetVisitorTokenRef } from './widgets.schema.ts';

const VISITOR = tier.widgetVisitor;

const SessionRef = builder.objectRef<Awaited<ReturnType<typeof visitorSession>>>('WidgetVisitorSession').implement({
  description: 'The visitor behind the token, and their widget.',
  fields: (t) => ({
    visitor: t.field({ type: WidgetVisitorRef, resolve: (s) => s.visitor }),
    widget: t.field({ type: PublicWidgetRef, resolve: (s) => s.widget }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.expiresAt }),
  }),
});

const StartedRef = builder.objectRef<{ conversation: VisitorConversation; message: VisitorMessage }>('WidgetConversationStarted').implement({
  fields: (t) => ({
    conversation: t.field({ type: WidgetVisitorConversationRef, resolve: (s) => s.conversation }),
    message: t.field({ type: WidgetVisitorMessageRef, resolve: (s) => s.message }),
  }),
});

const VisitorEventRef = builder.objectRef<VisitorEvent>('WidgetVisitorEvent').implement({
  description: 'A new message the visitor may see, or a status change of their conversation.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'MESSAGE_CREATED or STATUS_CHANGED' }),
    conversationSimplyId: t.exposeString('conversationSimplyId'),
    message: t.field({ type: WidgetVisitorMessageRef, nullable: true, resolve: (e) => e.message }),
    status: t.exposeString('status', { nullable: true }),
  }),
});

const StartInput = builder.inputType('StartWidgetConversationInput', {
  fields: (t) => ({ content: t.string({ required: true }), visitorName: t.string(), visitorEmail: t.string() }),
});
const MessageInput = builder.inputType('WidgetVisitorMessageInput', { fields: (t) => ({ content: t.string({ required: true }) }) });

builder.queryFields((t) => ({
  widgetVisitorSession: t.field({ type: SessionRef, authScopes: VISITOR, resolve: (_r, _a, ctx) => visitorSession(ctx) }),
  widgetVisitorConversations: t.field({
    type: [WidgetVisitorConversationRef],
    description: 'The visitor’s own conversations of the widget, most recent first.',
    authScopes: VISITOR,
    resolve: (_r, _a, ctx) => listVisitorConversations(ctx),
  }),
  widgetVisitorMessages: t.field({
    type: [WidgetVisitorMessageRef],
    description: 'The newest messages (limit 1-100, default 50) of one of the visitor’s conversations, oldest first; internal notes never.',
    authScopes: VISITOR,
    args: { conversationSimplyId: t.arg.string({ required: true }), limit: t.arg.int() },
    resolve: (_r, args, ctx) => listVisitorMessages(ctx, args.conversationSimplyId, args.limit),
  }),
}));

builder.mutationFields((t) => ({
  openWidgetVisitorSession: t.field({
    type: WidgetVisitorTokenRef,
    description: 'The widget’s page opens a visitor session without a credential: a signed identity, a resume, or (OPTIONAL widgets) a new anonymous visitor.',
    authScopes: tier.publicLink,
    args: { widgetSimplyId: t.arg.string({ required: true }), input: t.arg({ type: TokenInput }) },
    resolve: (_r, args, ctx) => openWidgetVisitorSession(ctx, args.widgetSimplyId, args.input ? givenFields(args.input) : {}),
  }),
  startWidgetConversation: t.field({
    type: StartedRef,
    authScopes: VISITOR,
    args: { input: t.arg({ type: StartInput, required: true }) },
    resolve: (_r, args, ctx) => startVisitorConversation(ctx, givenFields(args.input)),
  }),
  postWidgetMessage: t.field({
    type: WidgetVisitorMessageRef,
    authScopes: VISITOR,
    args: { conversationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: MessageInput, required: true }) },
    resolve: (_r, args, ctx) => postVisitorMessage(ctx, args.conversationSimplyId, givenFields(args.input)),
  }),
}));

builder.subscriptionFields((t) => ({
  widgetVisitorEvents: t.field({
    type: VisitorEventRef,
    description: 'One of the visitor’s conversations, live: messages they may see (never internal notes) and status changes.',
    authScopes: VISITOR,
    args: { conversationSimplyId: t.arg.string({ required: true }) },
    subscribe: (_r, args, ctx) => subscribeVisitorEvents(ctx, args.conversationSimplyId),
    resolve: (event) => event as VisitorEvent,
  }),
}));
