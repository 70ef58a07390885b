// A composed message rendered for one recipient: merge tags filled from the recipient's record
// (values escaped in HTML bodies), the subject kept to one line of what the mail transport carries.
import type { OutgoingMessage } from '../../generated/prisma/client.ts';
import { renderTemplate, type MergeField, type MergeRecord } from '../merge-tags/index.ts';
import { OUTGOING_MESSAGE_LIMITS } from './outgoing-messages.input.ts';

export interface RenderedContent {
  subject: string;
  text: string;
  html: string | undefined;
}

type Content = Pick<OutgoingMessage, 'subjectLine' | 'contentType' | 'textContent' | 'htmlContent'>;

/** What stands in the Subject when the rendered subject is empty (the transport needs one). */
export const EMPTY_SUBJECT = '(no subject)';

export function oneLineSubject(text: string, prefix = ''): string {
  const line = `${prefix}${text.replace(/[\r\n]+/g, ' ')}`.trim();
  return [...line].slice(0, OUTGOING_MESSAGE_LIMITS.subjectLine).join('') || EMPTY_SUBJECT;
}

/** The message for one record (or none: every tag empty). `fields` should be the same array for every recipient. */
export function renderContent(message: Content, fields: readonly MergeField[], record: MergeRecord | null, subjectPrefix = ''): RenderedContent {
  const context = { fields, record };
  const subject = oneLineSubject(renderTemplate(message.subjectLine ?? '', context, { maxLength: 10_000 }), subjectPrefix);
  if (message.contentType === 'PLAIN_TEXT') {
    return { subject, text: renderTemplate(message.textContent ?? '', context, { maxLength: OUTGOING_MESSAGE_LIMITS.textContent }), html: undefined };
  }
  return {
    subject,
    text: message.textContent ? renderTemplate(message.textContent, context, { maxLength: OUTGOING_MESSAGE_LIMITS.textContent }) : '',
    html: renderTemplate(message.htmlContent ?? '', context, { html: true, maxLength: OUTGOING_MESSAGE_LIMITS.htmlContent }),
  };
}

/** The texts of the message that are sent (and so whose merge tags must name something). */
export function sentTexts(message: Content): string[] {
  const texts = [message.subjectLine ?? '', message.textContent ?? ''];
  if (message.contentType === 'HTML') texts.push(message.htmlContent ?? '');
  return texts.filter((t) => t !== '');
}
