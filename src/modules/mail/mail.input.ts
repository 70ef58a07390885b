// What `services.mail.enqueue` accepts (docs/api/mail.md "Limits"). Every header value is one
// line: a CR or LF in a subject or an address would let a caller add headers of its own, so
// they are refused here, before anything is stored. Addresses follow the EMAIL_ADDRESS data type
// (records are where automations find recipients), optionally with a display name.
import { z } from 'zod';
import { parseEmail, textProblem } from '../../kernel/index.ts';

/** The delivery states of an outgoing message (filter of the team's mail list). */
export const MAIL_STATUSES = ['QUEUED', 'SENT', 'STORED', 'FAILED'] as const;
export type MailStatusName = (typeof MAIL_STATUSES)[number];

/** What the receiving side reported about a sent message (docs/api/mail-feedback.md), weakest first. */
export const MAIL_FEEDBACK_STATES = ['DELIVERED', 'BOUNCED', 'COMPLAINED'] as const;
export type MailFeedbackStateName = (typeof MAIL_FEEDBACK_STATES)[number];

export const MAX_RECIPIENTS = 50;
export const MAX_SUBJECT = 255;
export const MAX_DISPLAY_NAME = 100;
export const MAX_TEXT_BODY = 200_000;
export const MAX_HTML_BODY = 500_000;
export const MAX_SOURCE_ID = 200;

/** An address as nodemailer takes it: the display name is encoded by nodemailer, never by us. */
export interface Mailbox {
  name: string;
  address: string;
}

const NAMED = /^(.*?)\s*<([^<>]*)>$/s;

/** `a@example.com` or `Display Name <a@example.com>`; a reason when it is neither. */
export function parseMailbox(raw: string): { ok: true; value: Mailbox } | { ok: false; message: string } {
  const text = raw.trim();
  if (/[\r\n]/.test(text)) return { ok: false, message: 'must not contain line breaks' };
  const named = NAMED.exec(text);
  let name = '';
  let address = text;
  if (named) {
    name = named[1]!.replace(/^"(.*)"$/s, '$1').trim();
    address = named[2]!;
    const problem = textProblem(name, { singleLine: true });
    if (problem) return { ok: false, message: `display name ${problem}` };
    if (name.length > MAX_DISPLAY_NAME) return { ok: false, message: `display name must be at most ${MAX_DISPLAY_NAME} characters` };
    if (/["<>]/.test(name)) return { ok: false, message: 'display name must not contain ", < or >' };
  }
  const email = parseEmail(address);
  if (!email.ok) return { ok: false, message: email.message };
  return { ok: true, value: { name, address: email.value } };
}

/** The stored form: `Name <address>` or the bare address. */
export function formatMailbox(mailbox: Mailbox): string {
  return mailbox.name ? `${mailbox.name} <${mailbox.address}>` : mailbox.address;
}

const mailbox = z.string().transform((raw, ctx) => {
  const parsed = parseMailbox(raw);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return formatMailbox(parsed.value);
});

/** How many Message-IDs a References header carries at most (the first and the latest of a long thread). */
export const MAX_REFERENCES = 30;

/** `<local@domain>` as RFC 5322 writes a msg-id: one line, no spaces, at most 250 characters. */
const messageIdHeader = z.string().regex(/^<[^<>\s@]{1,200}@[^<>\s@]{1,200}>$/, 'must be a Message-ID such as <id@example.org>').max(250);

const recipients = (min: number) =>
  z
    .array(mailbox)
    .min(min, min > 0 ? 'needs at least one address' : undefined)
    .max(MAX_RECIPIENTS, `at most ${MAX_RECIPIENTS} addresses`);

const body = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((v) => textProblem(v) === null, { message: 'contains control characters or invalid Unicode' });

export const outgoingMailInput = z
  .object({
    teamId: z.bigint().positive(),
    from: mailbox.optional(),
    to: recipients(1),
    cc: recipients(0).default([]),
    bcc: recipients(0).default([]),
    replyTo: mailbox.optional(),
    subject: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_SUBJECT, `must be at most ${MAX_SUBJECT} characters`)
      .refine((v) => textProblem(v, { singleLine: true }) === null, { message: 'must be one line without control characters' }),
    text: body(MAX_TEXT_BODY),
    html: body(MAX_HTML_BODY).optional(),
    source: z.string().regex(/^[A-Z][A-Z0-9_]{0,49}$/, 'must be an upper-case name such as AUTOMATION'),
    sourceId: z
      .string()
      .min(1)
      .max(MAX_SOURCE_ID)
      .refine((v) => textProblem(v, { singleLine: true }) === null, { message: 'must be one line without control characters' })
      .optional(),
    unsubscribe: z.boolean().default(false),
    withheld: z.boolean().default(false),
    threading: z
      .object({ inReplyTo: messageIdHeader, references: z.array(messageIdHeader).max(MAX_REFERENCES, `at most ${MAX_REFERENCES} references`) })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((mail, ctx) => {
    if (mail.unsubscribe && mail.to.length + mail.cc.length + mail.bcc.length !== 1) {
      ctx.addIssue({ code: 'custom', path: ['unsubscribe'], message: 'an unsubscribable message has exactly one recipient' });
    }
    const total = mail.to.length + mail.cc.length + mail.bcc.length;
    if (total > MAX_RECIPIENTS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `to, cc and bcc together hold at most ${MAX_RECIPIENTS} addresses (got ${total})` });
    }
    if (mail.text.trim() === '' && !mail.html?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'text or html must have content' });
    }
  });

export type ValidMail = z.output<typeof outgoingMailInput>;
