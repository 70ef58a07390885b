// Reading what arrived at a return path: a delivery status notification (RFC 3464; RFC 6533's
// message/global-delivery-status too) or a complaint (ARF, RFC 5965). The MIME structure is
// mailparser's; a report is recognised by its machine-readable part, wherever the sending server
// put it, and everything else (auto-replies, bounces in prose only) is no report.
import type { ParsedMail } from 'mailparser';
import { onFirstUse } from '../../app/on-first-use.ts';

const mailparser = onFirstUse<typeof import('mailparser')>('mailparser');

export const DSN_ACTIONS = ['delivered', 'failed', 'delayed', 'relayed', 'expanded'] as const;
export type DsnAction = (typeof DSN_ACTIONS)[number];

export interface DsnRecipient {
  action: DsnAction;
  /** `5.1.1`: class.subject.detail, or null when the report has none (or a malformed one) */
  status: string | null;
  /** the lower-cased address the report is about (Final-Recipient, else Original-Recipient) */
  address: string | null;
  /** the receiving server's own words, e.g. `smtp; 550 5.1.1 user unknown` */
  diagnostic: string | null;
}

export type FeedbackReport =
  | { kind: 'delivery-status'; recipients: DsnRecipient[] }
  | {
      kind: 'complaint';
      /** abuse, fraud, virus, other (ARF Feedback-Type, lower-cased) */
      feedbackType: string;
      /** Original-Rcpt-To: the complaining recipient, when the report says */
      address: string | null;
    }
  | { kind: 'unrecognised'; reason: string };

const DELIVERY_STATUS_TYPES = new Set(['message/delivery-status', 'message/global-delivery-status']);
const FEEDBACK_REPORT_TYPE = 'message/feedback-report';
/**
 * Feedback types that mean "the recipient does not want this": RFC 5965's. auth-failure
 * (RFC 6591) reports a failed DKIM or SPF check, not a person's complaint; not-spam is the opposite.
 */
const COMPLAINT_TYPES = new Set(['abuse', 'fraud', 'virus', 'other']);
const STATUS = /^([245])\.(\d{1,3})\.(\d{1,3})$/;

/** "Name: value" fields of a header-like block, groups separated by blank lines; names lower-cased, values unfolded. */
export function fieldGroups(text: string): Map<string, string>[] {
  const groups: Map<string, string>[] = [];
  let current = new Map<string, string>();
  let last: string | null = null;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (current.size > 0) groups.push(current);
      current = new Map();
      last = null;
    } else if (/^[ \t]/.test(line) && last) {
      current.set(last, `${current.get(last)} ${line.trim()}`);
    } else {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      last = line.slice(0, colon).trim().toLowerCase();
      // the first of a repeated field counts
      if (!current.has(last)) current.set(last, line.slice(colon + 1).trim());
      else last = null;
    }
  }
  if (current.size > 0) groups.push(current);
  return groups;
}

/** `rfc822; Ada@Example.test` → `ada@example.test` (utf-8 typed addresses too). */
function addressOf(field: string | undefined): string | null {
  if (!field) return null;
  const value = (field.includes(';') ? field.slice(field.indexOf(';') + 1) : field).trim().replace(/^<(.*)>$/, '$1');
  return value.includes('@') ? value.toLowerCase() : null;
}

function actionOf(group: Map<string, string>, status: string | null): DsnAction | null {
  const action = group.get('action')?.toLowerCase().split(/[\s(]/)[0];
  if ((DSN_ACTIONS as readonly string[]).includes(action ?? '')) return action as DsnAction;
  // no (known) Action: the status class still says what happened
  if (status?.startsWith('2.')) return 'delivered';
  if (status?.startsWith('4.')) return 'delayed';
  if (status?.startsWith('5.')) return 'failed';
  return null;
}

function readDeliveryStatus(text: string): FeedbackReport {
  // the first group is about the message, the others each about one recipient
  const recipients = fieldGroups(text)
    .filter((group) => group.has('final-recipient') || group.has('original-recipient') || group.has('action'))
    .flatMap((group): DsnRecipient[] => {
      const status = STATUS.exec(group.get('status')?.split(/\s/)[0] ?? '')?.[0] ?? null;
      const action = actionOf(group, status);
      if (!action) return [];
      return [
        {
          action,
          status,
          address: addressOf(group.get('final-recipient')) ?? addressOf(group.get('original-recipient')),
          diagnostic: group.get('diagnostic-code') ?? null,
        },
      ];
    });
  return recipients.length > 0 ? { kind: 'delivery-status', recipients } : { kind: 'unrecognised', reason: 'a delivery status without recipient fields' };
}

function readFeedbackReport(text: string): FeedbackReport {
  const fields = fieldGroups(text)[0] ?? new Map<string, string>();
  const feedbackType = fields.get('feedback-type')?.toLowerCase().split(/\s/)[0] ?? '';
  if (!COMPLAINT_TYPES.has(feedbackType)) return { kind: 'unrecognised', reason: `a feedback report of type ${JSON.stringify(feedbackType.slice(0, 40))}` };
  return { kind: 'complaint', feedbackType, address: addressOf(fields.get('original-rcpt-to')) };
}

/** What a parsed message reports. */
export function reportOf(mail: ParsedMail): FeedbackReport {
  for (const part of mail.attachments) {
    const type = part.contentType.toLowerCase();
    if (DELIVERY_STATUS_TYPES.has(type)) return readDeliveryStatus(part.content.toString('utf8'));
    if (type === FEEDBACK_REPORT_TYPE) return readFeedbackReport(part.content.toString('utf8'));
  }
  return { kind: 'unrecognised', reason: 'no delivery-status or feedback-report part' };
}

/** Parses a raw message; a message mailparser cannot read is unrecognised, never an error. */
export async function readReport(raw: Buffer): Promise<FeedbackReport> {
  let mail: ParsedMail;
  try {
    // the report parts are kept as parts; nothing is rendered: only the structure matters here
    mail = await mailparser().simpleParser(raw, {
      keepDeliveryStatus: true,
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
      checksumAlgo: false,
    });
  } catch (error) {
    return { kind: 'unrecognised', reason: `unparseable: ${String((error as Error).message ?? error).slice(0, 200)}` };
  }
  return reportOf(mail);
}
