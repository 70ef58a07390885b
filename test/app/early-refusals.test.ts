// Answers given before the client has sent its whole request (a refused upload form, a body over
// the limit, a head over the limit) reach the client as the documented envelope, whichever client
// sends: undici's fetch, Node's own fetch, node:http(s) writing a stream, and Chromium posting a
// form; on the HTTPS port and in plain HTTP behind a TLS-terminating proxy. The connection closes
// once the client has sent the rest (lingering close), or soon after it stops sending.
import { once } from 'node:events';
import fs from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import tls from 'node:tls';
import { Agent, fetch as undiciFetch, FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../rest-adapter/docs-browser-check.ts';
import { LINGER_IDLE_MS } from '../../src/app/http/lingering-close.ts';
import type { UploadIntent } from '../support/file-uploads.ts';
import { useServer } from '../support/use-server.ts';

const MiB = 1024 * 1024;
/** what the clients send: far more than the socket buffers take before the server answers */
const BIG = 8 * MiB;

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: any;
  /** when the server closed the connection, in ms after the answer arrived (null: still open after the wait) */
  closedAfterMs: Promise<number | null>;
}

async function* piecesOf(bytes: Buffer): AsyncIterable<Buffer> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
}

/** The multipart body a form post makes: every field, then the file part. */
function multipart(fields: Record<string, string>, file: Buffer, boundary: string): Buffer {
  const head = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const filePart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`;
  return Buffer.concat([Buffer.from(head + filePart), file, Buffer.from(`\r\n--${boundary}--\r\n`)]);
}

const tampered = (intent: UploadIntent) => ({ ...intent.upload.fields, checksumSha256: Buffer.alloc(32, 7).toString('base64') });

const modes: { mode: string; env: { TRUST_PROXY?: boolean }; proxyHeaders: Record<string, string> }[] = [
  { mode: 'on the HTTPS port', env: {}, proxyHeaders: {} },
  { mode: 'in plain HTTP behind a TLS-terminating proxy', env: { TRUST_PROXY: true }, proxyHeaders: { 'x-forwarded-proto': 'https' } },
];

describe.each(modes)('$mode', ({ env, proxyHeaders }) => {
  const { server, teams } = useServer({ teams: 1, env });
  let agent: Agent;
  beforeAll(() => {
    agent = new Agent({ connect: { ca: server.ca || undefined } });
  });
  afterAll(() => agent?.close());
  /** where clients reach the server: its HTTPS port, or the plain port a proxy forwards to */
  const origin = () => (server.app.tls ? server.baseUrl : `http://127.0.0.1:${server.app.port}`);

  /**
   * Sends a request through node:http(s), writing `body` in 64 KiB pieces (as a streaming client
   * does, waiting for the socket to drain), and resolves with the answer as soon as it arrives. A
   * write error after the answer (the connection closing) is the server's right; one before is not.
   */
  function nodeSend(target: string, options: { headers?: Record<string, string>; body: Buffer }): Promise<Answer> {
    const url = new URL(target);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      let answered = false;
      const headers = { ...proxyHeaders, ...options.headers };
      const req = client.request(url, { method: 'POST', ca: server.ca || undefined, agent: false, headers }, (res) => {
        answered = true;
        const arrived = Date.now();
        const closedAfterMs = new Promise<number | null>((done) => {
          const timer = setTimeout(() => done(null), LINGER_IDLE_MS + 5_000);
          res.socket.once('close', () => {
            clearTimeout(timer);
            done(Date.now() - arrived);
          });
        });
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null, closedAfterMs }));
      });
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      // a connection closed after the answer ends the writing
      req.on('close', () => req.emit('drain'));
      void (async () => {
        for await (const piece of piecesOf(options.body)) {
          if (req.destroyed) return;
          if (!req.write(piece)) await new Promise((drained) => req.once('drain', drained));
        }
        req.end();
      })();
    });
  }

  /** A signed upload form for `bytes` (text/plain), as POST /v1/file-uploads hands it out. */
  async function uploadForm(bytes: Buffer): Promise<UploadIntent> {
    const response = await undiciFetch(`${origin()}/v1/file-uploads`, {
      method: 'POST',
      headers: { ...proxyHeaders, authorization: `Bearer ${teams[0].apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'big.txt', contentType: 'text/plain', fileSizeBytes: bytes.length, checksumSha256: Buffer.alloc(32, 1).toString('base64') }),
      dispatcher: agent,
    });
    const text = await response.text();
    expect(response.status, text).toBe(201);
    const intent = JSON.parse(text).data as UploadIntent;
    // the form names the public (https) URL; behind a proxy, the proxy forwards it to the server's port
    const signed = new URL(intent.upload.url);
    return { ...intent, upload: { ...intent.upload, url: `${origin()}${signed.pathname}${signed.search}` } };
  }

  describe('a refused upload form, refused while the file is still arriving', () => {
    const bytes = Buffer.alloc(BIG, 'x');
    const formOf = (intent: UploadIntent, file: Buffer) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(tampered(intent))) form.append(name, value);
      form.append('file', new Blob([new Uint8Array(file)], { type: 'text/plain' }), 'big.txt');
      return form;
    };

    // a small form is refused as soon as its fields are read, often before the client has written the rest: tried a few times
    const files = [bytes, ...Array.from({ length: 8 }, () => Buffer.from('small'))];

    it("undici's fetch reads 403 SIGNATURE_MISMATCH, for a large file and small ones", async () => {
      for (const file of files) {
        const intent = await uploadForm(file);
        const response = await undiciFetch(intent.upload.url, { method: 'POST', headers: proxyHeaders, body: formOf(intent, file), dispatcher: agent });
        expect(response.status).toBe(403);
        expect(response.headers.get('connection')).toBe('close');
        expect(await response.json()).toMatchObject({ error: { code: 'SIGNATURE_MISMATCH', requestId: expect.any(String) } });
      }
    });

    // Node's fetch cannot be given the self-signed certificate of the HTTPS port
    it.runIf(env !== modes[0]!.env)("Node's own fetch reads 403 SIGNATURE_MISMATCH, for a large file and small ones", async () => {
      for (const file of files) {
        const intent = await uploadForm(file);
        const form = new globalThis.FormData();
        for (const [name, value] of Object.entries(tampered(intent))) form.append(name, value);
        form.append('file', new Blob([new Uint8Array(file)], { type: 'text/plain' }), 'big.txt');
        const response = await fetch(intent.upload.url, { method: 'POST', headers: proxyHeaders, body: form });
        expect(response.status).toBe(403);
        expect(await response.json()).toMatchObject({ error: { code: 'SIGNATURE_MISMATCH' } });
      }
    });

    it('node:http(s) reads 403 SIGNATURE_MISMATCH, and the connection closes once the rest is sent', async () => {
      const intent = await uploadForm(bytes);
      const boundary = 'early-refusal-boundary';
      const answer = await nodeSend(intent.upload.url, {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: multipart(tampered(intent), bytes, boundary),
      });
      expect(answer).toMatchObject({ status: 403, body: { error: { code: 'SIGNATURE_MISMATCH' } } });
      expect(await answer.closedAfterMs).toEqual(expect.any(Number));
    });

    it('a client that goes quiet after the refusal is disconnected after the lingering time', async () => {
      const intent = await uploadForm(bytes);
      const boundary = 'quiet-boundary';
      const body = multipart(tampered(intent), bytes, boundary);
      const url = new URL(intent.upload.url);
      // a raw connection: an HTTP client library would close by itself once it has the answer
      const options = { host: url.hostname, port: Number(url.port), ca: server.ca || undefined };
      const socket = url.protocol === 'https:' ? tls.connect(options) : net.connect(options);
      await once(socket, url.protocol === 'https:' ? 'secureConnect' : 'connect');
      let received = '';
      let answeredAt = 0;
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if (!answeredAt && received.includes('SIGNATURE_MISMATCH')) answeredAt = Date.now();
      });
      const closed = once(socket, 'close').then(() => Date.now());
      socket.on('error', () => {});
      // the head of the form and 2 MiB of the file, then nothing: the request never completes
      const head = [`POST ${url.pathname} HTTP/1.1`, `Host: ${url.host}`, `Content-Type: multipart/form-data; boundary=${boundary}`, `Content-Length: ${body.length}`];
      for (const [name, value] of Object.entries(proxyHeaders)) head.push(`${name}: ${value}`);
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      socket.write(body.subarray(0, 2 * MiB));
      const closedAt = await closed;
      expect(received).toMatch(/^HTTP\/1\.1 403 /);
      expect(received).toMatch(/\r\nconnection: close\r\n/i);
      expect(closedAt - answeredAt).toBeGreaterThanOrEqual(LINGER_IDLE_MS - 1_000);
      expect(closedAt - answeredAt).toBeLessThan(LINGER_IDLE_MS + 3_000);
    }, 20_000);

    it('Chromium posting the form shows the 403 envelope', async () => {
      const intent = await uploadForm(bytes);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-early-')), 'big.txt');
      fs.writeFileSync(file, bytes);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.setExtraHTTPHeaders(proxyHeaders);
        // a page of the server's origin holding a plain HTML form, as a site embedding an upload would
        await page.goto(`${origin()}/healthz`);
        await page.evaluate(
          (action: string, fields: Record<string, string>) => {
            const form = document.createElement('form');
            form.method = 'POST';
            form.enctype = 'multipart/form-data';
            form.action = action;
            for (const [name, value] of Object.entries(fields)) {
              const input = document.createElement('input');
              input.type = 'hidden';
              input.name = name;
              input.value = value;
              form.append(input);
            }
            const input = document.createElement('input');
            input.type = 'file';
            input.name = 'file';
            form.append(input);
            document.body.append(form);
          },
          intent.upload.url,
          tampered(intent),
        );
        const input = await page.$('input[type=file]');
        await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(file);
        const [response] = await Promise.all([page.waitForNavigation({ timeout: 30_000 }), page.evaluate(() => document.forms[0]!.submit())]);
        expect(response?.status()).toBe(403);
        expect(JSON.parse(await page.evaluate(() => document.body.innerText))).toMatchObject({ error: { code: 'SIGNATURE_MISMATCH' } });
      } finally {
        await browser.close();
        fs.rmSync(path.dirname(file), { recursive: true, force: true });
      }
    }, 60_000);
  });

  describe('a JSON body over the limit (1 MiB by default)', () => {
    const json = () => Buffer.from(JSON.stringify({ name: 'x'.repeat(BIG) }));
    const roles = () => `${origin()}/v1/team-roles`;
    const headers = () => ({ ...proxyHeaders, authorization: `Bearer ${teams[0].apiKey}`, 'content-type': 'application/json' });

    it("undici's fetch reads 413 PAYLOAD_TOO_LARGE, declared or streamed", async () => {
      const declared = await undiciFetch(roles(), { method: 'POST', headers: headers(), body: json(), dispatcher: agent });
      expect(declared.status).toBe(413);
      expect(await declared.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
      const streamed = await undiciFetch(roles(), { method: 'POST', headers: headers(), body: Readable.from(piecesOf(json())), duplex: 'half', dispatcher: agent });
      expect(streamed.status).toBe(413);
      expect(await streamed.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    });

    it('node:http(s) reads 413 PAYLOAD_TOO_LARGE, declared or chunked, and the connection closes once the rest is sent', async () => {
      const body = json();
      for (const extra of [{ 'content-length': String(body.length) }, { 'transfer-encoding': 'chunked' }] as Record<string, string>[]) {
        const answer = await nodeSend(roles(), { headers: { ...headers(), ...extra }, body });
        expect(answer, JSON.stringify(extra)).toMatchObject({ status: 413, headers: { connection: 'close' }, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
        expect(await answer.closedAfterMs).toEqual(expect.any(Number));
      }
    });
  });

  it('a head over 16 KiB: node:http(s) reads 431 REQUEST_HEADERS_TOO_LARGE while still sending a body', async () => {
    const answer = await nodeSend(`${origin()}/v1/team-roles`, {
      headers: { authorization: `Bearer ${teams[0].apiKey}`, 'content-type': 'application/json', 'x-filler': 'f'.repeat(40_000) },
      body: Buffer.alloc(2 * MiB, ' '),
    });
    expect(answer).toMatchObject({ status: 431, body: { error: { code: 'REQUEST_HEADERS_TOO_LARGE' } } });
  });
});
