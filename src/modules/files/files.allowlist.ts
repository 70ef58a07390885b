// The content types an upload may declare (exact match, lower case), what kind of file each
// becomes and how it is inspected. docs/api/files.md lists the same table for users; keep them in
// step. Generic application/octet-stream and HTML are never accepted.

export type FileKind = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'DOCUMENT' | 'TEXT' | 'ARCHIVE';

/**
 * How the content is checked at promotion (inspection/inspect-file.ts):
 * - `magic`: the magic bytes must name this very type
 * - `office`: a zip package whose parts must match the type; macro-enabled content is refused
 * - `base-media`: an ISO base-media file whose brand must be compatible with the type
 * - `text`, `csv`, `json`, `xml`, `svg`: read in full (10 MiB cap); valid UTF-8; json must parse,
 *   xml must be well-formed without a DTD, svg is sanitized before storage
 */
export type Inspection = 'magic' | 'office' | 'base-media' | 'text' | 'csv' | 'json' | 'xml' | 'svg';

export interface AllowedType {
  kind: FileKind;
  inspection: Inspection;
  /** the usual filename extensions (documentation; filenames are not trusted) */
  extensions: readonly string[];
}

export const MIB = 1024 * 1024;
/** text, CSV, JSON, XML and SVG are read in full and capped here */
export const TEXT_MAX_BYTES = 10 * MIB;
/** every other type */
export const BINARY_MAX_BYTES = 500 * MIB;

export const ALLOWED_TYPES: Readonly<Record<string, AllowedType>> = {
  'image/jpeg': { kind: 'IMAGE', inspection: 'magic', extensions: ['jpg', 'jpeg'] },
  'image/png': { kind: 'IMAGE', inspection: 'magic', extensions: ['png'] },
  'image/gif': { kind: 'IMAGE', inspection: 'magic', extensions: ['gif'] },
  'image/webp': { kind: 'IMAGE', inspection: 'magic', extensions: ['webp'] },
  'image/tiff': { kind: 'IMAGE', inspection: 'magic', extensions: ['tif', 'tiff'] },
  'image/avif': { kind: 'IMAGE', inspection: 'base-media', extensions: ['avif'] },
  'image/heic': { kind: 'IMAGE', inspection: 'base-media', extensions: ['heic'] },
  'image/heif': { kind: 'IMAGE', inspection: 'base-media', extensions: ['heif'] },
  'image/svg+xml': { kind: 'IMAGE', inspection: 'svg', extensions: ['svg'] },
  'video/mp4': { kind: 'VIDEO', inspection: 'base-media', extensions: ['mp4', 'm4v'] },
  'video/quicktime': { kind: 'VIDEO', inspection: 'base-media', extensions: ['mov'] },
  'video/webm': { kind: 'VIDEO', inspection: 'magic', extensions: ['webm'] },
  'audio/mp4': { kind: 'AUDIO', inspection: 'base-media', extensions: ['m4a'] },
  'audio/mpeg': { kind: 'AUDIO', inspection: 'magic', extensions: ['mp3'] },
  'audio/wav': { kind: 'AUDIO', inspection: 'magic', extensions: ['wav'] },
  'audio/ogg': { kind: 'AUDIO', inspection: 'magic', extensions: ['ogg', 'oga'] },
  'audio/flac': { kind: 'AUDIO', inspection: 'magic', extensions: ['flac'] },
  'application/pdf': { kind: 'DOCUMENT', inspection: 'magic', extensions: ['pdf'] },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { kind: 'DOCUMENT', inspection: 'office', extensions: ['docx'] },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { kind: 'DOCUMENT', inspection: 'office', extensions: ['xlsx'] },
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': { kind: 'DOCUMENT', inspection: 'office', extensions: ['pptx'] },
  'application/zip': { kind: 'ARCHIVE', inspection: 'magic', extensions: ['zip'] },
  'text/plain': { kind: 'TEXT', inspection: 'text', extensions: ['txt'] },
  'text/markdown': { kind: 'TEXT', inspection: 'text', extensions: ['md'] },
  'text/csv': { kind: 'TEXT', inspection: 'csv', extensions: ['csv'] },
  'application/json': { kind: 'TEXT', inspection: 'json', extensions: ['json'] },
  'application/xml': { kind: 'TEXT', inspection: 'xml', extensions: ['xml'] },
  'text/xml': { kind: 'TEXT', inspection: 'xml', extensions: ['xml'] },
};

const TEXT_LIKE: ReadonlySet<Inspection> = new Set(['text', 'csv', 'json', 'xml', 'svg']);

export function allowedType(contentType: string): AllowedType | null {
  return Object.hasOwn(ALLOWED_TYPES, contentType) ? ALLOWED_TYPES[contentType]! : null;
}

/** The size cap of a declared type: 10 MiB for text-like formats, 500 MiB otherwise. */
export function maxBytesFor(type: AllowedType): number {
  return TEXT_LIKE.has(type.inspection) ? TEXT_MAX_BYTES : BINARY_MAX_BYTES;
}
