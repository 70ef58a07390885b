// The `base-media` rule: an ISO base-media file (ISO/IEC 14496-12) opens with an `ftyp` box naming
// its major brand and the brands it is compatible with; one of them must fit the declared type.
import { open } from 'node:fs/promises';

/**
 * Brands accepted per declared type (four-character codes, trailing spaces included):
 * - video/mp4: the ISO base-media and MP4 brands (isom, iso2–iso9, mp41, mp42, mp71), H.264 (avc1),
 *   MPEG-DASH segments (dash), Apple's M4V family (M4V , M4VH, M4VP) and the mobile MP4 brands
 *   (mmp4, MSNV). 3GPP (3gp*) is a type of its own (video/3gpp) and is not accepted.
 * - video/quicktime: only QuickTime's own brand (qt  ). QuickTime files from before the ftyp box
 *   (no ftyp at all) are refused; every QuickTime writer of this century writes one.
 * - audio/mp4: Apple's audio brands (M4A , M4B ) and the generic MP4 brands. Audio and video MP4
 *   share those generic brands, so an MP4 video declared as audio/mp4 passes this check: the
 *   brand tells the container, not which tracks it holds.
 * - image/heic: the HEVC still-image brands (heic, heix, heim, heis). `mif1` alone is only HEIF
 *   and may carry any codec (AV1, JPEG), so it does not make a file HEIC.
 * - image/heif: any HEIF still image or sequence (mif1, mif2, msf1 and the HEVC brands above plus
 *   hevc/hevx); AVIF files list mif1 and are HEIF too.
 * - image/avif: avif (still) and avis (sequence).
 */
const GENERIC_MP4 = ['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9', 'mp41', 'mp42', 'mp71', 'dash'];
const HEVC_STILL = ['heic', 'heix', 'heim', 'heis'];

export const BRANDS: Readonly<Record<string, readonly string[]>> = {
  'video/mp4': [...GENERIC_MP4, 'avc1', 'M4V ', 'M4VH', 'M4VP', 'mmp4', 'MSNV'],
  'video/quicktime': ['qt  '],
  'audio/mp4': [...GENERIC_MP4, 'M4A ', 'M4B '],
  'image/heic': HEVC_STILL,
  'image/heif': ['mif1', 'mif2', 'msf1', ...HEVC_STILL, 'hevc', 'hevx'],
  'image/avif': ['avif', 'avis'],
};

/** an ftyp box holds 8 bytes of brand and version plus 4 per compatible brand: this is plenty */
const MAX_FTYP_BYTES = 4096;

export interface FileTypeBox {
  major: string;
  compatible: string[];
}

/** The leading ftyp box, or why there is none. */
export async function readFileTypeBox(path: string): Promise<FileTypeBox | string> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(MAX_FTYP_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead < 16 || head.toString('latin1', 4, 8) !== 'ftyp') return 'The file does not start with an ISO base-media ftyp box';
    let size = head.readUInt32BE(0);
    let offset = 8;
    if (size === 1) {
      // a 64-bit size follows the type; an ftyp box is never that big, but the form is legal
      if (bytesRead < 24) return 'The ftyp box is truncated';
      const large = head.readBigUInt64BE(8);
      if (large > BigInt(MAX_FTYP_BYTES)) return `The ftyp box has an impossible size (${large} bytes)`;
      size = Number(large);
      offset = 16;
    }
    if (size < offset + 8 || size > MAX_FTYP_BYTES || (size - offset - 8) % 4 !== 0) return `The ftyp box has an impossible size (${size} bytes)`;
    if (size > bytesRead) return 'The ftyp box is truncated';
    const major = head.toString('latin1', offset, offset + 4);
    const compatible: string[] = [];
    for (let at = offset + 8; at < size; at += 4) compatible.push(head.toString('latin1', at, at + 4));
    return { major, compatible };
  } finally {
    await handle.close();
  }
}

/** null when the brands fit the declared type, else why not. */
export function brandMismatch(declared: string, box: FileTypeBox): string | null {
  const accepted = BRANDS[declared];
  if (!accepted) throw new Error(`no brands for ${declared}`);
  if ([box.major, ...box.compatible].some((brand) => accepted.includes(brand))) return null;
  const named = [box.major, ...box.compatible.filter((b) => b !== box.major)].map((b) => `'${b}'`).join(', ');
  return `The file's brands (${named}) do not make it ${declared}`;
}
