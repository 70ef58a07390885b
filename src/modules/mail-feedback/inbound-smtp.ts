// The inbound SMTP listener (INBOUND_SMTP_PORT): the MX of the bounce domain points here, and the
// only mail it takes is mail to a return path the platform minted (`bounces+<token>@…`); any other
// recipient is refused at RCPT, so it never relays and never becomes anyone's mailbox. A message is
// read once it is complete, its report applied to the mail the token names, and only then
// accepted: a database that is away answers 451 and the sending server tries again later.
// Anything that is no report (an auto-reply, a bounce in prose, garbage) is accepted and dropped:
// refusing it would only make the sending server mail a bounce of the bounce to someone.
// Other areas' addresses (conversations' reply and inbox addresses) are claimed by the handlers
// they register (inbound-mail-handlers.ts); each gets the message with its own recipients, and a
// handler's failure answers 451 like the reports' does.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import type { SMTPServerAddress, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import type { Services } from '../../app/context.ts';
import type { ModuleListener } from '../../app/module.ts';
import { onFirstUse } from '../../app/on-first-use.ts';
import { mailTokensFor, readReturnPath, type MailRef, type MailTokens } from '../mail/index.ts';
import { applyFeedback } from './apply-feedback.ts';
import type { InboundMailHandler } from './inbound-mail-handlers.ts';
import { effectsOf } from './feedback-effects.ts';
import { readReport } from './feedback-reports.ts';

/** A report returns at most the original message (the mail area's own limits keep that below 1 MiB) with some prose. */
export const MAX_INBOUND_BYTES = 2 * 1024 * 1024;
/** sessions at once; more are told 421 and come back later */
const MAX_CLIENTS = 50;
const SOCKET_TIMEOUT_MS = 60_000;

/** Where tests (and an operator's logs) find the listener: set once it listens. */
export interface InboundSmtpState {
  address: AddressInfo | null;
}

class SmtpReply extends Error {
  responseCode: number;
  constructor(code: number, message: string) {
    super(message);
    this.responseCode = code;
  }
}

