// The HTML of a template's design (and of a document's header and footer) is stored only after
// DOMPurify has taken out what could run or reach out when it is opened: scripts, event handlers,
// javascript:/vbscript:/data: links, frames, forms and their controls, objects and embeds, inline
// SVG and MathML (an HTML profile only), <base>/<meta>/<link>, and CSS that can run code or spell
// it with escapes. What stays is markup an email or a printed page needs: text, tables, images
// (http, https or raster data: URLs), links (http, https, mailto, tel, relative, #) and styles.
// Merge tags are plain text to the sanitizer, so `{{first_name}}` survives anywhere it was written.
import type { DOMPurify } from 'dompurify';
import { createPurifier } from '../../app/sanitize/markup-purifier.ts';

const FORBIDDEN_TAGS = [
  'script', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'form', 'input', 'button', 'textarea',
  'select', 'option', 'optgroup', 'datalist', 'keygen', 'output', 'base', 'link', 'meta', 'template', 'slot', 'dialog', 'svg', 'math',
];
const FORBIDDEN_ATTRIBUTES = ['action', 'formaction', 'srcdoc', 'ping', 'background', 'dynsrc', 'lowsrc', 'xmlns', 'is'];

/** links and image sources that open nothing but a page, a mail or a call (or a merge tag that renders one) */
const SAFE_URI = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
/** the one data: URL kept: a raster image embedded in an <img> */
const EMBEDDED_RASTER = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;
/** characters browsers ignore inside a scheme ("java\tscript:", "&#x0A;") */
const URI_NOISE = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g;

function safeUri(value: string, tag: string, attribute: string): boolean {
  const compact = value.replace(URI_NOISE, '');
  if (attribute === 'src' && tag === 'img' && EMBEDDED_RASTER.test(value.trim())) return true;
  return SAFE_URI.test(compact);
}

let purifier: DOMPurify | undefined;

function getPurifier(): DOMPurify {
  purifier ??= createPurifier({ cssUrls: 'https-or-embedded-raster', linkAllowed: safeUri }).purify;
  return purifier;
}

const WHOLE_DOCUMENT = /^\s*(?:<!--[\s\S]*?-->\s*)*(?:<!doctype\s|<html[\s>]|<head[\s>]|<body[\s>])/i;

/**
 * The design HTML without anything that could run or reach out. A whole document (doctype, <html>,
 * <head> or <body> first) stays a whole document, so the styles of its <head> are kept; anything
 * else is a fragment (a leading <style> included).
 */
export function sanitizeDesignHtml(html: string): string {
  const purify = getPurifier();
  const whole = WHOLE_DOCUMENT.test(html);
  const clean = purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: FORBIDDEN_TAGS,
    FORBID_ATTR: FORBIDDEN_ATTRIBUTES,
    ADD_ATTR: ['target'],
    ALLOW_DATA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    WHOLE_DOCUMENT: whole,
    FORCE_BODY: !whole,
  });
  const text = String(clean);
  return whole && /^\s*<!doctype\s+html/i.test(html) ? `<!DOCTYPE html>\n${text}` : text;
}
