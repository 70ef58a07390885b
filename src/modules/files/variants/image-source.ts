// Opening a stored image for rendering: its size as shown (after EXIF orientation) and a sharp
// pipeline that decodes it the same way every time. SVGs (sanitized at inspection) are
// rasterized at a density chosen here; animated GIF/WebP and multi-page TIFF give their first
// frame (sharp's default of one page), as a still preview is what every variant is.
import sharp, { type Metadata, type Sharp } from 'sharp';
import { MAX_IMAGE_PIXELS } from '../inspection/image-dimensions.ts';

/** The stored image cannot be decoded (corrupt, unsupported codec such as HEVC, over the pixel limit). */
export class UnreadableImageError extends Error {
  override name = 'UnreadableImageError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * An SVG is rasterized so that it fits inside this square: the widest variant
 * (RESPONSIVE_1920) and WEB_SIZE_IMAGE then come from pixels drawn at their size rather than
 * from an enlarged rendering of a small intrinsic size (an icon's 24 × 24).
 */
const SVG_RASTER_EDGE = 1920;
/** sharp's (librsvg's) accepted density range, in dots per inch; 72 is the intrinsic CSS-pixel size */
const MIN_DENSITY = 1;
const MAX_DENSITY = 100_000;
const CSS_DPI = 72;

export interface ImageSource {
  /** the size as shown, after EXIF orientation (SVG: its intrinsic size in CSS pixels) */
  width: number;
  height: number;
  /** the size `decode()` produces (SVG: rasterized; otherwise width × height) */
  pixelWidth: number;
  pixelHeight: number;
  /** a fresh pipeline over the image, oriented, first frame only */
  decode(): Sharp;
}

function pipeline(path: string, density: number | undefined): Sharp {
  // the default failOn ('warning') is kept: sharp advises it for untrusted input
  return sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, autoOrient: true, ...(density === undefined ? {} : { density }) });
}

async function orientedSize(image: Sharp): Promise<{ format: string; width: number; height: number }> {
  let metadata: Metadata;
  try {
    metadata = await image.metadata();
  } catch (error) {
    throw new UnreadableImageError(`The image could not be read: ${(error as Error).message}`, { cause: error });
  }
  const { width, height } = metadata.autoOrient;
  if (!width || !height) throw new UnreadableImageError('The image states no pixel size');
  return { format: metadata.format, width, height };
}

export async function openImageSource(path: string): Promise<ImageSource> {
  const shown = await orientedSize(pipeline(path, undefined));
  if (shown.format !== 'svg') {
    return { width: shown.width, height: shown.height, pixelWidth: shown.width, pixelHeight: shown.height, decode: () => pipeline(path, undefined) };
  }
  // Density scales the rendering: CSS_DPI draws the intrinsic size. At MIN_DENSITY an SVG whose
  // intrinsic size passed the pixel limit above has at most 1/72² of those pixels, so no SVG
  // rasterizes beyond the limit whatever it states.
  const wanted = (CSS_DPI * SVG_RASTER_EDGE) / Math.max(shown.width, shown.height);
  const density = Math.min(MAX_DENSITY, Math.max(MIN_DENSITY, wanted));
  // librsvg rounds the scaled size its own way; ask it rather than predict it
  const raster = await orientedSize(pipeline(path, density));
  return { width: shown.width, height: shown.height, pixelWidth: raster.width, pixelHeight: raster.height, decode: () => pipeline(path, density) };
}