function readAll(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

/** The mails a session's recipients name, once each. */
function mailsOf(tokens: MailTokens, session: SMTPServerSession): MailRef[] {
  const byKey = new Map<string, MailRef>();
  for (const rcpt of session.envelope.rcptTo) {
    const ref = readReturnPath(tokens, rcpt.address);
    if (ref) byKey.set(`${ref.teamId}:${ref.simplyId}`, ref);
  }
  return [...byKey.values()];
}

/** The handler that claimed each recipient at RCPT, by session (smtp-server keeps no per-recipient data). */
const claimedBy = new WeakMap<SMTPServerSession, Map<string, InboundMailHandler>>();

/** The recipients each handler claimed in the session. */
function handlerRecipients(session: SMTPServerSession): Map<InboundMailHandler, string[]> {
  const byHandler = new Map<InboundMailHandler, string[]>();
  const current = new Set(session.envelope.rcptTo.map((r) => r.address));
  for (const [address, handler] of claimedBy.get(session) ?? []) {
    if (current.has(address)) byHandler.set(handler, [...(byHandler.get(handler) ?? []), address]);
  }
  return byHandler;
}

async function receive(services: Services, tokens: MailTokens, stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
  const raw = await readAll(stream);
  const limit = Math.max(MAX_INBOUND_BYTES, ...[...handlerRecipients(session).keys()].map((h) => h.maxBytes));
  if (stream.sizeExceeded || raw.length > limit) throw new SmtpReply(552, `5.3.4 messages are limited to ${limit} bytes`);
  const receivedAt = new Date();
  for (const [handler, recipients] of handlerRecipients(session)) {
    if (raw.length > handler.maxBytes) throw new SmtpReply(552, `5.3.4 messages to ${recipients[0]} are limited to ${handler.maxBytes} bytes`);
    await handler.receive({ raw, recipients, envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', receivedAt });
  }
  const mails = mailsOf(tokens, session);
  if (mails.length === 0) return 'message accepted';
  if (raw.length > MAX_INBOUND_BYTES) throw new SmtpReply(552, `5.3.4 reports are limited to ${MAX_INBOUND_BYTES} bytes`);
  const report = await readReport(raw);
  if (report.kind === 'unrecognised') {
    services.logger.info({ mails: mails.map((m) => m.simplyId), reason: report.reason, bytes: raw.length }, 'inbound mail: no bounce or complaint report; dropped');
    return 'accepted (no report found)';
  }
  const effects = effectsOf(report);
  for (const ref of mails) {
    const outcome = await applyFeedback(services.pool, ref, effects);
    services.logger.info(
      { mail: ref.simplyId, report: report.kind, ...(outcome.found ? { state: outcome.state, suppressed: outcome.suppressed } : { found: false }) },
      'inbound mail: report applied',
    );
  }
  return 'report accepted';
}

function tlsOptions(services: Services): { key: Buffer; cert: Buffer } | null {
  const { TLS_CERT_FILE, TLS_KEY_FILE } = services.config;
  if (!TLS_CERT_FILE || !TLS_KEY_FILE) return null;
  return { key: fs.readFileSync(TLS_KEY_FILE), cert: fs.readFileSync(TLS_CERT_FILE) };
}

/** The first handler that claims the address, or null. */
async function claimRecipient(handlers: readonly InboundMailHandler[], address: string): Promise<InboundMailHandler | null> {
  for (const handler of handlers) if (await handler.claims(address)) return handler;
  return null;
}

/** Starts the listener when INBOUND_SMTP_PORT is set; null otherwise. */
export async function startInboundSmtp(services: Services, state: InboundSmtpState): Promise<ModuleListener | null> {
  const { config, logger } = services;
  if (config.INBOUND_SMTP_PORT === undefined) return null;
  const tokens = mailTokensFor(config.secretsKeyFile);
  // STARTTLS with the platform's own certificate when it has one; never smtp-server's built-in sample certificate
  const tls = tlsOptions(services);
  const { SMTPServer } = onFirstUse<typeof import('smtp-server')>('smtp-server')();
  const handlers = services.inboundMail.handlers;
  const server = new SMTPServer({
    ...(tls ?? {}),
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: Math.max(MAX_INBOUND_BYTES, ...handlers.map((h) => h.maxBytes)),
    rejectOversized: true,
    maxClients: MAX_CLIENTS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address: SMTPServerAddress, session, callback) {
      if (readReturnPath(tokens, address.address)) return callback();
      claimRecipient(handlers, address.address).then(
        (handler) => {
          if (!handler) return callback(new SmtpReply(550, '5.1.1 no such recipient: this server takes mail for addresses it issued only'));
          const claimed = claimedBy.get(session) ?? new Map<string, InboundMailHandler>();
          claimed.set(address.address, handler);
          claimedBy.set(session, claimed);
          callback();
        },
        (error: unknown) => {
          logger.warn({ err: error }, 'inbound mail: recipient not checked; answered 451');
          callback(new SmtpReply(451, '4.3.0 temporary failure, try again later'));
        },
      );
    },
    onMailFrom(_address, session, callback) {
      // each message of a session claims its own recipients
      claimedBy.delete(session);
      callback();
    },
    onData(stream, session, callback) {
      receive(services, tokens, stream, session).then(
        (message) => callback(null, message),
        (error: unknown) => {
          if (error instanceof SmtpReply) return callback(error);
          // the report could not be recorded (the database is away): the sending server tries again later
          logger.warn({ err: error }, 'inbound mail: report not recorded; answered 451');
          stream.resume();
          callback(new SmtpReply(451, '4.3.0 temporary failure, try again later'));
        },
      );
    },
  });
  // a client's protocol error is its session's problem; the listener goes on
  server.on('error', (error) => logger.warn({ err: error }, 'inbound SMTP listener error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(config.INBOUND_SMTP_PORT, config.INBOUND_SMTP_HOST, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  state.address = server.server.address() as AddressInfo;
  logger.info({ address: state.address }, 'inbound SMTP listener for delivery reports and complaints');
  return {
    close: (deadline) =>
      new Promise<void>((resolve) => {
        // sessions still open may finish their message until the deadline; smtp-server then says 421 and cuts them
        server.options.closeTimeout = Math.max(1, deadline - Date.now());
        server.close(() => {
          state.address = null;
          resolve();
        });
      }),
  };
}
