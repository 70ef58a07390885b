// The built-in malware scanner, used when no clamd is configured: it looks for known signatures
// in the file's bytes and, when the file is a zip (office packages are), in every entry's
// unpacked bytes, opening archives within archives to a small depth. Memory stays bounded: bytes
// stream through a matcher that keeps only a signature's length of history, and a nested archive
// is spilled to a temporary file to be opened. It knows very few signatures; it exists so that
// the scanning path is always exercised and the EICAR test file is refused. Run clamd for real
// protection.
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { addAbortSignal, type Readable } from 'node:stream';
import { looksLikeZip, openZip, ZIP_LIMITS, ZIP_MAGIC, zipEntries, type ZipLimits } from '../inspection/zip-reading.ts';
import { type MalwareScanner, ScanError, type ScanVerdict } from './malware-scanner.ts';

export interface Signature {
  name: string;
  bytes: Buffer;
}

/**
 * The EICAR anti-virus test file's 68 bytes (eicar.org), kept encoded so that this source file is
 * not itself reported by the virus scanners of the machines it is checked out on. It is matched
 * anywhere in a file, not only at its start as the EICAR convention has it: stricter, never laxer.
 */
export const EICAR = Buffer.from('WDVPIVAlQEFQWzRcUFpYNTQoUF4pN0NDKTd9JEVJQ0FSLVNUQU5EQVJELUFOVElWSVJVUy1URVNULUZJTEUhJEgrSCo=', 'base64');

export const BUILTIN_SIGNATURES: readonly Signature[] = [{ name: 'Eicar-Test-Signature', bytes: EICAR }];

/** Finds signatures in a byte stream fed chunk by chunk, across chunk boundaries. */
class SignatureMatcher {
  private tail = Buffer.alloc(0);
  private readonly keep: number;
  private readonly signatures: readonly Signature[];

  constructor(signatures: readonly Signature[]) {
    this.signatures = signatures;
    this.keep = Math.max(...signatures.map((s) => s.bytes.length)) - 1;
  }

  /** the name of a signature found so far, or null */
  push(chunk: Buffer): string | null {
    // a signature split between chunks lies within the tail and the chunk's first bytes
    const seam = Buffer.concat([this.tail, chunk.subarray(0, this.keep)]);
    for (const { name, bytes } of this.signatures) {
      if (seam.includes(bytes) || chunk.includes(bytes)) return name;
    }
    const joined = chunk.length >= this.keep ? chunk : Buffer.concat([this.tail, chunk]);
    // copied, so that the tail does not keep a whole chunk alive
    this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - this.keep)));
    return null;
  }
}

interface Scan {
  signal: AbortSignal;
  limits: ZipLimits;
  /** entries and unpacked bytes seen so far in all archives of this file */
  entries: number;
  unpackedBytes: number;
  /** made on first use, for nested archives */
  tempDir?: string;
  spills: number;
}

async function write(out: WriteStream, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/**
 * Streams `input` through a matcher. With `spill`, a stream that starts like a zip is also written
 * to the file `spill` names, to be opened as an archive afterwards (`spilled`).
 */
async function scanStream(
  input: Readable,
  scan: Scan,
  counted: boolean,
  spill?: () => Promise<string>,
): Promise<{ found: string | null; spilled?: string; zip: boolean }> {
  addAbortSignal(scan.signal, input);
  const matcher = new SignatureMatcher(BUILTIN_SIGNATURES);
  // the first bytes, held until there are enough to tell whether the stream is a zip
  let pending: Buffer[] | null = [];
  let head = Buffer.alloc(0);
  let out: WriteStream | undefined;
  let spilled: string | undefined;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (counted) {
        scan.unpackedBytes += chunk.length;
        if (scan.unpackedBytes > scan.limits.maxUncompressedBytes) {
          throw new ScanError(`the archive unpacks to more than ${scan.limits.maxUncompressedBytes} bytes, beyond the scanner's limit`);
        }
      }
      const found = matcher.push(chunk);
      if (found) return { found, spilled, zip: false };
      if (pending) {
        pending.push(chunk);
        const prefix = Buffer.concat(pending);
        if (prefix.length < ZIP_MAGIC.length) continue;
        pending = null;
        head = prefix.subarray(0, ZIP_MAGIC.length);
        if (spill && looksLikeZip(head)) {
          spilled = await spill();
          out = createWriteStream(spilled);
          await write(out, prefix);
        }
      } else if (out) {
        await write(out, chunk);
      }
    }
    if (pending) head = Buffer.concat(pending);
    if (out) {
      out.end();
      await once(out, 'finish');
    }
    return { found: null, spilled, zip: looksLikeZip(head) };
  } finally {
    if (out && !out.writableFinished) out.destroy();
  }
}

