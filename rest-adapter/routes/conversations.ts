// /v1/conversations, /v1/conversations/inbox… and /v1/data-records/{id}/conversations →
// src/modules/conversations/conversations.schema.ts and inbox.schema.ts (docs/api/conversations.md).
// The table routes need DATA_CONVERSATIONS_VIEW (VIEW reads, EDIT writes); the inbox routes
// DATA_CONVERSATION_INBOX_VIEW (own and unassigned) or DATA_CONVERSATION_INBOX_VIEW_ALL (team-wide);
// scoped tokens conversations:read for reads and conversations:write for writes.
// The area's table is this file's routes and its two parts in ./conversations/: the chat widgets'
// administration (widgets.ts) and routing and staffing (routing.ts).
import { z } from 'zod';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import {
  CONVERSATION,
  CONVERSATION_FOLLOW_STATE,
  CONVERSATION_MERGE_RESULT,
  CONVERSATION_MESSAGE,
  CONVERSATION_READ_STATE,
  INBOX_CONVERSATION,
  INBOX_CONVERSATION_DETAIL,
  INBOX_UNREAD_SUMMARY,
} from '../../src/modules/conversations/conversations.fragments.ts';
import {
  ASSIGNED_FILTERS,
  channelSchema,
  CONVERSATION_LIMITS,
  createConversationInput,
  mergeInput,
  postMessageInput,
  prioritySchema,
  readInput,
  snoozeInput,
  statusSchema,
  STATUSES,
  updateConversationInput,
} from '../../src/modules/conversations/conversations.input.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';
import { queryBool, queryInt, queryList } from '../schemas.ts';
import { conversationRoutingRoutes } from './conversations/routing.ts';
import { conversationWidgetRoutes } from './conversations/widgets.ts';
import { conversationAnalyticsRoutes } from './conversations/analytics.ts';
import { conversationAiRoutes } from './conversations/ai.ts';

const ONE = '/v1/conversations/{conversationSimplyId}';
const INBOX = '/v1/conversations/inbox';
const INBOX_ONE = `${INBOX}/{conversationSimplyId}`;
const TABLE = 'DATA_CONVERSATIONS_VIEW';
const INBOX_REACH = 'DATA_CONVERSATION_INBOX_VIEW (your own and unassigned conversations) or DATA_CONVERSATION_INBOX_VIEW_ALL (team-wide)';

/** a text parameter; empty counts as absent */
const queryText = () => z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
/** `a,b` → a list whose items must each be one of `item` */
const queryListOf = <T extends z.ZodType<unknown, string>>(item: T) => queryList().pipe(z.array(item as z.ZodType<z.output<T>, string>));

const SNOOZED = { true: 'SNOOZED', false: 'AWAKE', any: 'ANY' } as const;

const inboxQuery = z.strictObject({
  limit: queryInt().describe(`1-${CONVERSATION_LIMITS.maxLimit}, default ${CONVERSATION_LIMITS.defaultLimit}`),
  offset: queryInt().describe('0 or more, default 0'),
  status: queryListOf(statusSchema).describe(`comma-separated, any of ${STATUSES.join(', ')}`),
  channel: queryListOf(channelSchema).describe('comma-separated origin channels'),
  priority: queryListOf(prioritySchema).describe('comma-separated priorities'),
  assigned: z.enum(ASSIGNED_FILTERS, { message: `must be one of ${ASSIGNED_FILTERS.join(', ')}` }).optional().describe('me (a person only), unassigned or any (default)'),
  assignedUserId: queryText().describe('only those assigned to this user simplyId'),
  snoozed: z.enum(['true', 'false', 'any'], { message: 'must be true, false or any' }).optional().describe('false (default): awake ones; true: snoozed ones; any: both'),
  unread: queryBool().describe('true: with unread activity for you; false: without (a person only)'),
  q: queryText().describe(`subject, visitor name, email or phone contains it (at most ${CONVERSATION_LIMITS.query} characters)`),
  sort: z.enum(['-lastMessageAt', 'lastMessageAt'], { message: 'must be -lastMessageAt or lastMessageAt' }).optional().describe('-lastMessageAt (default): most recent message first; lastMessageAt: oldest activity first'),
});
type InboxQuery = z.output<typeof inboxQuery>;

