// The addresses of the email channel, all on the inbound mail domain (INBOUND_MAIL_DOMAIN, see
// mail-feedback's inboundMailDomain), whose MX reaches the inbound SMTP listener:
//
//   reply+<replyToken>@<domain>  one conversation's reply address: the Reply-To of every mail the
//                                conversation sends. The token is the conversation's random
//                                `replyToken` (32 base64url characters), looked up exactly as minted
//   inbox+<inboundKey>@<domain>  the team's inbound address: mail that threads to no conversation
//                                starts a new one. The key is random (20 hex characters), made on
//                                first read, so a team's address cannot be derived from the team
//
// Anything else on the domain, and these with a token or key nobody holds, is refused at RCPT.
import { randomBytes } from 'node:crypto';
import type { Config } from '../../app/config.ts';
import { inboundMailDomain } from '../mail-feedback/index.ts';
import { ensureInboundKey } from './email.sql.ts';
import type { Db } from './sql-helpers.ts';

export const REPLY_PREFIX = 'reply+';
export const INBOX_PREFIX = 'inbox+';
const REPLY_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;
const INBOUND_KEY = /^[0-9a-f]{20}$/;

export type EmailAddressKind = { kind: 'reply'; token: string } | { kind: 'inbox'; key: string };

type DomainConfig = Pick<Config, 'INBOUND_MAIL_DOMAIN' | 'MAIL_BOUNCE_DOMAIN' | 'MAIL_FROM'>;

export function replyAddressOf(config: DomainConfig, replyToken: string): string {
  return `${REPLY_PREFIX}${replyToken}@${inboundMailDomain(config)}`;
}

export function inboxAddressOf(config: DomainConfig, inboundKey: string): string {
  return `${INBOX_PREFIX}${inboundKey}@${inboundMailDomain(config)}`;
}

/** The team's inbound address, its key made on first read. */
export async function teamInboxAddress(db: Db, config: DomainConfig, teamId: bigint): Promise<string> {
  return inboxAddressOf(config, await ensureInboundKey(db, teamId, randomBytes(10).toString('hex')));
}

/** What an address on the inbound domain names (the prefix and domain without case; the token exactly), or null. */
export function readEmailAddress(config: DomainConfig, address: string): EmailAddressKind | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== inboundMailDomain(config)) return null;
  const local = address.slice(0, at);
  const prefix = local.slice(0, REPLY_PREFIX.length).toLowerCase();
  const rest = local.slice(REPLY_PREFIX.length);
  if (prefix === REPLY_PREFIX && REPLY_TOKEN.test(rest)) return { kind: 'reply', token: rest };
  if (local.slice(0, INBOX_PREFIX.length).toLowerCase() === INBOX_PREFIX && INBOUND_KEY.test(local.slice(INBOX_PREFIX.length).toLowerCase())) {
    return { kind: 'inbox', key: local.slice(INBOX_PREFIX.length).toLowerCase() };
  }
  return null;
}
