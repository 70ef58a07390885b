// The S3 driver against a real S3-compatible server (s3rver, test/support/s3-server.ts). s3rver
// 3.7.1 does not evaluate POST policies nor V4 signatures: the driver's policy and signature are
// checked here on their own (decoded, recomputed), and what s3rver does with a tampered post or URL
// is asserted as it is, so that a change of server shows up.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Base64 } from '../support/file-uploads.ts';
import { storageFixtures } from '../support/storage-bindings.ts';
import type { SignedPost } from '../../src/modules/files/storage/object-storage.ts';
import { S3ObjectStorage } from '../../src/modules/files/storage/s3-storage.ts';
import { InvalidStorageInputError, ObjectNotFoundError } from '../../src/modules/files/storage/storage-errors.ts';
import { startS3Server, type TestS3Server } from '../support/s3-server.ts';

const TEAM = 'tm-TEST-S3S3-S3S3';
let s3: TestS3Server;
let storage: S3ObjectStorage;
let tempDir: string;

const { newKey, bindingFor } = storageFixtures(TEAM);

async function post(signed: SignedPost, bytes: Buffer, options: { fileType?: string; fields?: Record<string, string> } = {}): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...signed.fields, ...options.fields })) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: options.fileType ?? signed.fields['Content-Type'] }), 'upload.bin');
  const response = await fetch(signed.url, { method: 'POST', body: form });
  await response.arrayBuffer();
  return response.status;
}

async function readAll(key: string): Promise<Buffer> {
  return Buffer.concat(await (await storage.read(key)).toArray());
}

beforeAll(async () => {
  s3 = await startS3Server();
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-s3-storage-'));
  storage = new S3ObjectStorage({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
    tempDir,
  });
});

afterAll(async () => {
  await storage?.close();
  await s3?.close();
  fs.rmSync(tempDir, { recursive: true, force: true });
});

describe('S3 storage: presigned posts', () => {
  it('a presigned post stores the object: stat maps the x-amz-meta binding back, read gives the bytes', async () => {
    const bytes = Buffer.from('Grüße aus dem Eimer\n');
    const binding = bindingFor(bytes);
    const signed = await storage.presignUpload(binding);
    expect(signed.url).toBe(`${s3.endpoint}/${s3.bucket}`);
    expect(signed.fields).toMatchObject({
      key: binding.key,
      'Content-Type': 'text/plain',
      'x-amz-meta-upload-id': binding.uploadSimplyId,
      'x-amz-meta-team-id': TEAM,
      'x-amz-meta-sha256': binding.checksumSha256,
    });
    expect(await post(signed, bytes)).toBe(204);
    expect(await storage.stat(binding.key)).toEqual({
      sizeBytes: bytes.length,
      metadata: { uploadSimplyId: binding.uploadSimplyId, teamSimplyId: TEAM, checksumSha256: binding.checksumSha256 },
    });
    expect(await readAll(binding.key)).toEqual(bytes);
  });

  it('the policy binds the exact key, size, content type and upload binding until expiresAt, signed with SigV4', async () => {
    const bytes = randomBytes(1234);
    const binding = bindingFor(bytes, { contentType: 'image/png', expiresAt: new Date(Date.now() + 15 * 60_000) });
    const { fields } = await storage.presignUpload(binding);
    const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] };
    expect(Math.abs(Date.parse(policy.expiration) - binding.expiresAt.getTime())).toBeLessThanOrEqual(1_500);
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1234, 1234],
        ['eq', '$Content-Type', 'image/png'],
        ['eq', '$x-amz-meta-upload-id', binding.uploadSimplyId],
        ['eq', '$x-amz-meta-team-id', TEAM],
        ['eq', '$x-amz-meta-sha256', binding.checksumSha256],
        { key: binding.key },
        { bucket: s3.bucket },
      ]),
    );
    // no condition lets anything through: no starts-with, no open range
    expect(policy.conditions.filter((c) => Array.isArray(c) && c[0] === 'starts-with')).toEqual([]);

    // the signature is SigV4 over the base64 policy, with the key of the credential's scope
    const [accessKeyId, date, region, service, terminator] = fields['X-Amz-Credential']!.split('/');
    expect([accessKeyId, region, service, terminator]).toEqual([s3.accessKeyId, 'us-east-1', 's3', 'aws4_request']);
    const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
    const signingKey = hmac(hmac(hmac(hmac(`AWS4${s3.secretAccessKey}`, date!), region!), service!), 'aws4_request');
    expect(fields['X-Amz-Signature']).toBe(createHmac('sha256', signingKey).update(fields.Policy!).digest('hex'));
    expect(fields['X-Amz-Algorithm']).toBe('AWS4-HMAC-SHA256');
  });

  it('refuses bindings it cannot sign faithfully', async () => {
    const bytes = Buffer.from('x');
    for (const key of ['../escape', 'teams/${filename}', '/abs', 'teams/a b']) {
      await expect(storage.presignUpload(bindingFor(bytes, { key })), key).rejects.toBeInstanceOf(InvalidStorageInputError);
    }
    await expect(storage.presignUpload(bindingFor(bytes, { expiresAt: new Date(Date.now() - 1) }))).rejects.toBeInstanceOf(InvalidStorageInputError);
    await expect(storage.presignUpload(bindingFor(bytes, { checksumSha256: 'not base64' }))).rejects.toBeInstanceOf(InvalidStorageInputError);
  });
});

