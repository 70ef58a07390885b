// GraphQL face of the conversation table and of the conversation types the inbox shares
// (docs/api/conversations.md). REST: rest-adapter/routes/conversations.ts. The table's fields are
// for credentials with DATA_CONVERSATIONS_VIEW (VIEW reads, EDIT writes) and, for scoped tokens,
// conversations:read / conversations:write; the inbox's are in inbox.schema.ts.
import { tier } from '../../app/auth/tiers.ts';
import { builder, type BuilderTypes } from '../../app/builder.ts';
import { pageArgs } from '../../app/graphql/args.ts';
import { givenFields, suppliedFields } from '../../app/graphql/input-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { ALL } from './conversation-access.ts';
import { widgetOriginOf } from './conversation-origin.ts';
import { conversationEventMessage, subscribeConversationEvents, type ConversationEventMessage } from './conversation-subscription.ts';
import { CONVERSATION_EVENT_TYPES, type ConversationEvent } from './conversations.events.ts';
import { AUTHOR_TYPES, CONTENT_TYPES, CONVERSATION_CHANNELS, CONVERSATION_LIMITS, DELIVERY_STATUSES, MESSAGE_CHANNELS, PRIORITIES, STATUSES } from './conversations.input.ts';
import { createConversation, getConversation, listConversations, recordConversations, updateConversation, type ConversationRow, type InboxRow } from './conversations.service.ts';
import { listMessages, postMessage, type MessageRow } from './messages.service.ts';

const TABLE_READ = tier.standardScopedFeature('conversations:read', 'DATA_CONVERSATIONS_VIEW', 'VIEW');
const TABLE_WRITE = tier.standardScopedFeature('conversations:write', 'DATA_CONVERSATIONS_VIEW', 'EDIT');

export const ConversationStatusEnum = builder.enumType('ConversationStatus', { values: STATUSES });
export const ConversationPriorityEnum = builder.enumType('ConversationPriority', { values: PRIORITIES });
export const ConversationChannelEnum = builder.enumType('ConversationChannel', {
  description: 'Where a conversation started',
  values: CONVERSATION_CHANNELS,
});
export const MessageChannelEnum = builder.enumType('ConversationMessageChannel', {
  description: "A message's channel; INTERNAL_NOTE is the team's own and never delivered",
  values: MESSAGE_CHANNELS,
});
const AuthorTypeEnum = builder.enumType('ConversationAuthorType', { values: AUTHOR_TYPES });
const ContentTypeEnum = builder.enumType('ConversationContentType', { description: 'TEXT as written; HTML sanitized before it is stored', values: CONTENT_TYPES });
const DeliveryStatusEnum = builder.enumType('ConversationDeliveryStatus', {
  description: "An outbound message's delivery: SENT (in the conversation's chat), QUEUED (waiting for its channel's sender: EMAIL), DELIVERED, FAILED",
  values: DELIVERY_STATUSES,
});
const EventTypeEnum = builder.enumType('ConversationEventType', { values: CONVERSATION_EVENT_TYPES });

/** The fields of a conversation, shared by the table's type and the inbox's (which adds the caller's read state). */
function conversationFields<T extends ConversationRow>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, T>) {
  return {
    id: t.string({ resolve: (c) => c.simplyId }),
    conversationSimplyId: t.string({ resolve: (c) => c.simplyId }),
    subject: t.string({ nullable: true, resolve: (c) => c.subject }),
    channel: t.field({ type: ConversationChannelEnum, description: 'the origin channel', resolve: (c) => c.channel as never }),
    status: t.field({ type: ConversationStatusEnum, resolve: (c) => c.status as never }),
    priority: t.field({ type: ConversationPriorityEnum, resolve: (c) => c.priority as never }),
    assignedUserId: t.string({ nullable: true, description: "the assignee's user simplyId, or null when unassigned", resolve: (c) => c.assignedUserSimplyId }),
    assignedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.assignedAt }),
    aiHandling: t.boolean({ description: 'true while the AI assistant answers', resolve: (c) => c.aiHandling }),
    resolvedAt: t.field({ type: 'DateTime', nullable: true, description: 'when it last became RESOLVED; cleared when reopened', resolve: (c) => c.resolvedAt }),
    visitorName: t.string({ nullable: true, resolve: (c) => c.visitorName }),
    visitorEmail: t.string({ nullable: true, resolve: (c) => c.visitorEmail }),
    visitorPhone: t.string({ nullable: true, description: 'E.164', resolve: (c) => c.visitorPhone }),
    dataRecordSimplyId: t.string({ nullable: true, description: 'the constituent record the conversation is tied to', resolve: (c) => c.dataRecordSimplyId }),
    recordLinkSource: t.string({ nullable: true, description: 'GIVEN (named on create), EMAIL or PHONE (matched against the team’s person collections)', resolve: (c) => c.recordLinkSource }),
    lastMessageAt: t.field({ type: 'DateTime', description: 'the latest message (the creation time before any): lists are ordered by it', resolve: (c) => c.lastMessageAt }),
    lastMessagePreview: t.string({ nullable: true, description: `the latest message's text, at most ${CONVERSATION_LIMITS.preview} characters`, resolve: (c) => c.lastMessagePreview }),
    lastMessageAuthorType: t.field({ type: AuthorTypeEnum, nullable: true, resolve: (c) => c.lastMessageAuthorType as never }),
    lastEndUserMessageAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.lastEndUserMessageAt }),
    firstResponseAt: t.field({ type: 'DateTime', nullable: true, description: "the first agent (or AI) reply to the visitor", resolve: (c) => c.firstResponseAt }),
    messageCount: t.int({ description: 'messages of the thread (merged conversations included)', resolve: (c) => c.messageCount }),
    snoozedUntil: t.field({ type: 'DateTime', nullable: true, resolve: (c) => (c.isSnoozed ? c.snoozedUntil : null) }),
    isSnoozed: t.boolean({ resolve: (c) => c.isSnoozed }),
    mergedIntoConversationSimplyId: t.string({ nullable: true, description: 'the conversation it was merged into (its messages read there)', resolve: (c) => c.mergedIntoSimplyId }),
    mergedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.mergedAt }),
    widgetSimplyId: t.string({
      nullable: true,
      description: 'the chat widget whose visitor the conversation is with (started there, or a widget conversation was merged into it); null otherwise',
      resolve: async (c, _args, ctx) => (await widgetOriginOf(ctx, c))?.widgetSimplyId ?? null,
    }),
    isSimulated: t.boolean({
      description: 'a chat widget preview (POST …/widgets/{id}/simulate): no real visitor, left out of analytics',
      resolve: async (c, _args, ctx) => (await widgetOriginOf(ctx, c))?.isSimulated ?? false,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt }),
  };
}

