// The statements of the email channel (email-*.ts): the team's inbound address, the mail behind
// each email message, reply-token and header lookups for threading, and inbound attachments.
// Every statement names the team, but the reply-token lookup: the token is what names the team.
import type pg from 'pg';
import { big, THREAD, type Db } from './sql-helpers.ts';

/** How far a merge chain is followed (merges cannot cycle; this only bounds a corrupted chain). */
const MAX_MERGE_DEPTH = 50;

// ---- the team's inbound address ----

export async function inboundKeyOf(db: Db, teamId: bigint): Promise<string | null> {
  const { rows } = await db.query(`SELECT "inboundKey" FROM "ConversationEmailInbox" WHERE "teamId" = $1`, [teamId]);
  return (rows[0]?.inboundKey as string | undefined) ?? null;
}

/** The team's key, created with `candidate` when it has none (a concurrent first read keeps the one stored first). */
export async function ensureInboundKey(db: Db, teamId: bigint, candidate: string): Promise<string> {
  const { rows } = await db.query(
    `WITH ins AS (INSERT INTO "ConversationEmailInbox" ("teamId", "inboundKey") VALUES ($1, $2) ON CONFLICT ("teamId") DO NOTHING RETURNING "inboundKey")
     SELECT "inboundKey" FROM ins UNION ALL SELECT "inboundKey" FROM "ConversationEmailInbox" WHERE "teamId" = $1 LIMIT 1`,
    [teamId, candidate],
  );
  return rows[0].inboundKey as string;
}

export async function teamOfInboundKey(db: Db, key: string): Promise<{ teamId: bigint; teamSimplyId: string } | null> {
  const { rows } = await db.query(
    `SELECT i."teamId", t."simplyId" AS "teamSimplyId" FROM "ConversationEmailInbox" i JOIN "Team" t ON t.id = i."teamId" WHERE i."inboundKey" = $1`,
    [key],
  );
  return rows[0] ? { teamId: big(rows[0].teamId), teamSimplyId: rows[0].teamSimplyId } : null;
}

// ---- threading lookups ----

/** A conversation a reply lands in: the live end of its merge chain, and the contact each end was with. */
export interface ThreadTarget {
  teamId: bigint;
  teamSimplyId: string;
  /** the conversation the token or header named */
  namedId: bigint;
  namedVisitorEmailKey: string | null;
  /** where it lives now: itself, or the last conversation of its merge chain */
  liveId: bigint;
  liveVisitorEmailKey: string | null;
}

const CHAIN = (start: string) => `chain(id, "teamId", "mergedIntoId", "visitorEmailKey", depth) AS (
    SELECT c.id, c."teamId", c."mergedIntoId", c."visitorEmailKey", 0 FROM "Conversation" c WHERE ${start}
    UNION ALL
    SELECT n.id, n."teamId", n."mergedIntoId", n."visitorEmailKey", chain.depth + 1
      FROM "Conversation" n JOIN chain ON n."teamId" = chain."teamId" AND n.id = chain."mergedIntoId" WHERE chain.depth < ${MAX_MERGE_DEPTH}
  )`;

const TARGET_SELECT = `SELECT s."teamId", t."simplyId" AS "teamSimplyId", s.id AS "namedId", s."visitorEmailKey" AS "namedVisitorEmailKey",
       l.id AS "liveId", l."visitorEmailKey" AS "liveVisitorEmailKey"
  FROM chain s JOIN chain l ON l."mergedIntoId" IS NULL JOIN "Team" t ON t.id = s."teamId"
 WHERE s.depth = 0 LIMIT 1`;

function targetOf(row: Record<string, unknown> | undefined): ThreadTarget | null {
  if (!row) return null;
  return {
    teamId: big(row.teamId),
    teamSimplyId: row.teamSimplyId as string,
    namedId: big(row.namedId),
    namedVisitorEmailKey: (row.namedVisitorEmailKey as string | null) ?? null,
    liveId: big(row.liveId),
    liveVisitorEmailKey: (row.liveVisitorEmailKey as string | null) ?? null,
  };
}

/** The conversation whose reply address carries `token` (exactly as minted), followed to its live end. */
export async function targetOfReplyToken(db: Db, token: string): Promise<ThreadTarget | null> {
  const { rows } = await db.query(`WITH RECURSIVE ${CHAIN('c."replyToken" = $1')} ${TARGET_SELECT}`, [token]);
  return targetOf(rows[0]);
}