// AWS S3 (and MinIO) refuse each of these posts against the policy above. s3rver 3.7.1 ignores the
// Policy and X-Amz-Signature fields entirely (lib/controllers/object.js, postObject): it stores
// whatever is posted, to whatever key. What the platform's own promotion check still catches on
// such a server: a wrong size and wrong bytes (upload-checks.ts compares size and SHA-256), a
// wrong upload or team id (compared with the stored x-amz-meta-*); not a post to another key.
describe('S3 storage: what s3rver 3.7.1 enforces of a POST policy (nothing)', () => {
  it('stores a post whose file is larger, of another type, or other bytes than signed', async () => {
    const bytes = randomBytes(1000);
    const bigger = bindingFor(bytes);
    expect(await post(await storage.presignUpload(bigger), Buffer.concat([bytes, Buffer.from('more')]))).toBe(204);
    expect((await storage.stat(bigger.key))?.sizeBytes).toBe(1004);

    const otherBytes = bindingFor(bytes);
    expect(await post(await storage.presignUpload(otherBytes), randomBytes(1000))).toBe(204);
    expect((await storage.stat(otherBytes.key))?.metadata.checksumSha256).toBe(otherBytes.checksumSha256);
    expect(sha256Base64(await readAll(otherBytes.key))).not.toBe(otherBytes.checksumSha256);

    const otherType = bindingFor(bytes, { contentType: 'image/png' });
    expect(await post(await storage.presignUpload(otherType), bytes, { fields: { 'Content-Type': 'image/svg+xml' }, fileType: 'image/svg+xml' })).toBe(204);
    expect(await storage.stat(otherType.key)).not.toBeNull();
  });

  it('stores a post whose signed fields were changed: other key, other upload id, other checksum', async () => {
    const bytes = Buffer.from('signed bytes');
    const binding = bindingFor(bytes);
    const signed = await storage.presignUpload(binding);
    const otherKey = newKey();
    expect(await post(signed, bytes, { fields: { key: otherKey } })).toBe(204);
    expect(await storage.stat(otherKey)).not.toBeNull();
    expect(await storage.stat(binding.key)).toBeNull();

    expect(await post(signed, bytes, { fields: { 'x-amz-meta-upload-id': 'upl-ZZZZ-ZZZZ-ZZZZ', 'x-amz-meta-sha256': sha256Base64(Buffer.from('other')) } })).toBe(204);
    expect((await storage.stat(binding.key))?.metadata).toMatchObject({ uploadSimplyId: 'upl-ZZZZ-ZZZZ-ZZZZ', checksumSha256: sha256Base64(Buffer.from('other')) });
  });

  it('stores an expired post', async () => {
    const bytes = Buffer.from('late');
    const binding = bindingFor(bytes, { expiresAt: new Date(Date.now() + 1_000) });
    const signed = await storage.presignUpload(binding);
    const policy = JSON.parse(Buffer.from(signed.fields.Policy!, 'base64').toString('utf8')) as { expiration: string };
    await new Promise((r) => setTimeout(r, Date.parse(policy.expiration) - Date.now() + 100));
    expect(await post(signed, bytes)).toBe(204);
    expect(await storage.stat(binding.key)).not.toBeNull();
  });
});

