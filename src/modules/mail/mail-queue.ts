// The delivery queue: one pg-boss job per message, inserted through the connection that wrote the
// message row so that both commit (or roll back) together. The retry policy travels with the job,
// so the worker knows which attempt is the last without asking anyone.
import type pg from 'pg';
import { onConnection, type Jobs } from '../../app/jobs.ts';

export const SEND_MAIL = 'mail.send';
/** Where pg-boss puts a delivery job that failed for good without the worker recording it (a crash on the last attempt). */
export const SEND_MAIL_FAILED = 'mail.send-failed';

export interface MailRetryPolicy {
  /** attempts in all, the first included */
  attempts: number;
  /** delay before the first retry */
  delaySeconds: number;
  /** doubles the delay on each retry (with jitter), up to `maxDelaySeconds` */
  backoff: boolean;
  maxDelaySeconds: number;
}

/** Six attempts over roughly half an hour: 30 s, 1, 2, 4, 8 min (each up to twice that with jitter). */
export const DEFAULT_RETRY: MailRetryPolicy = { attempts: 6, delaySeconds: 30, backoff: true, maxDelaySeconds: 3600 };

/** One attempt holds the SMTP exchange; the nodemailer timeouts (smtp-transport.ts) keep it well under this. */
const ATTEMPT_EXPIRY_SECONDS = 180;

export interface SendMailJob {
  teamId: string;
  mailSimplyId: string;
  /** the policy's `attempts`: the worker records FAILED after this many */
  attempts: number;
}


/** Delivery jobs for stored messages, one statement, on the connection (and in the transaction) that stored them. */
export async function queueDeliveries(jobs: Jobs, db: pg.PoolClient, data: readonly SendMailJob[], policy: MailRetryPolicy): Promise<void> {
  if (data.length === 0) return;
  const options = {
    retryLimit: policy.attempts - 1,
    retryDelay: policy.delaySeconds,
    retryBackoff: policy.backoff,
    ...(policy.backoff ? { retryDelayMax: policy.maxDelaySeconds } : {}),
    expireInSeconds: ATTEMPT_EXPIRY_SECONDS,
    deadLetter: SEND_MAIL_FAILED,
  };
  await jobs.boss.insert(SEND_MAIL, data.map((job) => ({ data: job, ...options })), { db: onConnection(db) });
}
