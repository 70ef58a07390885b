// The statements of storing and delivering messages, on the caller's connection so they commit
// with its transaction (enqueue) or with the attempts (delivery, one statement per batch).
import type pg from 'pg';

export interface StoredMail {
  simplyId: string;
  teamId: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  transport: 'SMTP' | 'OUTBOX';
  status: 'QUEUED' | 'STORED';
  source: string;
  sourceId: string | null;
  /** the SMTP MAIL FROM (the message's own return path) */
  envelopeFrom: string;
  /** extra header lines, name -> value */
  headers: Record<string, string> | null;
  /** the log routes withhold the content (it carries a credential) */
  contentWithheld: boolean;
}

const MAIL_COLUMNS = [
  '"simplyId"', '"teamId"', '"fromAddress"', '"toAddresses"', '"ccAddresses"', '"bccAddresses"', '"replyTo"', 'subject', '"textBody"',
  '"htmlBody"', 'transport', 'status', 'source', '"sourceId"', '"envelopeFrom"', 'headers', '"contentWithheld"',
] as const;
// the address lists are arrays themselves: unnest would flatten a text[][], so they travel as JSON
const MAIL_TYPES = ['text', 'bigint', 'text', 'jsonb', 'jsonb', 'jsonb', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'jsonb', 'boolean'];
const toTextArray = (column: string) => `ARRAY(SELECT jsonb_array_elements_text(${column}))`;

/** A message as the insert left it: stored now, or found already stored under its source key. */
export interface InsertedMail {
  id: string;
  simplyId: string;
  /** false: a message with the same keyed source and sourceId was stored before; this one was not */
  stored: boolean;
}

/**
 * Stores messages in one statement; answers, in the order given, their rows. An AUTOMATION
 * message's sourceId names one message (the partial unique index MailMessage_automation_source_key):
 * one whose sourceId is taken (a repeated run) is not stored, and answers with the message stored before.
 */
export async function insertMailMessages(db: pg.PoolClient, mails: readonly StoredMail[]): Promise<InsertedMail[]> {
  if (mails.length === 0) return [];
  const rows = mails.map((mail) => [
    mail.simplyId, mail.teamId, mail.from, JSON.stringify(mail.to), JSON.stringify(mail.cc), JSON.stringify(mail.bcc), mail.replyTo, mail.subject,
    mail.text, mail.html, mail.transport, mail.status, mail.source, mail.sourceId, mail.envelopeFrom, mail.headers === null ? null : JSON.stringify(mail.headers),
    mail.contentWithheld,
  ]);
  const { rows: inserted } = await db.query<{ id: string; simplyId: string }>(
    `INSERT INTO "MailMessage" (${MAIL_COLUMNS.join(', ')})
     SELECT u."simplyId", u."teamId", u."fromAddress", ${toTextArray('u."toAddresses"')}, ${toTextArray('u."ccAddresses"')}, ${toTextArray('u."bccAddresses"')},
            u."replyTo", u.subject, u."textBody", u."htmlBody", u.transport, u.status::"MailStatus", u.source, u."sourceId", u."envelopeFrom", u.headers, u."contentWithheld"
       FROM unnest(${MAIL_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')}) AS u(${MAIL_COLUMNS.join(', ')})
     ON CONFLICT ("teamId", source, "sourceId") WHERE source = 'AUTOMATION' DO NOTHING
     RETURNING id::text, "simplyId"`,
    MAIL_COLUMNS.map((_, i) => rows.map((row) => row[i])),
  );
  const ids = new Map(inserted.map((row) => [row.simplyId, row.id]));
  const skipped = mails.filter((mail) => !ids.has(mail.simplyId));
  const earlier = new Map<string, { id: string; simplyId: string }>();
  if (skipped.length > 0) {
    const { rows: found } = await db.query<{ id: string; simplyId: string; teamId: string; source: string; sourceId: string }>(
      `SELECT m.id::text, m."simplyId", m."teamId"::text AS "teamId", m.source, m."sourceId"
         FROM "MailMessage" m JOIN unnest($1::bigint[], $2::text[], $3::text[]) AS k(t, src, sid) ON m."teamId" = k.t AND m.source = k.src AND m."sourceId" = k.sid
        WHERE m.source = 'AUTOMATION'`,
      [skipped.map((m) => m.teamId), skipped.map((m) => m.source), skipped.map((m) => m.sourceId)],
    );
    for (const row of found) earlier.set(`${row.teamId}/${row.source}/${row.sourceId}`, { id: row.id, simplyId: row.simplyId });
  }
  return mails.map((mail) => {
    const id = ids.get(mail.simplyId);
    return id !== undefined ? { id, simplyId: mail.simplyId, stored: true } : { ...earlier.get(`${mail.teamId}/${mail.source}/${mail.sourceId}`)!, stored: false };
  });
}

