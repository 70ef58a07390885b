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
}

export interface Mailer {
  /**
   * Stores the message and queues its delivery. With `db`, both happen in the caller's
   * transaction: the mail exists only if the caller commits.
   */
  enqueue(mail: OutgoingMail, db?: pg.PoolClient): Promise<{ simplyId: string }>;
}
