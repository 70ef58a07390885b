// The statements of messages and read positions: a thread (the conversation and every one merged
// into it, THREAD) oldest first or newest first, a post under the conversation's row lock, the
// thread's totals recomputed after a merge, and each person's read marker.
import type pg from 'pg';
import type { Paging } from '../../app/paging.ts';
import { big, bigOrNull, THREAD, type Db } from './sql-helpers.ts';
import { trackFirstResponse } from './analytics-track.ts';

export interface MessageRow {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  conversationId: bigint;
  /** the conversation it was posted in (another than the one read, once merged) */
  conversationSimplyId: string;
  channel: string;
  authorType: string;
  authorUserId: bigint | null;
  authorUserSimplyId: string | null;
  content: string;
  contentType: string;
  deliveryStatus: string | null;
  createdAt: Date;
}

function messageOf(row: Record<string, unknown>): MessageRow {
  const r = row as unknown as MessageRow;
  return { ...r, id: big(row.id), teamId: big(row.teamId), conversationId: big(row.conversationId), authorUserId: bigOrNull(row.authorUserId) };
}

const MESSAGE_COLUMNS = `msg.id, msg."simplyId", msg."teamId", msg."conversationId", oc."simplyId" AS "conversationSimplyId", msg.channel, msg."authorType",
  msg."authorUserId", mu."simplyId" AS "authorUserSimplyId", msg.content, msg."contentType", msg."deliveryStatus", msg."createdAt"`;
const MESSAGE_JOINS = `JOIN "Conversation" oc ON oc."teamId" = msg."teamId" AND oc.id = msg."conversationId"
  LEFT JOIN "User" mu ON mu.id = msg."authorUserId"`;

/** A page of the thread's messages, oldest first. */
export async function messagePage(db: Db, teamId: bigint, conversationId: bigint, paging: Paging): Promise<MessageRow[]> {
  const { rows } = await db.query(
    `WITH RECURSIVE ${THREAD}
     SELECT ${MESSAGE_COLUMNS} FROM "ConversationMessage" msg ${MESSAGE_JOINS}
      WHERE msg."teamId" = $1 AND msg."conversationId" IN (SELECT id FROM thread)
      ORDER BY msg."createdAt", msg.id LIMIT $3 OFFSET $4`,
    [teamId, conversationId, paging.limit, paging.offset],
  );
  return rows.map(messageOf);
}

/**
 * The newest `limit` messages of the thread (before the message `beforeId`, when given), in
 * order, and whether older ones exist.
 */
export async function recentMessages(db: Db, teamId: bigint, conversationId: bigint, limit: number, before: { createdAt: Date; id: bigint } | null): Promise<{ messages: MessageRow[]; hasOlder: boolean }> {
  const { rows } = await db.query(
    `WITH RECURSIVE ${THREAD}
     SELECT ${MESSAGE_COLUMNS} FROM "ConversationMessage" msg ${MESSAGE_JOINS}
      WHERE msg."teamId" = $1 AND msg."conversationId" IN (SELECT id FROM thread)
        AND ($4::timestamp IS NULL OR (msg."createdAt", msg.id) < ($4::timestamp, $5::bigint))
      ORDER BY msg."createdAt" DESC, msg.id DESC LIMIT $3`,
    [teamId, conversationId, limit + 1, before?.createdAt ?? null, before?.id ?? null],
  );
  const messages = rows.slice(0, limit).map(messageOf).reverse();
  return { messages, hasOlder: rows.length > limit };
}

/** A message of the thread by simplyId (null when it is not one of them). */
export async function findThreadMessage(db: Db, teamId: bigint, conversationId: bigint, simplyId: string): Promise<MessageRow | null> {
  const { rows } = await db.query(
    `WITH RECURSIVE ${THREAD}
     SELECT ${MESSAGE_COLUMNS} FROM "ConversationMessage" msg ${MESSAGE_JOINS}
      WHERE msg."teamId" = $1 AND msg."simplyId" = $3 AND msg."conversationId" IN (SELECT id FROM thread)`,
    [teamId, conversationId, simplyId],
  );
  return rows[0] ? messageOf(rows[0]) : null;
}