export const ConversationRef = builder.objectRef<ConversationRow>('Conversation').implement({
  description: 'A threaded two-way conversation with a visitor or constituent.',
  fields: (t) => conversationFields(t),
});

export const InboxConversationRef = builder.objectRef<InboxRow>('InboxConversation').implement({
  description: 'A conversation as the inbox shows it to the caller: with their read state and following (null for credentials that act for nobody).',
  fields: (t) => ({
    ...conversationFields(t),
    unread: t.boolean({ nullable: true, description: 'the thread has activity after the caller’s read position', resolve: (c) => c.unread }),
    following: t.boolean({ nullable: true, resolve: (c) => c.following }),
  }),
});

export const ConversationMessageRef = builder.objectRef<MessageRow>('ConversationMessage').implement({
  description: 'One message of a conversation.',
  fields: (t) => ({
    id: t.string({ resolve: (m) => m.simplyId }),
    messageSimplyId: t.string({ resolve: (m) => m.simplyId }),
    conversationSimplyId: t.string({ description: 'the conversation it was posted in (a merged one reads in the conversation it was merged into)', resolve: (m) => m.conversationSimplyId }),
    channel: t.field({ type: MessageChannelEnum, resolve: (m) => m.channel as never }),
    isInternal: t.boolean({ description: 'an INTERNAL_NOTE: the team’s own, never delivered', resolve: (m) => m.channel === 'INTERNAL_NOTE' }),
    authorType: t.field({ type: AuthorTypeEnum, resolve: (m) => m.authorType as never }),
    authorUserId: t.string({ nullable: true, description: 'the team member who wrote it (user simplyId)', resolve: (m) => m.authorUserSimplyId }),
    content: t.string({ resolve: (m) => m.content }),
    contentType: t.field({ type: ContentTypeEnum, resolve: (m) => m.contentType as never }),
    deliveryStatus: t.field({ type: DeliveryStatusEnum, nullable: true, description: 'outbound messages only', resolve: (m) => m.deliveryStatus as never }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
  }),
});

export const ConversationPageRef = pageType('ConversationPage', ConversationRef);
export const InboxConversationPageRef = pageType('InboxConversationPage', InboxConversationRef);
const MessagePageRef = pageType('ConversationMessagePage', ConversationMessageRef);

const ConversationEventRef = builder.objectRef<ConversationEventMessage>('ConversationEvent').implement({
  description: 'A change of a conversation, with the conversation (and the new message) as they are now.',
  fields: (t) => ({
    type: t.field({ type: EventTypeEnum, resolve: (e) => e.type as never }),
    conversationSimplyId: t.string({ resolve: (e) => e.conversationSimplyId }),
    messageSimplyId: t.string({ nullable: true, description: 'MESSAGE_CREATED: the new message', resolve: (e) => e.messageSimplyId }),
    occurredAt: t.field({ type: 'DateTime', resolve: (e) => e.occurredAt }),
    actorKind: t.string({ description: 'USER, API_KEY, SESSION_TOKEN, OAUTH or SYSTEM', resolve: (e) => e.actor.kind }),
    actorId: t.string({ nullable: true, description: 'the user simplyId, or the credential id', resolve: (e) => e.actor.id }),
    conversation: t.field({ type: ConversationRef, nullable: true, resolve: (e) => e.conversation }),
    message: t.field({ type: ConversationMessageRef, nullable: true, resolve: (e) => e.message }),
  }),
});

const CreateInput = builder.inputType('CreateConversationInput', {
  fields: (t) => ({
    subject: t.string({ description: `at most ${CONVERSATION_LIMITS.subject} characters` }),
    channel: t.string({ description: `${CONVERSATION_CHANNELS.join(', ')}; default CHAT` }),
    priority: t.string({ description: `${PRIORITIES.join(', ')}; default NORMAL` }),
    visitorName: t.string(),
    visitorEmail: t.string(),
    visitorPhone: t.string({ description: 'E.164, e.g. +14155552671' }),
    dataRecordSimplyId: t.string({ description: 'tie it to this record (read access needed); otherwise the visitor’s email or phone is matched' }),
  }),
});

const UpdateInput = builder.inputType('UpdateConversationInput', {
  fields: (t) => ({
    status: t.string({ description: `${STATUSES.join(', ')}; any move; RESOLVED stamps resolvedAt, reopening clears it` }),
    priority: t.string({ description: PRIORITIES.join(', ') }),
    subject: t.string({ description: 'null clears it' }),
    assignedUserId: t.string({ description: 'a user simplyId (an active member who can work conversations), or null to unassign' }),
  }),
});

export const PostMessageInput = builder.inputType('PostConversationMessageInput', {
  fields: (t) => ({
    content: t.string({ required: true }),
    channel: t.string({ description: `${MESSAGE_CHANNELS.join(', ')}; default CHAT` }),
    contentType: t.string({ description: 'TEXT (default) or HTML' }),
    authorType: t.string({ description: 'AGENT (default), END_USER (what the visitor wrote, relayed by an integration) or SYSTEM' }),
  }),
});

builder.queryFields((t) => ({
  conversations: t.field({
    type: ConversationPageRef,
    description: 'The team’s conversations, most recent message first (merged ones read in the conversation they went into).',
    authScopes: TABLE_READ,
    args: { ...pageArgs(t.arg), status: t.arg.string(), channel: t.arg.string(), assignedUserId: t.arg.string({ description: 'a user simplyId, or "null" for unassigned ones' }) },
    resolve: (_root, args, ctx) => listConversations(ctx, args),
  }),
  conversation: t.field({
    type: ConversationRef,
    authScopes: TABLE_READ,
    args: { conversationSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getConversation(ctx, args.conversationSimplyId),
  }),
  conversationMessages: t.field({
    type: MessagePageRef,
    description: 'The thread, oldest first (limit 1-100, default 50).',
    authScopes: TABLE_READ,
    args: { conversationSimplyId: t.arg.string({ required: true }), ...pageArgs(t.arg) },
    resolve: (_root, { conversationSimplyId, ...paging }, ctx) => listMessages(ctx, conversationSimplyId, paging),
  }),
  dataRecordConversations: t.field({
    type: ConversationPageRef,
    description: 'The conversations tied to a record the caller may read, most recent message first.',
    authScopes: TABLE_READ,
    args: { dataRecordSimplyId: t.arg.string({ required: true }), ...pageArgs(t.arg) },
    resolve: (_root, { dataRecordSimplyId, ...paging }, ctx) => recordConversations(ctx, dataRecordSimplyId, paging),
  }),
}));

builder.mutationFields((t) => ({
  createConversation: t.field({
    type: ConversationRef,
    description: 'Start a conversation (status OPEN, unassigned).',
    authScopes: TABLE_WRITE,
    args: { input: t.arg({ type: CreateInput, required: true }) },
    resolve: (_root, args, ctx) => createConversation(ctx, givenFields(args.input)),
  }),
  updateConversation: t.field({
    type: ConversationRef,
    authScopes: TABLE_WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdateInput, required: true }) },
    resolve: (_root, args, ctx) => updateConversation(ctx, args.conversationSimplyId, suppliedFields(args.input)),
  }),
  createConversationMessage: t.field({
    type: ConversationMessageRef,
    description: 'Post a message (an INTERNAL_NOTE is never delivered).',
    authScopes: TABLE_WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: PostMessageInput, required: true }) },
    resolve: (_root, args, ctx) => postMessage(ctx, args.conversationSimplyId, givenFields(args.input), ALL),
  }),
}));

builder.subscriptionFields((t) => ({
  conversationEvents: t.field({
    type: ConversationEventRef,
    description:
      'Conversation activity from every instance: of one conversation, or (without conversationSimplyId) of the team within the caller’s reach ' +
      '(DATA_CONVERSATIONS_VIEW or DATA_CONVERSATION_INBOX_VIEW_ALL: all; DATA_CONVERSATION_INBOX_VIEW: the caller’s own and the unassigned ones).',
    authScopes: tier.standardScoped('conversations:read'),
    args: { conversationSimplyId: t.arg.string() },
    subscribe: (_root, args, ctx) => subscribeConversationEvents(ctx, args.conversationSimplyId),
    resolve: (event, _args, ctx) => conversationEventMessage(ctx, event as ConversationEvent),
  }),
}));
