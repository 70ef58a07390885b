// The local storage driver and its signed endpoints, over real HTTP: the endpoint is mounted on
// the platform's front door (plain HTTP) as the server mounts it (prefix /storage/), and every
// upload is a real multipart post (fetch's FormData, or a hand-built stream for the large one).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Base64 } from '../support/file-uploads.ts';
import { storageFixtures } from '../support/storage-bindings.ts';
import type { HttpEndpoint } from '../../src/app/module.ts';
import { contentDisposition, safeFilename } from '../../src/modules/files/storage/content-disposition.ts';
import { createObjectStorage, setStorageBaseUrl } from '../../src/modules/files/storage/create-storage.ts';
import { localStorageEndpoints } from '../../src/modules/files/storage/local-storage-endpoints.ts';
import { LocalObjectStorage } from '../../src/modules/files/storage/local-storage.ts';
import type { SignedPost } from '../../src/modules/files/storage/object-storage.ts';
import { InvalidStorageInputError, ObjectNotFoundError } from '../../src/modules/files/storage/storage-errors.ts';
import { loadConfig } from '../../src/main/config.ts';
import { createFrontDoor, type FrontDoor } from '../../src/app/http/front-door.ts';

const TEAM = 'tm-TEST-LOCA-L234';
let root: string;
let storage: LocalObjectStorage;
let door: FrontDoor;
let server: net.Server;
let baseUrl: string;

const { newKey, bindingFor } = storageFixtures(TEAM);

/** posts the signed fields (changed by `fields`) and a file part, as a browser form would */
async function post(signed: SignedPost, bytes: Buffer, options: { fileType?: string; fields?: Record<string, string>; extra?: (form: FormData) => void } = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...signed.fields, ...options.fields })) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: options.fileType ?? signed.fields['Content-Type'] }), 'upload.bin');
  options.extra?.(form);
  const response = await fetch(signed.url, { method: 'POST', body: form });
  const body = response.status === 204 ? null : ((await response.json()) as { error: { code: string; message: string; details?: { field: string }[] } });
  return { status: response.status, error: body?.error ?? null };
}

function tempFiles(): string[] {
  const folder = path.join(root, '.tmp');
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
}

/** temp files are removed right after the answer; give the event loop a moment */
async function expectNoTempFiles(): Promise<void> {
  for (let i = 0; i < 50 && tempFiles().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(tempFiles()).toEqual([]);
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-local-storage-'));
  storage = new LocalObjectStorage({ root: path.join(root), secretsKey: randomBytes(32) });
  const [endpoint] = localStorageEndpoints(storage) as [HttpEndpoint];
  // the platform's own front door (plain HTTP here), so refusals close the way the server's do
  door = createFrontDoor({ tls: null, onUpgrade: (_req, socket) => socket.destroy(), handler: (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(endpoint.prefix)) {
      res.writeHead(404).end();
      return;
    }
    endpoint.handle(req, res, url, 'test-request').catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  } });
  server = door.listener;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  storage.setBaseUrl(baseUrl);
});

