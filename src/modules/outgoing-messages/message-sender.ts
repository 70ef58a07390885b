// The From of a composed email: the sender the message names, or the team's default EMAIL sender
// at the time of sending. Either must be active and verified (its address confirmed through the
// mailed link, or on a VERIFIED mail domain of the team or an operator's pre-verified one); a
// composed message never falls back to the platform's own address (a blocker says what to fix).
import type { Services } from '../../app/context.ts';
import { senderIsVerified } from '../messages/index.ts';

/** The longest display name the mail transport takes (src/modules/mail/mail.input.ts). */
const MAX_DISPLAY_NAME = 100;

export interface SendingSender {
  id: bigint;
  name: string;
  emailAddress: string;
  /** the From header: `Name <address>` */
  from: string;
}

export type SenderCheck = { ok: true; sender: SendingSender } | { ok: false; code: 'NO_SENDER' | 'SENDER_ARCHIVED' | 'SENDER_UNVERIFIED'; message: string };

/** `Name <address>` as the mail transport accepts it: the characters it refuses in a display name are dropped. */
export function fromHeader(name: string, address: string): string {
  const display = [...name.replace(/["<>\\]/g, '').trim()].slice(0, MAX_DISPLAY_NAME).join('').trim();
  return display ? `${display} <${address}>` : address;
}

export async function senderForMessage(services: Services, teamId: bigint, senderId: bigint | null): Promise<SenderCheck> {
  const row = senderId === null
    ? await services.prisma.messageSender.findFirst({ where: { teamId, deliveryMethod: 'EMAIL', archivedAt: null, isDefault: true } })
    : await services.prisma.messageSender.findFirst({ where: { teamId, id: senderId } });
  if (!row) {
    return { ok: false, code: 'NO_SENDER', message: 'No sender: name one (messageSenderSimplyId) or give the team a default EMAIL sender (POST /v1/message-senders)' };
  }
  if (row.archivedAt) return { ok: false, code: 'SENDER_ARCHIVED', message: `The sender ${row.simplyId} was deleted: choose another sender` };
  if (!row.emailAddress || !senderIsVerified(services.config, row)) {
    return { ok: false, code: 'SENDER_UNVERIFIED', message: `The sender ${row.simplyId} is not verified: confirm its address with the link mailed to it, or verify its domain` };
  }
  return { ok: true, sender: { id: row.id, name: row.name, emailAddress: row.emailAddress, from: fromHeader(row.name, row.emailAddress) } };
}
