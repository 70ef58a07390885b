// The object storage an instance runs on, by FILE_STORAGE_DRIVER.
import path from 'node:path';
import type { Config } from '../../../app/config.ts';
import { loadOrCreateSecretsKey } from '../../../app/secrets-key.ts';
import { LocalObjectStorage } from './local-storage.ts';
import type { ObjectStorage } from './object-storage.ts';
import type { S3ObjectStorage } from './s3-storage.ts';

export interface CreateStorageOptions {
  /** the local driver's public URL when PUBLIC_BASE_URL is unset and it is already known; else setStorageBaseUrl once the server listens */
  publicBaseUrl?: string;
}

export async function createObjectStorage(config: Config, options: CreateStorageOptions = {}): Promise<LocalObjectStorage | S3ObjectStorage> {
  if (config.FILE_STORAGE_DRIVER === 's3') {
    if (!config.S3_BUCKET) throw new Error('FILE_STORAGE_DRIVER=s3 needs S3_BUCKET');
    // the AWS SDK is ~35 MiB resident: loaded only by instances that use it
    const { S3ObjectStorage } = await import('./s3-storage.ts');
    return new S3ObjectStorage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      // objects under inspection can be 500 MiB: the data folder, not a tmpfs /tmp
      tempDir: path.join(config.dataDir, 'tmp'),
    });
  }
  return new LocalObjectStorage({
    root: config.fileStorageDir,
    secretsKey: loadOrCreateSecretsKey(config.secretsKeyFile),
    publicBaseUrl: config.PUBLIC_BASE_URL ?? options.publicBaseUrl,
  });
}

/**
 * Tells the storage where clients reach this server, once it listens (the server's base URL:
 * PUBLIC_BASE_URL, or its own address). Only the local driver signs URLs of the server's own.
 */
export function setStorageBaseUrl(storage: ObjectStorage, baseUrl: string): void {
  if (storage instanceof LocalObjectStorage) storage.setBaseUrl(baseUrl);
}