afterAll(async () => {
  await door.close(1_000);
  await storage.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('local storage: signed uploads', () => {
  it('a signed post stores the object: stat shows its size and binding, read gives the bytes', async () => {
    const bytes = Buffer.from('Grüße aus dem Speicher\n');
    const binding = bindingFor(bytes);
    const signed = await storage.presignUpload(binding);
    expect(signed.url).toBe(`${baseUrl}/storage/uploads`);
    expect(Object.keys(signed.fields)).toEqual(['key', 'Content-Type', 'sizeBytes', 'checksumSha256', 'uploadSimplyId', 'teamSimplyId', 'expires', 'signature']);
    expect(signed.fields.expires).toBe(String(Math.floor(binding.expiresAt.getTime() / 1000)));

    expect(await post(signed, bytes)).toEqual({ status: 204, error: null });
    const object = await storage.stat(binding.key);
    expect(object).toEqual({
      sizeBytes: bytes.length,
      metadata: { uploadSimplyId: binding.uploadSimplyId, teamSimplyId: TEAM, checksumSha256: binding.checksumSha256 },
    });
    expect(Buffer.concat(await (await storage.read(binding.key)).toArray())).toEqual(bytes);
    // the sidecar next to the object holds the binding and the content type
    const sidecar = JSON.parse(fs.readFileSync(path.join(root, `${binding.key}.meta.json`), 'utf8'));
    expect(sidecar).toMatchObject({ sizeBytes: bytes.length, contentType: 'text/plain' });
    await expectNoTempFiles();
  });

  it('a retried post of the same form replaces the object with the same bytes', async () => {
    const bytes = randomBytes(4096);
    const binding = bindingFor(bytes, { contentType: 'application/pdf' });
    const signed = await storage.presignUpload(binding);
    expect((await post(signed, bytes)).status).toBe(204);
    expect((await post(signed, bytes)).status).toBe(204);
    expect((await storage.stat(binding.key))?.sizeBytes).toBe(4096);
    expect(Buffer.concat(await (await storage.read(binding.key)).toArray())).toEqual(bytes);
  });

  it('refuses a file larger than signed at once, and stores nothing', async () => {
    const bytes = randomBytes(1000);
    const binding = bindingFor(bytes);
    const result = await post(await storage.presignUpload(binding), Buffer.concat([bytes, Buffer.from('x')]));
    expect(result.status).toBe(400);
    expect(result.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'file' }] });
    expect(result.error?.message).toContain('more than the signed 1000 bytes');
    expect(await storage.stat(binding.key)).toBeNull();
    await expectNoTempFiles();
  });

  it('refuses a file smaller than signed', async () => {
    const bytes = randomBytes(1000);
    const binding = bindingFor(bytes);
    const result = await post(await storage.presignUpload(binding), bytes.subarray(0, 999));
    expect(result).toMatchObject({ status: 400, error: { code: 'VALIDATION_ERROR', details: [{ field: 'file' }] } });
    expect(result.error?.message).toContain('999 bytes');
    expect(await storage.stat(binding.key)).toBeNull();
    await expectNoTempFiles();
  });

  it("refuses a file part whose Content-Type is not the signed one", async () => {
    const bytes = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const binding = bindingFor(bytes, { contentType: 'image/png' });
    const result = await post(await storage.presignUpload(binding), bytes, { fileType: 'image/svg+xml' });
    expect(result).toMatchObject({ status: 400, error: { code: 'VALIDATION_ERROR', details: [{ field: 'file' }] } });
    expect(result.error?.message).toContain('image/svg+xml');
    expect(await storage.stat(binding.key)).toBeNull();
    await expectNoTempFiles();
  });

  it('refuses bytes that do not match the signed checksum', async () => {
    const bytes = randomBytes(2048);
    const binding = bindingFor(bytes);
    const other = Buffer.from(bytes);
    other[100] = other[100]! ^ 0xff;
    const result = await post(await storage.presignUpload(binding), other);
    expect(result).toMatchObject({ status: 400, error: { code: 'VALIDATION_ERROR', details: [{ field: 'file' }] } });
    expect(result.error?.message).toContain('checksumSha256');
    expect(await storage.stat(binding.key)).toBeNull();
    await expectNoTempFiles();
  });

  it('refuses every changed signed field with 403 SIGNATURE_MISMATCH and stores nothing', async () => {
    const bytes = Buffer.from('signed bytes');
    const binding = bindingFor(bytes);
    const signed = await storage.presignUpload(binding);
    const otherKey = newKey();
    const changes: Record<string, string>[] = [
      { key: otherKey },
      { uploadSimplyId: 'upl-ZZZZ-ZZZZ-ZZZZ' },
      { teamSimplyId: 'tm-ZZZZ-ZZZZ-ZZZZ' },
      { sizeBytes: String(bytes.length + 1) },
      { checksumSha256: sha256Base64(Buffer.from('other')) },
      { 'Content-Type': 'text/csv' },
      { expires: String(Number(signed.fields.expires) + 3600) },
      { signature: signed.fields.signature!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      { signature: `${signed.fields.signature}A` },
    ];
    for (const fields of changes) {
      const fileType = fields['Content-Type'] ?? 'text/plain';
      const result = await post(signed, bytes, { fields, fileType });
      expect({ fields, ...result }).toMatchObject({ fields, status: 403, error: { code: 'SIGNATURE_MISMATCH' } });
    }
    expect(await storage.stat(binding.key)).toBeNull();
    expect(await storage.stat(otherKey)).toBeNull();
    await expectNoTempFiles();
  });

  it('refuses an expired form with 403 SIGNATURE_EXPIRED', async () => {
    const bytes = Buffer.from('late');
    const binding = bindingFor(bytes, { expiresAt: new Date(Date.now() + 1_000) });
    const signed = await storage.presignUpload(binding);
    await new Promise((r) => setTimeout(r, Number(signed.fields.expires) * 1000 - Date.now() + 50));
    const result = await post(signed, bytes);
    expect(result).toMatchObject({ status: 403, error: { code: 'SIGNATURE_EXPIRED' } });
    expect(await storage.stat(binding.key)).toBeNull();
  });

  it('refuses forms that are not exactly the signed fields followed by one file part', async () => {
    const bytes = Buffer.from('form shape');
    const binding = bindingFor(bytes);
    const signed = await storage.presignUpload(binding);

    const unknown = await post(signed, bytes, { fields: { acl: 'public-read' } });
    expect(unknown).toMatchObject({ status: 400, error: { code: 'VALIDATION_ERROR', details: [{ field: 'acl' }] } });

    const twoFiles = await post(signed, bytes, { extra: (form) => form.append('file', new Blob([new Uint8Array(bytes)], { type: 'text/plain' }), 'second.txt') });
    expect(twoFiles).toMatchObject({ status: 400, error: { code: 'VALIDATION_ERROR' } });

    // the file part before the signature field
    const early = new FormData();
    for (const [name, value] of Object.entries(signed.fields)) if (name !== 'signature') early.append(name, value);
    early.append('file', new Blob([new Uint8Array(bytes)], { type: 'text/plain' }), 'x.txt');
    early.append('signature', signed.fields.signature!);
    const earlyResponse = await fetch(signed.url, { method: 'POST', body: early });
    expect(earlyResponse.status).toBe(400);
    expect(await earlyResponse.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'signature' }] } });

    // no file part at all
    const noFile = new FormData();
    for (const [name, value] of Object.entries(signed.fields)) noFile.append(name, value);
    const noFileResponse = await fetch(signed.url, { method: 'POST', body: noFile });
    expect(await noFileResponse.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'file' }] } });

    // not multipart
    const json = await fetch(signed.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signed.fields) });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'Content-Type' }] } });

    // a truncated multipart body
    const truncated = await fetch(signed.url, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      body: '--XyZ\r\nContent-Disposition: form-data; name="key"\r\n\r\nabc',
    });
    expect(truncated.status).toBe(400);
    expect(await truncated.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'form' }] } });

    expect(await storage.stat(binding.key)).toBeNull();
    await expectNoTempFiles();
  });

  it('answers other methods and paths under /storage/ with 405 and 404', async () => {
    const get = await fetch(`${baseUrl}/storage/uploads`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const del = await fetch(`${baseUrl}/storage/objects/${newKey()}`, { method: 'DELETE' });
    expect(del.status).toBe(405);
    const other = await fetch(`${baseUrl}/storage/elsewhere`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'NOT_FOUND', requestId: 'test-request' } });
  });

  it('removes the temp file of a client that goes away mid-upload, and stores nothing', async () => {
    const bytes = randomBytes(4 * 1024 * 1024);
    const binding = bindingFor(bytes, { contentType: 'application/pdf' });
    const signed = await storage.presignUpload(binding);
    const boundary = `----svc${randomUUID()}`;
    const request = http.request(signed.url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    request.on('error', () => {});
    request.write(multipartHead(boundary, signed.fields, 'application/pdf'));
    request.write(bytes.subarray(0, 1024 * 1024));
    // the receiver has a temp file open now
    for (let i = 0; i < 100 && tempFiles().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(tempFiles().length).toBe(1);
    request.destroy();
    await expectNoTempFiles();
    expect(await storage.stat(binding.key)).toBeNull();
  });

  it('streams a 50 MiB upload to disk with flat memory', async () => {
    // A peak of RSS alone would count garbage the collector has not got round to (every socket read
    // is a fresh buffer), which depends on V8's timing, not on the upload. Collecting before each
    // sample measures what the upload holds on to; a body kept in memory would show in full.
    // Samples are taken as the body is sent (every 2 MiB, the last once the whole file is out but not
    // yet answered, when a buffering receiver would hold the most), not on a timer: a full collection
    // takes longer than a short interval, and timer samples starved the upload for half a minute.
    v8.setFlagsFromString('--expose-gc');
    const collect = vm.runInNewContext('gc') as () => void;
    const chunk = randomBytes(1024 * 1024);
    // a first upload warms the allocator and the socket buffers up: what is measured is the upload
    expect((await postChunks(chunk, 8)).status).toBe(204);
    collect();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakBuffers = before.arrayBuffers;
    let samples = 0;
    const sample = (sent: number) => {
      if (sent % 2 !== 0) return;
      collect();
      samples++;
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
    };
    const { status, key } = await postChunks(chunk, 50, sample);
    const mib = (bytes: number) => bytes / 1024 / 1024;
    console.log(`50 MiB upload: RSS grew by ${mib(peakRss - before.rss).toFixed(1)} MiB at most, live buffers by ${mib(peakBuffers - before.arrayBuffers).toFixed(1)} MiB (${samples} samples)`);
    expect(samples).toBe(25);
    expect(status).toBe(204);
    expect(mib(peakRss - before.rss)).toBeLessThan(50);
    expect(mib(peakBuffers - before.arrayBuffers)).toBeLessThan(16);
    expect((await storage.stat(key))?.sizeBytes).toBe(chunk.length * 50);
    await expectNoTempFiles();
  }, 120_000);
});

