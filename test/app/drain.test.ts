// Draining for load balancers: from SIGTERM (app.close()) /readyz answers 503 at once, while
// requests in flight finish and new ones are still served for SHUTDOWN_GRACE_MS; then the listener
// closes as before.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Agent, fetch } from 'undici';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/main/config.ts';
import { createTeam } from '../support/fixtures.ts';
import { rawRequest, slowPost } from '../support/raw-https.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { cleanEnv, SVC } from '../support/svc-cli.ts';
import { untilWith } from '../support/until.ts';
import { startChildProcess } from '../support/worker-process.ts';
import { tcpProbe } from '../support/tcp-probe.ts';

const GRACE_MS = 2_000;
const until = untilWith({ timeoutMs: 60_000, everyMs: 20 });
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});


describe('SHUTDOWN_GRACE_MS', () => {
  it('defaults to 5 s in production and to 0 elsewhere (tests, development)', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).shutdownGraceMs).toBe(5_000);
    expect(loadConfig({ NODE_ENV: 'test' }).shutdownGraceMs).toBe(0);
    expect(loadConfig({}).shutdownGraceMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production', SHUTDOWN_GRACE_MS: '0' }).shutdownGraceMs).toBe(0);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '-1' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});

describe('draining an instance (app.close(), what SIGTERM runs)', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('/readyz 503 at once; in-flight and new requests served during the grace; then refused', async () => {
    server = await startTestServer({ env: { SHUTDOWN_GRACE_MS: GRACE_MS } });
    const team = await createTeam(server);
    const { baseUrl, ca, app } = server;
    expect((await server.request('GET', '/readyz')).status).toBe(200);
    // a write whose body is still on its way when the shutdown starts
    const name = `Written while draining ${randomBytes(3).toString('hex')}`;
    const body = JSON.stringify({ name });
    const slow = slowPost(baseUrl, ca, '/v1/team-roles', team.apiKey, body.slice(0, 5));
    await slow.started;

    const began = Date.now();
    let closedAt = 0;
    const closing = app.close().then(() => (closedAt = Date.now()));

    const ready = await rawRequest(baseUrl, ca, { method: 'GET', path: '/readyz' });
    expect(ready.status).toBe(503);
    expect(ready.body.error.code).toBe('NOT_READY');
    // new requests, on new connections, are still answered, each on a connection of its own
    const fresh = await rawRequest(baseUrl, ca, { method: 'GET', path: '/v1/team-roles', token: team.apiKey });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.connection).toBe('close');
    slow.finish(body.slice(5));
    expect((await slow.response).status).toBe(201);
    expect(Date.now() - began).toBeLessThan(GRACE_MS);
    expect(await tcpProbe(app.port)).toBe('accepted');

    // after the grace period the port refuses, and the shutdown completes
    await until('the port to refuse connections', async () => (await tcpProbe(app.port)) === 'refused');
    expect(Date.now() - began).toBeGreaterThanOrEqual(GRACE_MS - 50);
    await closing;
    expect(closedAt - began).toBeLessThan(GRACE_MS + 3_000);
    server = undefined;
  });

  it('without a grace period (the tests\' default) close() is as quick as before', async () => {
    const quick = await startTestServer();
    const began = Date.now();
    await quick.close();
    expect(Date.now() - began).toBeLessThan(1_000);
  });
});

describe('SIGTERM to `svc start`', () => {
  it('answers /readyz 503 while still serving for the grace period, then refuses connections and exits', { timeout: 120_000 }, async () => {
    const dataDir = path.join(inject('testDataDir'), `drain-${randomBytes(4).toString('hex')}`);
    fs.mkdirSync(dataDir, { recursive: true });
    const env = {
      DATABASE_URL: inject('databaseUrl'),
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      // the shared test database: this process must not take other files' jobs
      JOBS_IN_SERVER: 'false',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    };
    const { child, stdout, stderr, exited, outputRead } = startChildProcess([SVC, 'start'], cleanEnv(env), cleanups);
    const baseUrl = await until('the server to be ready', () => /ready at (\S+)/.exec(stderr())?.[1] ?? (child.exitCode !== null && Promise.reject(new Error(stderr()))));
    const port = Number(new URL(baseUrl).port);
    const dispatcher = new Agent({ connect: { ca: fs.readFileSync(path.join(dataDir, 'tls/self-signed-cert.pem'), 'utf8') } });
    cleanups.push(() => dispatcher.close());
    const get = async (urlPath: string) => {
      const response = await fetch(`${baseUrl}${urlPath}`, { dispatcher });
      await response.text();
      return response.status;
    };
    expect(await get('/readyz')).toBe(200);

    const signalled = Date.now();
    child.kill('SIGTERM');
    await until('/readyz to answer 503', async () => (await get('/readyz')) === 503, 1_000);
    const readyzOffAfter = Date.now() - signalled;
    expect(await get('/healthz')).toBe(200);
    expect(await get('/openapi.json')).toBe(200);
    expect(Date.now() - signalled).toBeLessThan(GRACE_MS);

    await until('the port to refuse connections', async () => (await tcpProbe(port)) === 'refused');
    const refusedAfter = Date.now() - signalled;
    expect(refusedAfter).toBeGreaterThanOrEqual(GRACE_MS - 100);
    const { code } = await exited;
    expect(code).toBe(0);
    expect(readyzOffAfter).toBeLessThan(GRACE_MS / 2);
    await outputRead;

    const lines = stdout().trim().split('\n').map((l) => JSON.parse(l) as { msg: string; graceMs?: number });
    expect(lines.find((l) => l.msg.startsWith('draining'))?.graceMs).toBe(GRACE_MS);
    expect(lines.at(-1)!.msg).toBe('stopped');
  });
});
