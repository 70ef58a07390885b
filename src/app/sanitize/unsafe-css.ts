// CSS that must not reach a document the platform serves or stores, one list for every use (the
// HTML of content templates, SVG uploads): what can run script (the old expression() and binding
// extensions, javascript: and vbscript: URLs), fetch what the reader did not ask for (@import,
// image functions, src(), url() beyond what the use allows), or spell any of these past a pattern
// (escapes and comments). Only where url() may point differs between uses.

/** Where url() in CSS may point. */
export type CssUrlPolicy =
  /** only a fragment of the same document (`url(#gradient)`): SVG, which must stand alone */
  | 'this-document'
  /** https, or a raster image embedded as a data: URL: HTML that mail clients and printers open */
  | 'https-or-embedded-raster';

const ALWAYS_UNSAFE = [
  /expression\s*\(/i,
  /-moz-binding/i,
  /behavior\s*:/i,
  /@import/i,
  /javascript\s*:/i,
  /vbscript\s*:/i,
  /\\/,
  /\/\*/,
  /image(?:-set)?\s*\(/i,
  /\bsrc\s*\(/i,
];

const URL_BEYOND: Record<CssUrlPolicy, RegExp> = {
  'this-document': /url\s*\(\s*(?!['"]?\s*#)/i,
  'https-or-embedded-raster': /url\s*\(\s*(?!['"]?\s*(?:https:|data:image\/(?:png|jpeg|gif|webp);))/i,
};

export function unsafeCss(css: string, urls: CssUrlPolicy): boolean {
  return URL_BEYOND[urls].test(css) || ALWAYS_UNSAFE.some((pattern) => pattern.test(css));
}
