// How many SMS segments a text takes (3GPP TS 23.038 and 23.040). A text of only characters of the
// GSM 7-bit default alphabet (and its extension table, whose characters take two septets: an
// escape and the character) is sent GSM-7: 160 septets in one message, 153 per segment once it is
// split (the concatenation header takes the rest). Any other character makes the whole text UCS-2:
// 70 UTF-16 units in one message, 67 per segment; a character outside the Basic Multilingual
// Plane (most emoji) takes two units. Merge tags count as written: the values they are filled with
// change the count per recipient.

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

const basic = new Set(GSM_BASIC);
const extension = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM_7' | 'UCS_2';

export interface SmsSegments {
  encoding: SmsEncoding;
  /** septets (GSM-7: an extension character counts two) or UTF-16 units (UCS-2) */
  characters: number;
  segments: number;
  /** what one more segment would hold: characters per segment of this text's encoding */
  perSegment: number;
}

const SINGLE = { GSM_7: 160, UCS_2: 70 } as const;
const PART = { GSM_7: 153, UCS_2: 67 } as const;

export function smsSegments(text: string): SmsSegments {
  let septets = 0;
  let gsm = true;
  for (const c of text) {
    if (basic.has(c)) septets += 1;
    else if (extension.has(c)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  const encoding: SmsEncoding = gsm ? 'GSM_7' : 'UCS_2';
  const characters = gsm ? septets : text.length;
  if (characters === 0) return { encoding, characters, segments: 0, perSegment: SINGLE[encoding] };
  if (characters <= SINGLE[encoding]) return { encoding, characters, segments: 1, perSegment: SINGLE[encoding] };
  return { encoding, characters, segments: gsm ? gsmSegments(text) : ucs2Segments(text), perSegment: PART[encoding] };
}

/** An extension character's two septets are never split over two segments. */
function gsmSegments(text: string): number {
  let segments = 1;
  let used = 0;
  for (const c of text) {
    const size = extension.has(c) ? 2 : 1;
    if (used + size > PART.GSM_7) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return segments;
}

/** A character of two UTF-16 units (a surrogate pair) is never split over two segments. */
function ucs2Segments(text: string): number {
  let segments = 1;
  let used = 0;
  for (const c of text) {
    const size = c.length;
    if (used + size > PART.UCS_2) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return segments;
}
