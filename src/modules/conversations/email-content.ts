// What an inbound mail's body becomes. The message shows the reply alone: quoted text (Gmail's
// "On … wrote:", Outlook's "From: … Sent: …" block, "> " lines) and signatures ("-- ", "Sent from
// my iPhone") are cut by email-reply-parser (maintained by Crisp), from the text part or, for an
// HTML-only mail, the text mailparser derives from the HTML. The full body is kept beside it for
// audit: the text as received and the HTML through the messages' sanitizer (message-content.ts).
// A forward (subject "Fwd:"/"FW:") is all quote by nature: it is kept whole.
import EmailReplyParser from 'email-reply-parser';
import type { ParsedMail } from 'mailparser';
import { CONVERSATION_LIMITS } from './conversations.input.ts';
import { sanitizeMessageHtml } from './message-content.ts';

/** The audit copy's limits: a mail's full text and sanitized HTML (the listener takes 25 MiB mails in all). */
export const FULL_BODY_LIMIT = 1_000_000;

const FORWARD = /^\s*(fwd?|fw|tr|wg|rv|enc)\s*:/i;

export interface InboundBody {
  /** the message's content: the reply without quotes and signature (TEXT, 1 to 20 000 characters) */
  visible: string;
  fullText: string;
  fullHtml: string | null;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Strips quotes and signature of `text` (the whole text when nothing would be left). */
export function visibleReply(text: string, subject: string | null): string {
  const normalised = text.replace(/\r\n?/g, '\n');
  if (subject && FORWARD.test(subject)) return normalised.trim();
  const reply = new EmailReplyParser().parseReply(normalised).trim();
  return reply || normalised.trim();
}

const ENTITIES: Record<string, string> = { nbsp: ' ', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", amp: '&' };

/**
 * The text of already sanitized HTML, one line per block (so the reply parser sees "On … wrote:"
 * and quoted blocks as lines). Only sanitized markup comes here: links keep their words, never
 * their targets.
 */
export function sanitizedHtmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<blockquote\b[^>]*>/gi, '\n> ')
    .replace(/<\/(p|div|li|tr|h[1-6]|blockquote|pre|table)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(nbsp|lt|gt|quot|#39|apos|amp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `mail` parsed with skipHtmlToText: `text` is the text part only. */
export function inboundBody(mail: ParsedMail): InboundBody {
  const fullHtml = typeof mail.html === 'string' && mail.html.trim() ? clip(sanitizeMessageHtml(mail.html), FULL_BODY_LIMIT) : null;
  // an HTML-only mail reads as the text of its sanitized HTML
  const fullText = (mail.text?.trim() ? mail.text : fullHtml ? sanitizedHtmlText(fullHtml) : '').trim();
  let visible = visibleReply(fullText, mail.subject ?? null);
  if (!visible) visible = mail.attachments.length > 0 ? '(attachments only)' : '(no text)';
  return { visible: clip(visible, CONVERSATION_LIMITS.content), fullText: clip(fullText, FULL_BODY_LIMIT), fullHtml };
}
