// The platform's REST API as the `svc` client commands call it: JSON requests to a running
// server over HTTPS (its certificate trusted through --ca-cert when it is self-signed), the
// `{ data }` envelope unwrapped and `{ error }` turned into an ApiCallError, plus the two plain
// HTTP steps the commands need besides the API: posting an upload's signed form and fetching a
// short-lived download URL. node:https rather than fetch, because a per-request CA is the point.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';

/** An answer of the platform that is not a success, with its documented code. */
export class ApiCallError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown[];
  constructor(status: number, code: string, message: string, details: unknown[] = []) {
    super(message);
    this.name = 'ApiCallError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  /** PEM of the certificate (or CA) to trust besides the system's */
  ca?: string;
  token?: string;
  teamId?: string;
}

interface RawResponse {
  status: number;
  body: Buffer;
}

export class ApiClient {
  readonly baseUrl: URL;
  private readonly agent: https.Agent;
  private readonly teamId: string | undefined;
  private token: string | undefined;

  constructor(options: ApiClientOptions) {
    this.baseUrl = new URL(options.baseUrl);
    if (this.baseUrl.protocol !== 'https:') throw new ApiCallError(0, 'HTTPS_REQUIRED', `the base URL must be https:// (got ${options.baseUrl})`);
    this.agent = new https.Agent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) });
    this.token = options.token;
    this.teamId = options.teamId;
  }

  useToken(token: string | undefined): void {
    this.token = token;
  }

  /** Calls `/v1/…` and answers the envelope's `data`; a non-2xx answer throws ApiCallError. */
  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (this.teamId) headers['x-team-id'] = this.teamId;
    let payload: Buffer | undefined;
    if (body !== undefined) {
      payload = Buffer.from(JSON.stringify(body));
      headers['content-type'] = 'application/json';
    }
    const response = await this.send(new URL(path, this.baseUrl), { method, headers }, payload);
    let parsed: any = null;
    try {
      parsed = response.body.length ? JSON.parse(response.body.toString('utf8')) : null;
    } catch {
      parsed = null;
    }
    if (response.status >= 200 && response.status < 300) return parsed?.data as T;
    const error = parsed?.error;
    if (error?.code) throw new ApiCallError(response.status, error.code, error.message ?? error.code, Array.isArray(error.details) ? error.details : []);
    throw new ApiCallError(response.status, `HTTP_${response.status}`, `${method} ${path} answered ${response.status}: ${response.body.toString('utf8').slice(0, 200)}`);
  }

  /**
   * Posts a signed upload form: every field as given and in order, then the file part
   * (docs/api/files.md "Uploading a file"). No Authorization header: the signature is the authorization.
   */
  async postForm(url: string, fields: Record<string, string>, file: { bytes: Buffer; filename: string; contentType: string }): Promise<void> {
    const boundary = `----svc${randomBytes(12).toString('hex')}`;
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields)) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`));
    }
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`));
    parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
    const body = Buffer.concat(parts);
    const response = await this.send(new URL(url), { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) } }, body);
    if (response.status < 200 || response.status >= 300) {
      throw new ApiCallError(response.status, 'UPLOAD_POST_FAILED', `the storage refused the upload (${response.status}): ${response.body.toString('utf8').slice(0, 300)}`);
    }
  }

  /** Streams a (short-lived, signed) URL into `target`, a path or a stream; answers the bytes written. */
  async download(url: string, target: string | Writable): Promise<number> {
    const address = new URL(url);
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = this.transport(address).get(address, { agent: this.agentFor(address) }, resolve);
      request.on('error', reject);
    });
    if ((response.statusCode ?? 0) < 200 || (response.statusCode ?? 0) >= 300) {
      response.resume();
      throw new ApiCallError(response.statusCode ?? 0, 'DOWNLOAD_FAILED', `the download URL answered ${response.statusCode}`);
    }
    let bytes = 0;
    response.on('data', (chunk: Buffer) => (bytes += chunk.length));
    const sink = typeof target === 'string' ? fs.createWriteStream(target) : target;
    await pipeline(response, sink, { end: typeof target === 'string' });
    return bytes;
  }

  close(): void {
    this.agent.destroy();
  }

  /** The platform's own URLs go through the agent that trusts --ca-cert; other hosts (S3) through the default. */
  private agentFor(address: URL): https.Agent | undefined {
    return address.protocol === 'https:' && address.host === this.baseUrl.host ? this.agent : undefined;
  }

  private transport(address: URL): typeof https | typeof http {
    return address.protocol === 'http:' ? http : https;
  }

  private send(address: URL, options: http.RequestOptions, body?: Buffer): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const request = this.transport(address).request(address, { ...options, agent: this.agentFor(address) }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      });
      request.on('error', (error) => reject(connectionError(address, error)));
      request.end(body);
    });
  }
}

function quoted(value: string): string {
  return value.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
}

/** A failed connection says where it went and, for a certificate problem, what to do. */
function connectionError(address: URL, error: Error & { code?: string }): ApiCallError {
  const certificate = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(error.code ?? '');
  const hint = certificate ? ' (is the certificate self-signed? pass it with --ca-cert <file>; `svc bootstrap` prints caCertFile)' : '';
  return new ApiCallError(0, 'CONNECTION_FAILED', `cannot reach ${address.origin}: ${error.message}${hint}`);
}