export interface QueuedRow {
  id: string;
  teamId: string;
  simplyId: string;
  status: string;
  fromAddress: string;
  toAddresses: string[];
  ccAddresses: string[];
  bccAddresses: string[];
  replyTo: string | null;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  /** null for messages stored before return paths were per message */
  envelopeFrom: string | null;
  headers: Record<string, string> | null;
}

export interface MailKey {
  teamId: string;
  simplyId: string;
}

/**
 * The messages, locked for this attempt, that are still QUEUED; one another job holds right now
 * (or that is gone, or already settled) is left out.
 */
export async function lockQueued(db: pg.PoolClient, keys: readonly MailKey[]): Promise<QueuedRow[]> {
  const { rows } = await db.query<QueuedRow>(
    `SELECT m.id, m."teamId"::text AS "teamId", m."simplyId", m.status, m."fromAddress", m."toAddresses", m."ccAddresses", m."bccAddresses", m."replyTo", m.subject, m."textBody", m."htmlBody",
            m."envelopeFrom", m.headers
       FROM "MailMessage" m JOIN unnest($1::bigint[], $2::text[]) AS k(t, s) ON m."teamId" = k.t AND m."simplyId" = k.s
      WHERE m.status = 'QUEUED'
      FOR UPDATE OF m SKIP LOCKED`,
    [keys.map((k) => k.teamId), keys.map((k) => k.simplyId)],
  );
  return rows;
}

export async function keepInOutbox(db: pg.PoolClient, ids: readonly string[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  await db.query(`UPDATE "MailMessage" SET status = 'STORED', transport = 'OUTBOX', "errorMessage" = $2 WHERE id = ANY($1::bigint[])`, [ids, reason]);
}

/** The outcome of one attempt: SENT with the server's Message-ID, or the error and whether more attempts follow. */
export type AttemptOutcome =
  | { id: string; status: 'SENT'; messageId: string; /** the refused recipients: replaces the last error only when set */ note: string | null }
  | { id: string; status: 'QUEUED' | 'FAILED'; error: string };

/** Every attempt of a batch recorded in one statement: attempts + 1, and the status, Message-ID and error each brought. */
export async function recordAttempts(db: pg.PoolClient, outcomes: readonly AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await db.query(
    `UPDATE "MailMessage" m SET attempts = m.attempts + 1, status = u.status::"MailStatus",
            "messageId" = COALESCE(u."messageId", m."messageId"),
            "sentAt" = CASE WHEN u.status = 'SENT' THEN now() ELSE m."sentAt" END,
            "errorMessage" = COALESCE(u.error, m."errorMessage")
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(id, status, "messageId", error)
      WHERE m.id = u.id`,
    [
      outcomes.map((o) => o.id),
      outcomes.map((o) => o.status),
      outcomes.map((o) => (o.status === 'SENT' ? o.messageId : null)),
      outcomes.map((o) => (o.status === 'SENT' ? o.note : o.error)),
    ],
  );
}

/** Messages still QUEUED whose jobs pg-boss gave up on become FAILED (keeping a recorded error). */
export async function failQueued(pool: pg.Pool, keys: readonly MailKey[]): Promise<void> {
  await pool.query(
    `UPDATE "MailMessage" m SET status = 'FAILED',
       "errorMessage" = COALESCE(m."errorMessage", 'the delivery job failed without reporting an SMTP error')
       FROM unnest($1::bigint[], $2::text[]) AS k(t, s)
      WHERE m."teamId" = k.t AND m."simplyId" = k.s AND m.status = 'QUEUED'`,
    [keys.map((k) => k.teamId), keys.map((k) => k.simplyId)],
  );
}
