// Keys and upload bindings for the storage driver suites (local and S3): what the platform would
// hand a driver for one upload of `bytes` by `team`.
import { randomUUID } from 'node:crypto';
import type { UploadBinding } from '../../src/modules/files/storage/object-storage.ts';
import { sha256Base64 } from './file-uploads.ts';

export function storageFixtures(team: string) {
  const newKey = (): string => `teams/${team}/objects/${randomUUID()}`;
  const bindingFor = (bytes: Buffer, overrides: Partial<UploadBinding> = {}): UploadBinding => ({
    key: newKey(),
    contentType: 'text/plain',
    sizeBytes: bytes.length,
    checksumSha256: sha256Base64(bytes),
    uploadSimplyId: `upl-${randomUUID().slice(0, 4).toUpperCase()}-AAAA-BBBB`,
    teamSimplyId: team,
    expiresAt: new Date(Date.now() + 10 * 60_000),
    ...overrides,
  });
  return { newKey, bindingFor };
}
