// The one interface both storage drivers implement: local disk (the embedded default, served by
// the platform's own signed endpoints, local-storage.ts) and S3-compatible object storage
// (s3-storage.ts). Keys are always chosen by the platform (storage-keys.ts); no caller ever
// names a storage address.
import type { Readable } from 'node:stream';

/** What a signed upload post binds: the storage endpoint (local) or the POST policy (S3) refuses anything else. */
export interface UploadBinding {
  key: string;
  contentType: string;
  /** the exact size in bytes */
  sizeBytes: number;
  /** base64 SHA-256 of the bytes */
  checksumSha256: string;
  uploadSimplyId: string;
  teamSimplyId: string;
  expiresAt: Date;
}

export interface SignedPost {
  /** where the client posts multipart/form-data */
  url: string;
  /** every field to send unchanged, before the file part */
  fields: Record<string, string>;
}

export interface DownloadRequest {
  key: string;
  /** the filename offered to the browser (Content-Disposition) */
  filename: string;
  contentType: string;
  expiresInSeconds: number;
  /** attachment unless the caller asks to display it */
  disposition?: 'attachment' | 'inline';
  /**
   * The same content in another type (an image variant's AVIF beside its WebP). The local driver
   * serves it instead when the download request's Accept header names its type
   * (accept-negotiation.ts); S3 cannot choose per request and always serves `key`.
   */
  alternative?: DownloadAlternative;
}

export interface DownloadAlternative {
  key: string;
  filename: string;
  contentType: string;
}

export interface SignedDownload {
  url: string;
  expiresAt: Date;
}

export interface StoredObject {
  sizeBytes: number;
  /** the binding the object was written with: upload id, team id, checksum (what the post carried) */
  metadata: Record<string, string>;
}

export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  presignUpload(binding: UploadBinding): Promise<SignedPost>;
  presignDownload(request: DownloadRequest): Promise<SignedDownload>;
  /** null when there is no (complete) object under the key */
  stat(key: string): Promise<StoredObject | null>;
  read(key: string): Promise<Readable>;
  /** the object as a local file for inspection; `release` removes any temporary copy */
  localCopy(key: string): Promise<{ path: string; release(): Promise<void> }>;
  /** writes a whole object (sanitized SVG, image variants); atomic: readers see all or nothing */
  write(key: string, body: Buffer | Readable, options: { contentType: string; metadata?: Record<string, string> }): Promise<void>;
  /** removes objects; missing keys are not an error */
  delete(keys: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
