// SVGs are rasterized in a child process (svg-rasterizer-process.ts) that is killed when it
// takes too long or the caller aborts. librsvg draws a document in one uninterruptible call per
// strip, and sanitized SVG may still use filters: a 27 KB file of 100 filtered rectangles took
// 50 s at 1920 pixels here and sharp's timeout() only fired after it. In process, such a file
// would hold one of libuv's four threads until done; a child process can be stopped.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Channels } from 'sharp';
import { UnreadableImageError } from './unreadable-image-error.ts';

const CHILD = fileURLToPath(new URL('./svg-rasterizer-process.ts', import.meta.url));
/** An ordinary SVG rasterizes in well under a second; the child process starts in ~0.2 s. */
export const SVG_RASTER_TIMEOUT_MS = 15_000;
const HEADER_BYTES = 12;
const STDERR_KEPT = 2000;

export interface RasterizedSvg {
  data: Buffer;
  width: number;
  height: number;
  channels: Channels;
}

/** The pixels (sRGB, with alpha) of the SVG at `file` drawn at `density` dots per inch. */
export function rasterizeSvg(
  file: string,
  density: number,
  options: { limitInputPixels: number; timeoutMs?: number; signal?: AbortSignal },
): Promise<RasterizedSvg> {
  const { limitInputPixels, timeoutMs = SVG_RASTER_TIMEOUT_MS, signal } = options;
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, file, String(density), String(limitInputPixels), String(timeoutMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let received = 0;
    let stderr = '';
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const stop = (error: unknown) => {
      child.kill('SIGKILL');
      settle(() => reject(error));
    };
    const onAbort = () => stop(signal!.reason);
    const timer = setTimeout(() => stop(new UnreadableImageError(`The SVG did not rasterize within ${timeoutMs / 1000} s`)), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    const maxBytes = HEADER_BYTES + limitInputPixels * 4;
    child.stdout.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) return stop(new UnreadableImageError('The SVG rasterized to more pixels than allowed'));
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => stop(error));
    child.on('close', (code, killedBy) => {
      if (code !== 0) {
        const why = stderr.trim().slice(0, STDERR_KEPT) || `the rasterizer ended with ${code ?? killedBy}`;
        return settle(() => reject(new UnreadableImageError(`The SVG could not be rasterized: ${why}`)));
      }
      const out = Buffer.concat(chunks);
      const width = out.length >= HEADER_BYTES ? out.readUInt32BE(0) : 0;
      const height = out.length >= HEADER_BYTES ? out.readUInt32BE(4) : 0;
      const channels = out.length >= HEADER_BYTES ? out.readUInt32BE(8) : 0;
      const data = out.subarray(HEADER_BYTES);
      if (width < 1 || height < 1 || channels < 1 || channels > 4 || data.length !== width * height * channels) {
        return settle(() => reject(new Error(`The SVG rasterizer answered ${out.length} bytes that do not make an image`)));
      }
      settle(() => resolve({ data, width, height, channels: channels as Channels }));
    });
  });
}
