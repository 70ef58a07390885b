// The nodemailer SMTP transport for SMTP_URL (smtp:// or smtps://, credentials in the URL, any
// nodemailer option as a query parameter). Timeouts are shortened from nodemailer's defaults
// (minutes) because an attempt holds its message rows locked while it talks to the server.
//
// Pooled: one transport per worker process keeps up to MAX_CONNECTIONS authenticated connections
// open and hands every send to a free one, so a message costs the SMTP exchange of that message
// only, not a connect, greeting and AUTH. A connection is replaced after MAX_MESSAGES messages and
// closed after a while idle. `?pool=false` (or `maxConnections`, `maxMessages`) in SMTP_URL
// overrides this.
import type { SMTPSentMessageInfo, SMTPTransportOptions, Transporter } from 'nodemailer';
import { onFirstUse } from '../../app/on-first-use.ts';
import { ConfigError } from '../../app/config.ts';

export type SmtpTransport = Transporter<SMTPSentMessageInfo, SMTPTransportOptions>;

/** The longest one send may take (waiting for a pooled connection included), whatever the server does. */
export const SEND_TIMEOUT_MS = 120_000;
export const MAX_CONNECTIONS = 5;
const MAX_MESSAGES = 1000;
/** an idle connection is closed after this long (well below the 5 minutes RFC 5321 asks servers to wait) */
const IDLE_TIMEOUT_MS = 60_000;

export function createSmtpTransport(url: string): SmtpTransport {
  const protocol = new URL(url).protocol;
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new ConfigError(`SMTP_URL must be an smtp:// or smtps:// URL, not ${protocol}//`);
  // the URL's own options win over these (nodemailer merges the object first, the URL over it)
  return onFirstUse<typeof import('nodemailer')>('nodemailer')().createTransport({
    url,
    pool: true,
    maxConnections: MAX_CONNECTIONS,
    maxMessages: MAX_MESSAGES,
    idleTimeout: IDLE_TIMEOUT_MS,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    dnsTimeout: 10_000,
  } as SMTPTransportOptions);
}
