// An image's pixel size as shown (EXIF orientation applied), from its header: sharp reads the
// metadata without decoding pixels.
import { sharp } from '../../../app/on-first-use.ts';

/**
 * sharp's own default for limitInputPixels (0x3FFF²): every later decode (variants) refuses larger
 * images, so such a file is a decompression bomb or at least useless; refuse it up front.
 */
export const MAX_IMAGE_PIXELS = 0x3fff * 0x3fff;

export type ImageSize = { ok: true; width: number; height: number } | { ok: false; tooLarge: boolean; message: string };

export async function imageSize(path: string, declared: string): Promise<ImageSize> {
  // the limit is ours to check below (with a clear message): metadata only reads the header
  const metadata = await sharp()(path, { limitInputPixels: false })
    .metadata()
    .catch((error: unknown) => error as Error);
  if (metadata instanceof Error) return { ok: false, tooLarge: false, message: `The ${declared} image could not be read: ${metadata.message}` };
  // the size as shown: a photo stored sideways with an EXIF orientation has width and height swapped
  const { width, height } = metadata.autoOrient ?? metadata;
  if (!width || !height) return { ok: false, tooLarge: false, message: `The ${declared} image states no pixel size` };
  if (width * height > MAX_IMAGE_PIXELS) {
    return { ok: false, tooLarge: true, message: `The image is ${width}×${height} pixels; at most ${MAX_IMAGE_PIXELS} pixels are accepted` };
  }
  return { ok: true, width, height };
}
