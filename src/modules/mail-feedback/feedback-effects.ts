// What a report does to the mail it is about (docs/api/mail-feedback.md "States"): the state it
// moves to under the precedence COMPLAINED > BOUNCED > DELIVERED, the short detail kept with it,
// and the address suppressed for the team.
import type { MailFeedbackStateName } from '../mail/index.ts';
import type { DsnRecipient, FeedbackReport } from './feedback-reports.ts';
import type { SuppressionReason } from './suppressions.input.ts';

export type { SuppressionReason };

export const MAX_FEEDBACK_DETAIL = 500;

export interface FeedbackEffect {
  /** null: a note only (delayed, relayed): the detail is kept while the mail has no state yet */
  state: MailFeedbackStateName | null;
  detail: string;
  /** the address to suppress: the report's own (null: the mail's only recipient); MANUAL is people's, never feedback's */
  suppress: { address: string | null; reason: Exclude<SuppressionReason, 'MANUAL'> } | null;
}

const RANK: Record<MailFeedbackStateName, number> = { DELIVERED: 1, BOUNCED: 2, COMPLAINED: 3 };

/** Whether `next` replaces `current`: a complaint is final, a bounce replaces a delivery, never the reverse. */
export function supersedes(next: MailFeedbackStateName, current: string | null): boolean {
  return RANK[next] > (current ? (RANK[current as MailFeedbackStateName] ?? 0) : 0);
}

/** One line, no control characters, at most MAX_FEEDBACK_DETAIL characters. */
export function shortDetail(text: string): string {
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length <= MAX_FEEDBACK_DETAIL ? line : `${line.slice(0, MAX_FEEDBACK_DETAIL - 1)}…`;
}

function recipientEffect(recipient: DsnRecipient): FeedbackEffect {
  const detail = shortDetail([recipient.action, recipient.status, recipient.diagnostic].filter(Boolean).join(' '));
  switch (recipient.action) {
    case 'delivered':
    case 'expanded':
      // expanded: delivered to a list or alias that passed it on
      return { state: 'DELIVERED', detail, suppress: null };
    case 'failed':
      // a 4.x.x failure is a soft bounce the sending server gave up on: the mail bounced, the address stays usable
      return { state: 'BOUNCED', detail, suppress: recipient.status?.startsWith('5.') ? { address: recipient.address, reason: 'HARD_BOUNCE' } : null };
    case 'delayed':
    case 'relayed':
      // still trying, or passed to a system that will not report: no final word
      return { state: null, detail, suppress: null };
  }
}

export function effectsOf(report: FeedbackReport): FeedbackEffect[] {
  switch (report.kind) {
    case 'delivery-status':
      return report.recipients.map(recipientEffect);
    case 'complaint':
      return [{ state: 'COMPLAINED', detail: shortDetail(`complaint ${report.feedbackType}`), suppress: { address: report.address, reason: 'COMPLAINT' } }];
    case 'unrecognised':
      return [];
  }
}
