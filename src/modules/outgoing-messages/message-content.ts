// A composed message rendered for one recipient: merge tags filled from the recipient's record
// (values escaped in HTML bodies), the subject kept to one line of what the mail transport carries,
// and each body part given its visible unsubscribe link (unsubscribe-footer.ts): where the author
// wrote `{{unsubscribe_url}}`, else in a footer.
import type { OutgoingMessage } from '../../generated/prisma/client.ts';
import { renderTemplate, textsAroundTags, type MergeField, type MergeRecord } from '../merge-tags/index.ts';
import { OUTGOING_MESSAGE_LIMITS } from './outgoing-messages.input.ts';
import { BODY_TAG_VALUES, BODY_TAGS, placesUnsubscribeLink, withHtmlFooter, withTextFooter } from './unsubscribe-footer.ts';

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

function renderText(template: string, context: { fields: readonly MergeField[]; record: MergeRecord | null }): string {
  const text = renderTemplate(template, { ...context, values: BODY_TAG_VALUES }, { maxLength: OUTGOING_MESSAGE_LIMITS.textContent });
  return placesUnsubscribeLink(template) ? text : withTextFooter(text);
}

/**
 * The message for one record (or none: every record tag empty). `fields` should be the same array
 * for every recipient. The unsubscribe link is the mail area's slot, filled when the copy is stored;
 * the subject has no link (`{{unsubscribe_url}}` there names a field like any other tag).
 */
export function renderContent(message: Content, fields: readonly MergeField[], record: MergeRecord | null, subjectPrefix = ''): RenderedContent {
  const context = { fields, record };
  const subject = oneLineSubject(renderTemplate(message.subjectLine ?? '', context, { maxLength: 10_000 }), subjectPrefix);
  if (message.contentType === 'PLAIN_TEXT') return { subject, text: renderText(message.textContent ?? '', context), html: undefined };
  const template = message.htmlContent ?? '';
  const html = renderTemplate(template, { ...context, values: BODY_TAG_VALUES }, { html: true, maxLength: OUTGOING_MESSAGE_LIMITS.htmlContent });
  return {
    subject,
    // no text version stays none: a footer alone would be all a text-only reader sees
    text: message.textContent ? renderText(message.textContent, context) : '',
    html: placesUnsubscribeLink(template) ? html : withHtmlFooter(html),
  };
}

/**
 * The texts of the message that are sent, whose merge tags must name something. The bodies' own
 * tags (`{{unsubscribe_url}}`) name nothing of the record, so bodies are given as the pieces
 * around them; in the subject such a tag stays a tag that must name a field.
 */
export function sentTexts(message: Content): string[] {
  const bodies = [message.textContent ?? ''];
  if (message.contentType === 'HTML') bodies.push(message.htmlContent ?? '');
  const texts = [message.subjectLine ?? '', ...bodies.flatMap((body) => textsAroundTags(body, BODY_TAGS))];
  return texts.filter((t) => t !== '');
}
