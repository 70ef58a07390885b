// The last word on the markup of a served page: every piece that came from a design or a setting
// (a design's rendered HTML, a text component's content, a campaign chrome entry's HTML) goes
// through the platform's DOMPurify set-up (src/app/sanitize/markup-purifier.ts) before it is put in
// a page. Only the page's own frame (head, navigation, the chrome's containers) is written by the
// renderer itself, from escaped text.
//
// What stays is content: text, headings, lists, tables, images (self, https or an embedded raster),
// links (http(s), mailto:, tel:, relative, #anchor). No script, no event handler, no frame, no form,
// no SVG or MathML, no style element or attribute (the page's CSS is its one stylesheet), no
// javascript:/vbscript:/data: URL outside raster images.
import type { DOMPurify } from 'dompurify';
import { createPurifier } from '../../app/sanitize/markup-purifier.ts';
import { safeUrl } from './design-document.ts';

const FORBIDDEN_TAGS = [
  'script', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'form', 'input', 'button', 'textarea',
  'select', 'option', 'optgroup', 'datalist', 'keygen', 'output', 'base', 'link', 'meta', 'template', 'slot', 'dialog', 'svg', 'math',
  'style', 'audio', 'video', 'source', 'track', 'canvas', 'title', 'picture',
];
const FORBIDDEN_ATTRIBUTES = ['action', 'formaction', 'srcdoc', 'ping', 'background', 'dynsrc', 'lowsrc', 'xmlns', 'is', 'style', 'srcset', 'usemap'];

let purifier: DOMPurify | undefined;

function getPurifier(): DOMPurify {
  purifier ??= createPurifier({ cssUrls: 'https-or-embedded-raster', linkAllowed: (value, element, attribute) => safeUrl(value, element, attribute) }).purify;
  return purifier;
}

/** A fragment of served markup with nothing that could run or reach out. */
export function sanitizeServedMarkup(html: string): string {
  if (html === '') return '';
  return String(
    getPurifier().sanitize(html, {
      USE_PROFILES: { html: true },
      FORBID_TAGS: FORBIDDEN_TAGS,
      FORBID_ATTR: FORBIDDEN_ATTRIBUTES,
      ADD_ATTR: ['target'],
      ALLOW_DATA_ATTR: false,
      ALLOW_UNKNOWN_PROTOCOLS: false,
      FORCE_BODY: true,
    }),
  );
}
