// GraphQL face of the inbox and its lifecycle (docs/api/conversations.md "The inbox",
// "Lifecycle", "Merging"). REST: rest-adapter/routes/conversations.ts. Standard tier with
// conversations:read (queries) or conversations:write (mutations) for scoped tokens; the inbox
// features and their reach are checked by the services (conversation-access.ts).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { widgetOriginOf, type WidgetOrigin } from './conversation-origin.ts';
import { CONVERSATION_LIMITS, STATUSES } from './conversations.input.ts';
import type { MergeRow } from './merges.sql.ts';
import type { FollowerRow, PersonRow } from './people.sql.ts';
import { ConversationMessageRef, ConversationRef, ConversationStatusEnum, InboxConversationPageRef, InboxConversationRef, PostMessageInput } from './conversations.schema.ts';
import {
  inboxConversation,
  inboxConversations,
  inboxConversationsByRecord,
  inboxUnreadSummary,
  markConversationRead,
  relatedConversations,
  type InboxDetail,
  type ReadState,
  type Tally,
  type UnreadSummary,
} from './inbox.service.ts';
import { assignConversationToAi, setFollowing, snoozeConversation, takeOverConversation, unsnoozeConversation, type FollowState } from './lifecycle.service.ts';
import { mergeConversation, type MergeResult } from './merge.service.ts';
import { postInboxMessage } from './messages.service.ts';
import type { LinkedRecordSummary } from './record-link.ts';

const READ = tier.standardScoped('conversations:read');
const WRITE = tier.standardScoped('conversations:write');

const PersonRef = builder.objectRef<PersonRow | FollowerRow>('ConversationPerson').implement({
  description: 'A team member (an assignee or a follower).',
  fields: (t) => ({
    userSimplyId: t.string({ resolve: (p) => p.userSimplyId }),
    firstName: t.string({ resolve: (p) => p.firstName }),
    lastName: t.string({ resolve: (p) => p.lastName }),
    email: t.string({ resolve: (p) => p.email }),
  }),
});

const ReadStateRef = builder.objectRef<ReadState>('ConversationReadState').implement({
  description: "The caller's read position in a conversation: activity after it is unread.",
  fields: (t) => ({
    conversationSimplyId: t.string({ resolve: (r) => r.conversationSimplyId }),
    lastReadMessageSimplyId: t.string({ nullable: true, resolve: (r) => r.lastReadMessageSimplyId }),
    readThroughAt: t.field({ type: 'DateTime', nullable: true, description: 'null: never read', resolve: (r) => r.readThroughAt }),
    unreadCount: t.int({ description: 'messages of the thread after the read position', resolve: (r) => r.unreadCount }),
  }),
});

const LinkedRecordRef = builder.objectRef<LinkedRecordSummary>('ConversationLinkedRecord').implement({
  description: 'The record the conversation is tied to; its name and collection only when the caller may read it.',
  fields: (t) => ({
    dataRecordSimplyId: t.string({ resolve: (r) => r.dataRecordSimplyId }),
    linkSource: t.string({ nullable: true, description: 'GIVEN, EMAIL or PHONE', resolve: (r) => r.linkSource }),
    readable: t.boolean({ resolve: (r) => r.readable }),
    dataCollectionSimplyId: t.string({ nullable: true, resolve: (r) => r.dataCollectionSimplyId }),
    name: t.string({ nullable: true, resolve: (r) => r.name }),
    isArchived: t.boolean({ nullable: true, resolve: (r) => r.isArchived }),
  }),
});

const MergeRef = builder.objectRef<MergeRow>('ConversationMerge').implement({
  description: 'A merge of one conversation into another, and its undoing.',
  fields: (t) => ({
    mergeSimplyId: t.string({ resolve: (m) => m.simplyId }),
    sourceConversationSimplyId: t.string({ description: 'the conversation merged', resolve: (m) => m.sourceSimplyId }),
    targetConversationSimplyId: t.string({ description: 'the conversation it went into', resolve: (m) => m.targetSimplyId }),
    mergedAt: t.field({ type: 'DateTime', resolve: (m) => m.mergedAt }),
    mergedByKind: t.string({ resolve: (m) => m.mergedByKind }),
    mergedById: t.string({ nullable: true, resolve: (m) => m.mergedById }),
    unmergedAt: t.field({ type: 'DateTime', nullable: true, description: 'null while the merge stands', resolve: (m) => m.unmergedAt }),
    unmergedByKind: t.string({ nullable: true, resolve: (m) => m.unmergedByKind }),
    unmergedById: t.string({ nullable: true, resolve: (m) => m.unmergedById }),
  }),
});

const WidgetOriginRef = builder.objectRef<WidgetOrigin>('ConversationWidgetOrigin').implement({
  description: 'The chat widget and visitor a conversation is with.',
  fields: (t) => ({
    widgetSimplyId: t.string({ resolve: (w) => w.widgetSimplyId }),
    name: t.string({ description: 'the widget’s name', resolve: (w) => w.widgetName }),
    visitorSimplyId: t.string({ resolve: (w) => w.visitorSimplyId }),
    visitorIsVerified: t.boolean({ description: 'the team’s server signed who the visitor is (identity verification); false: anonymous, their name and email are what they typed', resolve: (w) => w.visitorIsVerified }),
    isSimulated: t.boolean({ description: 'an agent’s preview of the widget (POST …/widgets/{id}/simulate): no real visitor', resolve: (w) => w.isSimulated }),
  }),
});

