// Files: where objects live (local disk or S3-compatible), the storage limit, malware scanning. README.md "Configuration" explains each setting.
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, defineConfigSlice, envBool } from '../../app/config.ts';

const settings = z.object({
  // files: where objects live. local (default): on disk under FILE_STORAGE_DIR, served by the platform's
  // signed endpoints; s3: an S3-compatible bucket (every instance must see the same objects)
  FILE_STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  FILE_STORAGE_DIR: z.string().optional(),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().default('us-east-1'),
  // a non-AWS endpoint (MinIO, Ceph, s3rver…); unset: AWS
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  // path-style URLs (bucket in the path): what most non-AWS servers need
  S3_FORCE_PATH_STYLE: envBool.default(false),
  // the storage limit of a team without its own (bytes; default 10 GiB)
  FILE_STORAGE_QUOTA_BYTES: z.coerce.number().int().min(0).default(10 * 1024 ** 3),
  // malware scanning: clamd's address (tcp://host:3310 or unix:///run/clamav/clamd.ctl); unset: the built-in scanner
  CLAMD_URL: z.string().regex(/^(tcp:\/\/[^/]+:\d+|unix:\/\/\/.+)$/, 'tcp://host:port or unix:///path').optional(),
  // how long one scan may take before the upload is rejected (TIMED_OUT)
  FILE_SCAN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
  interface Config {
    /** FILE_STORAGE_DIR, or <data folder>/files */
    fileStorageDir: string;
  }
}

export const filesConfig = defineConfigSlice({
  settings,
  resolve: (env, dataDir) => {
  if (env.FILE_STORAGE_DRIVER === 's3' && !env.S3_BUCKET) throw new ConfigError('FILE_STORAGE_DRIVER=s3 needs S3_BUCKET');
  return { fileStorageDir: path.resolve(env.FILE_STORAGE_DIR ?? path.join(dataDir, 'files')) };
  },
});
