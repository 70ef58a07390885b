// The visible opt-out of a composed message (docs/api/outgoing-messages.md "Unsubscribe link"). Bulk
// mail must let a person leave in the body too, not only through the List-Unsubscribe header that
// few mail programs show: `{{unsubscribe_url}}` puts the recipient's own link where the author
// wants it, and a body part that has no such tag gets a short footer with the link. The link
// itself is the mail area's slot (UNSUBSCRIBE_URL_SLOT), which the mailer fills with the message's
// one-click link when it stores the copy (a test copy gets a sample link that unsubscribes nobody).
import { UNSUBSCRIBE_URL_SLOT } from '../mail/index.ts';
import { parseTemplate, UNSUBSCRIBE_URL_TAG } from '../merge-tags/index.ts';

/** What the composer fills itself in a body, whoever the recipient is. */
export const BODY_TAG_VALUES: ReadonlyMap<string, string> = new Map([[UNSUBSCRIBE_URL_TAG, UNSUBSCRIBE_URL_SLOT]]);

/** The tags of a body that no field has to name (send readiness leaves them out of its check). */
export const BODY_TAGS: readonly string[] = [...BODY_TAG_VALUES.keys()];

export const TEXT_FOOTER = `\n\nTo stop receiving these messages, unsubscribe here: ${UNSUBSCRIBE_URL_SLOT}\n`;
export const HTML_FOOTER =
  `<p style="margin:24px 0 0;font-size:12px;line-height:1.5;color:#666666">To stop receiving these messages, ` +
  `<a href="${UNSUBSCRIBE_URL_SLOT}" style="color:#666666">unsubscribe here</a>.</p>`;

/** Whether the author placed the link in this body template. */
export function placesUnsubscribeLink(template: string): boolean {
  return parseTemplate(template).tags.includes(UNSUBSCRIBE_URL_TAG);
}

const BODY_END = /<\/body\s*>/gi;

/** The rendered HTML with the footer: before the last `</body>` of a whole document, else at the end. */
export function withHtmlFooter(html: string): string {
  let at = -1;
  for (const match of html.matchAll(BODY_END)) at = match.index;
  return at < 0 ? `${html}${HTML_FOOTER}` : `${html.slice(0, at)}${HTML_FOOTER}${html.slice(at)}`;
}

/** The rendered text with the footer line after it. */
export function withTextFooter(text: string): string {
  return `${text.trimEnd()}${TEXT_FOOTER}`;
}
