// One record's document as HTML, filled in exactly as the template's preview is (content
// templates' previewRender: merge tags, escaping, the fields the starter may read now), with the
// header and footer taken out of the page flow: Chromium draws them in the margins of every page.
import type { RequestContext } from '../../../app/context.ts';
import { documentSettingsInput, previewRender } from '../../content-templates/index.ts';
import type { PdfDocument } from './pdf-renderer.ts';

/** `html` without the one `part` at or after `from` (the preview writes each part once). */
function without(html: string, part: string, from: number, last = false): string {
  const at = last ? html.lastIndexOf(part) : html.indexOf(part, from);
  return at < from ? html : html.slice(0, at) + html.slice(at + part.length);
}

/** The template's left and right margins, when its documentSettings are valid. */
export function marginsOf(documentSettings: unknown): PdfDocument['marginsMm'] {
  const parsed = documentSettings === null ? null : documentSettingsInput.safeParse(documentSettings);
  return parsed?.success ? { left: parsed.data.marginsMm.left, right: parsed.data.marginsMm.right } : null;
}

export async function documentFor(
  actor: RequestContext,
  template: { simplyId: string; documentSettings: unknown },
  recordSimplyId: string,
  createdAt: Date,
): Promise<PdfDocument> {
  const preview = await previewRender(actor, template.simplyId, { dataRecordSimplyId: recordSimplyId });
  let html = preview.html;
  const body = Math.max(0, html.indexOf('<body>'));
  if (preview.headerHtml !== null) html = without(html, `<header>${preview.headerHtml}</header>`, body);
  if (preview.footerHtml !== null) html = without(html, `<footer>${preview.footerHtml}</footer>`, body, true);
  return { html, headerHtml: preview.headerHtml, footerHtml: preview.footerHtml, marginsMm: marginsOf(template.documentSettings), createdAt };
}
