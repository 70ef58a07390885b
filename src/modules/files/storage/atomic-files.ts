// File writes that survive a crash half-way: bytes go to a new file that is flushed to disk
// before anyone renames it into place (rename within one filesystem is atomic).
import { createWriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Streams `source` (through `through`, if given) into a new file, flushed before the promise resolves; a failed write leaves no file. */
export async function writeStreamToFile(source: Readable, file: string, options: { through?: Transform; signal?: AbortSignal } = {}): Promise<void> {
  // `wx`: never write through a file (or link) someone else put there; `flush`: fsync before close
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600, flush: true, highWaterMark: 256 * 1024 });
  try {
    if (options.through) await pipeline(source, options.through, out, { signal: options.signal });
    else await pipeline(source, out, { signal: options.signal });
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}

/** Writes `data` to `temp`, flushes it and renames it to `target`. */
export async function writeFileAtomically(temp: string, target: string, data: string | Buffer): Promise<void> {
  try {
    await writeFile(temp, data, { flag: 'wx', mode: 0o600, flush: true });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
