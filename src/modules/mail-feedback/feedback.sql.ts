// The statements of the feedback area, on the caller's connection (one transaction per report and mail).
import type pg from 'pg';
import type { MailFeedbackStateName, MailRef } from '../mail/index.ts';
import type { SuppressionReason } from './feedback-effects.ts';

export interface FeedbackMail {
  id: string;
  teamId: string;
  feedbackState: string | null;
  /** every recipient as stored: `Name <address>` or the address */
  recipients: string[];
}

/** The mail a token names; `forUpdate` locks it, so that reports about one mail are applied one after the other. */
export async function findFeedbackMail(db: pg.PoolClient | pg.Pool, ref: MailRef, options: { forUpdate?: boolean } = {}): Promise<FeedbackMail | null> {
  const { rows } = await db.query<FeedbackMail>(
    `SELECT id::text, "teamId"::text AS "teamId", "feedbackState", "toAddresses" || "ccAddresses" || "bccAddresses" AS recipients
       FROM "MailMessage" WHERE "teamId" = $1 AND "simplyId" = $2 ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    [ref.teamId.toString(), ref.simplyId],
  );
  return rows[0] ?? null;
}

/** The trigger mail_state_propagate carries the state to the recipient and history rows of the mail. */
export async function setFeedbackState(db: pg.PoolClient, mailId: string, state: MailFeedbackStateName, detail: string): Promise<void> {
  await db.query(`UPDATE "MailMessage" SET "feedbackState" = $2, "feedbackAt" = now(), "feedbackDetail" = $3 WHERE id = $1`, [mailId, state, detail]);
}

/** A note (a delay) is kept only while nothing final is known. */
export async function noteFeedback(db: pg.PoolClient, mailId: string, detail: string): Promise<void> {
  await db.query(`UPDATE "MailMessage" SET "feedbackDetail" = $2 WHERE id = $1 AND "feedbackState" IS NULL`, [mailId, detail]);
}

/**
 * The address is not to be mailed by the team again. The first reason stays, except that a
 * complaint is recorded over any other: it is the one a sender's reputation suffers from.
 */
export async function suppress(db: pg.PoolClient | pg.Pool, teamId: string, address: string, reason: SuppressionReason, mailId: string): Promise<void> {
  await db.query(
    `INSERT INTO "MailSuppression" ("teamId", address, reason, "mailMessageId") VALUES ($1, $2, $3, $4)
     ON CONFLICT ("teamId", address) DO UPDATE SET reason = EXCLUDED.reason, "mailMessageId" = EXCLUDED."mailMessageId"
      WHERE EXCLUDED.reason = 'COMPLAINT' AND "MailSuppression".reason <> 'COMPLAINT'`,
    [teamId, address.toLowerCase(), reason, mailId],
  );
}
