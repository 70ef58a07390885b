// The Content-Disposition of a download. The filename is the uploader's (any Unicode, possibly
// hostile): it must not break out of the header (quotes, CR/LF), name a folder (../, \), or pass
// for another extension by bidirectional overrides ("invoice‮fdp.exe"). Browsers take the RFC 5987
// `filename*` form; the quoted ASCII `filename` is for the few that do not.

// C0 and C1 controls, DEL, path separators, and the invisible marks that reorder text
const UNSAFE = /[\u0000-\u001f\u007f-\u009f/\\\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const MAX_CODE_POINTS = 200;
const FALLBACK_NAME = 'download';

/** The filename as offered: unsafe characters removed, no leading dots, at most 200 characters. */
export function safeFilename(filename: string): string {
  const cleaned = filename.toWellFormed().normalize('NFC').replace(UNSAFE, '').trim().replace(/^\.+/, '').trim();
  const clipped = Array.from(cleaned).slice(0, MAX_CODE_POINTS).join('');
  return clipped || FALLBACK_NAME;
}

function asciiFallback(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents split off by NFKD: "é" → "e"
    .replace(/[^\x20-\x7e]/g, '_')
    // inside the quoted string only `"` and `\` are special; `%` is decoded by some browsers
    .replace(/["\\%]/g, '_')
    .replace(/^\.+/, '')
    .trim();
  return ascii || FALLBACK_NAME;
}

function rfc5987(value: string): string {
  // encodeURIComponent leaves ' ( ) * unescaped, which RFC 5987's attr-char does not allow
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function contentDisposition(disposition: 'attachment' | 'inline', filename: string): string {
  const name = safeFilename(filename);
  return `${disposition}; filename="${asciiFallback(name)}"; filename*=UTF-8''${rfc5987(name)}`;
}