const DetailRef = builder.objectRef<InboxDetail>('InboxConversationDetail').implement({
  description: 'One conversation of the inbox with its newest messages, the caller’s read state, followers, assignee, record and merge history.',
  fields: (t) => ({
    conversation: t.field({ type: InboxConversationRef, resolve: (d) => d.conversation }),
    messages: t.field({ type: [ConversationMessageRef], description: 'the newest messages of the thread, oldest first', resolve: (d) => d.messages }),
    hasOlderMessages: t.boolean({ description: 'older messages exist: ask again with beforeMessageSimplyId = the first one shown', resolve: (d) => d.hasOlderMessages }),
    readState: t.field({ type: ReadStateRef, nullable: true, description: 'null for credentials that act for nobody', resolve: (d) => d.readState }),
    followers: t.field({ type: [PersonRef], resolve: (d) => d.followers }),
    assignedUser: t.field({ type: PersonRef, nullable: true, resolve: (d) => d.assignedUser }),
    linkedRecord: t.field({ type: LinkedRecordRef, nullable: true, resolve: (d) => d.linkedRecord }),
    merges: t.field({ type: [MergeRef], description: 'every merge it took part in (as source or target), oldest first', resolve: (d) => d.merges }),
    widget: t.field({
      type: WidgetOriginRef,
      nullable: true,
      description: 'the chat widget and visitor the conversation is with; null when it did not come through a widget',
      resolve: (d, _args, ctx) => widgetOriginOf(ctx, d.conversation),
    }),
  }),
});

const TallyRef = builder.objectRef<Tally>('InboxTally').implement({
  fields: (t) => ({ total: t.int({ resolve: (x) => x.total }), unread: t.int({ resolve: (x) => x.unread }) }),
});
const StatusTallyRef = builder.objectRef<Tally & { status: string }>('InboxStatusTally').implement({
  fields: (t) => ({
    status: t.field({ type: ConversationStatusEnum, resolve: (x) => x.status as never }),
    total: t.int({ resolve: (x) => x.total }),
    unread: t.int({ resolve: (x) => x.unread }),
  }),
});
const SummaryRef = builder.objectRef<UnreadSummary>('InboxUnreadSummary').implement({
  description: 'The caller’s inbox in counts: awake conversations within their reach, and how many have unread activity.',
  fields: (t) => ({
    total: t.int({ resolve: (s) => s.total }),
    unread: t.int({ resolve: (s) => s.unread }),
    byStatus: t.field({ type: [StatusTallyRef], description: `one entry per status (${STATUSES.join(', ')})`, resolve: (s) => s.byStatus }),
    mine: t.field({ type: TallyRef, resolve: (s) => s.mine }),
    unassigned: t.field({ type: TallyRef, resolve: (s) => s.unassigned }),
    assignedToOthers: t.field({ type: TallyRef, description: 'zero for an inbox limited to the caller’s own and unassigned conversations', resolve: (s) => s.assignedToOthers }),
    snoozed: t.int({ description: 'snoozed conversations (in none of the other counts)', resolve: (s) => s.snoozed }),
  }),
});

const MergeResultRef = builder.objectRef<MergeResult>('ConversationMergeResult').implement({
  fields: (t) => ({
    merge: t.field({ type: MergeRef, resolve: (r) => r.merge }),
    sourceConversation: t.field({ type: ConversationRef, description: 'the conversation merged (or unmerged)', resolve: (r) => r.sourceConversation }),
    targetConversation: t.field({ type: ConversationRef, description: 'the conversation it went into (or came out of)', resolve: (r) => r.targetConversation }),
  }),
});

const FollowRef = builder.objectRef<FollowState>('ConversationFollowState').implement({
  fields: (t) => ({
    conversationSimplyId: t.string({ resolve: (f) => f.conversationSimplyId }),
    following: t.boolean({ resolve: (f) => f.following }),
  }),
});

const ReadInput = builder.inputType('InboxReadInput', {
  fields: (t) => ({ messageSimplyId: t.string({ description: 'read up to this message (back or forth); default the latest' }) }),
});
const SnoozeInput = builder.inputType('InboxSnoozeInput', {
  fields: (t) => ({ until: t.string({ required: true, description: `ISO 8601 with a time zone, in the future, at most ${CONVERSATION_LIMITS.snoozeMaxDays} days ahead` }) }),
});
const MergeInput = builder.inputType('InboxMergeInput', {
  description: 'Exactly one of into, source and unmerge',
  fields: (t) => ({
    into: t.string({ description: 'merge this conversation into that one' }),
    source: t.string({ description: 'merge that conversation into this one' }),
    unmerge: t.boolean({ description: 'true: undo the merge of this (merged) conversation' }),
  }),
});

