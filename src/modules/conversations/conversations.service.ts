// The conversation table (docs/api/conversations.md "The conversation table"): create, list, read
// and change conversations, team-wide, for credentials with DATA_CONVERSATIONS_VIEW (the tier
// checks it: VIEW to read, EDIT to write). Posting and reading messages is message.service.ts; the
// inbox, its lifecycle and merges are the inbox's own files.
import type pg from 'pg';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { randomSecret } from '../../app/ids.ts';
import { paginationOf, parsePaging, type Page } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { inTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { actorOf, ALL, canSee, INBOX_ALL_FEATURE, INBOX_FEATURE, personOf, TABLE_FEATURE, type Visibility } from './conversation-access.ts';
import { queueNotifications } from './conversation-notifications.ts';
import { ConversationMergedError } from './conversations.errors.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { conversationId } from './conversations.ids.ts';
import { CONVERSATION_LIMITS, createConversationInput, listConversationsInput, pageInput, updateConversationInput, type ConversationStatus } from './conversations.input.ts';
import { conversationPage, countConversations, findConversation, insertConversation, searchTextOf, updateConversation as writeConversation, type ConversationChanges, type ConversationRow, type InboxRow, type ListFilter } from './conversations.sql.ts';
import { activeMembers } from './people.sql.ts';
import { afterConversationChanged, afterConversationCreated } from './routing-hooks.ts';
import { matchVisitor, readableRecord, type RecordLink } from './record-link.ts';

export type { ConversationRow, InboxRow };

/** The conversation if it exists in the caller's team and is within `visibility`; else 404, the same either way. */
export async function visibleConversation(ctx: RequestContext, simplyId: string, visibility: Visibility): Promise<ConversationRow> {
  const team = requireTeam(ctx);
  conversationId.assert(simplyId, 'conversationSimplyId');
  const row = await findConversation(ctx.services.pool, team.id, simplyId);
  if (!row || !canSee(visibility, row.assignedUserId)) throw new NotFoundError('Conversation', simplyId);
  return row;
}

/** A page of a list: the page statement, and the count only when the page cannot tell the total. */
export async function listPage(ctx: RequestContext, filter: ListFilter, raw: { limit?: number | null; offset?: number | null }): Promise<Page<InboxRow>> {
  const paging = parsePaging(raw, { defaultLimit: CONVERSATION_LIMITS.defaultLimit, maxLimit: CONVERSATION_LIMITS.maxLimit });
  const nodes = await conversationPage(ctx.services.pool, filter, paging);
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => countConversations(ctx.services.pool, filter)) };
}

/** POST /v1/conversations: status OPEN, unassigned; tied to the named record, or to the constituent the visitor's email or phone names. */
export async function createConversation(ctx: RequestContext, raw: unknown): Promise<ConversationRow> {
  const team = requireTeam(ctx);
  const input = parseInput(createConversationInput, raw, 'Invalid conversation');
  const visitorEmail = input.visitorEmail ?? null;
  const visitorPhone = input.visitorPhone ?? null;
  let link: RecordLink | null;
  if (input.dataRecordSimplyId) {
    const record = await readableRecord(ctx, input.dataRecordSimplyId);
    link = { dataRecordId: record.id, dataRecordSimplyId: record.simplyId, source: 'GIVEN' };
  } else link = await matchVisitor(ctx, visitorEmail, visitorPhone);
  const actor = actorOf(ctx);
  const person = personOf(ctx);
  return inTransaction(ctx.services.pool, async (db) => {
    const row = await insertConversation(db, {
      simplyId: conversationId.create(),
      teamId: team.id,
      subject: input.subject ?? null,
      channel: input.channel ?? 'CHAT',
      priority: input.priority ?? 'NORMAL',
      visitorName: input.visitorName ?? null,
      visitorEmail,
      visitorPhone,
      dataRecordId: link?.dataRecordId ?? null,
      dataRecordSimplyId: link?.dataRecordSimplyId ?? null,
      recordLinkSource: link?.source ?? null,
      replyToken: randomSecret(24),
      createdByKind: actor.kind,
      createdById: actor.id,
    });
    await publishConversationEvent(ctx.services, db, { teamSimplyId: team.simplyId, type: 'CONVERSATION_CREATED', conversationSimplyId: row.simplyId, actor, assignees: [null] });
    await queueNotifications(ctx.services, db, {
      teamId: String(team.id),
      conversationId: String(row.id),
      kind: 'NEW_CONVERSATION',
      key: row.simplyId,
      messageId: null,
      actorUserId: person === null ? null : String(person),
      recipients: null,
    });
    // it waits for routing (routing-hooks.ts): rules, balanced assignment, its SLA
    await afterConversationCreated(ctx.services, db, row);
    return row;
  });
}

/** GET /v1/conversations: the team's live conversations, most recent message first. */
export async function listConversations(ctx: RequestContext, raw: unknown): Promise<Page<InboxRow>> {
  const team = requireTeam(ctx);
  const input = parseInput(listConversationsInput, raw, 'Invalid conversation list parameters');
  let assignedUserId: ListFilter['assignedUserId'];
  if (input.assignedUserId === 'null') assignedUserId = null;
  else if (input.assignedUserId) assignedUserId = { simplyId: input.assignedUserId };
  return listPage(
    ctx,
    { teamId: team.id, visibility: ALL, statuses: input.status ? [input.status] : null, channels: input.channel ? [input.channel] : null, assignedUserId },
    input,
  );
}

export async function getConversation(ctx: RequestContext, simplyId: string): Promise<ConversationRow> {
  return visibleConversation(ctx, simplyId, ALL);
}

