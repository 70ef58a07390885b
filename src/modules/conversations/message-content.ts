// What a message's content may be, and its preview. TEXT is stored as written (one to 20 000
// characters, not blank). HTML goes through the platform's one DOMPurify set-up
// (src/app/sanitize/markup-purifier.ts, as content templates' HTML does) with a message's policy:
// formatting, lists, quotes, tables, links (http, https, mailto, tel) and nothing that runs, loads,
// styles or submits; what is left must hold text.
import type { DOMPurify } from 'dompurify';
import { createPurifier } from '../../app/sanitize/markup-purifier.ts';
import { CONVERSATION_LIMITS } from './conversations.input.ts';

const ALLOWED_TAGS = [
  'a', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'code', 'pre', 'kbd', 'blockquote', 'q',
  'p', 'br', 'hr', 'div', 'span', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
];
// no target: a link opened in a new tab could reach back into the app that shows the message
const ALLOWED_ATTRIBUTES = ['href', 'title', 'colspan', 'rowspan', 'start', 'reversed'];

/** links a reader may open: a page, a mail or a call */
const LINK = /^(?:https?:|mailto:|tel:)/i;
/** characters browsers ignore inside a scheme ("java\tscript:") */
const URI_NOISE = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g;

let purifier: DOMPurify | undefined;

function getPurifier(): DOMPurify {
  // loaded on first use: most processes never sanitize a message
  purifier ??= createPurifier({ cssUrls: 'this-document', linkAllowed: (value) => LINK.test(value.replace(URI_NOISE, '')) }).purify;
  return purifier;
}

export function sanitizeMessageHtml(html: string): string {
  return String(
    getPurifier().sanitize(html, {
      ALLOWED_TAGS,
      ALLOWED_ATTR: ALLOWED_ATTRIBUTES,
      ALLOW_DATA_ATTR: false,
      ALLOW_UNKNOWN_PROTOCOLS: false,
      FORCE_BODY: true,
    }),
  ).trim();
}

/** The text of sanitized HTML: tags dropped, the common entities read, whitespace collapsed. */
export function htmlText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/tr|\/h[1-6])\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What the lists show of the latest message: its text, on one line, at most 200 characters. */
export function previewOf(content: string, contentType: string): string {
  const text = contentType === 'HTML' ? htmlText(content) : content.replace(/\s+/g, ' ').trim();
  return [...text].slice(0, CONVERSATION_LIMITS.preview).join('');
}

export type ContentProblem = { field: string; message: string };

/** The content to store, or the problem with it (a 400 naming the field). */
export function storableContent(content: string, contentType: string): { content: string } | ContentProblem {
  if (contentType === 'HTML') {
    if (content.length > CONVERSATION_LIMITS.htmlContent) return { field: 'content', message: `must be at most ${CONVERSATION_LIMITS.htmlContent} characters` };
    const clean = sanitizeMessageHtml(content);
    if (htmlText(clean) === '') return { field: 'content', message: 'must hold some text once unsafe markup is removed' };
    if (clean.length > CONVERSATION_LIMITS.htmlContent) return { field: 'content', message: `must be at most ${CONVERSATION_LIMITS.htmlContent} characters` };
    return { content: clean };
  }
  if (content.trim() === '') return { field: 'content', message: 'is required and cannot be blank' };
  if (content.length > CONVERSATION_LIMITS.content) return { field: 'content', message: `must be at most ${CONVERSATION_LIMITS.content} characters` };
  return { content };
}

/** The users an agent's note names with "@usr-XXXX-XXXX-XXXX" (each once, at most 20). */
export function mentionedSimplyIds(content: string): string[] {
  const found = content.matchAll(/@(usr-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4})\b/g);
  return [...new Set([...found].map((m) => m[1]!))].slice(0, 20);
}
