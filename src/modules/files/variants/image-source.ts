// Opening a stored image for rendering: its size as shown (after EXIF orientation) and its
// decoded pixels, oriented. SVGs (sanitized at inspection) are rasterized at a density chosen
// here, in a child process (svg-rasterizer.ts); animated GIF/WebP and multi-page TIFF give their
// first frame (sharp's default of one page), since every variant is a still picture.
import type { Metadata, Sharp } from 'sharp';
import { sharp } from '../../../app/on-first-use.ts';
import { MAX_IMAGE_PIXELS } from '../inspection/image-dimensions.ts';
import { rasterizeSvg } from './svg-rasterizer.ts';
import { UnreadableImageError } from './unreadable-image-error.ts';

/**
 * An SVG is rasterized to fit inside this square: the widest variant (RESPONSIVE_1920) and
 * WEB_SIZE_IMAGE then come from pixels drawn at their size rather than from an enlargement of a
 * small intrinsic size (an icon's 24 × 24), and nothing is drawn larger than any variant needs.
 */
const SVG_RASTER_EDGE = 1920;
/** sharp's (librsvg's) accepted density range, in dots per inch; 72 draws the intrinsic CSS-pixel size */
const MIN_DENSITY = 1;
const MAX_DENSITY = 100_000;
const CSS_DPI = 72;

export interface DecodedImage {
  /** a pipeline over the oriented pixels (first frame) */
  image: Sharp;
  /** the size it produces (SVG: the rasterized size) */
  width: number;
  height: number;
}

export interface ImageSource {
  /** the size as shown, after EXIF orientation (SVG: its intrinsic size in CSS pixels) */
  width: number;
  height: number;
  decode(signal?: AbortSignal): Promise<DecodedImage>;
}

function open(path: string): Sharp {
  // the default failOn ('warning') is kept: sharp advises it for untrusted input
  return sharp()(path, { limitInputPixels: MAX_IMAGE_PIXELS, autoOrient: true });
}

export async function openImageSource(path: string): Promise<ImageSource> {
  let metadata: Metadata;
  try {
    metadata = await open(path).metadata();
  } catch (error) {
    throw new UnreadableImageError(`The image could not be read: ${(error as Error).message}`, { cause: error });
  }
  const { width, height } = metadata.autoOrient;
  if (!width || !height) throw new UnreadableImageError('The image states no pixel size');
  if (metadata.format !== 'svg') {
    return { width, height, decode: async () => ({ image: open(path), width, height }) };
  }
  // At MIN_DENSITY an SVG whose intrinsic size passed the pixel limit above draws at most 1/72²
  // of those pixels, so no SVG rasterizes beyond the limit whatever size it states.
  const density = Math.min(MAX_DENSITY, Math.max(MIN_DENSITY, (CSS_DPI * SVG_RASTER_EDGE) / Math.max(width, height)));
  return {
    width,
    height,
    async decode(signal) {
      const raster = await rasterizeSvg(path, density, { limitInputPixels: MAX_IMAGE_PIXELS, signal });
      const image = sharp()(raster.data, { raw: { width: raster.width, height: raster.height, channels: raster.channels } });
      return { image, width: raster.width, height: raster.height };
    },
  };
}
