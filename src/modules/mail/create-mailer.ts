// `services.mail`: validates a message, stores it, and (with SMTP configured) queues its delivery
// on the same connection, so a message exists exactly when its delivery job does. Without
// SMTP_URL the row is the delivery: STORED, readable by team admins, never dropped.
import type pg from 'pg';
import { ConfigError } from '../../app/config.ts';
import type { Services } from '../../app/context.ts';
import { newSimplyId } from '../../app/ids.ts';
import { parseInput } from '../../app/validate.ts';
import { outgoingMailInput, parseMailbox, type ValidMail } from './mail.input.ts';
import { DEFAULT_RETRY, queueDelivery, type MailRetryPolicy } from './mail-queue.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';
import { inTransaction } from '../../db/transaction.ts';

export interface MailerOptions {
  retry?: MailRetryPolicy;
}

export function createMailer(services: Omit<Services, 'mail'>, options: MailerOptions = {}): Mailer {
  const retry = options.retry ?? DEFAULT_RETRY;
  const smtp = Boolean(services.config.SMTP_URL);
  const sender = parseMailbox(services.config.MAIL_FROM);
  if (!sender.ok) throw new ConfigError(`MAIL_FROM ${sender.message}`);

  const store = async (db: pg.PoolClient, mail: ValidMail, simplyId: string): Promise<void> => {
    await db.query(
      `INSERT INTO "MailMessage" ("simplyId", "teamId", "fromAddress", "toAddresses", "ccAddresses", "bccAddresses", "replyTo",
         subject, "textBody", "htmlBody", transport, status, source, "sourceId")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::"MailStatus", $13, $14)`,
      [
        simplyId,
        mail.teamId.toString(),
        mail.from ?? services.config.MAIL_FROM,
        mail.to,
        mail.cc,
        mail.bcc,
        mail.replyTo ?? null,
        mail.subject,
        mail.text,
        mail.html ?? null,
        smtp ? 'SMTP' : 'OUTBOX',
        smtp ? 'QUEUED' : 'STORED',
        mail.source,
        mail.sourceId ?? null,
      ],
    );
    if (smtp) await queueDelivery(services.jobs, db, { teamId: mail.teamId.toString(), mailSimplyId: simplyId, attempts: retry.attempts }, retry);
  };

  return {
    async enqueue(raw: OutgoingMail, db?: pg.PoolClient) {
      const mail = parseInput(outgoingMailInput, raw, 'Invalid mail message');
      const simplyId = newSimplyId('mail');
      if (db) await store(db, mail, simplyId);
      else await inTransaction(services.pool, (client) => store(client, mail, simplyId));
      return { simplyId };
    },
  };
}
