// S3-compatible object storage (AWS, MinIO, Ceph, s3rver…). Clients post straight to the bucket
// with a presigned POST whose policy binds the exact key, size, content type and the upload's
// identity (x-amz-meta-*), and download through presigned GET URLs; the platform itself only reads,
// writes and deletes server-side.
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { writeStreamToFile } from './atomic-files.ts';
import { contentDisposition } from './content-disposition.ts';
import type { DownloadRequest, ObjectStorage, SignedDownload, SignedPost, StoredObject, UploadBinding } from './object-storage.ts';
import { ObjectNotFoundError } from './storage-errors.ts';
import { assertContentType, assertDownloadRequest, assertMetadata, assertObjectKey, assertUploadBinding } from './storage-input.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** a non-AWS endpoint; unset: AWS */
  endpoint?: string;
  /** both or neither; neither: the SDK's default credential chain (environment, profile, instance role) */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** where localCopy downloads objects to (and write spools streams of unknown length) */
  tempDir: string;
}

// The binding names the platform reads (StoredObject.metadata, as the local driver stores them)
// and the user-metadata names they travel under in S3 (x-amz-meta-<name>, lower case).
const METADATA_NAMES: Readonly<Record<string, string>> = {
  uploadSimplyId: 'upload-id',
  teamSimplyId: 'team-id',
  checksumSha256: 'sha256',
};
const METADATA_FIELDS = Object.fromEntries(Object.entries(METADATA_NAMES).map(([name, s3Name]) => [s3Name, name]));

function toS3Name(name: string): string {
  return METADATA_NAMES[name] ?? name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function fromS3Name(s3Name: string): string {
  return METADATA_FIELDS[s3Name] ?? s3Name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Types a browser runs as a document (script included) when shown inline. */
const ACTIVE_DOCUMENT_TYPES: ReadonlySet<string> = new Set(['image/svg+xml', 'application/xml', 'text/xml']);

/** DeleteObjects takes at most 1000 keys a request. */
const DELETE_BATCH = 1000;

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}

export class S3ObjectStorage implements ObjectStorage {
  readonly driver = 's3' as const;
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly tempDir: string;

  constructor(options: S3StorageOptions) {
    if (Boolean(options.accessKeyId) !== Boolean(options.secretAccessKey)) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    this.bucket = options.bucket;
    this.tempDir = options.tempDir;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
      // The SDK's default CRC32 checksums send bodies aws-chunked with a trailer, which many
      // S3-compatible servers do not understand (some store the chunk framing as content);
      // checksums only where the API demands them (DeleteObjects).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async presignUpload(binding: UploadBinding): Promise<SignedPost> {
    assertUploadBinding(binding);
    const expires = Math.ceil((binding.expiresAt.getTime() - Date.now()) / 1000);
    const metadata = {
      [`x-amz-meta-${METADATA_NAMES.uploadSimplyId}`]: binding.uploadSimplyId,
      [`x-amz-meta-${METADATA_NAMES.teamSimplyId}`]: binding.teamSimplyId,
      [`x-amz-meta-${METADATA_NAMES.checksumSha256}`]: binding.checksumSha256,
    };
    const post = await createPresignedPost(this.client, {
      Bucket: this.bucket,
      Key: binding.key,
      Expires: Math.max(1, expires),
      Fields: { 'Content-Type': binding.contentType, ...metadata },
      Conditions: [
        ['content-length-range', binding.sizeBytes, binding.sizeBytes],
        ['eq', '$Content-Type', binding.contentType],
        ...Object.entries(metadata).map(([field, value]) => ['eq', `$${field}`, value] as ['eq', string, string]),
      ],
    });
    return { url: post.url, fields: post.fields };
  }

  async presignDownload(request: DownloadRequest): Promise<SignedDownload> {
    assertDownloadRequest(request);
    // A presigned GET cannot add response headers besides the Response* overrides: no CSP, no
    // nosniff. A type a browser would run as a document (SVG, XML) is therefore always offered as
    // an attachment, never shown inline from the bucket's origin.
    const disposition = ACTIVE_DOCUMENT_TYPES.has(request.contentType) ? 'attachment' : (request.disposition ?? 'attachment');
    const expiresAt = new Date(Date.now() + request.expiresInSeconds * 1000);
    const url = await getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: request.key,
        ResponseContentType: request.contentType,
        ResponseContentDisposition: contentDisposition(disposition, request.filename),
        ResponseCacheControl: `private, max-age=${request.expiresInSeconds}`,
      }),
      { expiresIn: request.expiresInSeconds },
    );
    return { url, expiresAt };
  }

  async stat(key: string): Promise<StoredObject | null> {
    assertObjectKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      const metadata = Object.fromEntries(Object.entries(head.Metadata ?? {}).map(([name, value]) => [fromS3Name(name.toLowerCase()), value]));
      return { sizeBytes: head.ContentLength ?? 0, metadata };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string): Promise<Readable> {
    assertObjectKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      // in Node the SDK hands the body over as the HTTP response stream itself
      return object.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  /** a private folder under tempDir, removed by the caller */
  private async newTempFolder(): Promise<string> {
    await mkdir(this.tempDir, { recursive: true, mode: 0o700 });
    return mkdtemp(path.join(this.tempDir, 'svc-object-'));
  }

  async localCopy(key: string): Promise<{ path: string; release(): Promise<void> }> {
    const body = await this.read(key);
    const folder = await this.newTempFolder();
    const release = () => rm(folder, { recursive: true, force: true });
    const file = path.join(folder, 'object');
    try {
      await writeStreamToFile(body, file);
    } catch (error) {
      await release();
      throw error;
    }
    return { path: file, release };
  }

  async write(key: string, body: Buffer | Readable, options: { contentType: string; metadata?: Record<string, string> }): Promise<void> {
    assertObjectKey(key);
    assertContentType(options.contentType);
    const metadata = options.metadata ?? {};
    assertMetadata(metadata);
    const put = { Bucket: this.bucket, Key: key, ContentType: options.contentType, Metadata: Object.fromEntries(Object.entries(metadata).map(([name, value]) => [toS3Name(name), value])) };
    if (Buffer.isBuffer(body)) {
      await this.client.send(new PutObjectCommand({ ...put, Body: body, ContentLength: body.length }));
      return;
    }
    // PutObject needs the length up front: a stream is spooled to disk first (memory stays flat)
    const folder = await this.newTempFolder();
    try {
      const file = path.join(folder, 'body');
      await writeStreamToFile(body, file);
      const { size } = await stat(file);
      await this.client.send(new PutObjectCommand({ ...put, Body: createReadStream(file), ContentLength: size }));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) assertObjectKey(key);
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const result = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      // a missing key is not an error (S3 reports it deleted); anything else is
      const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) throw new Error(`S3 could not delete ${failed.length} object(s), e.g. ${failed[0]!.Key}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`.trim());
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
