// Preview: the template filled in from one record the caller may read, as HTML, without creating
// anything. Merge tags render through the one engine (src/modules/merge-tags) with every value
// HTML-escaped; only fields the caller may read can fill a tag (a hidden field renders empty, as
// an unknown name does). The stored design was sanitized when it was saved, so a value can only
// change what the markup does where escaping is not enough (an escaped `javascript:` still runs in
// href="{{website}}", CSS needs no markup characters): only then is the output sanitized again,
// since sanitizing costs more than the rest of a preview.
import { hasDataAccess } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { accessTo, findRecords } from '../../kernel/index.ts';
import { escapeHtml, type MergeContext, parseTemplate, renderTemplate } from '../merge-tags/index.ts';
import { findTemplate } from './content-templates.service.ts';
import { previewRenderInput } from './content-templates.input.ts';
import { sanitizeDesignHtml } from './design-sanitizer.ts';
import { documentSettingsInput, pageDimensions, type DocumentSettings } from './document-settings.input.ts';

export interface PreviewRender {
  /** a whole HTML document: page setup, header, body and footer */
  html: string;
  bodyHtml: string;
  headerHtml: string | null;
  footerHtml: string | null;
}

type State = 'TEXT' | 'TAG' | 'VALUE_DQ' | 'VALUE_SQ' | 'VALUE_BARE' | 'STYLE' | 'COMMENT';

/** attributes whose value is a URL: a value at its start could choose the scheme (`javascript:`) */
const URL_ATTRIBUTES = new Set(['href', 'src', 'xlink:href', 'action', 'formaction', 'cite', 'longdesc', 'poster', 'background', 'usemap', 'manifest', 'data']);