/**
 * posts `count` times `chunk` as one file, streamed from a generator (the body never exists whole);
 * `sent` hears how many chunks have gone out, before the next one is produced
 */
async function postChunks(chunk: Buffer, count: number, sent?: (chunks: number) => void): Promise<{ status: number; key: string }> {
  const hash = createHash('sha256');
  for (let i = 0; i < count; i++) hash.update(chunk);
  const binding = bindingFor(Buffer.alloc(0), { contentType: 'video/mp4', sizeBytes: chunk.length * count, checksumSha256: hash.digest('base64') });
  const signed = await storage.presignUpload(binding);
  const boundary = `----svc${randomUUID()}`;
  async function* body() {
    yield multipartHead(boundary, signed.fields, 'video/mp4');
    for (let i = 0; i < count; i++) {
      yield chunk;
      sent?.(i + 1);
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const status = await new Promise<number>((resolve, reject) => {
    const request = http.request(signed.url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    Readable.from(body()).pipe(request);
  });
  return { status, key: binding.key };
}

function multipartHead(boundary: string, fields: Record<string, string>, fileType: string): Buffer {
  let head = '';
  for (const [name, value] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: ${fileType}\r\n\r\n`;
  return Buffer.from(head);
}

describe('local storage: signed downloads', () => {
  const bytes = Buffer.from('0123456789abcdefghij');
  let key: string;

  beforeAll(async () => {
    key = newKey();
    await storage.write(key, bytes, { contentType: 'text/plain' });
  });

  it('serves the bytes with the signed type, nosniff, a private cache lifetime and a safe disposition', async () => {
    const signed = await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 120 });
    expect(signed.url.startsWith(`${baseUrl}/storage/objects/${key}?`)).toBe(true);
    expect(Math.abs(signed.expiresAt.getTime() - (Date.now() + 120_000))).toBeLessThan(2_000);
    const response = await fetch(signed.url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=1[12]\d$/);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    const inline = await fetch((await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 60, disposition: 'inline' })).url);
    expect(inline.headers.get('content-disposition')).toMatch(/^inline; /);
  });

  it('answers a single range with 206 and the slice; an unsatisfiable one with 416', async () => {
    const { url } = await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 60 });
    const cases: [string, number, string, string | null][] = [
      ['bytes=2-5', 206, '2345', 'bytes 2-5/20'],
      ['bytes=15-', 206, 'fghij', 'bytes 15-19/20'],
      ['bytes=-3', 206, 'hij', 'bytes 17-19/20'],
      ['bytes=18-100', 206, 'ij', 'bytes 18-19/20'],
      ['bytes=0-1,4-5', 200, bytes.toString(), null],
      ['items=0-1', 200, bytes.toString(), null],
    ];
    for (const [range, status, body, contentRange] of cases) {
      const response = await fetch(url, { headers: { range } });
      expect({ range, status: response.status, body: await response.text(), contentRange: response.headers.get('content-range') }).toEqual({ range, status, body, contentRange });
    }
    const unsatisfiable = await fetch(url, { headers: { range: 'bytes=20-' } });
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers.get('content-range')).toBe('bytes */20');
  });

  it('answers HEAD with the headers and no body', async () => {
    const { url } = await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 60 });
    const response = await fetch(url, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('20');
    expect(await response.text()).toBe('');
  });

  it('refuses a tampered URL (403 SIGNATURE_MISMATCH), an expired one (403 SIGNATURE_EXPIRED) and answers 404 for a missing object', async () => {
    const { url } = await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 60 });
    const tamper = (change: (u: URL) => void) => {
      const u = new URL(url);
      change(u);
      return u.toString();
    };
    const otherKey = newKey();
    await storage.write(otherKey, Buffer.from('another object'), { contentType: 'text/plain' });
    const tampered = [
      tamper((u) => (u.pathname = `/storage/objects/${otherKey}`)),
      tamper((u) => u.searchParams.set('name', 'other.txt')),
      tamper((u) => u.searchParams.set('type', 'text/html')),
      tamper((u) => u.searchParams.set('disp', 'inline')),
      tamper((u) => u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 3600))),
      tamper((u) => u.searchParams.set('sig', `${u.searchParams.get('sig')}x`)),
      tamper((u) => u.searchParams.delete('sig')),
      tamper((u) => u.searchParams.delete('name')),
    ];
    for (const target of tampered) {
      const response = await fetch(target);
      expect({ target, status: response.status, body: await response.json() }).toMatchObject({ target, status: 403, body: { error: { code: 'SIGNATURE_MISMATCH' } } });
    }

    const short = await storage.presignDownload({ key, filename: 'notes.txt', contentType: 'text/plain', expiresInSeconds: 1 });
    await new Promise((r) => setTimeout(r, short.expiresAt.getTime() - Date.now() + 50));
    const expired = await fetch(short.url);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ error: { code: 'SIGNATURE_EXPIRED' } });

    const missing = await fetch((await storage.presignDownload({ key: newKey(), filename: 'gone.txt', contentType: 'text/plain', expiresInSeconds: 60 })).url);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    // a path that is no storage key is not found either, signature or not
    for (const bad of ['/storage/objects/..%2f..%2fetc/passwd', '/storage/objects/.tmp/x', '/storage/objects/teams//x']) {
      expect((await fetch(`${baseUrl}${bad}?sig=x`)).status).toBe(404);
    }
  });

  it('offers a hostile filename safely: no header injection, no path, no bidi trick, Unicode kept in filename*', async () => {
    const hostile = '"evil\r\nSet-Cookie: a=b\\..\\../etc/passwd\u202Egpj.exe 履歴書 résumé.txt';
    const { url } = await storage.presignDownload({ key, filename: hostile, contentType: 'text/plain', expiresInSeconds: 60 });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    const header = response.headers.get('content-disposition')!;
    const match = /^attachment; filename="([^"]*)"; filename\*=UTF-8''([A-Za-z0-9%!~._-]+)$/.exec(header);
    expect(match, header).not.toBeNull();
    const [, ascii, encoded] = match!;
    expect(ascii).toMatch(/^[\x20-\x7e]+$/);
    expect(ascii).not.toMatch(/["\\/]/);
    const unicode = decodeURIComponent(encoded!);
    expect(unicode).toBe('"evilSet-Cookie: a=b....etcpasswdgpj.exe 履歴書 résumé.txt');
    expect(ascii).toBe('_evilSet-Cookie: a=b....etcpasswdgpj.exe ___ resume.txt');
  });

  it('serves SVG (and other documents) under a sandboxing CSP, media without it', async () => {
    const svgKey = newKey();
    await storage.write(svgKey, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), { contentType: 'image/svg+xml' });
    const svg = await fetch((await storage.presignDownload({ key: svgKey, filename: 'logo.svg', contentType: 'image/svg+xml', expiresInSeconds: 60, disposition: 'inline' })).url);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(svg.headers.get('content-disposition')).toMatch(/^inline; /);
    const xml = await fetch((await storage.presignDownload({ key, filename: 'a.xml', contentType: 'application/xml', expiresInSeconds: 60, disposition: 'inline' })).url);
    expect(xml.headers.get('content-security-policy')).toContain('sandbox');
    const png = await fetch((await storage.presignDownload({ key, filename: 'a.png', contentType: 'image/png', expiresInSeconds: 60 })).url);
    expect(png.headers.get('content-security-policy')).toBeNull();
    expect(png.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('local storage: server-side reads and writes', () => {
  it('write + read round trip (bytes and a stream), localCopy is the object itself', async () => {
    const key = `teams/${TEAM}/variants/${randomUUID()}.webp`;
    const bytes = randomBytes(70_000);
    await storage.write(key, bytes, { contentType: 'image/webp', metadata: { variantType: 'THUMBNAIL_IMAGE' } });
    expect(await storage.stat(key)).toEqual({ sizeBytes: bytes.length, metadata: { variantType: 'THUMBNAIL_IMAGE' } });
    expect(Buffer.concat(await (await storage.read(key)).toArray())).toEqual(bytes);

    const streamed = `${newKey()}-sanitized`;
    await storage.write(streamed, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { contentType: 'image/svg+xml' });
    expect((await storage.stat(streamed))?.sizeBytes).toBe(bytes.length);

    const copy = await storage.localCopy(key);
    expect(copy.path).toBe(path.join(root, key));
    expect(fs.readFileSync(copy.path)).toEqual(bytes);
    await copy.release();
    expect(fs.existsSync(copy.path)).toBe(true);
    await expectNoTempFiles();
  });

  it('a failing stream leaves neither object nor temp file', async () => {
    const key = newKey();
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('source broke'));
      },
    });
    await expect(storage.write(key, failing, { contentType: 'text/plain' })).rejects.toThrow('source broke');
    expect(await storage.stat(key)).toBeNull();
    await expectNoTempFiles();
  });

  it('delete removes objects and their sidecars; missing keys are no error', async () => {
    const keys = [newKey(), newKey()];
    for (const key of keys) await storage.write(key, Buffer.from(key), { contentType: 'text/plain' });
    await storage.delete([...keys, newKey()]);
    for (const key of keys) {
      expect(await storage.stat(key)).toBeNull();
      expect(fs.existsSync(path.join(root, key))).toBe(false);
      expect(fs.existsSync(path.join(root, `${key}.meta.json`))).toBe(false);
    }
    await expect(storage.read(keys[0]!)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.localCopy(keys[0]!)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('an object without its sidecar is no object (stat null)', async () => {
    const key = newKey();
    fs.mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
    fs.writeFileSync(path.join(root, key), 'half moved');
    expect(await storage.stat(key)).toBeNull();
  });

  it('refuses keys that could leave the storage folder, and bad metadata', async () => {
    const bad = ['../outside', '/etc/passwd', 'teams/../../x', 'teams/./x', '.tmp/x', 'teams//x', 'teams/x/', 'teams\\x', 'teams/x%2f..', 'teams/a b', 'teams/x.meta.json', 'teams/😀', ''];
    for (const key of bad) {
      await expect(storage.stat(key), key).rejects.toBeInstanceOf(InvalidStorageInputError);
      await expect(storage.write(key, Buffer.from('x'), { contentType: 'text/plain' }), key).rejects.toBeInstanceOf(InvalidStorageInputError);
      await expect(storage.delete([key]), key).rejects.toBeInstanceOf(InvalidStorageInputError);
      await expect(storage.presignUpload(bindingFor(Buffer.from('x'), { key })), key).rejects.toBeInstanceOf(InvalidStorageInputError);
      await expect(storage.presignDownload({ key, filename: 'x', contentType: 'text/plain', expiresInSeconds: 60 }), key).rejects.toBeInstanceOf(InvalidStorageInputError);
    }
    await expect(storage.write(newKey(), Buffer.from('x'), { contentType: 'text/plain', metadata: { 'x-amz-acl': 'public' } })).rejects.toBeInstanceOf(InvalidStorageInputError);
    await expect(storage.write(newKey(), Buffer.from('x'), { contentType: 'text/plain', metadata: { note: 'line\nbreak' } })).rejects.toBeInstanceOf(InvalidStorageInputError);
    await expect(storage.write(newKey(), Buffer.from('x'), { contentType: 'text/plain\r\nX-Evil: 1' })).rejects.toBeInstanceOf(InvalidStorageInputError);
    await expect(storage.presignUpload(bindingFor(Buffer.from('x'), { expiresAt: new Date(Date.now() - 1000) }))).rejects.toBeInstanceOf(InvalidStorageInputError);
    expect(fs.existsSync(path.join(path.dirname(root), 'outside'))).toBe(false);
  });
});

describe('content disposition', () => {
  it('keeps ordinary names and cleans hostile ones', () => {
    expect(contentDisposition('attachment', 'report 2024.pdf')).toBe(`attachment; filename="report 2024.pdf"; filename*=UTF-8''report%202024.pdf`);
    expect(contentDisposition('inline', "it's (1)*.txt")).toBe(`inline; filename="it's (1)*.txt"; filename*=UTF-8''it%27s%20%281%29%2A.txt`);
    expect(safeFilename('../../.bashrc')).toBe('bashrc');
    expect(safeFilename('\u0000\r\n')).toBe('download');
    expect(safeFilename('a\uD800b.txt')).toBe('a\uFFFDb.txt');
    expect(Array.from(safeFilename('x'.repeat(500))).length).toBe(200);
    expect(contentDisposition('attachment', '100%.txt')).toBe(`attachment; filename="100_.txt"; filename*=UTF-8''100%25.txt`);
  });
});

describe('createObjectStorage', () => {
  it('picks the local driver by default, with its signed endpoints; its URL base comes from PUBLIC_BASE_URL or setBaseUrl', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-storage-config-'));
    try {
      const local = await createObjectStorage(loadConfig({ DATA_DIR: dataDir }));
      expect(local.driver).toBe('local');
      expect(localStorageEndpoints(local).map((e) => e.prefix)).toEqual(['/storage/']);
      await expect(local.presignUpload(bindingFor(Buffer.from('x')))).rejects.toThrow(/public URL/);
      setStorageBaseUrl(local, 'https://files.example.test/base/');
      expect((await local.presignUpload(bindingFor(Buffer.from('x')))).url).toBe('https://files.example.test/base/storage/uploads');
      const configured = await createObjectStorage(loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://api.example.test' }));
      expect((await configured.presignDownload({ key: newKey(), filename: 'a', contentType: 'text/plain', expiresInSeconds: 5 })).url).toMatch(/^https:\/\/api\.example\.test\/storage\/objects\//);
      // both instances read the same secrets key file: one's URL is valid for the other
      expect(fs.existsSync(path.join(dataDir, 'secrets-key'))).toBe(true);
      const s3 = await createObjectStorage(loadConfig({ DATA_DIR: dataDir, FILE_STORAGE_DRIVER: 's3', S3_BUCKET: 'bucket-name' }));
      expect(s3.driver).toBe('s3');
      expect(localStorageEndpoints(s3)).toEqual([]);
      setStorageBaseUrl(s3, 'https://ignored.example.test');
      await s3.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
