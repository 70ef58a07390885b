// `services.mail`: validates a message, stores it, and (with SMTP configured) queues its delivery
// on the same connection, so a message exists exactly when its delivery job does. Without
// SMTP_URL the row is the delivery: STORED, readable by team admins, never dropped.
//
// Every message gets its own return path (`bounces+<token>@<bounce domain>`, mail-tokens.ts), so a
// bounce or complaint names the message it is about (docs/api/mail-feedback.md); an unsubscribable
// one carries its one-click unsubscribe link. Both are fixed when the message is stored.
import type pg from 'pg';
import { ConfigError, type Config } from '../../app/config.ts';
import type { Services } from '../../app/context.ts';
import { parseInput } from '../../app/validate.ts';
import { outgoingMailInput, parseMailbox, type ValidMail } from './mail.input.ts';
import { DEFAULT_RETRY, queueDelivery, type MailRetryPolicy } from './mail-queue.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';
import { inTransaction } from '../../db/transaction.ts';
import { mailId } from './mail.ids.ts';
import { insertMailMessage } from './mail.sql.ts';
import { mailTokensFor, returnPathFor, type MailRef } from './mail-tokens.ts';
import { unsubscribeHeaders } from './unsubscribe-link.ts';

export interface MailerOptions {
  retry?: MailRetryPolicy;
}

/** MAIL_BOUNCE_DOMAIN, else the domain of MAIL_FROM. */
export function bounceDomainOf(config: Config, senderAddress: string): string {
  return (config.MAIL_BOUNCE_DOMAIN ?? senderAddress.slice(senderAddress.lastIndexOf('@') + 1)).toLowerCase();
}

/**
 * Where links in mail point until the server listens (or in a process without HTTP):
 * PUBLIC_BASE_URL, else the address HOST and PORT give, as the CLI prints it.
 */
function configuredBaseUrl(config: Config): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `https://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}

export function createMailer(services: Omit<Services, 'mail'>, options: MailerOptions = {}): Mailer {
  const retry = options.retry ?? DEFAULT_RETRY;
  const { config } = services;
  const smtp = Boolean(config.SMTP_URL);
  const sender = parseMailbox(config.MAIL_FROM);
  if (!sender.ok) throw new ConfigError(`MAIL_FROM ${sender.message}`);
  const bounceDomain = bounceDomainOf(config, sender.value.address);
  const tokens = mailTokensFor(config.secretsKeyFile);
  let baseUrl = configuredBaseUrl(config);

  const store = async (db: pg.PoolClient, mail: ValidMail, simplyId: string): Promise<string> => {
    const ref: MailRef = { teamId: mail.teamId, simplyId };
    const id = await insertMailMessage(db, {
      simplyId,
      teamId: mail.teamId.toString(),
      from: mail.from ?? config.MAIL_FROM,
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
      envelopeFrom: returnPathFor(tokens, ref, bounceDomain),
      headers: mail.unsubscribe ? unsubscribeHeaders(baseUrl, tokens, ref) : null,
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
    setBaseUrl(url: string) {
      if (!config.PUBLIC_BASE_URL) baseUrl = url;
    },
  };
}
