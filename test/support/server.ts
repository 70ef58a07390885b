// Starts a real server instance (HTTPS, its own data folder) on the shared test database, and
// gives tests small HTTP helpers that trust its self-signed certificate.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Agent, fetch as undiciFetch } from 'undici';
import { inject } from 'vitest';
import { loadConfig, type Env } from '../../src/main/config.ts';
import { startApp, type App } from '../../src/main/server.ts';
import { createLogger } from '../../src/app/logger.ts';

export interface TestServer {
  app: App;
  baseUrl: string;
  /** CA to trust: the server's self-signed certificate */
  ca: string;
  dataDir: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>, options?: Omit<RequestOptions, 'body'>): Promise<GraphQLResponse<T>>;
  close(): Promise<void>;
}

export interface RequestOptions {
  token?: string;
  teamId?: string;
  body?: unknown;
  /** raw body; sent as is */
  rawBody?: string;
  headers?: Record<string, string>;
  /** 'manual': answer a redirect itself rather than follow it */
  redirect?: 'follow' | 'manual';
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface GraphQLResponse<T> {
  status: number;
  data: T | null;
  errors?: { message: string; extensions?: { code?: string; status?: number; details?: unknown } }[];
}

export interface StartOptions {
  env?: Partial<Env>;
  /** a database of the test file's own (migrated); default: the shared test database */
  databaseUrl?: string;
  /** share the data folder (signing key, TLS certificate) with another instance */
  dataDir?: string;
  runJobs?: boolean;
  /**
   * how often idle job workers look for jobs that came due (default 5 s, as in production): a file
   * waiting on retry delays sets 1, every queue then polling once a second
   */
  jobBackstopPollSeconds?: number;
}

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const databaseUrl = options.databaseUrl ?? inject('databaseUrl');
  const dataDir = options.dataDir ?? path.join(inject('testDataDir'), `app-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const config = loadConfig(
    { NODE_ENV: 'test' },
    { DATA_DIR: dataDir, PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: 2000, ...options.env },
  );
  const app = await startApp({
    config,
    databaseUrl,
    migrate: false,
    runJobs: options.runJobs ?? false,
    jobPollingIntervalSeconds: 0.5,
    jobBackstopPollSeconds: options.jobBackstopPollSeconds,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
  });
  const ca = app.tls ? app.tls.cert : '';
  // a loaded CI machine can take seconds over a TLS handshake when many tests connect at once
  const dispatcher = new Agent({ connect: { ca: ca || undefined, timeout: 60_000 } });
  const request = async (method: string, urlPath: string, o: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.teamId) headers['x-team-id'] = o.teamId;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await undiciFetch(`${app.baseUrl}${urlPath}`, { method, headers, body, dispatcher, redirect: o.redirect ?? 'follow' });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers as unknown as Headers, body: parsed, text };
  };
  return {
    app,
    baseUrl: app.baseUrl,
    ca,
    dataDir,
    request,
    graphql: async (query, variables, o = {}) => {
      const response = await request('POST', '/graphql', { ...o, body: { query, variables } });
      return { status: response.status, data: response.body?.data ?? null, errors: response.body?.errors };
    },
    close: async () => {
      await app.close();
      await dispatcher.close();
    },
  };
}
