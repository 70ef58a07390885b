// The statements of conversations themselves: one conversation, its changes, the lists and their
// counts, the unread summary and the end of snoozes (their own tables only; records through the
// kernel). Every statement names the team. A list is one page statement plus, when the page cannot
// tell the total, one count with the same conditions (whereOf), both on the (teamId, …,
// lastMessageAt DESC, id DESC) indexes.
import type pg from 'pg';
import type { Paging } from '../../app/paging.ts';
import type { Visibility } from './conversation-access.ts';
import type { SnoozeFilter } from './conversations.input.ts';
import { big, bigOrNull, Params, type Db } from './sql-helpers.ts';
import { trackConversationChanged, trackConversationCreated } from './analytics-track.ts';

export interface ConversationRow {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  subject: string | null;
  channel: string;
  status: string;
  priority: string;
  assignedUserId: bigint | null;
  assignedUserSimplyId: string | null;
  assignedAt: Date | null;
  aiHandling: boolean;
  resolvedAt: Date | null;
  visitorName: string | null;
  visitorEmail: string | null;
  visitorEmailKey: string | null;
  visitorPhone: string | null;
  /** the language the visitor writes in (BCP-47), detected from their messages (language-detect.ts) */
  visitorLanguage: string | null;
  dataRecordId: bigint | null;
  dataRecordSimplyId: string | null;
  recordLinkSource: string | null;
  lastMessageAt: Date;
  lastMessagePreview: string | null;
  lastMessageAuthorType: string | null;
  lastEndUserMessageAt: Date | null;
  firstResponseAt: Date | null;
  messageCount: number;
  snoozedUntil: Date | null;
  /** snoozedUntil is still ahead (a snooze past its time is over even before the wake-up job ran) */
  isSnoozed: boolean;
  mergedIntoId: bigint | null;
  mergedIntoSimplyId: string | null;
  mergedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A conversation as the inbox shows it to one caller: with their read state and following (null without a person). */
export interface InboxRow extends ConversationRow {
  unread: boolean | null;
  following: boolean | null;
}

export function conversationOf(row: Record<string, unknown>): ConversationRow {
  const r = row as unknown as ConversationRow;
  return {
    ...r,
    id: big(row.id),
    teamId: big(row.teamId),
    assignedUserId: bigOrNull(row.assignedUserId),
    dataRecordId: bigOrNull(row.dataRecordId),
    mergedIntoId: bigOrNull(row.mergedIntoId),
    messageCount: Number(row.messageCount),
  };
}

function inboxRowOf(row: Record<string, unknown>): InboxRow {
  return { ...conversationOf(row), unread: (row.unread as boolean | null) ?? null, following: (row.following as boolean | null) ?? null };
}

/** The answered columns of `c`, with the assignee's and the surviving conversation's simplyIds. */
const CONVERSATION_COLUMNS = `c.id, c."simplyId", c."teamId", c.subject, c.channel, c.status, c.priority, c."assignedUserId", au."simplyId" AS "assignedUserSimplyId",
  c."assignedAt", c."aiHandling", c."resolvedAt", c."visitorName", c."visitorEmail", c."visitorEmailKey", c."visitorPhone", c."visitorLanguage", c."dataRecordId",
  c."dataRecordSimplyId", c."recordLinkSource", c."lastMessageAt", c."lastMessagePreview", c."lastMessageAuthorType", c."lastEndUserMessageAt",
  c."firstResponseAt", c."messageCount", c."snoozedUntil", coalesce(c."snoozedUntil" > now(), false) AS "isSnoozed", c."mergedIntoId",
  mi."simplyId" AS "mergedIntoSimplyId", c."mergedAt", c."createdAt", c."updatedAt"`;
const CONVERSATION_JOINS = `LEFT JOIN "User" au ON au.id = c."assignedUserId"
  LEFT JOIN "Conversation" mi ON mi."teamId" = c."teamId" AND mi.id = c."mergedIntoId"`;

// ---- one conversation ----

export async function findConversation(db: Db, teamId: bigint, simplyId: string, options: { lock?: boolean } = {}): Promise<ConversationRow | null> {
  const { rows } = await db.query(
    `SELECT ${CONVERSATION_COLUMNS} FROM "Conversation" c ${CONVERSATION_JOINS}
      WHERE c."teamId" = $1 AND c."simplyId" = $2${options.lock ? ' FOR NO KEY UPDATE OF c' : ''}`,
    [teamId, simplyId],
  );
  return rows[0] ? conversationOf(rows[0]) : null;
}

export async function findConversationById(db: Db, teamId: bigint, id: bigint, options: { lock?: boolean } = {}): Promise<ConversationRow | null> {
  const { rows } = await db.query(
    `SELECT ${CONVERSATION_COLUMNS} FROM "Conversation" c ${CONVERSATION_JOINS}
      WHERE c."teamId" = $1 AND c.id = $2${options.lock ? ' FOR NO KEY UPDATE OF c' : ''}`,
    [teamId, id],
  );
  return rows[0] ? conversationOf(rows[0]) : null;
}

/** Locks several conversations of the team in id order (two merges of the same pair never deadlock). */
export async function lockConversations(db: pg.PoolClient, teamId: bigint, simplyIds: readonly string[]): Promise<Map<string, ConversationRow>> {
  const { rows } = await db.query(
    `SELECT ${CONVERSATION_COLUMNS} FROM "Conversation" c ${CONVERSATION_JOINS}
      WHERE c."teamId" = $1 AND c."simplyId" = ANY($2::text[]) ORDER BY c.id FOR NO KEY UPDATE OF c`,
    [teamId, simplyIds],
  );
  return new Map(rows.map((r) => [r.simplyId as string, conversationOf(r)]));
}

export interface ConversationDraft {
  simplyId: string;
  teamId: bigint;
  subject: string | null;
  channel: string;
  priority: string;
  visitorName: string | null;
  visitorEmail: string | null;
  visitorPhone: string | null;
  dataRecordId: bigint | null;
  dataRecordSimplyId: string | null;
  recordLinkSource: string | null;
  replyToken: string;
  createdByKind: string;
  createdById: string | null;
}

/** The lower-cased words the inbox's `q` searches: subject, visitor name, email and phone. */
export function searchTextOf(c: { subject: string | null; visitorName: string | null; visitorEmail: string | null; visitorPhone: string | null }): string {
  return [c.subject, c.visitorName, c.visitorEmail, c.visitorPhone].filter((v) => v).join(' ').toLowerCase();
}

export async function insertConversation(db: pg.PoolClient, d: ConversationDraft): Promise<ConversationRow> {
  const { rows } = await db.query(
    `WITH c AS (
       INSERT INTO "Conversation" ("simplyId", "teamId", subject, channel, priority, "visitorName", "visitorEmail", "visitorEmailKey", "visitorPhone",
         "dataRecordId", "dataRecordSimplyId", "recordLinkSource", "searchText", "replyToken", "createdByKind", "createdById", "lastMessageAt", "createdAt", "updatedAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, lower($7), $8, $9, $10, $11, $12, $13, $14, $15, now(), now(), now())
       RETURNING *
     )
     SELECT ${CONVERSATION_COLUMNS} FROM c ${CONVERSATION_JOINS}`,
    [
      d.simplyId, d.teamId, d.subject, d.channel, d.priority, d.visitorName, d.visitorEmail, d.visitorPhone,
      d.dataRecordId, d.dataRecordSimplyId, d.recordLinkSource, searchTextOf(d), d.replyToken, d.createdByKind, d.createdById,
    ],
  );
  const row = conversationOf(rows[0]);
  // counted by analytics with the insert, whichever way it came in (analytics-track.ts)
  await trackConversationCreated(db, row, { kind: d.createdByKind, id: d.createdById });
  return row;
}

/** The columns an update may set (already decided by the service), by column name. */
export type ConversationChanges = Partial<{
  subject: string | null;
  status: string;
  priority: string;
  assignedUserId: bigint | null;
  assignedAt: Date | null;
  aiHandling: boolean;
  resolvedAt: Date | null;
  snoozedUntil: Date | null;
  searchText: string;
  mergedIntoId: bigint | null;
  mergedAt: Date | null;
  dataRecordId: bigint | null;
  dataRecordSimplyId: string | null;
  recordLinkSource: string | null;
}>;

/** Applies `changes` to the conversation (updatedAt too) and answers it as it is now. */
export async function updateConversation(db: pg.PoolClient, teamId: bigint, id: bigint, changes: ConversationChanges): Promise<ConversationRow> {
  const params = new Params();
  const team = params.add(teamId);
  const key = params.add(id);
  const sets = Object.entries(changes)
    .filter(([, v]) => v !== undefined)
    .map(([column, value]) => `"${column}" = ${params.add(value)}`);
  const { rows } = await db.query(
    `WITH c AS (
       UPDATE "Conversation" SET ${[...sets, '"updatedAt" = now()'].join(', ')} WHERE "teamId" = ${team} AND id = ${key} RETURNING *
     )
     SELECT ${CONVERSATION_COLUMNS} FROM c ${CONVERSATION_JOINS}`,
    params.values,
  );
  const row = conversationOf(rows[0]);
  // status, assignee and resolution moves reach analytics from every writer (analytics-track.ts)
  await trackConversationChanged(db, row);
  return row;
}

// ---- lists ----

export interface ListFilter {
  teamId: bigint;
  visibility: Visibility;
  /** the caller's person: their read state and following (inbox lists), `assigned: me` */
  viewerUserId?: bigint | null;
  statuses?: readonly string[] | null;
  channels?: readonly string[] | null;
  priorities?: readonly string[] | null;
  /** a user's id (or simplyId: resolved in the statement); null: unassigned ones; undefined: any */
  assignedUserId?: bigint | { simplyId: string } | null;
  snoozed?: SnoozeFilter;
  unread?: boolean | null;
  q?: string | null;
  dataRecordId?: bigint | null;
  /** other conversations of the same record, visitor email or phone than the one excluded */
  related?: { excludeId: bigint; dataRecordId: bigint | null; visitorEmailKey: string | null; visitorPhone: string | null };
  /** -lastMessageAt (default): most recent message first */
  oldestFirst?: boolean;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The WHERE of a list: live (unmerged) conversations of the team within the caller's reach, and the filters. */
function whereOf(f: ListFilter, params: Params, marker: string): string {
  const conditions = [`c."teamId" = ${params.add(f.teamId)}`, 'c."mergedIntoId" IS NULL'];
  if (f.visibility.reach === 'OWN') {
    conditions.push(f.visibility.userId === null ? 'c."assignedUserId" IS NULL' : `(c."assignedUserId" IS NULL OR c."assignedUserId" = ${params.add(f.visibility.userId)})`);
  }
  if (f.statuses?.length) conditions.push(`c.status = ANY(${params.add(f.statuses)}::text[])`);
  if (f.channels?.length) conditions.push(`c.channel = ANY(${params.add(f.channels)}::text[])`);
  if (f.priorities?.length) conditions.push(`c.priority = ANY(${params.add(f.priorities)}::text[])`);
  if (f.assignedUserId === null) conditions.push('c."assignedUserId" IS NULL');
  else if (typeof f.assignedUserId === 'object') conditions.push(`c."assignedUserId" = (SELECT u.id FROM "User" u WHERE u."simplyId" = ${params.add(f.assignedUserId.simplyId)})`);
  else if (f.assignedUserId !== undefined) conditions.push(`c."assignedUserId" = ${params.add(f.assignedUserId)}`);
  if (f.snoozed === 'AWAKE') conditions.push('(c."snoozedUntil" IS NULL OR c."snoozedUntil" <= now())');
  else if (f.snoozed === 'SNOOZED') conditions.push('c."snoozedUntil" > now()');
  if (f.unread != null) conditions.push(`${f.unread ? '' : 'NOT '}${unreadSql(marker)}`);
  if (f.q) conditions.push(`c."searchText" LIKE ${params.add(`%${likeLiteral(f.q.toLowerCase())}%`)}`);
  if (f.dataRecordId != null) conditions.push(`c."dataRecordId" = ${params.add(f.dataRecordId)}`);
  if (f.related) {
    const same = [
      f.related.dataRecordId !== null ? `c."dataRecordId" = ${params.add(f.related.dataRecordId)}` : null,
      f.related.visitorEmailKey !== null ? `c."visitorEmailKey" = ${params.add(f.related.visitorEmailKey)}` : null,
      f.related.visitorPhone !== null ? `c."visitorPhone" = ${params.add(f.related.visitorPhone)}` : null,
    ].filter((s) => s !== null);
    conditions.push(same.length ? `(${same.join(' OR ')})` : 'false', `c.id <> ${params.add(f.related.excludeId)}`);
  }
  return conditions.join(' AND ');
}

/** Activity the person behind the marker has not read (a conversation without messages has none). */
function unreadSql(marker: string): string {
  return `(c."messageCount" > 0 AND (${marker}."readThroughAt" IS NULL OR c."lastMessageAt" > ${marker}."readThroughAt"))`;
}

/** The read marker of the viewer, joined when a list shows read state (or filters by it). */
function markerJoin(f: ListFilter, params: Params): string {
  if (f.viewerUserId == null) return '';
  return `LEFT JOIN "ConversationReadMarker" rm ON rm."teamId" = c."teamId" AND rm."conversationId" = c.id AND rm."userId" = ${params.add(f.viewerUserId)}`;
}

/** One page of a list, most recent message first (or oldest activity first), with the viewer's read state and following. */
export async function conversationPage(db: Db, f: ListFilter, paging: Paging): Promise<InboxRow[]> {
  const params = new Params();
  const join = markerJoin(f, params);
  const where = whereOf(f, params, 'rm');
  const viewer = f.viewerUserId == null
    ? 'NULL::boolean AS unread, NULL::boolean AS following'
    : `${unreadSql('rm')} AS unread,
       EXISTS (SELECT 1 FROM "ConversationFollower" fo WHERE fo."teamId" = c."teamId" AND fo."conversationId" = c.id AND fo."userId" = ${params.add(f.viewerUserId)}) AS following`;
  const direction = f.oldestFirst ? 'ASC' : 'DESC';
  const { rows } = await db.query(
    `SELECT ${CONVERSATION_COLUMNS}, ${viewer}
       FROM "Conversation" c ${join} ${CONVERSATION_JOINS}
      WHERE ${where}
      ORDER BY c."lastMessageAt" ${direction}, c.id ${direction}
      LIMIT ${params.add(paging.limit)} OFFSET ${params.add(paging.offset)}`,
    params.values,
  );
  return rows.map(inboxRowOf);
}

export async function countConversations(db: Db, f: ListFilter): Promise<number> {
  const counted = await countFromCells(db, f);
  if (counted !== null) return counted;
  const params = new Params();
  const join = f.unread != null ? markerJoin(f, params) : '';
  const where = whereOf(f, params, 'rm');
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM "Conversation" c ${join} WHERE ${where}`, params.values);
  return rows[0].n as number;
}

/**
 * A list's total from the counts the "Conversation" trigger keeps per assignee, status, channel,
 * priority and snooze (ConversationInboxCount): a sum over a few rows instead of a count over every
 * conversation in reach. A snooze whose time has passed counts as awake even before the wake-up
 * job clears it: those few are counted from the conversations themselves. Filters the counts do
 * not know (unread, text, a record, related) answer null: count the rows.
 */
async function countFromCells(db: Db, f: ListFilter): Promise<number | null> {
  if (f.unread != null || f.q || f.dataRecordId != null || f.related) return null;
  const params = new Params();
  const cells = [`k."teamId" = ${params.add(f.teamId)}`];
  if (f.visibility.reach === 'OWN') cells.push(f.visibility.userId === null ? 'k."assigneeKey" = 0' : `k."assigneeKey" IN (0, ${params.add(f.visibility.userId)})`);
  if (f.statuses?.length) cells.push(`k.status = ANY(${params.add(f.statuses)}::text[])`);
  if (f.channels?.length) cells.push(`k.channel = ANY(${params.add(f.channels)}::text[])`);
  if (f.priorities?.length) cells.push(`k.priority = ANY(${params.add(f.priorities)}::text[])`);
  if (f.assignedUserId === null) cells.push('k."assigneeKey" = 0');
  else if (typeof f.assignedUserId === 'object') cells.push(`k."assigneeKey" = coalesce((SELECT u.id FROM "User" u WHERE u."simplyId" = ${params.add(f.assignedUserId.simplyId)}), -1)`);
  else if (f.assignedUserId !== undefined) cells.push(`k."assigneeKey" = ${params.add(f.assignedUserId)}`);
  if (f.snoozed === 'AWAKE') cells.push('NOT k.snoozed');
  else if (f.snoozed === 'SNOOZED') cells.push('k.snoozed');
  // snoozes already over but not yet woken: awake for the list, counted as snoozed by the cells
  const due = f.snoozed === 'AWAKE' || f.snoozed === 'SNOOZED' ? `(SELECT count(*) FROM "Conversation" c WHERE ${whereOf({ ...f, snoozed: undefined }, params, 'rm')} AND c."snoozedUntil" <= now())` : '0';
  const { rows } = await db.query(
    `SELECT coalesce((SELECT sum(k.count) FROM "ConversationInboxCount" k WHERE ${cells.join(' AND ')}), 0) ${f.snoozed === 'SNOOZED' ? '-' : '+'} ${due} AS n`,
    params.values,
  );
  return Number(rows[0].n);
}

export interface SummaryRow {
  status: string;
  /** null: unassigned; true: the viewer's; false: someone else's */
  mine: boolean | null;
  snoozed: boolean;
  total: number;
  unread: number;
}

/** Counts of the caller's reach per status, assignment and snooze, with the caller's unread among them: one statement. */
export async function summaryCounts(db: Db, teamId: bigint, visibility: Visibility, userId: bigint): Promise<SummaryRow[]> {
  const params = new Params();
  const join = markerJoin({ teamId, visibility, viewerUserId: userId }, params);
  const where = whereOf({ teamId, visibility }, params, 'rm');
  const me = params.add(userId);
  const { rows } = await db.query(
    `SELECT c.status, CASE WHEN c."assignedUserId" IS NULL THEN NULL ELSE c."assignedUserId" = ${me} END AS mine,
            coalesce(c."snoozedUntil" > now(), false) AS snoozed, count(*)::int AS total, (count(*) FILTER (WHERE ${unreadSql('rm')}))::int AS unread
       FROM "Conversation" c ${join}
      WHERE ${where}
      GROUP BY 1, 2, 3`,
    params.values,
  );
  return rows as SummaryRow[];
}

// ---- snoozes ----

export interface WokenRow {
  teamId: bigint;
  teamSimplyId: string;
  simplyId: string;
  assignedUserSimplyId: string | null;
}

/**
 * Ends the snoozes that are due: of one conversation (its wake-up job), or of any team (the
 * minute's sweep), a batch at a time. A snooze moved later, or ended already, is not due: the
 * job of an earlier snooze finds nothing to do.
 */
export async function wakeDue(db: Db, only: { teamId: bigint; id: bigint } | null, batch = 500): Promise<WokenRow[]> {
  const { rows } = await db.query(
    `WITH due AS (
       SELECT id FROM "Conversation"
        WHERE "snoozedUntil" <= now() ${only ? 'AND "teamId" = $2 AND id = $3' : ''}
        ORDER BY "snoozedUntil" LIMIT $1 FOR UPDATE SKIP LOCKED
     ), woken AS (
       UPDATE "Conversation" c SET "snoozedUntil" = NULL, "updatedAt" = now() FROM due WHERE c.id = due.id
       RETURNING c."teamId", c."simplyId", c."assignedUserId"
     )
     SELECT w."teamId", t."simplyId" AS "teamSimplyId", w."simplyId", u."simplyId" AS "assignedUserSimplyId"
       FROM woken w JOIN "Team" t ON t.id = w."teamId" LEFT JOIN "User" u ON u.id = w."assignedUserId"`,
    only ? [batch, only.teamId, only.id] : [batch],
  );
  return rows.map((r) => ({ ...r, teamId: big(r.teamId) })) as WokenRow[];
}
