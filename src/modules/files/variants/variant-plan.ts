// Which variants an image of a given (oriented) pixel size gets, at what exact size, and in
// which formats. Pure arithmetic, so the renderer (image-variants.ts) never has to trust a
// resize option to keep its promises: every size here is at most the source size.
import type { VariantType } from './image-variant-types.ts';

export interface PlannedVariant {
  variantType: VariantType;
  width: number;
  height: number;
  /** AVIF is rendered as well; it is kept only when it pays (image-variants.ts) */
  tryAvif: boolean;
}

const BOXES: readonly { variantType: VariantType; box: number }[] = [
  { variantType: 'THUMBNAIL_IMAGE', box: 256 },
  { variantType: 'WEB_SIZE_IMAGE', box: 1600 },
];

const RESPONSIVE: readonly { variantType: VariantType; width: number }[] = [
  { variantType: 'RESPONSIVE_320', width: 320 },
  { variantType: 'RESPONSIVE_640', width: 640 },
  { variantType: 'RESPONSIVE_960', width: 960 },
  { variantType: 'RESPONSIVE_1280', width: 1280 },
  { variantType: 'RESPONSIVE_1920', width: 1920 },
];

/**
 * AVIF is tried for variants whose longer edge reaches this. Measured on this project's 2-core
 * machine (AVIF quality 50, effort 0 against WebP quality 80, luma SSIM at the same size): from
 * about 1000 pixels up AVIF was 25–35 % smaller at equal or better SSIM (a 1169-pixel photo, a
 * 12 MP synthetic photo at 960–1920); at 640 pixels a detailed real photo needed AVIF quality 65
 * to match WebP's SSIM and then saved only 16 %, and below that the few kilobytes saved do not
 * pay for one more stored object and row per variant.
 */
export const AVIF_MIN_EDGE = 960;

/** WebP's largest width or height; every variant has a WebP */
export const WEBP_MAX_EDGE = 16_383;

/** scale (w, h) to fit inside box × box, keeping the aspect, never enlarging */
function fitInside(width: number, height: number, box: number): { width: number; height: number } {
  if (width <= box && height <= box) return { width, height };
  return width >= height
    ? { width: box, height: Math.max(1, Math.round((height * box) / width)) }
    : { width: Math.max(1, Math.round((width * box) / height)), height: box };
}

/**
 * The variants of a width × height image (after EXIF orientation), in VARIANT_TYPES order.
 * THUMBNAIL_IMAGE and WEB_SIZE_IMAGE always exist (at the source size when it is smaller).
 * A RESPONSIVE_N variant exists only when the source is at least N pixels wide: emitting it at
 * the source size instead would store the same pixels under several names and make RESPONSIVE_N
 * mean "up to N" in a srcset, where the browser trusts the width it is told; WEB_SIZE_IMAGE
 * already offers the full resolution of a small image. Nor does one exist when it would be taller
 * than WebP allows (a strip 20 times taller than wide has no RESPONSIVE_960).
 */
export function planVariants(width: number, height: number): PlannedVariant[] {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`An image of ${width}×${height} pixels has no variants`);
  }
  const planned: PlannedVariant[] = [];
  const add = (variantType: VariantType, size: { width: number; height: number }) =>
    planned.push({ variantType, ...size, tryAvif: Math.max(size.width, size.height) >= AVIF_MIN_EDGE });
  for (const { variantType, box } of BOXES) add(variantType, fitInside(width, height, box));
  for (const { variantType, width: target } of RESPONSIVE) {
    const scaledHeight = Math.max(1, Math.round((height * target) / width));
    if (target <= width && scaledHeight <= WEBP_MAX_EDGE) add(variantType, { width: target, height: scaledHeight });
  }
  return planned;
}
