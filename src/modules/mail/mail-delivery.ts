// One delivery attempt of one message (the `mail.send` job). The row is locked for the attempt,
// so two jobs for the same message (a duplicate, a worker that came back) never both send it; the
// SMTP server's acceptance and the SENT mark are one step apart, committed right after the reply.
// A failed attempt is recorded (attempts, errorMessage) and the job thrown back to pg-boss, which
// retries it with backoff; the last attempt records FAILED instead. A process that dies between
// the server's acceptance and the commit sends the message again on the retry: at least once.
import { domainToASCII } from 'node:url';
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import { parseMailbox, type Mailbox } from './mail.input.ts';
import type { SendMailJob } from './mail-queue.ts';
import { SEND_TIMEOUT_MS, type SmtpTransport } from './smtp-transport.ts';
import { inTransaction } from '../../db/transaction.ts';
import { failQueued, keepInOutbox, lockQueued, markSent, recordFailedAttempt } from './mail.sql.ts';

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

function describeError(error: unknown): string {
  const e = error as { message?: string; response?: string; code?: string };
  const text = e.response && !String(e.message).includes(e.response) ? `${e.message} (${e.response})` : String(e.message ?? error);
  return text.slice(0, MAX_ERROR);
}

export async function deliverMail(services: Services, transport: SmtpTransport | null, job: Job<SendMailJob>): Promise<void> {
  const attempt = job.retryCount + 1;
  const isLast = attempt >= job.data.attempts;
  const envelopeSender = mailbox(services.config.MAIL_FROM);
  const retry = await inTransaction(services.pool, async (db): Promise<Error | null> => {
    const row = await lockQueued(db, job.data.teamId, job.data.mailSimplyId);
    if (!row) return null;
    if (!transport) {
      // queued while SMTP_URL was set, picked up by a worker without it: kept, not dropped
      await keepInOutbox(db, row.id, 'kept in the outbox: the worker that picked it up has no SMTP_URL');
      return null;
    }
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
        // bounces come back to the platform's sender, whatever the From header says
        envelope: { from: envelopeSender.address, to: recipients },
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      const rejected = info.rejected.length > 0 ? `accepted for ${info.accepted.length} recipient(s); rejected: ${info.rejected.join(', ')}` : null;
      await markSent(db, row.id, info.serverMessageId ?? info.messageId, rejected);
      return null;
    } catch (error) {
      const message = describeError(error);
      await recordFailedAttempt(db, row.id, message, isLast ? 'FAILED' : 'QUEUED');
      services.logger.warn({ mail: row.simplyId, attempt, of: job.data.attempts, err: message }, 'mail delivery attempt failed');
      return isLast ? null : new Error(`mail ${row.simplyId}, attempt ${attempt} of ${job.data.attempts}: ${message}`);
    }
  });
  // thrown after the commit, so the attempt stays recorded while pg-boss schedules the retry
  if (retry) throw retry;
}

/**
 * A delivery job that pg-boss failed for good without the worker settling the row (the worker
 * died or the database was unreachable on the last attempt): the message becomes FAILED.
 */
export async function settleDeadLetter(services: Services, data: SendMailJob): Promise<void> {
  await failQueued(services.pool, data.teamId, data.mailSimplyId);
}
