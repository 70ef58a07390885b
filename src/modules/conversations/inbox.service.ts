// The inbox (docs/api/conversations.md "The inbox"): the conversations within the caller's inbox
// reach (conversation-access.ts), with each person's read state and following; the detail with the
// newest messages; read positions and the unread summary; a record's and a contact's conversations.
// Posting from the inbox is messages.service.ts with the inbox reach.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import type { Page } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { inboxVisibility, personOf, requirePerson } from './conversation-access.ts';
import { conversationMessageId } from './conversations.ids.ts';
import { CONVERSATION_LIMITS, inboxListInput, pageInput, readInput, STATUSES, type ConversationStatus } from './conversations.input.ts';
import { summaryCounts, type InboxRow, type ListFilter } from './conversations.sql.ts';
import { findThreadMessage, latestThreadMessage, readStateOf, recentMessages, upsertReadMarker, type MessageRow } from './messages.sql.ts';
import { followersOf, peopleById, type FollowerRow, type PersonRow } from './people.sql.ts';
import { mergesOf, type MergeRow } from './merges.sql.ts';
import { listPage, recordConversations, visibleConversation } from './conversations.service.ts';
import { linkedRecordSummary, type LinkedRecordSummary } from './record-link.ts';

export interface ReadState {
  conversationSimplyId: string;
  lastReadMessageSimplyId: string | null;
  readThroughAt: Date | null;
  unreadCount: number;
}

export interface InboxDetail {
  conversation: InboxRow;
  /** the newest messages of the thread, oldest first */
  messages: MessageRow[];
  hasOlderMessages: boolean;
  /** the caller's read position; null for credentials that act for nobody */
  readState: ReadState | null;
  followers: FollowerRow[];
  assignedUser: PersonRow | null;
  linkedRecord: LinkedRecordSummary | null;
  merges: MergeRow[];
}

/** GET /v1/conversations/inbox. */
export async function inboxConversations(ctx: RequestContext, raw: unknown): Promise<Page<InboxRow>> {
  const team = requireTeam(ctx);
  const input = parseInput(inboxListInput, raw, 'Invalid inbox parameters');
  const visibility = inboxVisibility(ctx, 'VIEW');
  // filters about "me" need a person; read state shows only for one
  if (input.assigned === 'me') requirePerson(ctx, 'assigned=me');
  if (input.unread != null) requirePerson(ctx, 'The unread filter');
  if (input.assigned && input.assigned !== 'any' && input.assignedUserId) {
    throw new ValidationError('Give assigned or assignedUserId, not both', [{ field: 'assignedUserId', message: `cannot be combined with assigned=${input.assigned}` }]);
  }
  const person = personOf(ctx);
  let assignedUserId: ListFilter['assignedUserId'];
  if (input.assigned === 'me') assignedUserId = person;
  else if (input.assigned === 'unassigned') assignedUserId = null;
  else if (input.assignedUserId) assignedUserId = { simplyId: input.assignedUserId };
  const q = input.q?.trim() || null;
  return listPage(
    ctx,
    {
      teamId: team.id,
      visibility,
      viewerUserId: person,
      statuses: input.status,
      channels: input.channel,
      priorities: input.priority,
      assignedUserId,
      snoozed: input.snoozed ?? 'AWAKE',
      unread: input.unread,
      q,
      oldestFirst: input.sort === 'lastMessageAt',
    },
    input,
  );
}

function readStateFrom(conversationSimplyId: string, state: Awaited<ReturnType<typeof readStateOf>>): ReadState {
  return {
    conversationSimplyId,
    lastReadMessageSimplyId: state.marker?.lastReadMessageSimplyId ?? null,
    readThroughAt: state.marker?.readThroughAt ?? null,
    unreadCount: state.unreadCount,
  };
}

/** GET /v1/conversations/inbox/{id}: the conversation, its newest messages (messageLimit 1-100, default 20, before a message to page back), read state, followers, assignee, record and merges. */
export async function inboxConversation(ctx: RequestContext, simplyId: string, args: { messageLimit?: number | null; beforeMessageSimplyId?: string | null }): Promise<InboxDetail> {
  const team = requireTeam(ctx);
  const visibility = inboxVisibility(ctx, 'VIEW');
  const limit = args.messageLimit ?? CONVERSATION_LIMITS.recentMessagesDefault;
  if (!Number.isInteger(limit) || limit < 1 || limit > CONVERSATION_LIMITS.messagesMaxLimit) {
    throw new ValidationError('Invalid messageLimit', [{ field: 'messageLimit', message: `must be an integer from 1 to ${CONVERSATION_LIMITS.messagesMaxLimit}` }]);
  }
  if (args.beforeMessageSimplyId != null) conversationMessageId.assert(args.beforeMessageSimplyId, 'beforeMessageSimplyId');
  const conversation = await visibleConversation(ctx, simplyId, visibility);
  const { pool } = ctx.services;
  const person = personOf(ctx);
  let before: MessageRow | null = null;
  if (args.beforeMessageSimplyId != null) {
    before = await findThreadMessage(pool, team.id, conversation.id, args.beforeMessageSimplyId);
    if (!before) throw new NotFoundError('Message', args.beforeMessageSimplyId);
  }
  const [recent, state, followers, assignee, linkedRecord, merges] = await Promise.all([
    recentMessages(pool, team.id, conversation.id, limit, before),
    person === null ? null : readStateOf(pool, team.id, conversation.id, person),
    followersOf(pool, team.id, [conversation.id]),
    conversation.assignedUserId === null ? null : peopleById(pool, [conversation.assignedUserId]).then((m) => m.get(conversation.assignedUserId!) ?? null),
    linkedRecordSummary(ctx, conversation),
    mergesOf(pool, team.id, conversation.id),
  ]);
  const me = person === null ? null : ctx.principal.userSimplyId;
  return {
    conversation: {
      ...conversation,
      unread: state === null ? null : state.unreadCount > 0,
      following: me === null ? null : followers.some((f) => f.userSimplyId === me),
    },
    messages: recent.messages,
    hasOlderMessages: recent.hasOlder,
    readState: state === null ? null : readStateFrom(conversation.simplyId, state),
    followers,
    assignedUser: assignee,
    linkedRecord,
    merges,
  };
}