describe('S3 storage: presigned downloads', () => {
  const bytes = Buffer.from('0123456789abcdefghij');
  let key: string;

  beforeAll(async () => {
    key = newKey();
    await storage.write(key, bytes, { contentType: 'application/octet-stream' });
  });

  it('serves the bytes with the requested type, disposition and cache lifetime; ranges work', async () => {
    const signed = await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 120 });
    expect(Math.abs(signed.expiresAt.getTime() - (Date.now() + 120_000))).toBeLessThan(2_000);
    const url = new URL(signed.url);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    const response = await fetch(signed.url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    expect(response.headers.get('cache-control')).toBe('private, max-age=120');
    const part = await fetch(signed.url, { headers: { range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('2345');
    const inline = await fetch((await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 60, disposition: 'inline' })).url);
    expect(inline.headers.get('content-disposition')).toMatch(/^inline; /);
  });

  it('offers a hostile filename safely', async () => {
    const hostile = '"evil\r\nSet-Cookie: a=b\\..\\../etc/passwd\u202Egpj.exe 履歴書.txt';
    const response = await fetch((await storage.presignDownload({ key, filename: hostile, contentType: 'text/plain', expiresInSeconds: 60 })).url);
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="_evilSet-Cookie: a=b....etcpasswdgpj.exe ___.txt"; filename*=UTF-8''%22evilSet-Cookie%3A%20a%3Db....etcpasswdgpj.exe%20%E5%B1%A5%E6%AD%B4%E6%9B%B8.txt`,
    );
  });

  it('offers SVG and XML only as attachments: a presigned URL cannot carry a CSP', async () => {
    for (const contentType of ['image/svg+xml', 'application/xml', 'text/xml']) {
      const signed = await storage.presignDownload({ key, filename: 'logo.svg', contentType, expiresInSeconds: 60, disposition: 'inline' });
      expect(new URL(signed.url).searchParams.get('response-content-disposition')).toMatch(/^attachment; /);
      const response = await fetch(signed.url);
      expect(response.headers.get('content-type')).toBe(contentType);
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; /);
    }
    const png = await storage.presignDownload({ key, filename: 'a.png', contentType: 'image/png', expiresInSeconds: 60, disposition: 'inline' });
    expect(new URL(png.url).searchParams.get('response-content-disposition')).toMatch(/^inline; /);
  });

  it('an expired URL is refused (s3rver checks the expiry of V4 URLs); a tampered one is served (s3rver does not check V4 signatures)', async () => {
    const short = await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 1 });
    await new Promise((r) => setTimeout(r, 2_100));
    const expired = await fetch(short.url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('AccessDenied');

    const tampered = new URL((await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 60 })).url);
    tampered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    const served = await fetch(tampered);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
  });
});

describe('S3 storage: server-side reads and writes', () => {
  it('write + read round trip (bytes and a stream) with metadata; localCopy downloads a temp file that release removes', async () => {
    const key = `teams/${TEAM}/variants/${randomUUID()}.webp`;
    const bytes = randomBytes(300_000);
    await storage.write(key, bytes, { contentType: 'image/webp', metadata: { variantType: 'THUMBNAIL_IMAGE', uploadSimplyId: 'upl-AAAA-BBBB-CCCC' } });
    expect(await storage.stat(key)).toEqual({ sizeBytes: bytes.length, metadata: { variantType: 'THUMBNAIL_IMAGE', uploadSimplyId: 'upl-AAAA-BBBB-CCCC' } });
    expect(await readAll(key)).toEqual(bytes);

    const streamed = `${newKey()}-sanitized`;
    await storage.write(streamed, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { contentType: 'image/svg+xml' });
    expect(await readAll(streamed)).toEqual(bytes);

    const copy = await storage.localCopy(key);
    expect(copy.path.startsWith(tempDir + path.sep)).toBe(true);
    expect(fs.readFileSync(copy.path)).toEqual(bytes);
    await copy.release();
    expect(fs.existsSync(copy.path)).toBe(false);
    // nothing is left in the temp folder: not the copy, not the spooled stream
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it('stat, read and localCopy of a missing key: null, ObjectNotFoundError', async () => {
    const key = newKey();
    expect(await storage.stat(key)).toBeNull();
    await expect(storage.read(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.localCopy(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it('delete removes objects over several 1000-key batches; missing keys are no error', async () => {
    const keys = Array.from({ length: 1005 }, newKey);
    const present = [keys[0]!, keys[999]!, keys[1004]!];
    for (const key of present) await storage.write(key, Buffer.from(key), { contentType: 'text/plain' });
    await storage.delete(keys);
    for (const key of present) expect(await storage.stat(key)).toBeNull();
    await storage.delete([]);
    await expect(storage.delete(['../x'])).rejects.toBeInstanceOf(InvalidStorageInputError);
  });
});
