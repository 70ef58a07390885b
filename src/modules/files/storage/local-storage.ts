// The embedded default: objects as files under FILE_STORAGE_DIR, each with a sidecar JSON
// (`<key>.meta.json`) holding what it was written with. Clients upload and download through the
// platform's own signed endpoints (local-storage-endpoints.ts). Every write lands in `.tmp/` on the
// same filesystem, is flushed to disk and renamed into place, the sidecar first and the object last:
// a reader sees a whole object with its sidecar, or nothing.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { writeFileAtomically, writeStreamToFile } from './atomic-files.ts';
import type { DownloadRequest, ObjectStorage, SignedDownload, SignedPost, StoredObject, UploadBinding } from './object-storage.ts';
import { ObjectNotFoundError } from './storage-errors.ts';
import { assertContentType, assertDownloadRequest, assertMetadata, assertObjectKey, assertUploadBinding } from './storage-input.ts';
import { StorageSigner } from './storage-signer.ts';

export const UPLOADS_PATH = '/storage/uploads';
export const OBJECTS_PATH = '/storage/objects/';

/** The fields of a signed upload form, in the order they are sent and signed; `signature` follows them. */
export const SIGNED_UPLOAD_FIELDS = ['key', 'Content-Type', 'sizeBytes', 'checksumSha256', 'uploadSimplyId', 'teamSimplyId', 'expires'] as const;
export type SignedUploadFields = Record<(typeof SIGNED_UPLOAD_FIELDS)[number], string>;
/** The query parameters of a signed download URL besides `sig`, in the order they are signed (after the key). */
export const SIGNED_DOWNLOAD_PARAMS = ['exp', 'name', 'type', 'disp'] as const;
export type SignedDownloadParams = Record<(typeof SIGNED_DOWNLOAD_PARAMS)[number], string>;
/**
 * The parameters of a download's alternative (DownloadRequest.alternative), signed after the
 * others when present: a URL carries all three or none, and stripping them breaks the signature.
 */
export const SIGNED_ALTERNATIVE_PARAMS = ['alt', 'altName', 'altType'] as const;
export type SignedAlternativeParams = Record<(typeof SIGNED_ALTERNATIVE_PARAMS)[number], string>;

export type SignatureCheck = 'valid' | 'mismatch' | 'expired';

export interface LocalStorageOptions {
  /** FILE_STORAGE_DIR */
  root: string;
  /** the instance's secrets key (SECRETS_KEY_FILE); the signing key is derived from it */
  secretsKey: Buffer;
  /** where clients reach this server (PUBLIC_BASE_URL); without it, setBaseUrl once the server listens */
  publicBaseUrl?: string;
}

/** what an object's sidecar holds */
interface Sidecar {
  sizeBytes: number;
  contentType: string;
  metadata: Record<string, string>;
}

const SIDECAR_SUFFIX = '.meta.json';
const TEMP_FOLDER = '.tmp';

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

