// Single-sender verification: a team that cannot publish a DNS record proves one address by
// following a link mailed to it. The link carries 256 random bits; only a keyed hash of them is
// stored (HMAC under a key derived from the instance's secrets key, so a copy of the database
// neither yields working links nor lets anyone mint one). A link works once, for 24 hours; mailing
// a new one replaces the old. docs/api/messages.md "Senders and mail domains".
import { createHmac } from 'node:crypto';
import type pg from 'pg';
import type { MessageSender } from '../../generated/prisma/client.ts';
import { constantTimeEqual } from '../../app/auth/tokens.ts';
import type { Config } from '../../app/config.ts';
import type { Services } from '../../app/context.ts';
import { publicBaseUrl } from '../../app/public-address.ts';
import { randomSecret } from '../../app/ids.ts';
import { derivedSecretsKey } from '../../app/secrets-key.ts';
import { inTransaction } from '../../app/transaction.ts';
import { domainOfAddress } from './message-senders.input.ts';
import { preverifiedDomains } from './messages.config.ts';

/** Served by the front door (module.ts httpEndpoints), outside /v1: the link is opened in a browser. */
export const SENDER_VERIFICATION_PATH = '/sender-verification/';
export const SENDER_TOKEN_PREFIX = 'svc_msv_';
export const VERIFICATION_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** between two confirmation mails of one sender, so the resend route cannot flood a mailbox */
export const RESEND_COOLDOWN_MS = 60 * 1000;
/** what a well-formed token looks like: the prefix and 43 base64url characters */
export const SENDER_TOKEN_PATTERN = /^svc_msv_[A-Za-z0-9_-]{43}$/;

/** The stored form of a token. */
export function senderTokenHash(config: Pick<Config, 'secretsKeyFile'>, token: string): string {
  return createHmac('sha256', derivedSecretsKey(config.secretsKeyFile, 'svc sender verification v1')).update(`sender-verification\0${token}`).digest('hex');
}

/** Constant time over the whole stored hash, whatever the given token. */
export function tokenMatches(stored: string | null, computed: string): boolean {
  return constantTimeEqual(stored ?? '0'.repeat(computed.length), computed) && stored !== null;
}

export function senderVerificationLink(services: Services, token: string): string {
  return `${publicBaseUrl(services)}${SENDER_VERIFICATION_PATH}${token}`;
}

export type VerifiableSender = Pick<MessageSender, 'emailAddress' | 'verificationStatus' | 'domainId'>;

/** Whether the operator vouches for the address's domain (MAIL_PREVERIFIED_DOMAINS). */
export function onPreverifiedDomain(config: Pick<Config, 'MAIL_PREVERIFIED_DOMAINS'>, address: string): boolean {
  return preverifiedDomains(config).has(domainOfAddress(address));
}

/**
 * Whether mail may go out from the sender: its own address was confirmed (or it was verified when
 * created), or it is on a VERIFIED mail domain of its team, or on a domain the operator
 * pre-verified. `domainId` is set only once the domain is VERIFIED, a domain never goes back to
 * PENDING and cannot be deleted under an active sender, so a set `domainId` is a verified domain.
 * The same answer as the sender's `verificationStatus` in the API.
 */
export function senderIsVerified(config: Pick<Config, 'MAIL_PREVERIFIED_DOMAINS'>, sender: VerifiableSender): boolean {
  if (!sender.emailAddress) return false;
  return sender.verificationStatus === 'VERIFIED' || sender.domainId !== null || onPreverifiedDomain(config, sender.emailAddress);
}

/**
 * Mints a fresh link for a PENDING sender and mails it to its address, on one connection: the
 * stored hash and the mail exist together or not at all. The previous link stops working.
 * `cooldownMs`: only if the last mail is at least that old (checked in the same UPDATE, so two
 * concurrent resends send one mail). False: nothing sent (verified, archived, or too soon).
 */
export async function mailConfirmation(
  services: Services,
  sender: Pick<MessageSender, 'id' | 'teamId' | 'simplyId' | 'name' | 'emailAddress'>,
  teamName: string,
  cooldownMs = 0,
): Promise<boolean> {
  const token = `${SENDER_TOKEN_PREFIX}${randomSecret()}`;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + VERIFICATION_LINK_TTL_MS);
  const link = senderVerificationLink(services, token);
  return inTransaction(services.pool, async (db: pg.PoolClient) => {
    const { rowCount } = await db.query(
      `UPDATE "MessageSender" SET "verificationTokenHash" = $3, "verificationExpiresAt" = $4, "verificationSentAt" = $5, "updatedAt" = now()
        WHERE "teamId" = $1 AND id = $2 AND "verificationStatus" = 'PENDING' AND "domainId" IS NULL AND "archivedAt" IS NULL
          AND ("verificationSentAt" IS NULL OR "verificationSentAt" <= $6)`,
      [sender.teamId, sender.id, senderTokenHash(services.config, token), expiresAt, now, new Date(now.getTime() - cooldownMs)],
    );
    if (rowCount === 0) return false;
    await services.mail.enqueue(
      {
        teamId: sender.teamId,
        to: [sender.emailAddress!],
        subject: 'Confirm this address as a sender',
        text: confirmationText(teamName, sender.name, sender.emailAddress!, link),
        source: 'SENDER_VERIFICATION',
        sourceId: sender.simplyId,
        withheld: true,
      },
      db,
    );
    return true;
  });
}

function confirmationText(teamName: string, senderName: string, address: string, link: string): string {
  return [
    'Hello,',
    '',
    `The team "${teamName}" wants to send email as "${senderName}" <${address}>.`,
    'If you manage this mailbox and agree, open this link and press the button on the page:',
    '',
    link,
    '',
    'The link works once, within 24 hours. If you did not expect this message, ignore it:',
    'nothing will be sent from this address.',
    '',
  ].join('\n');
}
