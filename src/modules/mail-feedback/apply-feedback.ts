// A report's effects on the mail it is about, in one transaction with the mail row locked, so two
// reports about one mail (a delivery and a late bounce arriving together) are applied in turn and
// the precedence holds whatever their order.
import type pg from 'pg';
import { inTransaction } from '../../app/transaction.ts';
import { type MailRef, parseMailbox } from '../mail/index.ts';
import { supersedes, type FeedbackEffect } from './feedback-effects.ts';
import { findFeedbackMail, noteFeedback, setFeedbackState, suppress, type FeedbackMail } from './feedback.sql.ts';

/** The lower-cased addresses of a mail's recipients. */
export function recipientAddresses(mail: FeedbackMail): string[] {
  return mail.recipients.map((stored) => {
    const parsed = parseMailbox(stored);
    return (parsed.ok ? parsed.value.address : stored).toLowerCase();
  });
}

/**
 * Which address a report means: its own when it is one of the mail's recipients, else the mail's
 * only recipient (a forwarded address reports where it ended up), else none.
 */
function addressMeant(mail: FeedbackMail, reported: string | null): string | null {
  const recipients = recipientAddresses(mail);
  if (reported && recipients.includes(reported)) return reported;
  return recipients.length === 1 ? recipients[0]! : null;
}

export type ApplyOutcome = { found: false } | { found: true; state: string | null; suppressed: string[] };

export async function applyFeedback(pool: pg.Pool, ref: MailRef, effects: readonly FeedbackEffect[]): Promise<ApplyOutcome> {
  return inTransaction(pool, async (db) => {
    const mail = await findFeedbackMail(db, ref, { forUpdate: true });
    if (!mail) return { found: false };
    let state = mail.feedbackState;
    const suppressed: string[] = [];
    for (const effect of effects) {
      if (effect.state === null) {
        if (state === null) await noteFeedback(db, mail.id, effect.detail);
      } else if (supersedes(effect.state, state)) {
        await setFeedbackState(db, mail.id, effect.state, effect.detail);
        state = effect.state;
      }
      // suppressed whatever the state: a bounce after a complaint still says the address is gone
      const address = effect.suppress ? addressMeant(mail, effect.suppress.address) : null;
      if (effect.suppress && address) {
        await suppress(db, mail.teamId, address, effect.suppress.reason, mail.id);
        suppressed.push(effect.suppress.reason);
      }
    }
    return { found: true, state, suppressed };
  });
}