/** Scans every entry of an archive; `depth` 1 is the uploaded file itself. */
async function scanArchive(source: string, depth: number, scan: Scan): Promise<string | null> {
  let zip;
  try {
    zip = await openZip(source);
  } catch (error) {
    throw new ScanError(`an archive could not be read: ${(error as Error).message}`);
  }
  try {
    const entries = zipEntries(zip)[Symbol.asyncIterator]();
    for (;;) {
      let next;
      try {
        next = await entries.next();
      } catch (error) {
        throw new ScanError(`an archive could not be read: ${(error as Error).message}`);
      }
      if (next.done) return null;
      const entry = next.value;
      scan.entries += 1;
      if (scan.entries > scan.limits.maxEntries) throw new ScanError(`the archive holds more than ${scan.limits.maxEntries} entries, beyond the scanner's limit`);
      if (entry.fileName.endsWith('/')) continue;
      // As clamd does by default: an encrypted entry cannot be read by us, nor opened by anyone
      // without its password, and refusing them all would refuse every protected archive.
      if (entry.isEncrypted()) continue;
      if (!entry.canDecodeFileData()) throw new ScanError(`${entry.fileName} in an archive uses compression method ${entry.compressionMethod}, which the scanner cannot unpack`);
      let stream: Readable;
      try {
        stream = await zip.openReadStreamPromise(entry);
      } catch (error) {
        throw new ScanError(`${entry.fileName} in an archive could not be read: ${(error as Error).message}`);
      }
      let nested: string | undefined;
      const spill = depth < scan.limits.maxDepth ? async () => (nested = await spillPath(scan)) : undefined;
      try {
        const result = await scanStream(stream, scan, true, spill).catch((error: unknown) => {
          if (error instanceof ScanError || scan.signal.aborted) throw error;
          throw new ScanError(`${entry.fileName} in an archive could not be unpacked: ${(error as Error).message}`);
        });
        if (result.found) return result.found;
        if (result.spilled) {
          const found = await scanArchive(result.spilled, depth + 1, scan);
          if (found) return found;
        }
      } finally {
        if (nested) await rm(nested, { force: true });
      }
    }
  } finally {
    zip.close();
  }
}

async function spillPath(scan: Scan): Promise<string> {
  scan.tempDir ??= await mkdtemp(path.join(os.tmpdir(), 'builtin-scan-'));
  scan.spills += 1;
  return path.join(scan.tempDir, `nested-${scan.spills}.zip`);
}

export function createBuiltinScanner(limits: ZipLimits = ZIP_LIMITS): MalwareScanner {
  return {
    name: 'builtin',
    async scan(file: string, options: { timeoutMs: number }): Promise<ScanVerdict> {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs);
      const scan: Scan = { signal: controller.signal, limits, entries: 0, unpackedBytes: 0, spills: 0 };
      try {
        const whole = await scanStream(createReadStream(file), scan, false);
        const found = whole.found ?? (whole.zip ? await scanArchive(file, 1, scan) : null);
        return found ? { clean: false, signature: found } : { clean: true };
      } catch (error) {
        if (controller.signal.aborted) throw new ScanError(`the scan took longer than ${options.timeoutMs} ms`, true);
        throw error;
      } finally {
        clearTimeout(timer);
        if (scan.tempDir) await rm(scan.tempDir, { recursive: true, force: true });
      }
    },
  };
}
