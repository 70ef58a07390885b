// The whole upload flow on the S3 driver against a real S3-compatible server (s3rver): the intent
// hands out a presigned POST to the bucket, the client posts there, promotion reads the object
// back, checks it and makes it a file; downloads are presigned GETs of the bucket; a force delete
// removes the object. (s3rver does not enforce POST policies; test/files/s3-storage.test.ts checks
// the policy the driver signs, and promotion re-checks size, bytes and binding.)
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createIntent, postToSignedUrl, uploadFile, type UploadIntent } from '../support/file-uploads.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startS3Server, type TestS3Server } from '../support/s3-server.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let s3: TestS3Server;
let server: TestServer;
let team: TeamFixture;
let db: Awaited<ReturnType<typeof createMigratedDatabase>>;

beforeAll(async () => {
  s3 = await startS3Server();
  db = await createMigratedDatabase('s3_flow');
  server = await startTestServer({
    databaseUrl: db.url,
    runJobs: true,
    env: {
      FILE_STORAGE_DRIVER: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: true,
    },
  });
  team = await createTeam(server);
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
  await s3?.close();
});

describe('the S3 driver', () => {
  it('uploads straight to the bucket, promotes, serves presigned downloads and destroys on force delete', async () => {
    const bytes = Buffer.from('stored in a bucket\n');
    const done = await uploadFile(server, team.apiKey, bytes, { filename: 'bucket.txt' });
    expect(done, done.rejectionMessage).toMatchObject({ status: 'COMPLETED', versionNumber: 1 });
    const file = expectOk(await server.request('GET', `/v1/files/${done.fileSimplyId}`, { token: team.apiKey }));
    expect(file.originalUrl.startsWith(s3.endpoint)).toBe(true);
    const fetched = await undiciFetch(file.originalUrl);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    expect(fetched.headers.get('content-disposition')).toContain('bucket.txt');

    const row = await server.app.services.prisma.storedFile.findFirstOrThrow({ where: { simplyId: done.fileSimplyId } });
    expect(await server.app.services.fileStorage.stat(row.storageKey)).not.toBeNull();
    expectOk(await server.request('DELETE', `/v1/files/${done.fileSimplyId}`, { token: team.apiKey, body: { force: true } }));
    expect(await server.app.services.fileStorage.stat(row.storageKey)).toBeNull();
  });

  it('promotion refuses bytes the intent did not declare, even where the server stored them', async () => {
    const declared = Buffer.from('the declared bytes');
    const intent: UploadIntent = expectOk(await createIntent(server, team.apiKey, declared), 201);
    expect(intent.upload.url.startsWith(s3.endpoint)).toBe(true);
    expect(Object.keys(intent.upload.fields)).toEqual(expect.arrayContaining(['key', 'Policy', 'X-Amz-Signature']));
    const posted = await postToSignedUrl(server, intent, Buffer.from('THE DECLARED BYTES'), { partType: 'text/plain' });
    expect(posted.status, posted.text).toBeLessThan(300);
    const completed = await server.request('POST', `/v1/file-uploads/${intent.fileUploadSimplyId}/complete`, { token: team.apiKey });
    expect([200, 202]).toContain(completed.status);
    const { finalStatus } = await import('../support/file-uploads.ts');
    expect(await finalStatus(server, team.apiKey, intent.fileUploadSimplyId)).toMatchObject({ status: 'REJECTED', rejectionReason: 'CHECKSUM_MISMATCH' });
  });

  it('renders image variants into the bucket', async () => {
    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 500, height: 300, channels: 3, background: '#123456' } }).png().toBuffer();
    const done = await uploadFile(server, team.apiKey, png, { filename: 'b.png', contentType: 'image/png' });
    expect(done.status).toBe('COMPLETED');
    const { until } = await import('../support/until.ts');
    const variants = await until('variants in the bucket', async () => {
      const list = expectOk(await server.request('GET', `/v1/files/${done.fileSimplyId}/variants`, { token: team.apiKey }));
      return list.length ? list : null;
    }, 20_000);
    expect(variants.some((v: any) => v.variantType === 'THUMBNAIL_IMAGE')).toBe(true);
    const thumb = expectOk(await server.request('GET', `/v1/files/${done.fileSimplyId}/download?variantType=THUMBNAIL_IMAGE`, { token: team.apiKey }));
    const response = await undiciFetch(thumb.url, { dispatcher: new Agent() });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/(webp|avif)$/);
  });
});
