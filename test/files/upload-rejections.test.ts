// Every way an upload ends without becoming a file (docs/api/files.md "Rejection reasons"), with
// the promotion job driven directly (no workers), so each case is deterministic: the reason code,
// the object deleted, nothing promoted; a failing attempt leaves the upload PENDING for the retry
// and the last one ends it FAILED; the sweeper expires lapsed intents and times out lost promotions.
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job } from 'pg-boss';
import { expectOk } from '../support/expect-envelope.ts';
import { createApiKey, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { completeUpload, createIntent, postToSignedUrl, sha256Base64, type UploadIntent } from '../support/file-uploads.ts';
import { useServer } from '../support/use-server.ts';
import { PROMOTION_RETRY_LIMIT, promoteUploads, type PromoteUploadJob } from '../../src/modules/files/file-promotion.ts';
import { sweepUploads, PROMOTION_DEADLINE_MS } from '../../src/modules/files/upload-sweeper.ts';
import { createMalwareScanner } from '../../src/modules/files/scanning/create-scanner.ts';

const { server, teams } = useServer({ teams: 1, ownDatabase: 'upload_rejections' });
const [team] = teams;

const sockets: net.Server[] = [];
afterAll(() => sockets.forEach((s) => s.close()));

/** An intent whose bytes were posted and which was completed (PENDING; no worker runs here). */
async function pending(bytes: Buffer, o: Parameters<typeof createIntent>[3] & { as?: TeamFixture } = {}) {
  const who = o.as ?? team;
  const intent: UploadIntent = expectOk(await createIntent(server, who.apiKey, bytes, o), 201);
  const posted = await postToSignedUrl(server, intent, bytes, { partType: o.contentType ?? 'text/plain' });
  expect(posted.status, posted.text).toBeLessThan(300);
  const completed = await completeUpload(server, o.token ?? who.apiKey, intent.fileUploadSimplyId);
  expect(completed.status, completed.text).toBe(202);
  return server.app.services.prisma.fileUpload.findFirstOrThrow({ where: { simplyId: intent.fileUploadSimplyId } });
}

const job = (uploadId: bigint, retryCount = 0) => ({ data: { uploadId: String(uploadId) }, retryCount }) as unknown as Job<PromoteUploadJob>;

async function promote(uploadId: bigint, retryCount = 0) {
  await promoteUploads(server.app.services, [job(uploadId, retryCount)]);
  return server.app.services.prisma.fileUpload.findUniqueOrThrow({ where: { id: uploadId } });
}

async function expectRejected(uploadId: bigint, reason: string) {
  const upload = await promote(uploadId);
  expect(upload, upload.rejectionMessage ?? '').toMatchObject({ status: 'REJECTED', rejectionReason: reason, fileId: null });
  expect(await server.app.services.fileStorage.stat(upload.storageKey)).toBeNull();
  return upload;
}

async function withScanner<T>(clamdUrl: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  const services = server.app.services;
  const original = services.malwareScanner;
  services.malwareScanner = createMalwareScanner({ CLAMD_URL: clamdUrl });
  const config = services.config;
  (services as { config: typeof config }).config = { ...config, FILE_SCAN_TIMEOUT_MS: timeoutMs };
  try {
    return await work();
  } finally {
    services.malwareScanner = original;
    (services as { config: typeof config }).config = config;
  }
}

describe('rejection reasons', () => {
  it('UNSCANNED: the scanner cannot be reached', async () => {
    const upload = await pending(Buffer.from('scan me'));
    // a real clamd client against a port where nothing listens
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await withScanner(`tcp://127.0.0.1:${port}`, 2000, () => expectRejected(upload.id, 'UNSCANNED'));
  });

  it('TIMED_OUT: the scanner does not answer in time', async () => {
    const upload = await pending(Buffer.from('slow scan'));
    const silent = net.createServer(() => {});
    sockets.push(silent);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    await withScanner(`tcp://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, 300, () => expectRejected(upload.id, 'TIMED_OUT'));
  });

  it('ACCESS_DENIED: the creating key was revoked before promotion', async () => {
    const key = await createApiKey(server, team, { name: `uploader ${Date.now()}`, featurePermissions: ['TEAM_ADMIN_MEDIA_LIBRARY'] });
    const upload = await pending(Buffer.from('then revoked'), { token: key.key });
    expect((await server.request('DELETE', `/v1/api-keys/${key.id}`, { token: team.apiKey })).status).toBe(200);
    await expectRejected(upload.id, 'ACCESS_DENIED');
  });

  it('SIGNATURE_MISMATCH: an object under the key that does not carry the signed binding', async () => {
    const upload = await pending(Buffer.from('original bytes'));
    await server.app.services.fileStorage.write(upload.storageKey, Buffer.from('original bytes'), {
      contentType: 'text/plain',
      metadata: { uploadSimplyId: 'upl-2222-2222-2222', teamSimplyId: team.teamSimplyId, checksumSha256: upload.checksumSha256 },
    });
    await expectRejected(upload.id, 'SIGNATURE_MISMATCH');
  });

  it('CHECKSUM_MISMATCH: bytes that differ from the declared checksum', async () => {
    const upload = await pending(Buffer.from('declared bytes'));
    await server.app.services.fileStorage.write(upload.storageKey, Buffer.from('DECLARED BYTES'), {
      contentType: 'text/plain',
      metadata: { uploadSimplyId: upload.simplyId, teamSimplyId: team.teamSimplyId, checksumSha256: upload.checksumSha256 },
    });
    await expectRejected(upload.id, 'CHECKSUM_MISMATCH');
  });

  it('STORAGE_LIMIT_EXCEEDED: the limit is checked again at promotion', async () => {
    const small = await createTeam(server);
    const upload = await pending(Buffer.from('fits at intent time'), { as: small });
    await server.app.services.prisma.teamStorageQuota.create({ data: { teamId: small.teamId, quotaBytes: 5n } });
    await expectRejected(upload.id, 'STORAGE_LIMIT_EXCEEDED');
  });

  it('VERSION_CONFLICT: of two replacements expecting the same version, the second loses', async () => {
    const first = await pending(Buffer.from('version one'));
    const done = await promote(first.id);
    expect(done.status).toBe('COMPLETED');
    const file = await server.app.services.prisma.storedFile.findUniqueOrThrow({ where: { id: done.fileId! } });
    const a = await pending(Buffer.from('replacement a'), { isNewVersionOfFileSimplyId: file.simplyId, filename: 'a.txt' });
    const b = await pending(Buffer.from('replacement b'), { isNewVersionOfFileSimplyId: file.simplyId, filename: 'b.txt' });
    const [ra, rb] = await Promise.all([promote(a.id), promote(b.id)]);
    const outcomes = [ra, rb].map((u) => `${u.status}:${u.rejectionReason ?? ''}`).sort();
    expect(outcomes).toEqual(['COMPLETED:', 'REJECTED:VERSION_CONFLICT']);
    const after = await server.app.services.prisma.storedFile.findUniqueOrThrow({ where: { id: file.id } });
    expect(after.currentVersionNumber).toBe(2);
    expect(after.simplyId).toBe(file.simplyId);
    const winner = [ra, rb].find((u) => u.status === 'COMPLETED')!;
    expect(after.filename).toBe(winner.filename);
  });

  it('FAILED: every attempt fails; earlier attempts leave it PENDING for the retry', async () => {
    const upload = await pending(Buffer.from('unlucky'));
    const storage = server.app.services.fileStorage;
    const original = storage.localCopy.bind(storage);
    storage.localCopy = async () => {
      throw new Error('disk unavailable');
    };
    try {
      await expect(promoteUploads(server.app.services, [job(upload.id, 0)])).rejects.toThrow('disk unavailable');
      expect((await server.app.services.prisma.fileUpload.findUniqueOrThrow({ where: { id: upload.id } })).status).toBe('PENDING');
      const last = await promote(upload.id, PROMOTION_RETRY_LIMIT);
      expect(last).toMatchObject({ status: 'REJECTED', rejectionReason: 'FAILED' });
    } finally {
      storage.localCopy = original;
    }
  });

  it('a retried or duplicated promotion ends in exactly one terminal state', async () => {
    const upload = await pending(Buffer.from('twice'));
    await Promise.all([promote(upload.id), promote(upload.id), promote(upload.id)]);
    const after = await server.app.services.prisma.fileUpload.findUniqueOrThrow({ where: { id: upload.id } });
    expect(after.status).toBe('COMPLETED');
    expect(await server.app.services.prisma.storedFile.count({ where: { id: after.fileId! } })).toBe(1);
    expect(await server.app.services.prisma.fileVersion.count({ where: { fileId: after.fileId! } })).toBe(1);
  });
});

describe('the sweeper', () => {
  it('expires lapsed intents and times out promotions that never ended', async () => {
    const bytes = Buffer.from('left behind');
    const intent: UploadIntent = expectOk(await createIntent(server, team.apiKey, bytes), 201);
    await postToSignedUrl(server, intent, bytes, { partType: 'text/plain' });
    const stuck = await pending(Buffer.from('stuck'));
    const later = new Date(Date.now() + PROMOTION_DEADLINE_MS + 60_000);
    const swept = await sweepUploads(server.app.services, later, team.teamId);
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect(swept.timedOut).toBeGreaterThanOrEqual(1);
    const { prisma, fileStorage } = server.app.services;
    const lapsed = await prisma.fileUpload.findFirstOrThrow({ where: { simplyId: intent.fileUploadSimplyId } });
    expect(lapsed.status).toBe('EXPIRED');
    expect(await fileStorage.stat(lapsed.storageKey)).toBeNull();
    expect(await prisma.fileUpload.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({ status: 'REJECTED', rejectionReason: 'TIMED_OUT' });
    expect(sha256Base64(bytes)).toBe(lapsed.checksumSha256);
  });
});
