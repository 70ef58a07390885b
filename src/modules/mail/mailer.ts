// The contract other areas use to send mail (automations' SEND_EMAIL, later messaging).
// Implemented in this folder; `services.mail` holds the instance.
import type pg from 'pg';
import type { ApiError } from '../../app/errors.ts';

export interface OutgoingMail {
  teamId: bigint;
  /** defaults to the configured sender */
  from?: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** what sends it: AUTOMATION, WIZARD, SYSTEM, ... */
  source: string;
  /** for AUTOMATION, the action's idempotency key: one message per team and sourceId */
  sourceId?: string;
  /**
   * A one-recipient message the recipient may opt out of: it carries List-Unsubscribe with
   * one-click unsubscribe, and the address is suppressed for the team when used.
   */
  unsubscribe?: boolean;
  /**
   * The content carries a live credential (a sign-in code or link, a signer's link): it is
   * delivered, but the mail log shows it as withheld.
   */
  withheld?: boolean;
  /**
   * A reply in a thread (conversations' email): the In-Reply-To and References headers, each id
   * `<local@domain>`; the receiving client threads the message under them.
   */
  threading?: { inReplyTo: string; references: string[] };
}

/**
 * What became of one message of `enqueueMany`, in the order given. `existing`: an AUTOMATION
 * message whose sourceId was stored before (a repeated run); that message is answered and nothing
 * new is stored or sent.
 */
export type MailOutcome = { ok: true; id: string; simplyId: string; existing?: true } | { ok: false; error: ApiError };

export interface Mailer {
  /**
   * Stores the message and queues its delivery. With `db`, both happen in the caller's
   * transaction: the mail exists only if the caller commits.
   */
  enqueue(mail: OutgoingMail, db?: pg.PoolClient): Promise<{ id: string; simplyId: string; existing?: true }>;
  /**
   * Many messages in the caller's transaction, with a few statements for all of them. A message
   * the transport refuses (an invalid address, a body over the limits) is answered with its
   * error and not stored; the others are.
   */
  enqueueMany(mails: readonly OutgoingMail[], db: pg.PoolClient): Promise<MailOutcome[]>;
  /**
   * Where the links in messages (one-click unsubscribe) point from now on: the server's own
   * address once it listens. PUBLIC_BASE_URL, when set, wins.
   */
  setBaseUrl(url: string): void;
}
