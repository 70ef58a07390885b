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

export interface RenderedVariant {
  variantType: VariantType;
  format: 'webp' | 'avif';
  width: number;
  height: number;
  bytes: Buffer;
}