export async function findMessage(db: Db, teamId: bigint, simplyId: string): Promise<MessageRow | null> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM "ConversationMessage" msg ${MESSAGE_JOINS} WHERE msg."teamId" = $1 AND msg."simplyId" = $2`, [teamId, simplyId]);
  return rows[0] ? messageOf(rows[0]) : null;
}

export async function findMessageById(db: Db, teamId: bigint, id: bigint): Promise<MessageRow | null> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM "ConversationMessage" msg ${MESSAGE_JOINS} WHERE msg."teamId" = $1 AND msg.id = $2`, [teamId, id]);
  return rows[0] ? messageOf(rows[0]) : null;
}

export interface MessageDraft {
  simplyId: string;
  teamId: bigint;
  conversationId: bigint;
  channel: string;
  authorType: string;
  authorUserId: bigint | null;
  authorCredentialKind: string;
  authorCredentialId: string | null;
  content: string;
  contentType: string;
  deliveryStatus: string | null;
  deliverySimplyId: string | null;
  mentionedUserIds: readonly bigint[];
}

/**
 * Inserts the message under the conversation's row lock (the caller holds it) and moves the
 * conversation's activity to it. Its time is strictly after the conversation's last activity, so
 * `lastMessageAt` only ever grows and a read marker at one message never covers a later one.
 */
export async function insertMessage(db: pg.PoolClient, d: MessageDraft, preview: string): Promise<MessageRow> {
  const { rows } = await db.query(
    `WITH stamp AS (
       SELECT greatest(clock_timestamp()::timestamp(3), c."lastMessageAt" + interval '1 millisecond') AS at
         FROM "Conversation" c WHERE c."teamId" = $2 AND c.id = $3
     ), msg AS (
       INSERT INTO "ConversationMessage" ("simplyId", "teamId", "conversationId", channel, "authorType", "authorUserId", "authorCredentialKind",
         "authorCredentialId", content, "contentType", "deliveryStatus", "deliverySimplyId", "mentionedUserIds", "createdAt")
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::bigint[], stamp.at FROM stamp
       RETURNING *
     ), moved AS (
       UPDATE "Conversation" c SET
         "lastMessageAt" = msg."createdAt",
         "lastMessagePreview" = $14,
         "lastMessageAuthorType" = msg."authorType",
         "messageCount" = c."messageCount" + 1,
         "lastEndUserMessageAt" = CASE WHEN msg."authorType" = 'END_USER' THEN msg."createdAt" ELSE c."lastEndUserMessageAt" END,
         "firstResponseAt" = CASE WHEN c."firstResponseAt" IS NULL AND msg."authorType" IN ('AGENT', 'AI') AND msg.channel <> 'INTERNAL_NOTE'
                                  THEN msg."createdAt" ELSE c."firstResponseAt" END,
         "updatedAt" = now()
         FROM msg WHERE c."teamId" = msg."teamId" AND c.id = msg."conversationId"
       RETURNING c.id
     )
     SELECT msg.*, oc."simplyId" AS "conversationSimplyId", mu."simplyId" AS "authorUserSimplyId"
       FROM msg JOIN "Conversation" oc ON oc."teamId" = msg."teamId" AND oc.id = msg."conversationId"
       LEFT JOIN "User" mu ON mu.id = msg."authorUserId", moved`,
    [
      d.simplyId, d.teamId, d.conversationId, d.channel, d.authorType, d.authorUserId, d.authorCredentialKind, d.authorCredentialId,
      d.content, d.contentType, d.deliveryStatus, d.deliverySimplyId, d.mentionedUserIds.map(String), preview,
    ],
  );
  const message = messageOf(rows[0]);
  // a reply to the visitor (an agent's or the AI's, as firstResponseAt counts it) may be analytics' first response
  if ((d.authorType === 'AGENT' || d.authorType === 'AI') && d.channel !== 'INTERNAL_NOTE') await trackFirstResponse(db, d.teamId, d.conversationId, message);
  return message;
}

/**
 * The thread's totals and latest activity, recomputed from its messages (after a merge or an
 * unmerge); `preview` makes the list preview of the latest message, as a post does.
 */
