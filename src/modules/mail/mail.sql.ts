// The statements of storing and delivering a message, on the caller's connection so they commit
// with its transaction (enqueue) or with the attempt (delivery).
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
}

export async function insertMailMessage(db: pg.PoolClient, mail: StoredMail): Promise<void> {
  await db.query(
    `INSERT INTO "MailMessage" ("simplyId", "teamId", "fromAddress", "toAddresses", "ccAddresses", "bccAddresses", "replyTo",
       subject, "textBody", "htmlBody", transport, status, source, "sourceId")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::"MailStatus", $13, $14)`,
    [mail.simplyId, mail.teamId, mail.from, mail.to, mail.cc, mail.bcc, mail.replyTo, mail.subject, mail.text, mail.html, mail.transport, mail.status, mail.source, mail.sourceId],
  );
}

export interface QueuedRow {
  id: string;
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
}

/**
 * The message, locked for this attempt; null when another job holds it right now (or it is gone),
 * or when it is no longer QUEUED (already settled).
 */
export async function lockQueued(db: pg.PoolClient, teamId: string, simplyId: string): Promise<QueuedRow | null> {
  const { rows } = await db.query<QueuedRow>(
    `SELECT id, "simplyId", status, "fromAddress", "toAddresses", "ccAddresses", "bccAddresses", "replyTo", subject, "textBody", "htmlBody"
       FROM "MailMessage" WHERE "teamId" = $1 AND "simplyId" = $2 FOR UPDATE SKIP LOCKED`,
    [teamId, simplyId],
  );
  const row = rows[0];
  return row && row.status === 'QUEUED' ? row : null;
}

export async function keepInOutbox(db: pg.PoolClient, id: string, reason: string): Promise<void> {
  await db.query(`UPDATE "MailMessage" SET status = 'STORED', transport = 'OUTBOX', "errorMessage" = $2 WHERE id = $1`, [id, reason]);
}

/** `note` (the refused recipients) replaces the last error only when there is one. */
export async function markSent(db: pg.PoolClient, id: string, messageId: string, note: string | null): Promise<void> {
  await db.query(
    `UPDATE "MailMessage" SET status = 'SENT', "messageId" = $2, "sentAt" = now(), attempts = attempts + 1,
       "errorMessage" = COALESCE($3, "errorMessage") WHERE id = $1`,
    [id, messageId, note],
  );
}

export async function recordFailedAttempt(db: pg.PoolClient, id: string, error: string, status: 'QUEUED' | 'FAILED'): Promise<void> {
  await db.query(`UPDATE "MailMessage" SET attempts = attempts + 1, "errorMessage" = $2, status = $3::"MailStatus" WHERE id = $1`, [id, error, status]);
}

/** A message still QUEUED whose job pg-boss gave up on becomes FAILED (keeping a recorded error). */
export async function failQueued(pool: pg.Pool, teamId: string, simplyId: string): Promise<void> {
  await pool.query(
    `UPDATE "MailMessage" SET status = 'FAILED',
       "errorMessage" = COALESCE("errorMessage", 'the delivery job failed without reporting an SMTP error')
     WHERE "teamId" = $1 AND "simplyId" = $2 AND status = 'QUEUED'`,
    [teamId, simplyId],
  );
}
