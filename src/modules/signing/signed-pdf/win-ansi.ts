// The standard PDF fonts (Helvetica, Times, Courier) encode Windows-1252 (WinAnsi) only, and
// pdf-lib throws on anything else. Names and values come from people anywhere, so text is made
// drawable first instead of failing a completion: accented letters outside the set lose their
// accent (ő → o), a few letters without a decomposition get their usual Latin stand-in (ł → l),
// and what is left (Cyrillic, CJK, emoji…) becomes "?". The original Unicode text is kept in the
// PDF's attached audit-trail JSON (audit-trail.ts).
import type { PDFFont } from 'pdf-lib';

const STAND_INS: Record<string, string> = {
  'ł': 'l', 'Ł': 'L', 'đ': 'd', 'Đ': 'D', 'ħ': 'h', 'Ħ': 'H', 'ı': 'i', 'ŀ': 'l', 'Ŀ': 'L', 'ø': 'o', 'Ø': 'O',
  'ŧ': 't', 'Ŧ': 'T', 'ŋ': 'n', 'Ŋ': 'N', 'ĸ': 'k', 'ſ': 's', '‐': '-', '‑': '-', '‒': '-', '―': '-', '−': '-',
  '\u00a0': ' ', '\u2007': ' ', '\u2009': ' ', '\u202f': ' ', '…': '...', '′': "'", '″': '"', '₂': '2',
};

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
  if (set.has(ch.codePointAt(0)!)) return ch;
  const standIn = STAND_INS[ch];
  if (standIn !== undefined) return standIn;
  // strip combining marks from the decomposition; keep it when every part is drawable
  const base = ch.normalize('NFKD').replace(/\p{M}+/gu, '');
  if (base && [...base].every((c) => set.has(c.codePointAt(0)!))) return base;
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
  return drawableText(text, font) !== text.normalize('NFC').replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ');
}
