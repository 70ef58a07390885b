// `services.mail`: validates a message, stores it, and (with SMTP configured) queues its delivery
// on the same connection, so a message exists exactly when its delivery job does. Without
// SMTP_URL the row is the delivery: STORED, readable by team admins, never dropped.
//
// Every message gets its own return path (`bounces+<token>@<bounce domain>`, mail-tokens.ts), so a
// bounce or complaint names the message it is about (docs/api/mail-feedback.md); an unsubscribable
// one carries its one-click unsubscribe link, in the headers and wherever its body holds the
// unsubscribe slot (unsubscribe-link.ts). All are fixed when the message is stored.
import type pg from 'pg';
import { ConfigError, type Config } from '../../app/config.ts';
import type { Services } from '../../app/context.ts';
import { parseInput } from '../../app/validate.ts';
import { ApiError } from '../../app/errors.ts';
import { outgoingMailInput, parseMailbox, type ValidMail } from './mail.input.ts';
import { DEFAULT_RETRY, queueDeliveries, type MailRetryPolicy } from './mail-queue.ts';
import type { Mailer, MailOutcome, OutgoingMail } from './mailer.ts';
import { inTransaction } from '../../app/transaction.ts';
import { mailId } from './mail.ids.ts';
import { type InsertedMail, insertMailMessages, type StoredMail } from './mail.sql.ts';
import { mailTokensFor, returnPathFor, type MailRef } from './mail-tokens.ts';
import { fillUnsubscribeSlot, sampleUnsubscribeUrl, unsubscribeHeaders, unsubscribeUrl } from './unsubscribe-link.ts';

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

/** The stored extra headers: the unsubscribe pair and a reply's threading headers, or null without any. */
function headersOf(unsubscribe: Record<string, string> | null, threading: ValidMail['threading']): Record<string, string> | null {
  if (!unsubscribe && !threading) return null;
  return {
    ...(unsubscribe ?? {}),
    ...(threading ? { 'In-Reply-To': threading.inReplyTo, References: [...new Set([...threading.references, threading.inReplyTo])].join(' ') } : {}),
  };
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

  const stored = (mail: ValidMail): StoredMail => {
    const ref: MailRef = { teamId: mail.teamId, simplyId: mailId.create() };
    const unsubscribe = mail.unsubscribe ? unsubscribeUrl(baseUrl, tokens, ref) : null;
    const bodyLink = unsubscribe ?? sampleUnsubscribeUrl(baseUrl);
    return {
      simplyId: ref.simplyId,
      teamId: mail.teamId.toString(),
      from: mail.from ?? config.MAIL_FROM,
      to: mail.to,
      cc: mail.cc,
      bcc: mail.bcc,
      replyTo: mail.replyTo ?? null,
      subject: mail.subject,
      text: fillUnsubscribeSlot(mail.text, bodyLink, false),
      html: mail.html === undefined ? null : fillUnsubscribeSlot(mail.html, bodyLink, true),
      transport: smtp ? 'SMTP' : 'OUTBOX',
      status: smtp ? 'QUEUED' : 'STORED',
      source: mail.source,
      sourceId: mail.sourceId ?? null,
      envelopeFrom: returnPathFor(tokens, ref, bounceDomain),
      headers: headersOf(unsubscribe ? unsubscribeHeaders(unsubscribe) : null, mail.threading),
      contentWithheld: mail.withheld,
    };
  };

  // one INSERT and one queue insert for however many messages: a composed message's batch costs
  // the same few statements as a single mail
  // (a message stored before under the same AUTOMATION sourceId is answered, not queued again)
  const store = async (db: pg.PoolClient, mails: readonly StoredMail[]): Promise<InsertedMail[]> => {
    const rows = await insertMailMessages(db, mails);
    const fresh = mails.filter((_, i) => rows[i]!.stored);
    if (smtp && fresh.length > 0) await queueDeliveries(services.jobs, db, fresh.map((mail) => ({ teamId: mail.teamId, mailSimplyId: mail.simplyId, attempts: retry.attempts })), retry);
    return rows;
  };

  const enqueueMany = async (raw: readonly OutgoingMail[], db: pg.PoolClient): Promise<MailOutcome[]> => {
    const outcomes = raw.map((mail): { mail: StoredMail } | { refused: ApiError } => {
      try {
        return { mail: stored(parseInput(outgoingMailInput, mail, 'Invalid mail message')) };
      } catch (error) {
        if (error instanceof ApiError) return { refused: error };
        throw error;
      }
    });
    const accepted = outcomes.flatMap((o) => ('mail' in o ? [o.mail] : []));
    const rows = await store(db, accepted);
    const rowOf = new Map(accepted.map((mail, i) => [mail.simplyId, rows[i]!]));
    return outcomes.map((o): MailOutcome => {
      if (!('mail' in o)) return { ok: false, error: o.refused };
      const row = rowOf.get(o.mail.simplyId)!;
      return { ok: true, id: row.id, simplyId: row.simplyId, ...(row.stored ? {} : { existing: true }) };
    });
  };

  return {
    async enqueue(raw: OutgoingMail, db?: pg.PoolClient) {
      const [outcome] = db ? await enqueueMany([raw], db) : await inTransaction(services.pool, (client) => enqueueMany([raw], client));
      if (!outcome!.ok) throw outcome!.error;
      return { id: outcome!.id, simplyId: outcome!.simplyId, ...(outcome!.existing ? { existing: true } : {}) };
    },
    enqueueMany,
    setBaseUrl(url: string) {
      if (!config.PUBLIC_BASE_URL) baseUrl = url;
    },
  };
}
