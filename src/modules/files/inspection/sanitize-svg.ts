// The `svg` rule: a well-formed SVG document (no DOCTYPE beyond the plain public SVG one, which is
// dropped; root <svg> in the SVG namespace) is sanitized with DOMPurify, and the clean document is
// stored instead of the upload. An SVG opened on its own is a web page: scripts, event handlers,
// foreign HTML and references to other documents must all go, and what remains must only ever
// point inside the document itself.
import { createPurifier, type Purifier } from '../../../app/sanitize/markup-purifier.ts';
import { checkXml } from './xml-check.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';

export type SanitizedSvg = { ok: true; svg: Buffer; width?: number; height?: number } | { ok: false; message: string };

/** raster images may be embedded (never SVG: an embedded SVG is a document of its own) */
const EMBEDDED_RASTER = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;

/** the fragment reference every in-document link is; anything else reaches outside */
function localReference(value: string): boolean {
  return value.trim().startsWith('#');
}

let sanitizer: Purifier | undefined;

/** Links stay only when they name an element of this document (or embed a raster <image>). */
function linkAllowed(value: string, element: string): boolean {
  return localReference(value) || (element === 'image' && EMBEDDED_RASTER.test(value));
}

function getSanitizer(): Purifier {
  sanitizer ??= createPurifier({ cssUrls: 'this-document', linkAllowed });
  return sanitizer;
}

/** A length in user units or pixels ("120", "120.5px"); percentages and other units say nothing. */
function pixels(value: string | null | undefined): number | undefined {
  const match = value?.match(/^\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$/);
  if (!match) return undefined;
  const number = Number(match[1]);
  return number > 0 ? Math.max(1, Math.round(number)) : undefined;
}

function size(root: Element): { width?: number; height?: number } {
  const width = pixels(root.getAttribute('width'));
  const height = pixels(root.getAttribute('height'));
  if (width && height) return { width, height };
  const box = root.getAttribute('viewBox')?.trim().split(/[\s,]+/).map(Number);
  if (box?.length === 4 && box.every(Number.isFinite)) {
    const boxWidth = pixels(String(box[2]));
    const boxHeight = pixels(String(box[3]));
    if (boxWidth && boxHeight) return { width: boxWidth, height: boxHeight };
  }
  return {};
}

/**
 * The public SVG 1.0/1.1 DOCTYPE that older editors (Illustrator, Inkscape) write. Without an
 * internal subset (`[ … ]`) it declares no entities, so it is dropped rather than refused; any
 * other DOCTYPE is still refused by checkXml.
 */
const PLAIN_SVG_DOCTYPE = /^(\uFEFF?\s*(?:<\?xml[^>]*\?>)?\s*(?:<!--(?:(?!-->)[\s\S])*-->\s*)*)<!DOCTYPE\s+svg\s+PUBLIC\s+"[^"<>[\]]*"\s+"[^"<>[\]]*"\s*>/;

export function sanitizeSvg(raw: string): SanitizedSvg {
  const text = raw.replace(PLAIN_SVG_DOCTYPE, '$1');
  const checked = checkXml(text);
  if (!checked.ok) return checked;
  if (checked.root.local !== 'svg' || checked.root.uri !== SVG_NS) {
    return { ok: false, message: `The root element must be <svg> in the SVG namespace (${SVG_NS}), not <${checked.root.local}>` };
  }
  const { window, purify } = getSanitizer();
  const parsed = new window.DOMParser().parseFromString(text, 'image/svg+xml');
  // The parsed document goes in as a DOM node, not as text: DOMPurify would parse text as HTML,
  // whose rules (an HTML tag inside <svg> ends the SVG) differ from the XML a viewer applies.
  const clean = purify.sanitize(parsed.documentElement, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // <use> is safe once its href can only name an element of this document (hook above)
    ADD_TAGS: ['use'],
    RETURN_DOM_FRAGMENT: true,
  });
  const elements = [...clean.children];
  const root = elements[0];
  if (elements.length !== 1 || !root || root.localName !== 'svg' || root.namespaceURI !== SVG_NS) {
    return { ok: false, message: 'Nothing of the SVG document is left after removing its unsafe content' };
  }
  const serialized = `<?xml version="1.0" encoding="UTF-8"?>\n${new window.XMLSerializer().serializeToString(root)}\n`;
  // what we store must pass the same rule as an upload
  const recheck = checkXml(serialized);
  if (!recheck.ok) return { ok: false, message: `The sanitized SVG is not well-formed (${recheck.message})` };
  return { ok: true, svg: Buffer.from(serialized, 'utf8'), ...size(root) };
}