const detailQuery = z.strictObject({
  messageLimit: queryInt().describe(`the newest messages shown: 1-${CONVERSATION_LIMITS.messagesMaxLimit}, default ${CONVERSATION_LIMITS.recentMessagesDefault}`),
  beforeMessageSimplyId: queryText().describe('only messages older than this one (paging back)'),
});
type DetailQuery = z.output<typeof detailQuery>;

/** A PUT on a conversation that takes no body: the mutation of the same name. */
function lifecycle(path: string, name: string, field: string, summary: string, description: string) {
  return route({
    method: 'PUT',
    path,
    summary,
    description,
    operation: operation`mutation ${name}($id: String!) { ${field}(conversationSimplyId: $id) { ${CONVERSATION} } }`,
    variables: ({ params }) => ({ id: params.conversationSimplyId }),
  });
}

const conversationTableAndInboxRoutes = defineRoutes([
  // ---- the conversation table (Document 2 §4.3) ----
  listPage({
    path: '/v1/conversations',
    summary: 'List conversations',
    description: `The team's conversations, most recent message first (${TABLE}; conversations:read): limit 1-100 (default 25), offset, status, channel, assignedUserId (a user simplyId, or null for unassigned ones). Merged conversations are left out: their messages read in the conversation they went into`,
    name: 'Conversations',
    select: CONVERSATION,
    filters: {
      status: { type: 'String', schema: statusSchema.optional() },
      channel: { type: 'String', schema: channelSchema.optional() },
      assignedUserId: { type: 'String', schema: queryText() },
    },
  }),
  createOne({
    path: '/v1/conversations',
    summary: 'Start a conversation',
    description: `Start a conversation, status OPEN and unassigned (${TABLE} at edit level; conversations:write): { subject?, channel? (default CHAT), priority? (default NORMAL), visitorName?, visitorEmail?, visitorPhone?, dataRecordSimplyId? }. Without dataRecordSimplyId the visitor's email (then phone) is matched against the team's person collections`,
    name: 'CreateConversation',
    inputType: 'CreateConversationInput',
    body: createConversationInput,
    example: { subject: 'Question about my membership', channel: 'CHAT', priority: 'NORMAL', visitorName: 'Ada Lovelace', visitorEmail: 'ada@example.org' },
    select: CONVERSATION,
  }),
  getOne({ path: ONE, summary: 'Get a conversation', description: `One conversation (${TABLE}; conversations:read)`, name: 'Conversation', select: CONVERSATION }),
  updateOne({
    method: 'PUT',
    path: ONE,
    summary: 'Change a conversation',
    description: `Change status (any move: RESOLVED stamps resolvedAt, OPEN, PENDING and ESCALATED clear it, CLOSED keeps it), priority, subject (null clears) or assignedUserId (a user simplyId, null unassigns) (${TABLE} at edit level; conversations:write). A merged conversation: 409 CONVERSATION_MERGED`,
    name: 'UpdateConversation',
    inputType: 'UpdateConversationInput',
    body: updateConversationInput,
    example: { status: 'PENDING', priority: 'HIGH', assignedUserId: 'usr-AB23-CD45-EF67' },
    select: CONVERSATION,
  }),
  listPage({
    path: `${ONE}/messages`,
    summary: 'List the messages of a conversation',
    description: `The thread, oldest first, the messages of conversations merged into it included (${TABLE}; conversations:read): limit 1-100 (default 50), offset`,
    name: 'ConversationMessages',
    select: CONVERSATION_MESSAGE,
  }),
  updateOne({
    method: 'POST',
    path: `${ONE}/messages`,
    summary: 'Post a message',
    description: `Post a message (${TABLE} at edit level; conversations:write): { content, channel? (default CHAT; INTERNAL_NOTE is the team's own, never delivered), contentType? (TEXT default, or HTML, sanitized), authorType? (AGENT default, END_USER, SYSTEM) }. Outbound: CHAT is SENT, EMAIL is QUEUED for the email channel (needs visitorEmail: else 409 RECIPIENT_ADDRESS_MISSING), SMS, WHATSAPP and FACEBOOK are 409 CHANNEL_NOT_CONFIGURED, FORM is 400`,
    name: 'CreateConversationMessage',
    inputType: 'PostConversationMessageInput',
    body: postMessageInput,
    example: { content: 'Thanks for writing in! Your renewal went through this morning.', channel: 'CHAT' },
    select: CONVERSATION_MESSAGE,
    status: 201,
  }),
  listPage({
    path: '/v1/data-records/{dataRecordSimplyId}/conversations',
    summary: 'List the conversations of a record',
    description: `The conversations tied to the record, most recent message first (${TABLE} and read access to the record: records:read; conversations:read): limit 1-100 (default 25), offset`,
    name: 'DataRecordConversations',
    select: CONVERSATION,
  }),

  // ---- the inbox ----
  route<Record<string, string>, InboxQuery>({
    method: 'GET',
    path: INBOX,
    summary: 'List the inbox',
    description: `Conversations within your inbox reach (${INBOX_REACH}; conversations:read), most recent message first, with your read state and following: status, channel, priority (comma lists), assigned (me, unassigned, any), assignedUserId, snoozed (false default, true, any), unread, q, sort, limit, offset`,
    operation: operation`query InboxConversations($limit: Int, $offset: Int, $status: [String!], $channel: [String!], $priority: [String!], $assigned: String, $assignedUserId: String, $snoozed: String, $unread: Boolean, $q: String, $sort: String) {
      inboxConversations(limit: $limit, offset: $offset, status: $status, channel: $channel, priority: $priority, assigned: $assigned, assignedUserId: $assignedUserId, snoozed: $snoozed, unread: $unread, q: $q, sort: $sort) {
        nodes { ${INBOX_CONVERSATION} } pagination { ${PAGINATION} } } }`,
    query: inboxQuery,
    variables: ({ query: q }) => ({
      ...q,
      status: q.status.length ? q.status : undefined,
      channel: q.channel.length ? q.channel : undefined,
      priority: q.priority.length ? q.priority : undefined,
      snoozed: q.snoozed ? SNOOZED[q.snoozed] : undefined,
    }),
    respond: respond.page,
  }),
  route({
    method: 'GET',
    path: `${INBOX}/unread-summary`,
    summary: 'Summarize my inbox',
    description: `Your inbox in counts (a person: user or OAuth token; ${INBOX_REACH}): awake conversations in total, by status, yours, unassigned and others', each with how many have unread activity for you, and the snoozed ones`,
    operation: operation`query InboxUnreadSummary { inboxUnreadSummary { ${INBOX_UNREAD_SUMMARY} } }`,
  }),
  listPage({
    path: `${INBOX}/by-record/{dataRecordSimplyId}`,
    summary: 'List the inbox of a record',
    description: `The record's conversations within your inbox reach (read access to the record: records:read; conversations:read), most recent message first: limit, offset`,
    name: 'InboxConversationsByRecord',
    select: INBOX_CONVERSATION,
  }),
  route<Record<string, string>, DetailQuery>({
    method: 'GET',
    path: INBOX_ONE,
    summary: 'Get an inbox conversation',
    description: `One conversation within your inbox reach with its newest messages (messageLimit, default 20; beforeMessageSimplyId pages back), your read state, followers, assignee, linked record (its name only when you may read it) and merge history`,
    operation: operation`query InboxConversation($id: String!, $messageLimit: Int, $beforeMessageSimplyId: String) {
      inboxConversation(conversationSimplyId: $id, messageLimit: $messageLimit, beforeMessageSimplyId: $beforeMessageSimplyId) { ${INBOX_CONVERSATION_DETAIL} } }`,
    query: detailQuery,
    variables: ({ params, query: q }) => ({ id: params.conversationSimplyId, ...q }),
  }),
  updateOne({
    method: 'POST',
    path: `${INBOX_ONE}/messages`,
    summary: 'Post a message from the inbox',
    description: `As POST /v1/conversations/{id}/messages, within your inbox reach at edit level (conversations:write). An agent's INTERNAL_NOTE naming @usr-… mentions those members`,
    name: 'PostInboxMessage',
    inputType: 'PostConversationMessageInput',
    body: postMessageInput,
    example: { content: '@usr-AB23-CD45-EF67 can you check the invoice before I answer?', channel: 'INTERNAL_NOTE' },
    select: CONVERSATION_MESSAGE,
    status: 201,
  }),
  route({
    method: 'POST',
    path: `${INBOX_ONE}/read`,
    summary: 'Mark a conversation read',
    description: 'Your read position (a person: user or OAuth token): { messageSimplyId? } up to that message (back or forth: "unread from here"), else up to the latest; answers the read state',
    operation: operation`mutation MarkInboxConversationRead($id: String!, $input: InboxReadInput) { markInboxConversationRead(conversationSimplyId: $id, input: $input) { ${CONVERSATION_READ_STATE} } }`,
    body: readInput.optional(),
    example: { messageSimplyId: 'cvm-AB23-CD45-EF67' },
    variables: ({ params, body }) => ({ id: params.conversationSimplyId, input: body ?? {} }),
  }),
  listPage({
    path: `${INBOX_ONE}/related`,
    summary: 'List related conversations',
    description: 'The other conversations of the same record, visitor email or phone, within your inbox reach, most recent message first: limit, offset',
    name: 'InboxRelatedConversations',
    select: INBOX_CONVERSATION,
  }),
  lifecycle(`${INBOX_ONE}/takeover`, 'TakeOverInboxConversation', 'takeOverInboxConversation', 'Take a conversation over', 'You become the assignee and the AI stops answering (a person; inbox at edit level)'),
  lifecycle(`${INBOX_ONE}/assign-ai`, 'AssignInboxConversationToAi', 'assignInboxConversationToAi', 'Hand a conversation to the AI', 'The AI assistant answers the visitor from now on: aiHandling true (the assignee stays; inbox at edit level); it hands back to people when it cannot answer. Without an AI model configured: 403 AI_FEATURE_UNAVAILABLE'),
  updateOne({
    method: 'PUT',
    path: `${INBOX_ONE}/snooze`,
    summary: 'Snooze a conversation',
    description: `Out of the inbox until { until } (ISO 8601, in the future, at most ${CONVERSATION_LIMITS.snoozeMaxDays} days ahead), then back by itself; a new end-user message wakes it sooner (inbox at edit level)`,
    name: 'SnoozeInboxConversation',
    inputType: 'InboxSnoozeInput',
    body: snoozeInput,
    example: { until: '2026-12-28T09:00:00Z' },
    select: CONVERSATION,
  }),
  lifecycle(`${INBOX_ONE}/unsnooze`, 'UnsnoozeInboxConversation', 'unsnoozeInboxConversation', 'Wake a conversation', 'Back in the inbox now (inbox at edit level)'),
  updateOne({
    method: 'POST',
    path: `${INBOX_ONE}/merge`,
    summary: 'Merge conversations',
    description: 'Exactly one of { into } (this conversation goes into that one), { source } (that one comes into this one) or { unmerge: true } (this merged conversation comes back out, as it was). Both threads read in time order in the surviving conversation; every merge is kept in the history (inbox at edit level)',
    name: 'MergeInboxConversation',
    inputType: 'InboxMergeInput',
    body: mergeInput,
    example: { into: 'cnv-GH89-JK23-MN45' },
    select: CONVERSATION_MERGE_RESULT,
  }),
  actOn({
    method: 'POST',
    path: `${INBOX_ONE}/follow`,
    summary: 'Follow a conversation',
    description: 'You are told of its new end-user messages, as its assignee is (a person; idempotent)',
    name: 'FollowInboxConversation',
    select: CONVERSATION_FOLLOW_STATE,
  }),
  actOn({
    method: 'DELETE',
    path: `${INBOX_ONE}/follow`,
    summary: 'Stop following a conversation',
    description: 'No more notifications of its messages for you (a person; idempotent)',
    name: 'UnfollowInboxConversation',
    select: CONVERSATION_FOLLOW_STATE,
  }),
]);

export const conversationRoutes = [...conversationTableAndInboxRoutes, ...conversationWidgetRoutes, ...conversationRoutingRoutes, ...conversationAiRoutes, ...conversationAnalyticsRoutes];