/** Whether an escaped value at this spot of an attribute's value stays harmless. */
function safeInValue(attribute: string, before: string): boolean {
  if (attribute === 'style' || attribute === 'srcset' || attribute.startsWith('on')) return false;
  // once the value has a ':', '/', '?' or '#' before the tag, the scheme is the template's
  return !URL_ATTRIBUTES.has(attribute) || /[:/?#]/.test(before);
}

/**
 * Whether a merge tag of `html` sits where an escaped value could still change what the markup
 * does: at the start of a URL attribute, in a style attribute or element, in a tag outside a
 * quoted value, or in a comment. Element text and other quoted attribute values are safe: the
 * escaping keeps a value there plain text. One pass over the text between the tags.
 */
export function needsResanitizing(html: string): boolean {
  const parsed = parseTemplate(html);
  if (parsed.tags.length === 0) return false;
  let state: State = 'TEXT';
  let tagName = '';
  let attribute = '';
  let readingName = false;
  let afterEquals = false;
  let value = '';
  for (const token of parsed.tokens) {
    if (token.type === 'tag') {
      if (state === 'TEXT') continue;
      if ((state === 'VALUE_DQ' || state === 'VALUE_SQ') && safeInValue(attribute, value)) {
        value += '\u0000';
        continue;
      }
      return true;
    }
    const s = token.text;
    for (let i = 0; i < s.length; i++) {
      const c = s[i]!;
      switch (state) {
        case 'TEXT':
          if (c === '<') {
            if (s.startsWith('<!--', i)) {
              state = 'COMMENT';
              i += 3;
            } else {
              state = 'TAG';
              const m = /^<(\/?)([A-Za-z][\w-]*)/.exec(s.slice(i, i + 40));
              tagName = m && !m[1] ? m[2]!.toLowerCase() : '';
              i += m ? m[0].length - 1 : 0;
              attribute = '';
              readingName = false;
              afterEquals = false;
            }
          }
          break;
        case 'TAG':
          if (c === '>') state = tagName === 'style' ? 'STYLE' : 'TEXT';
          else if (c === '"' || c === "'") {
            state = c === '"' ? 'VALUE_DQ' : 'VALUE_SQ';
            value = '';
            afterEquals = false;
          } else if (c === '=') {
            afterEquals = true;
            readingName = false;
          } else if (/\s|\//.test(c)) readingName = false;
          else if (afterEquals) {
            state = 'VALUE_BARE';
            afterEquals = false;
          } else {
            if (!readingName) attribute = '';
            readingName = true;
            attribute += c.toLowerCase();
          }
          break;
        case 'VALUE_DQ':
        case 'VALUE_SQ':
          if (c === (state === 'VALUE_DQ' ? '"' : "'")) state = 'TAG';
          else value += c;
          break;
        case 'VALUE_BARE':
          if (c === '>') state = tagName === 'style' ? 'STYLE' : 'TEXT';
          else if (/\s/.test(c)) state = 'TAG';
          break;
        case 'STYLE':
          if (c === '<' && s.slice(i, i + 7).toLowerCase() === '</style') {
            state = 'TAG';
            tagName = '';
          }
          break;
        case 'COMMENT':
          if (s.startsWith('-->', i)) {
            state = 'TEXT';
            i += 2;
          }
          break;
      }
    }
  }
  return false;
}

function renderHtml(html: string, context: MergeContext): string {
  const rendered = renderTemplate(html, context, { html: true });
  return needsResanitizing(html) ? sanitizeDesignHtml(rendered) : rendered;
}

/** Plain text as HTML: escaped, blank lines between paragraphs, line breaks kept. */
function textAsHtml(text: string, context: MergeContext): string {
  const rendered = escapeHtml(renderTemplate(text, context));
  return rendered
    .split(/\r?\n\s*\r?\n/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${p.replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');
}

const WHOLE = /<body[^>]*>([\s\S]*)<\/body>/i;
const HEAD_STYLES = /<style[^>]*>[\s\S]*?<\/style>/gi;

/** A design that is a whole document: its body's content, and the styles of its head. */
function splitDocument(html: string): { body: string; styles: string } {
  const body = WHOLE.exec(html);
  if (!body) return { body: html, styles: '' };
  const head = html.slice(0, body.index);
  return { body: body[1]!, styles: (head.match(HEAD_STYLES) ?? []).join('\n') };
}

function pageStyle(settings: DocumentSettings): string {
  const { width, height } = pageDimensions(settings);
  const m = settings.marginsMm;
  return `<style>@page { size: ${width}mm ${height}mm; margin: ${m.top}mm ${m.right}mm ${m.bottom}mm ${m.left}mm; }</style>`;
}

export async function previewRender(ctx: RequestContext, simplyId: string, raw: unknown): Promise<PreviewRender> {
  const team = requireTeam(ctx);
  const input = parseInput(previewRenderInput, raw, 'Invalid preview');
  const { row: template, schema } = await findTemplate(ctx, simplyId, 'VIEW');
  // a record the caller cannot read is answered like a missing one: a preview must not reveal it exists
  const [record] = await findRecords(ctx.services.pool, team.id, [input.dataRecordSimplyId]);
  const collection = record && schema.collectionsById.get(record.collectionId);
  if (!record || !collection || !hasDataAccess(ctx.principal, collection.simplyId, 'READ')) throw new NotFoundError('Data record', input.dataRecordSimplyId);
  const context: MergeContext = {
    fields: accessTo(ctx.principal, schema, collection).readable,
    record: { simplyId: record.simplyId, calculatedName: record.calculatedName, values: record.values },
  };
  const parsedSettings = template.documentSettings === null ? null : documentSettingsInput.safeParse(template.documentSettings);
  const settings = parsedSettings?.success ? parsedSettings.data : null;
  const design = template.designHtml ? splitDocument(renderHtml(template.designHtml, context)) : { body: textAsHtml(template.textContent ?? '', context), styles: '' };
  const headerHtml = settings?.headerHtml ? renderHtml(settings.headerHtml, context) : null;
  const footerHtml = settings?.footerHtml ? renderHtml(settings.footerHtml, context) : null;
  const html = [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8">',
    settings ? pageStyle(settings) : '',
    design.styles,
    '</head><body>',
    headerHtml === null ? '' : `<header>${headerHtml}</header>`,
    `<main>${design.body}</main>`,
    footerHtml === null ? '' : `<footer>${footerHtml}</footer>`,
    '</body></html>',
  ]
    .filter((part) => part !== '')
    .join('\n');
  return { html, bodyHtml: design.body, headerHtml, footerHtml };
}