export async function replyTokenExists(db: Db, token: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM "Conversation" WHERE "replyToken" = $1`, [token]);
  return rows.length > 0;
}

/**
 * The conversation of the team's latest email (either way) whose Message-ID is among `ids` and
 * whose contact is `contact`: a reply joins only its own contact's thread. Followed to its live end.
 */
export async function targetOfHeaders(db: Db, teamId: bigint, ids: readonly string[], contact: string): Promise<ThreadTarget | null> {
  if (ids.length === 0) return null;
  const { rows } = await db.query(
    `WITH RECURSIVE ${CHAIN(`c."teamId" = $1 AND c.id = (
        SELECT e."conversationId" FROM "ConversationEmail" e
         WHERE e."teamId" = $1 AND e."headerMessageId" = ANY($2::text[]) AND e."contactAddress" = $3
         ORDER BY e."createdAt" DESC, e.id DESC LIMIT 1)`)} ${TARGET_SELECT}`,
    [teamId, ids, contact],
  );
  return targetOf(rows[0]);
}

/** An inbound mail already stored under this Message-ID (a redelivery): its message's simplyId. */
export async function storedEmail(db: Db, teamId: bigint, headerMessageId: string): Promise<string | null> {
  const { rows } = await db.query(
    `SELECT m."simplyId" FROM "ConversationEmail" e JOIN "ConversationMessage" m ON m."teamId" = e."teamId" AND m.id = e."messageId"
      WHERE e."teamId" = $1 AND e."headerMessageId" = $2`,
    [teamId, headerMessageId],
  );
  return (rows[0]?.simplyId as string | undefined) ?? null;
}

/** The thread's emails, oldest first: what a reply's In-Reply-To and References are built from. */
export async function threadEmails(db: Db, teamId: bigint, conversationId: bigint): Promise<{ headerMessageId: string; subject: string | null; direction: string }[]> {
  const { rows } = await db.query(
    `WITH RECURSIVE ${THREAD}
     SELECT e."headerMessageId", e.subject, e.direction FROM "ConversationEmail" e
      WHERE e."teamId" = $1 AND e."conversationId" IN (SELECT id FROM thread)
      ORDER BY e."createdAt", e.id`,
    [teamId, conversationId],
  );
  return rows as { headerMessageId: string; subject: string | null; direction: string }[];
}

// ---- writes ----

export interface EmailDraft {
  teamId: bigint;
  conversationId: bigint;
  messageId: bigint;
  direction: 'OUTBOUND' | 'INBOUND';
  headerMessageId: string;
  inReplyTo: string | null;
  references: readonly string[];
  mailMessageId: string | null;
  contactAddress: string;
  subject: string | null;
  fullText: string | null;
  fullHtml: string | null;
}

/** The mail behind a message, and its threading headers on the message itself. */
export async function insertEmail(db: pg.PoolClient, d: EmailDraft): Promise<void> {
  await db.query(
    `INSERT INTO "ConversationEmail" ("teamId", "conversationId", "messageId", direction, "headerMessageId", "mailMessageId", "contactAddress", subject, "fullText", "fullHtml")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [d.teamId, d.conversationId, d.messageId, d.direction, d.headerMessageId, d.mailMessageId, d.contactAddress, d.subject, d.fullText, d.fullHtml],
  );
  await db.query(
    `UPDATE "ConversationMessage" SET "emailMessageId" = $3, "emailInReplyTo" = $4, "emailReferences" = $5 WHERE "teamId" = $1 AND id = $2`,
    [d.teamId, d.messageId, d.headerMessageId, d.inReplyTo, d.references.length > 0 ? d.references.join(' ') : null],
  );
}

export interface AttachmentDraft {
  position: number;
  filename: string;
  contentType: string;
  sizeBytes: number;
  fileUploadSimplyId: string | null;
  rejectedReason: string | null;
}

export async function insertAttachments(db: pg.PoolClient, teamId: bigint, messageId: bigint, drafts: readonly AttachmentDraft[]): Promise<void> {
  if (drafts.length === 0) return;
  await db.query(
    `INSERT INTO "ConversationMessageAttachment" ("teamId", "messageId", position, filename, "contentType", "sizeBytes", "fileUploadSimplyId", "rejectedReason")
     SELECT $1, $2, u.position, u.filename, u."contentType", u."sizeBytes", u."fileUploadSimplyId", u."rejectedReason"
       FROM unnest($3::int[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[]) AS u(position, filename, "contentType", "sizeBytes", "fileUploadSimplyId", "rejectedReason")`,
    [
      teamId, messageId, drafts.map((d) => d.position), drafts.map((d) => d.filename), drafts.map((d) => d.contentType), drafts.map((d) => d.sizeBytes),
      drafts.map((d) => d.fileUploadSimplyId), drafts.map((d) => d.rejectedReason),
    ],
  );
}

export interface AttachmentRow extends AttachmentDraft {
  messageId: bigint;
}

/** The attachments of several messages of the team, in one statement. */
export async function attachmentsOf(db: Db, teamId: bigint, messageIds: readonly bigint[]): Promise<AttachmentRow[]> {
  if (messageIds.length === 0) return [];
  const { rows } = await db.query(
    `SELECT "messageId", position, filename, "contentType", "sizeBytes", "fileUploadSimplyId", "rejectedReason"
       FROM "ConversationMessageAttachment" WHERE "teamId" = $1 AND "messageId" = ANY($2::bigint[]) ORDER BY "messageId", position`,
    [teamId, messageIds.map(String)],
  );
  return rows.map((r) => ({ ...r, messageId: big(r.messageId) })) as AttachmentRow[];
}