/**
 * What a status move does to resolvedAt: moving to RESOLVED stamps it (staying RESOLVED keeps the
 * first stamp), reopening (OPEN, PENDING, ESCALATED) clears it, CLOSED keeps it as it is.
 */
export function statusChanges(before: ConversationRow, status: ConversationStatus, now: Date): ConversationChanges {
  if (status === before.status) return {};
  if (status === 'RESOLVED') return { status, resolvedAt: now };
  if (status === 'CLOSED') return { status };
  return { status, resolvedAt: null };
}

/**
 * The user a conversation may be assigned to: an active member of the team who can work
 * conversations (a team admin, or one of the three conversation features); else 400 naming the field.
 */
export async function assignableUser(ctx: RequestContext, userSimplyId: string, field = 'assignedUserId'): Promise<bigint> {
  const team = requireTeam(ctx);
  const member = (await activeMembers(ctx.services.pool, team.id, [userSimplyId])).get(userSimplyId);
  const works = member && (member.isTeamAdmin || [TABLE_FEATURE, INBOX_FEATURE, INBOX_ALL_FEATURE].some((f) => member.features.has(f)));
  if (!member || !works) {
    throw new ValidationError('The assignee must be an active member of the team who can work conversations', [
      { field, message: 'is not an active member of this team with a conversation permission' },
    ]);
  }
  return member.userId;
}

/** PUT /v1/conversations/{id}: status (any move), priority, subject (null clears), assignedUserId (a user simplyId, or null to unassign). */
export async function updateConversation(ctx: RequestContext, simplyId: string, raw: unknown): Promise<ConversationRow> {
  requireTeam(ctx);
  conversationId.assert(simplyId, 'conversationSimplyId');
  const input = parseInput(updateConversationInput, raw, 'Invalid conversation change');
  const assignee = input.assignedUserId ? await assignableUser(ctx, input.assignedUserId) : input.assignedUserId;
  return changeConversation(ctx, simplyId, ALL, (before, now) => {
    const changes: ConversationChanges = {};
    if (input.status) Object.assign(changes, statusChanges(before, input.status, now));
    if (input.priority && input.priority !== before.priority) changes.priority = input.priority;
    if (input.subject !== undefined && input.subject !== before.subject) {
      changes.subject = input.subject;
      changes.searchText = searchTextOf({ ...before, subject: input.subject });
    }
    if (assignee !== undefined && assignee !== before.assignedUserId) Object.assign(changes, { assignedUserId: assignee, assignedAt: assignee === null ? null : now });
    return changes;
  });
}

/**
 * Locks the conversation, lets `decide` say what changes, writes it, and tells the subscribers
 * who could see it before or after (and the new assignee, by notification). A merged
 * conversation changes no more: 409 CONVERSATION_MERGED. Nothing to change: the conversation as it is.
 */
export async function changeConversation(
  ctx: RequestContext,
  simplyId: string,
  visibility: Visibility,
  decide: (before: ConversationRow, now: Date) => ConversationChanges,
  event: 'CONVERSATION_UPDATED' | 'CONVERSATION_SNOOZED' | 'CONVERSATION_WOKEN' = 'CONVERSATION_UPDATED',
  alsoInTransaction?: (db: pg.PoolClient, after: ConversationRow) => Promise<void>,
): Promise<ConversationRow> {
  const team = requireTeam(ctx);
  const actor = actorOf(ctx);
  const person = personOf(ctx);
  return inTransaction(ctx.services.pool, async (db) => {
    const before = await findConversation(db, team.id, simplyId, { lock: true });
    if (!before || !canSee(visibility, before.assignedUserId)) throw new NotFoundError('Conversation', simplyId);
    if (before.mergedIntoId !== null) throw new ConversationMergedError(before.simplyId, before.mergedIntoSimplyId);
    const changes = Object.fromEntries(Object.entries(decide(before, new Date())).filter(([, v]) => v !== undefined)) as ConversationChanges;
    if (Object.keys(changes).length === 0) return before;
    const after = await writeConversation(db, team.id, before.id, changes);
    await alsoInTransaction?.(db, after);
    // a reopened unassigned conversation waits for routing again; a freed agent takes the next (routing-hooks.ts)
    await afterConversationChanged(ctx.services, db, before, after);
    await publishConversationEvent(ctx.services, db, {
      teamSimplyId: team.simplyId,
      type: event,
      conversationSimplyId: after.simplyId,
      actor,
      assignees: [before.assignedUserSimplyId, after.assignedUserSimplyId],
    });
    if (after.assignedUserId !== null && after.assignedUserId !== before.assignedUserId && after.assignedUserId !== person) {
      await queueNotifications(ctx.services, db, {
        teamId: String(team.id),
        conversationId: String(after.id),
        kind: 'ASSIGNMENT',
        key: `${after.simplyId}:${after.assignedAt?.toISOString()}`,
        messageId: null,
        actorUserId: person === null ? null : String(person),
        recipients: [after.assignedUserSimplyId!],
      });
    }
    return after;
  });
}

/** GET /v1/data-records/{id}/conversations: the conversations tied to a record the caller may read, most recent message first. */
export async function recordConversations(
  ctx: RequestContext,
  dataRecordSimplyId: string,
  raw: unknown,
  reach: { visibility: Visibility; viewerUserId?: bigint | null } = { visibility: ALL },
): Promise<Page<InboxRow>> {
  const team = requireTeam(ctx);
  const input = parseInput(pageInput, raw, 'Invalid paging parameters');
  const record = await readableRecord(ctx, dataRecordSimplyId);
  return listPage(ctx, { teamId: team.id, dataRecordId: record.id, ...reach }, input);
}
