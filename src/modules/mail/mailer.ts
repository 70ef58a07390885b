// The contract other areas use to send mail (automations' SEND_EMAIL, later messaging).
// Implemented in this folder; `services.mail` holds the instance.
import type pg from 'pg';

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
  sourceId?: string;
  /**
   * A one-recipient message the recipient may opt out of: it carries List-Unsubscribe with
   * one-click unsubscribe, and the address is suppressed for the team when used.
   */
  unsubscribe?: boolean;
}

export interface Mailer {
  /**
   * Stores the message and queues its delivery. With `db`, both happen in the caller's
   * transaction: the mail exists only if the caller commits.
   */
  enqueue(mail: OutgoingMail, db?: pg.PoolClient): Promise<{ id: string; simplyId: string }>;
  /**
   * Where the links in messages (one-click unsubscribe) point from now on: the server's own
   * address once it listens. PUBLIC_BASE_URL, when set, wins.
   */
  setBaseUrl(url: string): void;
}
