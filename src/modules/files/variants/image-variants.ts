// The derivatives of a stored image (variant-plan.ts says which and at what size): always WebP,
// and AVIF beside it for the larger sizes when it is clearly smaller. Every derivative is in
// sRGB with no metadata at all: sharp writes none (EXIF, GPS, XMP, IPTC, ICC) unless asked to
// keep it, which this file never does, and the EXIF orientation is applied to the pixels first.
// Input that cannot be decoded is an UnreadableImageError (unreadable-image-error.ts).
//
// The source is decoded once (image-source.ts), oriented and reduced to the largest planned size,
// into raw pixels in memory; every variant is resized from that buffer and encoded, a few at a
// time. Measured on the idle 2-core machine with a 12 MP JPEG: one decode per variant took
// ~1.6 s, the shared buffer ~1.2 s; a second, smaller buffer for the small sizes saved nothing
// measurable. scripts/bench/image-variants.ts measures the whole call.
import type { Channels, OutputInfo } from 'sharp';
import { sharp } from '../../../app/on-first-use.ts';
import type { RenderedVariant } from './image-variant-types.ts';
import { openImageSource } from './image-source.ts';
import { UnreadableImageError } from './unreadable-image-error.ts';
import { planVariants, type PlannedVariant } from './variant-plan.ts';

/** sharp's default quality; WebP's default effort (4): the whole set fits the time budget with it */
const WEBP = { quality: 80, effort: 4 } as const;
/**
 * Effort 0: at effort 2 one 1920-pixel AVIF alone took ~1.9 s on this machine (effort 4: 8.5 s),
 * and at equal quality settings effort 0 measured as good by SSIM per byte as efforts 1 and 2.
 */
const AVIF = { quality: 50, effort: 0 } as const;
/** An AVIF is stored only when at most this fraction of its WebP twin: a smaller saving does not pay for the extra object. */
const AVIF_KEEP_RATIO = 0.8;
/**
 * Encodes in flight. sharp runs each on one libuv thread (sharp.concurrency() is 1 on glibc
 * Linux without jemalloc). On the idle 2-core machine, for the 12 MP set: 1 → 2.0 s, 2 → 1.7 s,
 * 3 or 4 → 1.2 s (an encoder's serial stretches leave a core idle); 3 keeps one of libuv's 4
 * threads free for the file system work of the rest of the process.
 */
const ENCODES_IN_FLIGHT = 3;

export interface RenderedImage {
  /** the source's size as shown (after EXIF orientation; SVG: intrinsic CSS pixels) */
  width: number;
  height: number;
  variants: RenderedVariant[];
}

/** The size an image is shown at (after EXIF orientation), or null when it cannot be decoded. */
export async function imageSize(inputPath: string): Promise<{ width: number; height: number } | null> {
  try {
    const { width, height } = await openImageSource(inputPath);
    return { width, height };
  } catch {
    return null;
  }
}

/**
 * Every variant of the image at inputPath. Throws UnreadableImageError when it cannot be
 * decoded, and the signal's reason when aborted: checked between steps (a running decode or
 * encode finishes first), except that an SVG's rasterizing process is killed at once.
 */
export async function renderImageVariants(inputPath: string, options: { signal?: AbortSignal } = {}): Promise<RenderedImage> {
  const { signal } = options;
  signal?.throwIfAborted();
  const source = await openImageSource(inputPath);
  signal?.throwIfAborted();
  const decoded = await source.decode(signal);
  const plan = planVariants(decoded.width, decoded.height);
  // all planned sizes share the source's aspect, so the widest is also the tallest
  const largest = plan.reduce((a, b) => (b.width > a.width ? b : a));
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await decoded.image
      .resize(largest.width, largest.height, { fit: 'fill' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new UnreadableImageError(`The image could not be decoded: ${(error as Error).message}`, { cause: error });
  }
  const { width, height, channels } = pixels.info;
  const fromPixels = () => sharp()(pixels.data, { raw: { width, height, channels: channels as Channels } });

  const encode = async (planned: PlannedVariant, format: 'webp' | 'avif'): Promise<RenderedVariant> => {
    // the plan fixes the size: fill is exact and the plan never exceeds the source
    const resized = fromPixels().resize(planned.width, planned.height, { fit: 'fill' });
    const out = await (format === 'webp' ? resized.webp(WEBP) : resized.avif(AVIF)).toBuffer({ resolveWithObject: true });
    return { variantType: planned.variantType, format, width: out.info.width, height: out.info.height, bytes: out.data };
  };
  const jobs = plan.flatMap((planned) => [
    { planned, format: 'webp' as const },
    ...(planned.tryAvif ? [{ planned, format: 'avif' as const }] : []),
  ]);
  // largest first, so the longest encodes do not start last
  const order = [...jobs].sort((a, b) => b.planned.width * b.planned.height - a.planned.width * a.planned.height);
  const done = new Map<(typeof jobs)[number], RenderedVariant>();
  await inParallel(order, ENCODES_IN_FLIGHT, signal, async (job) => {
    done.set(job, await encode(job.planned, job.format));
  });

  const variants: RenderedVariant[] = [];
  for (const job of jobs) {
    const variant = done.get(job)!;
    if (variant.format === 'avif') {
      const webp = variants.find((v) => v.variantType === variant.variantType && v.format === 'webp')!;
      if (variant.bytes.length > webp.bytes.length * AVIF_KEEP_RATIO) continue;
    }
    variants.push(variant);
  }
  return { width: source.width, height: source.height, variants };
}

/** run(item) for every item, at most `limit` at a time; no new one starts once the signal aborts */
async function inParallel<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await run(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
