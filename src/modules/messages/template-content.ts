// The content of an authored message template as the rest of the platform uses it: which texts
// take merge tags and which tags they use, the checks of those tags when the texts are saved, the
// preheader as the hidden first line of the HTML body, and what a composed message copies from the
// template. One place, so the preview, the issues and the composer agree on it.
import type { OutgoingMessageTemplate } from '../../generated/prisma/client.ts';
import { escapeHtml } from '../../app/html-escape.ts';
import { parseTemplate, textsAroundTags, unknownTags, UNSUBSCRIBE_URL_TAG, type MergeField } from '../merge-tags/index.ts';

/** The texts of a template that take merge tags, in the order they are checked and reported. */
export const TAGGED_TEXTS = ['subjectLine', 'preheader', 'htmlContent', 'textContent'] as const;
export type TaggedText = (typeof TAGGED_TEXTS)[number];

/** The bodies, where `{{unsubscribe_url}}` is the recipient's own link, not a field. */
export const BODY_TEXTS: readonly TaggedText[] = ['htmlContent', 'textContent'];

type Texts = Partial<Record<TaggedText, string | null>>;

/** Text that reads like a tag but is none (`{{ first name }}`, `{{}}`, `{{#if x}}`): a recipient would see it as written. */
const TAG_LOOKALIKE = /\{\{[^{}]{0,200}\}\}/;

/** The first piece of literal text in `text` that looks like a merge tag but is not one, or null. */
export function malformedTag(text: string): string | null {
  for (const token of parseTemplate(text).tokens) {
    if (token.type !== 'text') continue;
    const match = TAG_LOOKALIKE.exec(token.text);
    if (match) return match[0];
  }
  return null;
}

/** A body's pieces around its `{{unsubscribe_url}}` tags (each to be checked on its own). */
export function textsAroundTagsOf(body: string): string[] {
  return textsAroundTags(body, [UNSUBSCRIBE_URL_TAG]);
}

/** Distinct tags of the texts, in order of first appearance. */
export function mergeTagsOf(texts: Texts): string[] {
  const tags = new Set<string>();
  for (const field of TAGGED_TEXTS) for (const tag of parseTemplate(texts[field] ?? '').tags) tags.add(tag);
  return [...tags];
}

/**
 * Tags of one text that name nothing among `fields` (nor a built-in); in a body, the composer's
 * `{{unsubscribe_url}}` is known. Each piece around such a tag is checked on its own, so nothing can
 * read as a tag across a cut.
 */
export function unknownTagsOf(field: TaggedText, text: string, fields: readonly MergeField[]): string[] {
  const pieces = BODY_TEXTS.includes(field) ? textsAroundTagsOf(text) : [text];
  return [...new Set(pieces.flatMap((piece) => unknownTags(piece, fields)))];
}

export const tagList = (tags: readonly string[]) => tags.map((t) => `{{${t}}}`).join(', ');

/**
 * The problems of the given texts: look-alike tags always; with the fields of the template's
 * collection, tags that name none of them. One detail per text, named by its field.
 */
export function tagProblems(texts: Texts, fields: readonly MergeField[] | null, collection: string | null): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const field of TAGGED_TEXTS) {
    const text = texts[field];
    if (text == null) continue;
    const lookalike = malformedTag(text);
    if (lookalike !== null) {
      problems.push({ field, message: `${JSON.stringify(lookalike)} is not a merge tag: a tag is {{name}}, a name of 1-80 characters without spaces or braces` });
      continue;
    }
    if (!fields) continue;
    const unknown = unknownTagsOf(field, text, fields);
    if (unknown.length > 0) problems.push({ field, message: `merge tags that name no field of collection ${collection} you can read: ${tagList(unknown)}` });
  }
  return problems;
}

/** What hides the preheader in the body: mail programs show it in the inbox list, readers of the message do not see it. */
const PREHEADER_STYLE = 'display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all';

/** The preheader as the body's first, hidden element (merge tags stay tags, to be filled like the rest). */
export function preheaderBlock(preheader: string): string {
  return `<div style="${PREHEADER_STYLE}">${escapeHtml(preheader)}</div>`;
}

const BODY_START = /<body\b[^>]*>/i;

/** The HTML body with the preheader first: right after `<body …>` of a whole document, else at the start. */
export function withPreheader(html: string, preheader: string | null): string {
  if (!preheader) return html;
  const block = preheaderBlock(preheader);
  const body = BODY_START.exec(html);
  if (!body) return `${block}${html}`;
  const at = body.index + body[0].length;
  return `${html.slice(0, at)}${block}${html.slice(at)}`;
}

/** What a composed message takes from its template: the bodies as they are sent (the preheader in the HTML). */
export interface TemplateBodies {
  htmlContent: string | null;
  textContent: string | null;
}

export function templateBodies(template: Pick<OutgoingMessageTemplate, 'designFormat' | 'preheader' | 'htmlContent' | 'textContent'>): TemplateBodies {
  const html = template.designFormat === 'HTML' && template.htmlContent ? withPreheader(template.htmlContent, template.preheader) : null;
  return { htmlContent: html, textContent: template.textContent ?? null };
}