export async function refreshThreadTotals(db: pg.PoolClient, teamId: bigint, conversationId: bigint, preview: (content: string, contentType: string) => string): Promise<void> {
  const { rows } = await db.query(
    `WITH RECURSIVE ${THREAD},
     msgs AS (SELECT m.* FROM "ConversationMessage" m WHERE m."teamId" = $1 AND m."conversationId" IN (SELECT id FROM thread))
     SELECT count(*)::int AS n, max("createdAt") AS "lastAt",
            max("createdAt") FILTER (WHERE "authorType" = 'END_USER') AS "lastEndUserAt",
            min("createdAt") FILTER (WHERE "authorType" IN ('AGENT', 'AI') AND channel <> 'INTERNAL_NOTE') AS "firstResponseAt",
            (SELECT json_build_object('content', content, 'contentType', "contentType", 'authorType', "authorType") FROM msgs ORDER BY "createdAt" DESC, id DESC LIMIT 1) AS latest
       FROM msgs`,
    [teamId, conversationId],
  );
  const totals = rows[0] as { n: number; lastAt: Date | null; lastEndUserAt: Date | null; firstResponseAt: Date | null; latest: { content: string; contentType: string; authorType: string } | null };
  await db.query(
    `UPDATE "Conversation" SET "messageCount" = $3, "lastMessageAt" = greatest("createdAt", coalesce($4::timestamp, "createdAt")), "lastMessagePreview" = $5,
            "lastMessageAuthorType" = $6, "lastEndUserMessageAt" = $7, "firstResponseAt" = $8, "updatedAt" = now()
      WHERE "teamId" = $1 AND id = $2`,
    [
      teamId, conversationId, totals.n, totals.lastAt, totals.latest ? preview(totals.latest.content, totals.latest.contentType) : null,
      totals.latest?.authorType ?? null, totals.lastEndUserAt, totals.firstResponseAt,
    ],
  );
}

// ---- read markers ----

export interface ReadMarker {
  lastReadMessageId: bigint | null;
  lastReadMessageSimplyId: string | null;
  readThroughAt: Date;
}

/** Sets the person's read position (forwards or back: "unread from here"). */
export async function upsertReadMarker(db: Db, teamId: bigint, conversationId: bigint, userId: bigint, messageId: bigint | null, readThroughAt: Date): Promise<void> {
  await db.query(
    `INSERT INTO "ConversationReadMarker" ("teamId", "conversationId", "userId", "lastReadMessageId", "readThroughAt", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, now())
     ON CONFLICT ("teamId", "conversationId", "userId") DO UPDATE SET "lastReadMessageId" = excluded."lastReadMessageId", "readThroughAt" = excluded."readThroughAt", "updatedAt" = now()`,
    [teamId, conversationId, userId, messageId, readThroughAt],
  );
}

/** The person's marker on the conversation and how many of the thread's messages are after it. */
export async function readStateOf(db: Db, teamId: bigint, conversationId: bigint, userId: bigint): Promise<{ marker: ReadMarker | null; unreadCount: number }> {
  const { rows } = await db.query(
    `WITH RECURSIVE ${THREAD},
     marker AS (
       SELECT rm."lastReadMessageId", lm."simplyId" AS "lastReadMessageSimplyId", rm."readThroughAt"
         FROM "ConversationReadMarker" rm
         LEFT JOIN "ConversationMessage" lm ON lm."teamId" = rm."teamId" AND lm.id = rm."lastReadMessageId"
        WHERE rm."teamId" = $1 AND rm."conversationId" = $2 AND rm."userId" = $3
     )
     SELECT m.*, (SELECT count(*)::int FROM "ConversationMessage" msg
                   WHERE msg."teamId" = $1 AND msg."conversationId" IN (SELECT id FROM thread)
                     AND (m."readThroughAt" IS NULL OR msg."createdAt" > m."readThroughAt")) AS "unreadCount"
       FROM (SELECT 1) one LEFT JOIN marker m ON true`,
    [teamId, conversationId, userId],
  );
  const row = rows[0];
  const marker = row.readThroughAt == null ? null : { lastReadMessageId: bigOrNull(row.lastReadMessageId), lastReadMessageSimplyId: row.lastReadMessageSimplyId ?? null, readThroughAt: row.readThroughAt as Date };
  return { marker, unreadCount: row.unreadCount as number };
}

/** The thread's latest message (null without messages). */
export async function latestThreadMessage(db: Db, teamId: bigint, conversationId: bigint): Promise<{ id: bigint; simplyId: string; createdAt: Date } | null> {
  const { rows } = await db.query(
    `WITH RECURSIVE ${THREAD}
     SELECT id, "simplyId", "createdAt" FROM "ConversationMessage" WHERE "teamId" = $1 AND "conversationId" IN (SELECT id FROM thread)
      ORDER BY "createdAt" DESC, id DESC LIMIT 1`,
    [teamId, conversationId],
  );
  return rows[0] ? { id: big(rows[0].id), simplyId: rows[0].simplyId, createdAt: rows[0].createdAt } : null;
}