/** POST /v1/conversations/inbox/{id}/read: the caller has read up to the given message (back or forth), else up to the latest. */
export async function markConversationRead(ctx: RequestContext, simplyId: string, raw: unknown): Promise<ReadState> {
  const team = requireTeam(ctx);
  const person = requirePerson(ctx, 'A read position');
  const visibility = inboxVisibility(ctx, 'VIEW');
  const input = parseInput(readInput, raw ?? {}, 'Invalid read position');
  const conversation = await visibleConversation(ctx, simplyId, visibility);
  const { pool } = ctx.services;
  let upTo: { id: bigint; createdAt: Date } | null;
  if (input.messageSimplyId) {
    upTo = await findThreadMessage(pool, team.id, conversation.id, input.messageSimplyId);
    if (!upTo) throw new NotFoundError('Message', input.messageSimplyId);
  } else upTo = await latestThreadMessage(pool, team.id, conversation.id);
  await upsertReadMarker(pool, team.id, conversation.id, person, upTo?.id ?? null, upTo?.createdAt ?? conversation.lastMessageAt);
  return readStateFrom(conversation.simplyId, await readStateOf(pool, team.id, conversation.id, person));
}

export interface Tally {
  total: number;
  unread: number;
}

export interface UnreadSummary extends Tally {
  byStatus: (Tally & { status: ConversationStatus })[];
  mine: Tally;
  unassigned: Tally;
  assignedToOthers: Tally;
  /** snoozed conversations (not in the other counts) */
  snoozed: number;
}

/** GET /v1/conversations/inbox/unread-summary: the caller's reach, awake conversations by status and assignment, with their unread. */
export async function inboxUnreadSummary(ctx: RequestContext): Promise<UnreadSummary> {
  const team = requireTeam(ctx);
  const person = requirePerson(ctx, 'The unread summary');
  const visibility = inboxVisibility(ctx, 'VIEW');
  const rows = await summaryCounts(ctx.services.pool, team.id, visibility, person);
  const tally = (keep: (r: (typeof rows)[number]) => boolean): Tally =>
    rows.filter((r) => !r.snoozed && keep(r)).reduce((t, r) => ({ total: t.total + r.total, unread: t.unread + r.unread }), { total: 0, unread: 0 });
  return {
    ...tally(() => true),
    byStatus: STATUSES.map((status) => ({ status, ...tally((r) => r.status === status) })),
    mine: tally((r) => r.mine === true),
    unassigned: tally((r) => r.mine === null),
    assignedToOthers: tally((r) => r.mine === false),
    snoozed: rows.filter((r) => r.snoozed).reduce((n, r) => n + r.total, 0),
  };
}

/** GET /v1/conversations/inbox/by-record/{id}: the record's conversations within the caller's inbox reach. */
export async function inboxConversationsByRecord(ctx: RequestContext, dataRecordSimplyId: string, raw: unknown): Promise<Page<InboxRow>> {
  return recordConversations(ctx, dataRecordSimplyId, raw, { visibility: inboxVisibility(ctx, 'VIEW'), viewerUserId: personOf(ctx) });
}

/** GET /v1/conversations/inbox/{id}/related: the other live conversations of the same record, visitor email or phone. */
export async function relatedConversations(ctx: RequestContext, simplyId: string, raw: unknown): Promise<Page<InboxRow>> {
  const team = requireTeam(ctx);
  const input = parseInput(pageInput, raw, 'Invalid paging parameters');
  const visibility = inboxVisibility(ctx, 'VIEW');
  const conversation = await visibleConversation(ctx, simplyId, visibility);
  return listPage(
    ctx,
    {
      teamId: team.id,
      visibility,
      viewerUserId: personOf(ctx),
      related: { excludeId: conversation.id, dataRecordId: conversation.dataRecordId, visitorEmailKey: conversation.visitorEmailKey, visitorPhone: conversation.visitorPhone },
    },
    input,
  );
}
