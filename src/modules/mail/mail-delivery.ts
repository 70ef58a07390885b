// Delivery attempts (the `mail.send` jobs, taken in batches). The rows are locked for the attempt,
// so two jobs for the same message (a duplicate, a worker that came back) never both send it; the
// SMTP server's acceptance and the SENT mark are one step apart, committed right after the batch's
// replies. A failed attempt is recorded (attempts, errorMessage) and its job alone thrown back to
// pg-boss, which retries it with backoff; the last attempt records FAILED instead. A process that
// dies between the server's acceptance and the commit sends the message again on the retry: at
// least once.
import { domainToASCII } from 'node:url';
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import { parseMailbox, type Mailbox } from './mail.input.ts';
import type { SendMailJob } from './mail-queue.ts';
import { SEND_TIMEOUT_MS, type SmtpTransport } from './smtp-transport.ts';
import { inTransaction } from '../../app/transaction.ts';
import { type AttemptOutcome, failQueued, keepInOutbox, lockQueued, type QueuedRow, recordAttempts } from './mail.sql.ts';

const MAX_ERROR = 2000;

/** Stored addresses were validated on enqueue; parsing again gives nodemailer names to encode. */
function mailbox(stored: string): Mailbox {
  const parsed = parseMailbox(stored);
  return parsed.ok ? parsed.value : { name: '', address: stored };
}

/** Stable across attempts, so a receiver can tell a resend (at-least-once) from a new message. */
export function messageIdFor(simplyId: string, sender: Mailbox): string {
  const domain = domainToASCII(sender.address.slice(sender.address.lastIndexOf('@') + 1)) || 'localhost';
  return `<${simplyId}@${domain}>`;
}

/** The Message-ID the mail `simplyId` is sent with (messageIdFor under MAIL_FROM): known when it is queued, so a thread can store it. */
export function mailMessageIdOf(config: Pick<Services['config'], 'MAIL_FROM'>, simplyId: string): string {
  return messageIdFor(simplyId, mailbox(config.MAIL_FROM));
}

function describeError(error: unknown): string {
  const e = error as { message?: string; response?: string; code?: string };
  const text = e.response && !String(e.message).includes(e.response) ? `${e.message} (${e.response})` : String(e.message ?? error);
  return text.slice(0, MAX_ERROR);
}

/**
 * One attempt of each message of a batch of `mail.send` jobs: the messages are locked together,
 * sent side by side over the pooled transport, and their outcomes recorded in one statement of the
 * same transaction, committed once every reply is in. Answers, per job, the error to retry it with
 * (thrown back to pg-boss after the commit, so the attempt stays recorded), or null.
 */
export async function deliverMails(services: Services, transport: SmtpTransport | null, jobs: readonly Job<SendMailJob>[]): Promise<(Error | null)[]> {
  const envelopeSender = mailbox(services.config.MAIL_FROM);
  return inTransaction(services.pool, async (db) => {
    const rows = await lockQueued(db, jobs.map((job) => ({ teamId: job.data.teamId, simplyId: job.data.mailSimplyId })));
    if (!transport) {
      // queued while SMTP_URL was set, picked up by a worker without it: kept, not dropped
      await keepInOutbox(db, rows.map((row) => row.id), 'kept in the outbox: the worker that picked it up has no SMTP_URL');
      return jobs.map(() => null);
    }
    const rowByKey = new Map(rows.map((row) => [`${row.teamId}:${row.simplyId}`, row]));
    const attempts = jobs.map(async (job) => {
      const key = `${job.data.teamId}:${job.data.mailSimplyId}`;
      const row = rowByKey.get(key);
      // a batch holding two jobs of one message sends it once
      rowByKey.delete(key);
      return row ? attempt(services, transport, envelopeSender, job, row) : null;
    });
    const outcomes = await Promise.all(attempts);
    await recordAttempts(db, outcomes.flatMap((o) => (o ? [o.outcome] : [])));
    return outcomes.map((o) => o?.retry ?? null);
  });
}

/** A single job's attempt (deliverMails of one): throws the error it is to be retried with. */
export async function deliverMail(services: Services, transport: SmtpTransport | null, job: Job<SendMailJob>): Promise<void> {
  const [retry] = await deliverMails(services, transport, [job]);
  if (retry) throw retry;
}

async function attempt(services: Services, transport: SmtpTransport, envelopeSender: Mailbox, job: Job<SendMailJob>, row: QueuedRow): Promise<{ outcome: AttemptOutcome; retry: Error | null }> {
  const number = job.retryCount + 1;
  const isLast = number >= job.data.attempts;
  const recipients = [...row.toAddresses, ...row.ccAddresses, ...row.bccAddresses].map((a) => mailbox(a).address);
  try {
    const info = await transport.sendMail({
      messageId: messageIdFor(row.simplyId, envelopeSender),
      from: mailbox(row.fromAddress),
      to: row.toAddresses.map(mailbox),
      cc: row.ccAddresses.map(mailbox),
      bcc: row.bccAddresses.map(mailbox),
      replyTo: row.replyTo ? mailbox(row.replyTo) : undefined,
      subject: row.subject,
      text: row.textBody,
      html: row.htmlBody ?? undefined,
      headers: row.headers ?? undefined,
      // bounces and complaints come back to the message's own return path, whatever the From header says
      envelope: { from: row.envelopeFrom ?? envelopeSender.address, to: recipients },
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    const note = info.rejected.length > 0 ? `accepted for ${info.accepted.length} recipient(s); rejected: ${info.rejected.join(', ')}` : null;
    return { outcome: { id: row.id, status: 'SENT', messageId: info.serverMessageId ?? info.messageId, note }, retry: null };
  } catch (error) {
    const message = describeError(error);
    services.logger.warn({ mail: row.simplyId, attempt: number, of: job.data.attempts, err: message }, 'mail delivery attempt failed');
    return {
      outcome: { id: row.id, status: isLast ? 'FAILED' : 'QUEUED', error: message },
      retry: isLast ? null : new Error(`mail ${row.simplyId}, attempt ${number} of ${job.data.attempts}: ${message}`),
    };
  }
}

/**
 * A delivery job that pg-boss failed for good without the worker settling the row (the worker
 * died or the database was unreachable on the last attempt): the message becomes FAILED.
 */
export async function settleDeadLetters(services: Services, jobs: readonly SendMailJob[]): Promise<void> {
  await failQueued(services.pool, jobs.map((data) => ({ teamId: data.teamId, simplyId: data.mailSimplyId })));
}