export class LocalObjectStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  readonly root: string;
  private readonly signer: StorageSigner;
  private baseUrl: string | null;
  private tempFolder: Promise<string> | null = null;

  constructor(options: LocalStorageOptions) {
    this.root = path.resolve(options.root);
    this.signer = new StorageSigner(options.secretsKey);
    this.baseUrl = null;
    if (options.publicBaseUrl) this.setBaseUrl(options.publicBaseUrl);
  }

  /** The origin (and path prefix) clients reach this server at; signed URLs start with it. */
  setBaseUrl(url: string): void {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`The storage base URL must be http(s): ${url}`);
    this.baseUrl = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  }

  private base(): string {
    if (this.baseUrl === null) throw new Error('The local file storage does not know its public URL yet (PUBLIC_BASE_URL, or setBaseUrl after listen)');
    return this.baseUrl;
  }

  async presignUpload(binding: UploadBinding): Promise<SignedPost> {
    assertUploadBinding(binding);
    const fields: SignedUploadFields = {
      key: binding.key,
      'Content-Type': binding.contentType,
      sizeBytes: String(binding.sizeBytes),
      checksumSha256: binding.checksumSha256,
      uploadSimplyId: binding.uploadSimplyId,
      teamSimplyId: binding.teamSimplyId,
      expires: String(epochSeconds(binding.expiresAt)),
    };
    const signature = this.signer.sign('upload', SIGNED_UPLOAD_FIELDS.map((name) => fields[name]));
    return { url: `${this.base()}${UPLOADS_PATH}`, fields: { ...fields, signature } };
  }

  async presignDownload(request: DownloadRequest): Promise<SignedDownload> {
    assertDownloadRequest(request);
    const expiresAt = new Date((epochSeconds(new Date()) + request.expiresInSeconds) * 1000);
    const params: SignedDownloadParams = {
      exp: String(epochSeconds(expiresAt)),
      name: request.filename,
      type: request.contentType,
      disp: request.disposition ?? 'attachment',
    };
    const alternative: SignedAlternativeParams | null = request.alternative
      ? { alt: request.alternative.key, altName: request.alternative.filename, altType: request.alternative.contentType }
      : null;
    const sig = this.signer.sign('download', signedDownloadValues(request.key, params, alternative));
    const query = new URLSearchParams({ ...params, ...alternative, sig });
    return { url: `${this.base()}${OBJECTS_PATH}${request.key}?${query}`, expiresAt };
  }

  /** Checks an upload form's signature (constant time), then its expiry. */
  checkUploadSignature(fields: SignedUploadFields, signature: string): SignatureCheck {
    if (!this.signer.verify('upload', SIGNED_UPLOAD_FIELDS.map((name) => fields[name]), signature)) return 'mismatch';
    return Number(fields.expires) * 1000 > Date.now() ? 'valid' : 'expired';
  }

  /** Checks a download URL's signature (constant time), then its expiry. */
  checkDownloadSignature(key: string, params: SignedDownloadParams, sig: string, alternative: SignedAlternativeParams | null = null): SignatureCheck {
    if (!this.signer.verify('download', signedDownloadValues(key, params, alternative), sig)) return 'mismatch';
    return /^\d{1,12}$/.test(params.exp) && Number(params.exp) * 1000 > Date.now() ? 'valid' : 'expired';
  }

  /** The file of a key; the key pattern already keeps it inside the root, this re-checks. */
  private pathOf(key: string): string {
    assertObjectKey(key);
    const file = path.join(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Storage key outside the storage folder: ${key}`);
    return file;
  }

  /** A fresh path in the temp folder (same filesystem as the objects, so the final rename is atomic). */
  async newTempPath(): Promise<string> {
    this.tempFolder ??= mkdir(path.join(this.root, TEMP_FOLDER), { recursive: true, mode: 0o700 }).then(() => path.join(this.root, TEMP_FOLDER));
    try {
      return path.join(await this.tempFolder, `${randomUUID()}.part`);
    } catch (error) {
      this.tempFolder = null;
      throw error;
    }
  }

  /**
   * Moves a received (flushed) temp file under its key with its sidecar. The sidecar goes first, so
   * an object never shows without one; a retried post of the same key replaces both (same content).
   */
  async commit(tempFile: string, key: string, contentType: string, metadata: Record<string, string>): Promise<void> {
    const target = this.pathOf(key);
    try {
      const { size } = await stat(tempFile);
      const sidecar: Sidecar = { sizeBytes: size, contentType, metadata };
      await mkdir(path.dirname(target), { recursive: true });
      await writeFileAtomically(await this.newTempPath(), `${target}${SIDECAR_SUFFIX}`, JSON.stringify(sidecar));
      await rename(tempFile, target);
    } finally {
      await rm(tempFile, { force: true });
    }
    await syncFolder(path.dirname(target));
  }

  async stat(key: string): Promise<StoredObject | null> {
    const target = this.pathOf(key);
    let sidecar: Sidecar;
    let size: number;
    try {
      sidecar = JSON.parse(await readFile(`${target}${SIDECAR_SUFFIX}`, 'utf8')) as Sidecar;
      size = (await stat(target)).size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    // a sidecar that describes other bytes belongs to a write still being moved into place
    if (sidecar.sizeBytes !== size) return null;
    return { sizeBytes: size, metadata: { ...sidecar.metadata } };
  }

  /** The open object file, or null when there is none (the download endpoint streams from it). */
  async openObject(key: string): Promise<FileHandle | null> {
    try {
      return await open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw error;
    }
  }

  async read(key: string): Promise<Readable> {
    const handle = await this.openObject(key);
    if (!handle) throw new ObjectNotFoundError(key);
    return handle.createReadStream();
  }

  async localCopy(key: string): Promise<{ path: string; release(): Promise<void> }> {
    const file = this.pathOf(key);
    try {
      if (!(await stat(file)).isFile()) throw new ObjectNotFoundError(key);
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
    // the object itself: it is never modified in place, only replaced by rename
    return { path: file, release: async () => {} };
  }

  async write(key: string, body: Buffer | Readable, options: { contentType: string; metadata?: Record<string, string> }): Promise<void> {
    this.pathOf(key);
    assertContentType(options.contentType);
    const metadata = options.metadata ?? {};
    assertMetadata(metadata);
    const temp = await this.newTempPath();
    try {
      if (Buffer.isBuffer(body)) await writeFile(temp, body, { flag: 'wx', mode: 0o600, flush: true });
      else await writeStreamToFile(body, temp);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await this.commit(temp, key, options.contentType, metadata);
  }

  async delete(keys: readonly string[]): Promise<void> {
    const files = keys.map((key) => this.pathOf(key));
    for (const file of files) {
      // the object first: without it, a left-over sidecar is never taken for an object
      await rm(file, { force: true });
      await rm(`${file}${SIDECAR_SUFFIX}`, { force: true });
    }
  }

  async close(): Promise<void> {}
}

/** What a download signature covers: the key, the parameters, and the alternative's when there is one. */
function signedDownloadValues(key: string, params: SignedDownloadParams, alternative: SignedAlternativeParams | null): string[] {
  const values = [key, ...SIGNED_DOWNLOAD_PARAMS.map((name) => params[name])];
  return alternative ? [...values, ...SIGNED_ALTERNATIVE_PARAMS.map((name) => alternative[name])] : values;
}

/** Makes the renames in a folder durable (the folder's entries are flushed like a file's bytes). */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
