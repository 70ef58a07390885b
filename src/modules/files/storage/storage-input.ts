// What the drivers accept. Keys are chosen by the platform (teams/<team>/objects/<uuid>,
// …/variants/<uuid>.webp, …-sanitized) but a key becomes a path on disk (local driver) and part of
// a URL (both), so the drivers still refuse anything that could name a parent folder, an absolute
// path, a hidden file (the local driver's .tmp folder) or need escaping. Metadata names and values
// stay within what S3 user metadata carries unchanged, so both drivers hand back the same record.
import { InvalidStorageInputError } from './storage-errors.ts';
import type { DownloadRequest, UploadBinding } from './object-storage.ts';

// one segment: a letter or digit first (no "." or ".." or hidden names), at most one extension
const SEGMENT = '[A-Za-z0-9][A-Za-z0-9_-]{0,127}(?:\\.[A-Za-z0-9]{1,16})?';
const KEY_PATTERN = new RegExp(`^${SEGMENT}(?:/${SEGMENT}){0,7}$`);
const KEY_MAX_LENGTH = 512;

export function isObjectKey(key: unknown): key is string {
  return typeof key === 'string' && key.length <= KEY_MAX_LENGTH && KEY_PATTERN.test(key);
}

export function assertObjectKey(key: string): void {
  if (!isObjectKey(key)) throw new InvalidStorageInputError(`Not a storage key: ${JSON.stringify(String(key).slice(0, 100))}`);
}

const METADATA_NAME = /^[a-z][A-Za-z0-9]{0,63}$/;
// printable ASCII: what an HTTP header (S3's x-amz-meta-*) carries without encoding
const METADATA_VALUE = /^[\x20-\x7e]{0,1024}$/;

export function assertMetadata(metadata: Record<string, string>): void {
  for (const [name, value] of Object.entries(metadata)) {
    if (!METADATA_NAME.test(name)) throw new InvalidStorageInputError(`Metadata names are camelCase letters and digits: ${JSON.stringify(name)}`);
    if (typeof value !== 'string' || !METADATA_VALUE.test(value)) throw new InvalidStorageInputError(`Metadata ${name} must be printable ASCII (at most 1024 characters)`);
  }
}

// a media type as the platform stores it: type/subtype, optionally with parameters, no control characters
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(?:;[\x20-\x7e]{0,200})?$/;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;
const PRINTABLE_ID = /^[\x21-\x7e]{1,128}$/;

export function assertContentType(contentType: string): void {
  if (!CONTENT_TYPE.test(contentType)) throw new InvalidStorageInputError(`Not a media type: ${JSON.stringify(contentType.slice(0, 100))}`);
}

export function assertUploadBinding(binding: UploadBinding): void {
  assertObjectKey(binding.key);
  assertContentType(binding.contentType);
  if (!Number.isSafeInteger(binding.sizeBytes) || binding.sizeBytes < 0) throw new InvalidStorageInputError('sizeBytes must be a non-negative integer');
  if (!BASE64_SHA256.test(binding.checksumSha256)) throw new InvalidStorageInputError('checksumSha256 must be the base64 of 32 bytes');
  if (!PRINTABLE_ID.test(binding.uploadSimplyId) || !PRINTABLE_ID.test(binding.teamSimplyId)) throw new InvalidStorageInputError('uploadSimplyId and teamSimplyId must be printable ASCII');
  if (!(binding.expiresAt instanceof Date) || binding.expiresAt.getTime() <= Date.now()) throw new InvalidStorageInputError('expiresAt must lie in the future');
}

/** S3 refuses presigned URLs valid for more than 7 days; the local driver keeps the same bound */
export const MAX_DOWNLOAD_SECONDS = 7 * 24 * 3600;

export function assertDownloadRequest(request: DownloadRequest): void {
  assertObjectKey(request.key);
  assertContentType(request.contentType);
  if (typeof request.filename !== 'string') throw new InvalidStorageInputError('filename must be a string');
  if (!Number.isSafeInteger(request.expiresInSeconds) || request.expiresInSeconds < 1 || request.expiresInSeconds > MAX_DOWNLOAD_SECONDS) {
    throw new InvalidStorageInputError(`expiresInSeconds must be 1..${MAX_DOWNLOAD_SECONDS}`);
  }
  if (request.disposition !== undefined && request.disposition !== 'attachment' && request.disposition !== 'inline') {
    throw new InvalidStorageInputError('disposition must be attachment or inline');
  }
  if (request.alternative !== undefined) {
    assertObjectKey(request.alternative.key);
    assertContentType(request.alternative.contentType);
    if (typeof request.alternative.filename !== 'string') throw new InvalidStorageInputError('the alternative filename must be a string');
  }
}
