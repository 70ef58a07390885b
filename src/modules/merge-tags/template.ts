// The merge-tag grammar and its tokenizer: a template is literal text with `{{ name }}` tags in it,
// nothing more. There are no expressions, helpers, filters, partials, conditions, loops or
// unescaped output, so a template can do nothing but copy text and look names up.
//
// Why our own tokenizer rather than a template engine (Handlebars, Liquid, Mustache): each of them
// is a language (helpers, filters, partials, property paths walking into objects, triple-brace raw
// output) that would have to be switched off piece by piece, and each switch is a place where a
// future version or a missed option lets a template reach further than the one record it is
// rendered for. What the platform needs is a lookup of a name among the record's fields, which a
// single linear scan does with no property access at all (names are looked up in a Map).
//
// The grammar, exactly:
// - A tag is `{{`, optional whitespace, a name of 1 to 80 characters that are neither whitespace
//   nor a brace, optional whitespace, `}}`. `{{first_name}}`, `{{ first_name }}` and
//   `{{\n first_name\n}}` are the same tag.
// - Anything else is literal text: `{{}}`, `{{ two words }}`, an unterminated `{{name` or
//   `{{name}`, a name longer than 80 characters. Tags never nest.
// - Scanning is left to right and a literal `{` before a tag stays literal: `{{{name}}}` is `{`, the
//   tag `name`, `}`. Triple braces are NOT a raw-output form; every value is escaped the same way.
// - There is no escape syntax for a literal `{{name}}`; write `{ {name}}` or similar.
// The scan is linear in the text (each character is examined by at most two tag attempts), so a
// hostile template costs at most a few passes over its own length.

export const MAX_TAG_NAME_LENGTH = 80;

export type TemplateToken = { readonly type: 'text'; readonly text: string } | { readonly type: 'tag'; readonly name: string; readonly raw: string };

export interface ParsedTemplate {
  readonly source: string;
  readonly tokens: readonly TemplateToken[];
  /** distinct tag names in order of first appearance */
  readonly tags: readonly string[];
}

function isSpace(code: number): boolean {
  // the same set as the regular expression class \s, tested on one UTF-16 unit
  return (code >= 0x09 && code <= 0x0d) || code === 0x20 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

function tokenize(source: string): ParsedTemplate {
  const tokens: TemplateToken[] = [];
  const tags = new Set<string>();
  const n = source.length;
  let textStart = 0;
  let from = 0;
  for (let open = source.indexOf('{{', from); open !== -1; open = source.indexOf('{{', from)) {
    let p = open + 2;
    while (p < n && isSpace(source.charCodeAt(p))) p++;
    const nameStart = p;
    while (p < n && p - nameStart <= MAX_TAG_NAME_LENGTH) {
      const c = source.charCodeAt(p);
      if (c === OPEN || c === CLOSE || isSpace(c)) break;
      p++;
    }
    const nameEnd = p;
    const length = nameEnd - nameStart;
    while (p < n && isSpace(source.charCodeAt(p))) p++;
    if (length === 0 || length > MAX_TAG_NAME_LENGTH || source.charCodeAt(p) !== CLOSE || source.charCodeAt(p + 1) !== CLOSE) {
      from = open + 1;
      continue;
    }
    if (open > textStart) tokens.push(Object.freeze({ type: 'text', text: source.slice(textStart, open) }));
    const name = source.slice(nameStart, nameEnd);
    tokens.push(Object.freeze({ type: 'tag', name, raw: source.slice(open, p + 2) }));
    tags.add(name);
    textStart = from = p + 2;
  }
  if (textStart < n) tokens.push(Object.freeze({ type: 'text', text: source.slice(textStart) }));
  return Object.freeze({ source, tokens: Object.freeze(tokens), tags: Object.freeze([...tags]) });
}

// Parsed templates by their text, least recently used dropped first. The same few templates are
// rendered for every recipient of a send, so parsing once per template text is what matters; the
// budget (in characters of template text) keeps a flood of distinct large texts from holding memory.
const CACHE_BUDGET = 4_000_000;
const cache = new Map<string, ParsedTemplate>();
let cached = 0;

/** The tokens of `text` (cached by text; the result is frozen and shared). */
export function parseTemplate(text: string): ParsedTemplate {
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const parsed = tokenize(text);
  if (text.length <= CACHE_BUDGET / 8) {
    cache.set(text, parsed);
    cached += text.length;
    for (const [key] of cache) {
      if (cached <= CACHE_BUDGET) break;
      cache.delete(key);
      cached -= key.length;
    }
  }
  return parsed;
}

/** Distinct tag names of `text`, in order of first appearance. */
export function tagsOf(text: string): string[] {
  return [...parseTemplate(text).tags];
}

export function hasTags(text: string): boolean {
  return parseTemplate(text).tags.length > 0;
}
