// The derivatives generated for every image version (image-variants.ts).

export const VARIANT_TYPES = [
  'THUMBNAIL_IMAGE',
  'WEB_SIZE_IMAGE',
  'RESPONSIVE_320',
  'RESPONSIVE_640',
  'RESPONSIVE_960',
  'RESPONSIVE_1280',
  'RESPONSIVE_1920',
] as const;

export type VariantType = (typeof VARIANT_TYPES)[number];

/** Every variant has a WebP; the larger ones may have an AVIF beside it (image-variants.ts). */
export const VARIANT_FORMATS = ['webp', 'avif'] as const;

export type VariantFormat = (typeof VARIANT_FORMATS)[number];

export interface RenderedVariant {
  variantType: VariantType;
  format: VariantFormat;
  width: number;
  height: number;
  bytes: Buffer;
}