builder.queryFields((t) => ({
  inboxConversations: t.field({
    type: InboxConversationPageRef,
    description: 'The inbox: conversations within the caller’s reach, most recent message first (sort lastMessageAt: oldest activity first).',
    authScopes: READ,
    args: {
      ...pageArgs(t.arg),
      status: t.arg.stringList({ description: `any of ${STATUSES.join(', ')}` }),
      channel: t.arg.stringList(),
      priority: t.arg.stringList(),
      assigned: t.arg.string({ description: 'me, unassigned or any (default)' }),
      assignedUserId: t.arg.string({ description: 'a user simplyId' }),
      snoozed: t.arg.string({ description: 'AWAKE (default), SNOOZED or ANY' }),
      unread: t.arg.boolean({ description: 'only those with (true) or without (false) unread activity for the caller' }),
      q: t.arg.string({ description: `subject, visitor name, email or phone contains it (at most ${CONVERSATION_LIMITS.query} characters)` }),
      sort: t.arg.string({ description: '-lastMessageAt (default) or lastMessageAt' }),
    },
    resolve: (_root, args, ctx) => inboxConversations(ctx, args),
  }),
  inboxConversation: t.field({
    type: DetailRef,
    authScopes: READ,
    args: {
      conversationSimplyId: t.arg.string({ required: true }),
      messageLimit: t.arg.int({ description: `the newest messages shown: 1-${CONVERSATION_LIMITS.messagesMaxLimit}, default ${CONVERSATION_LIMITS.recentMessagesDefault}` }),
      beforeMessageSimplyId: t.arg.string({ description: 'only messages older than this one (paging back)' }),
    },
    resolve: (_root, { conversationSimplyId, ...args }, ctx) => inboxConversation(ctx, conversationSimplyId, args),
  }),
  inboxUnreadSummary: t.field({
    type: SummaryRef,
    authScopes: READ,
    resolve: (_root, _args, ctx) => inboxUnreadSummary(ctx),
  }),
  inboxConversationsByRecord: t.field({
    type: InboxConversationPageRef,
    description: 'The conversations of a record the caller may read, within their inbox reach.',
    authScopes: READ,
    args: { dataRecordSimplyId: t.arg.string({ required: true }), ...pageArgs(t.arg) },
    resolve: (_root, { dataRecordSimplyId, ...paging }, ctx) => inboxConversationsByRecord(ctx, dataRecordSimplyId, paging),
  }),
  inboxRelatedConversations: t.field({
    type: InboxConversationPageRef,
    description: 'The other conversations of the same record, visitor email or phone, within the caller’s inbox reach.',
    authScopes: READ,
    args: { conversationSimplyId: t.arg.string({ required: true }), ...pageArgs(t.arg) },
    resolve: (_root, { conversationSimplyId, ...paging }, ctx) => relatedConversations(ctx, conversationSimplyId, paging),
  }),
}));

builder.mutationFields((t) => ({
  postInboxMessage: t.field({
    type: ConversationMessageRef,
    description: 'Post a message from the inbox (edit-level inbox permission, within the caller’s reach).',
    authScopes: WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: PostMessageInput, required: true }) },
    resolve: (_root, args, ctx) => postInboxMessage(ctx, args.conversationSimplyId, givenFields(args.input)),
  }),
  markInboxConversationRead: t.field({
    type: ReadStateRef,
    authScopes: WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: ReadInput }) },
    resolve: (_root, args, ctx) => markConversationRead(ctx, args.conversationSimplyId, args.input ? givenFields(args.input) : {}),
  }),
  takeOverInboxConversation: t.field({
    type: ConversationRef,
    description: 'The caller takes the conversation: assigned to them, the AI stops answering.',
    authScopes: WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => takeOverConversation(ctx, args.conversationSimplyId),
  }),
  assignInboxConversationToAi: t.field({
    type: ConversationRef,
    description: 'The AI assistant answers the conversation from now on (aiHandling true).',
    authScopes: WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => assignConversationToAi(ctx, args.conversationSimplyId),
  }),
  snoozeInboxConversation: t.field({
    type: ConversationRef,
    authScopes: WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: SnoozeInput, required: true }) },
    resolve: (_root, args, ctx) => snoozeConversation(ctx, args.conversationSimplyId, args.input),
  }),
  unsnoozeInboxConversation: t.field({
    type: ConversationRef,
    authScopes: WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => unsnoozeConversation(ctx, args.conversationSimplyId),
  }),
  mergeInboxConversation: t.field({
    type: MergeResultRef,
    description: 'Merge two conversations ({ into } or { source }), or undo a merge ({ unmerge: true }).',
    authScopes: WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: MergeInput, required: true }) },
    resolve: (_root, args, ctx) => mergeConversation(ctx, args.conversationSimplyId, givenFields(args.input)),
  }),
  followInboxConversation: t.field({
    type: FollowRef,
    authScopes: WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => setFollowing(ctx, args.conversationSimplyId, true),
  }),
  unfollowInboxConversation: t.field({
    type: FollowRef,
    authScopes: WRITE,
    args: { conversationSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => setFollowing(ctx, args.conversationSimplyId, false),
  }),
}));
