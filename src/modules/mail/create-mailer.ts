// `services.mail`: validates a message, stores it, and (with SMTP configured) queues its delivery
// on the same connection, so a message exists exactly when its delivery job does. Without
// SMTP_URL the row is the delivery: STORED, readable by team admins, never dropped.
import type pg from 'pg';
import { ConfigError } from '../../app/config.ts';
import type { Services } from '../../app/context.ts';
import { parseInput } from '../../app/validate.ts';
import { outgoingMailInput, parseMailbox, type ValidMail } from './mail.input.ts';
import { DEFAULT_RETRY, queueDelivery, type MailRetryPolicy } from './mail-queue.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';
import { inTransaction } from '../../db/transaction.ts';
import { mailId } from './mail.ids.ts';
import { insertMailMessage } from './mail.sql.ts';

export interface MailerOptions {
  retry?: MailRetryPolicy;
}

export function createMailer(services: Omit<Services, 'mail'>, options: MailerOptions = {}): Mailer {
  const retry = options.retry ?? DEFAULT_RETRY;
  const smtp = Boolean(services.config.SMTP_URL);
  const sender = parseMailbox(services.config.MAIL_FROM);
  if (!sender.ok) throw new ConfigError(`MAIL_FROM ${sender.message}`);

  const store = async (db: pg.PoolClient, mail: ValidMail, simplyId: string): Promise<string> => {
    const id = await insertMailMessage(db, {
      simplyId,
      teamId: mail.teamId.toString(),
      from: mail.from ?? services.config.MAIL_FROM,
      to: mail.to,
      cc: mail.cc,
      bcc: mail.bcc,
      replyTo: mail.replyTo ?? null,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      transport: smtp ? 'SMTP' : 'OUTBOX',
      status: smtp ? 'QUEUED' : 'STORED',
      source: mail.source,
      sourceId: mail.sourceId ?? null,
    });
    if (smtp) await queueDelivery(services.jobs, db, { teamId: mail.teamId.toString(), mailSimplyId: simplyId, attempts: retry.attempts }, retry);
    return id;
  };

  return {
    async enqueue(raw: OutgoingMail, db?: pg.PoolClient) {
      const mail = parseInput(outgoingMailInput, raw, 'Invalid mail message');
      const simplyId = mailId.create();
      const id = db ? await store(db, mail, simplyId) : await inTransaction(services.pool, (client) => store(client, mail, simplyId));
      return { id, simplyId };
    },
  };
}
