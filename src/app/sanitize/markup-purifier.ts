// The one DOMPurify set-up of the platform: every use (the HTML of content templates, SVG uploads)
// gets the same hooks, and states its policy: where links may point and where CSS url() may. The
// tag and attribute allowances stay with each use, in its call to `purify.sanitize`.
//
// DOMPurify needs a DOM, which jsdom supplies. jsdom is large (about 700 modules, 0.7 s to load and
// tens of MiB resident), and most processes never sanitize anything: it is loaded by the first
// purifier made, not when the platform starts.
import { createRequire } from 'node:module';
import type { DOMPurify } from 'dompurify';
import type { JSDOM } from 'jsdom';
import { unsafeCss, type CssUrlPolicy } from './unsafe-css.ts';

const load = createRequire(import.meta.url);

export interface MarkupPolicy {
  /** where url() in style elements, style attributes and presentation attributes may point */
  cssUrls: CssUrlPolicy;
  /** whether a link or source attribute (href, src, xlink:href…) may keep `value` on `element` */
  linkAllowed(value: string, element: string, attribute: string): boolean;
}

export interface Purifier {
  window: JSDOM['window'];
  purify: DOMPurify;
}

/** Attributes whose value is a URL a reader's client may open or load. */
const LINK_ATTRIBUTES: ReadonlySet<string> = new Set(['href', 'src', 'xlink:href', 'cite', 'longdesc', 'poster', 'usemap', 'manifest']);

/**
 * A DOMPurify of its own (hooks are per instance) on a fresh jsdom window, enforcing `policy`.
 * Sanitizing is synchronous, so one purifier serves every call of a use.
 */
export function createPurifier(policy: MarkupPolicy): Purifier {
  const { JSDOM: Dom } = load('jsdom') as typeof import('jsdom');
  const createDOMPurify = load('dompurify') as typeof import('dompurify').default;
  const { window } = new Dom('');
  const purify = createDOMPurify(window);
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && unsafeCss(node.textContent ?? '', policy.cssUrls)) node.textContent = '';
  });
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const name = data.attrName;
    const value = data.attrValue;
    if (LINK_ATTRIBUTES.has(name)) {
      if (!policy.linkAllowed(value, node.nodeName.toLowerCase(), name)) data.keepAttr = false;
      return;
    }
    // presentation attributes take url() too (fill="url(#gradient)")
    if ((name === 'style' || /url\s*\(/i.test(value)) && unsafeCss(value, policy.cssUrls)) data.keepAttr = false;
  });
  return { window, purify };
}
