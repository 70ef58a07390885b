// Reading zip archives (office packages at inspection, any archive in the built-in scanner)
// without trusting them: yauzl refuses absolute and `..` entry names (after turning Windows
// backslashes into slashes) and checks every entry's real size against the one it declares, and
// these limits stop zip bombs before they expand.
import type yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { onFirstUse } from '../../../app/on-first-use.ts';

const zips = onFirstUse<typeof yauzl>('yauzl');

export interface ZipLimits {
  /** entries in one archive, and in all nested archives together when scanning */
  maxEntries: number;
  /** bytes that entries may expand to, in all (declared at inspection, actual when scanning) */
  maxUncompressedBytes: number;
  /** archives inside archives the scanner opens (1: only the uploaded archive itself) */
  maxDepth: number;
  /** a nested archive is unpacked in memory to be opened: up to this size */
  maxNestedArchiveBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxUncompressedBytes: 1024 * 1024 * 1024,
  maxDepth: 3,
  maxNestedArchiveBytes: 64 * 1024 * 1024,
};

/** the local file header signature every zip (and office package) starts with */
export const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export function looksLikeZip(head: Uint8Array): boolean {
  return head.length >= 4 && Buffer.from(head.buffer, head.byteOffset, 4).equals(ZIP_MAGIC);
}

const OPTIONS = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false } as const;

/** Opens an archive from a file or a buffer; the caller closes it. Rejects when it is no zip. */
export function openZip(source: string | Buffer): Promise<ZipFile> {
  return typeof source === 'string' ? zips().openPromise(source, OPTIONS) : zips().fromBufferPromise(source, OPTIONS);
}

/** Every entry of an open archive, in central-directory order (yauzl validates names as it goes). */
export function zipEntries(zip: ZipFile): AsyncIterable<Entry> {
  return zip.eachEntry();
}

/** An entry's decompressed bytes, or null when it declares more than maxBytes (yauzl fails the
 * read when the entry holds more than it declares). */
export async function readEntry(zip: ZipFile, entry: Entry, maxBytes: number): Promise<Buffer | null> {
  if (entry.uncompressedSize > maxBytes) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
