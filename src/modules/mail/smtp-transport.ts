// The nodemailer SMTP transport for SMTP_URL (smtp:// or smtps://, credentials in the URL, any
// nodemailer option as a query parameter). Timeouts are shortened from nodemailer's defaults
// (minutes) because an attempt holds its message row locked while it talks to the server.
import nodemailer from 'nodemailer';
import type { SMTPSentMessageInfo, SMTPTransportOptions, Transporter } from 'nodemailer';
import { ConfigError } from '../../app/config.ts';

export type SmtpTransport = Transporter<SMTPSentMessageInfo, SMTPTransportOptions>;

/** The longest one send may take, whatever the server does. */
export const SEND_TIMEOUT_MS = 120_000;

export function createSmtpTransport(url: string): SmtpTransport {
  const protocol = new URL(url).protocol;
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new ConfigError(`SMTP_URL must be an smtp:// or smtps:// URL, not ${protocol}//`);
  return nodemailer.createTransport({
    url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    dnsTimeout: 10_000,
  });
}
