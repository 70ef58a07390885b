// Text made drawable in a given font. The embedded fonts (fonts.ts, DejaVu Sans) cover Latin,
// Greek and Cyrillic, so names in those scripts are drawn exactly as given (in Unicode NFC). What a
// font has no glyph for is not drawn as an empty box: an accented letter whose base letter the
// font has loses its accent, and anything else (CJK, emoji…) becomes "?". Right-to-left scripts
// become "?" too: pdf-lib draws neither bidi order nor Arabic shaping, and letters in the wrong
// order would misrecord a name. The original Unicode text is always in the PDF's attached
// audit-trail JSON (audit-trail.ts), and the certificate says when anything was replaced.
import type { PDFFont } from 'pdf-lib';

const RIGHT_TO_LEFT = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u;

const charSets = new WeakMap<PDFFont, ReadonlySet<number>>();

function charSetOf(font: PDFFont): ReadonlySet<number> {
  let set = charSets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    charSets.set(font, set);
  }
  return set;
}

function drawableChar(ch: string, set: ReadonlySet<number>): string {
  if (RIGHT_TO_LEFT.test(ch)) return '?';
  if (set.has(ch.codePointAt(0)!)) return ch;
  // strip combining marks from the decomposition; keep it when every part is drawable
  const base = ch.normalize('NFKD').replace(/\p{M}+/gu, '');
  if (base && [...base].every((c) => !RIGHT_TO_LEFT.test(c) && set.has(c.codePointAt(0)!))) return base;
  return '?';
}

/** One line of drawable text: controls and line breaks become spaces. */
export function drawableText(text: string, font: PDFFont): string {
  const set = charSetOf(font);
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(ch)) out += ' ';
    else if (/[\p{Cf}]/u.test(ch)) continue; // zero-width and bidi controls draw nothing
    else out += drawableChar(ch, set);
  }
  return out;
}

/** Whether drawing `text` had to replace anything (the certificate says so). */
export function needsReplacement(text: string, font: PDFFont): boolean {
  return drawableText(text, font) !== text.normalize('NFC').replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ').replace(/\p{Cf}/gu, '');
}
