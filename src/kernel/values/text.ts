// PLAIN_TEXT and FORMATTED_TEXT, and the text-search operand rules shared by the text-like types.
// Text comparisons are case-insensitive: keys and operands are lower-cased here, once, so storage
// compares them as they are (it should index `indexKey`, not re-derive it with SQL lower()).
import type sanitizeHtml from 'sanitize-html';
import { onFirstUse } from '../../app/on-first-use.ts';

const sanitizer = onFirstUse<typeof sanitizeHtml>('sanitize-html');
import { defineCodec } from './codec.ts';
import { DEFAULT_FORMATTED_TEXT_MAX_LENGTH, DEFAULT_PLAIN_TEXT_MAX_LENGTH, type FieldConfigOf } from './config.ts';
import { codePointLength, describeType, normalizeText, textProblem } from './text-guards.ts';
import { fail, ok, type Parsed } from './types.ts';

export const MAX_PATTERN_LENGTH = 1000;

/** A contains/startsWith operand: a non-empty literal string (no wildcards), lower-cased. */
export function textPattern(raw: unknown): Parsed<string> {
  if (typeof raw !== 'string') return fail(`must be a string, not ${describeType(raw)}`);
  const text = normalizeText(raw);
  const problem = textProblem(text);
  if (problem) return fail(problem);
  if (text.length === 0) return fail('must not be empty');
  if (codePointLength(text) > MAX_PATTERN_LENGTH) return fail(`must be at most ${MAX_PATTERN_LENGTH} characters`);
  return ok(text.toLowerCase());
}

/** Stored text as a single searchable line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export const plainText = defineCodec<FieldConfigOf<'PLAIN_TEXT'>, string>({
  shape: { keyKind: 'text', multi: false, sortable: true },
  operators: ['eq', 'ne', 'in', 'contains', 'startsWith'],
  encode(raw, config) {
    if (typeof raw !== 'string') return fail(`must be a string, not ${describeType(raw)}`);
    const text = normalizeText(raw);
    const problem = textProblem(text);
    if (problem) return fail(problem);
    // Content is kept as written (no trimming: indentation can matter); blank means empty.
    if (text.trim() === '') return ok(null);
    const max = config.maxLength ?? DEFAULT_PLAIN_TEXT_MAX_LENGTH;
    if (codePointLength(text) > max) return fail(`must be at most ${max} characters`);
    return ok(text);
  },
  isStored: (v): v is string => typeof v === 'string',
  key: (stored) => stored.toLowerCase(),
  text: oneLine,
  operand(raw) {
    if (typeof raw !== 'string') return fail(`must be a string, not ${describeType(raw)}`);
    const text = normalizeText(raw);
    const problem = textProblem(text);
    if (problem) return fail(problem);
    if (text.trim() === '') return fail('must not be blank; use null to find empty values');
    return ok(text.toLowerCase());
  },
  pattern: textPattern,
});

// ---------------------------------------------------------------------------------------------
// FORMATTED_TEXT: HTML from rich-text editors, sanitized on write with sanitize-html (htmlparser2
// based, runs in Node without a DOM, maintained by Apostrophe). An allow-list, not a block-list:
// anything not named here is dropped, so new attack vectors in unknown tags/attributes do not pass.

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'div', 'span',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ins', 'mark', 'small', 'sub', 'sup',
  'blockquote', 'q', 'code', 'pre', 'kbd',
  'ul', 'ol', 'li',
  'a',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
];

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  // No style, class, id or on* attributes anywhere: styling would allow UI redress, ids clash
  // with the host page, and event handlers are script.
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    ol: ['start'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Elements whose content is not text for a reader: dropped together with their content.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'template', 'title', 'xmp', 'noembed', 'noframes'],
  transformTags: {
    // Links never give the opened page a handle on ours and pass no referrer; nofollow because the
    // content is user-written and may be published on team websites.
    a: (tagName, attribs) => {
      const out: Record<string, string> = {};
      if (attribs.href) out.href = attribs.href;
      if (attribs.title) out.title = attribs.title;
      if (attribs.target === '_blank') out.target = '_blank';
      out.rel = 'noopener noreferrer nofollow';
      return { tagName, attribs: out };
    },
  },
};

// Block boundaries become spaces in the text projection ("<p>a</p><p>b</p>" reads "a b").
const BLOCK_BOUNDARY = /<(?:br|hr)\b[^>]*>|<\/(?:p|div|h[1-6]|blockquote|pre|li|ul|ol|table|caption|tr|th|td)>/gi;

/** Plain text of sanitized (stored) HTML: tags removed, entities decoded, whitespace collapsed.
 *  A regular expression is exact here, and much cheaper than a second parse, because sanitize-html
 *  escapes every "<" and ">" outside tags (text and attribute values alike) and emits no comments;
 *  the only entities it writes are &amp; &lt; &gt; and, in attributes, &quot;. */
export function htmlToText(html: string): string {
  const text = html
    .replace(BLOCK_BOUNDARY, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&'); // last, so "&amp;lt;" stays "&lt;"
  return oneLine(text);
}

export function sanitizeRichText(html: string): string {
  return sanitizer()(html, SANITIZE_OPTIONS);
}

export const formattedText = defineCodec<FieldConfigOf<'FORMATTED_TEXT'>, string>({
  shape: { keyKind: 'text', multi: false, sortable: false },
  // eq/ne accept only null (is empty / is not empty); comparing whole HTML documents is not useful.
  operators: ['eq', 'ne', 'contains'],
  encode(raw, config) {
    if (typeof raw !== 'string') return fail(`must be an HTML string, not ${describeType(raw)}`);
    const max = config.maxLength ?? DEFAULT_FORMATTED_TEXT_MAX_LENGTH;
    // Bound the parser's work before sanitizing; markup that will be stripped still counts here.
    if (raw.length > max * 2) return fail(`must be at most ${max} characters`);
    const problem = textProblem(raw);
    if (problem) return fail(problem);
    const html = sanitizeRichText(normalizeText(raw)).trim();
    // Markup without words ("<p><br></p>", a stripped <script>) is empty.
    if (htmlToText(html) === '') return ok(null);
    if (codePointLength(html) > max) return fail(`must be at most ${max} characters after sanitizing`);
    return ok(html);
  },
  isStored: (v): v is string => typeof v === 'string',
  key: (stored) => htmlToText(stored).toLowerCase(),
  text: htmlToText,
  operand: () => fail('only null is accepted (eq null: is empty, ne null: is not empty); use contains to search the text'),
  pattern: textPattern,
});
