// The stored image cannot be turned into pixels: corrupt, a codec this sharp build lacks (HEVC),
// over the pixel limit, or an SVG that does not rasterize in time. Retrying will not help.
export class UnreadableImageError extends Error {
  override name = 'UnreadableImageError';
}
