// A real S3-compatible server for tests: s3rver on a free loopback port, its objects in a fresh
// temp folder, one bucket. s3rver 3.7.1 stores what it is sent: it checks neither POST policies
// nor V4 signatures (only the expiry of presigned GET URLs); test/files/s3-storage.test.ts shows
// exactly what it enforces.
import fs from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/free-port.ts';

interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

// s3rver is CommonJS without type declarations
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** where s3rver keeps the bucket's files */
  directory: string;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'svc-test-files'): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-s3rver-'));
  const port = await freePort();
  const server = new S3rver({ address: '127.0.0.1', port, directory, silent: true, configureBuckets: [{ name: bucket }] });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's built-in account
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    directory,
    close: async () => {
      // keep-alive sockets of SDK clients would hold close() open
      server.httpServer?.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
