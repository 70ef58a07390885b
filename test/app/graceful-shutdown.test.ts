// Graceful shutdown (app.close(), what SIGTERM runs): stop accepting, let in-flight requests
// finish within SHUTDOWN_TIMEOUT_MS, close WebSockets, drain jobs, and leave no database
// connection behind.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/main/config.ts';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';
import { startApp, type App } from '../../src/main/server.ts';
import { SHUTDOWN_MARGIN_MS } from '../../src/main/services.ts';
import { createLogger } from '../../src/app/logger.ts';
import { createThrowawayDatabase, withClient, type ThrowawayDatabase } from '../db/helpers.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { slowPost } from '../support/raw-https.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/until.ts';
import { tcpProbe } from '../support/tcp-probe.ts';


describe('graceful shutdown of an instance with its own database', () => {
  const serverUrl = inject('databaseUrl');
  let db: ThrowawayDatabase;
  let app: App;
  let team: TeamFixture;

  /** connections to this instance's own database, by application_name */
  const connections = () =>
    withClient(serverUrl, async (c) => {
      const { rows } = await c.query<{ application_name: string }>('SELECT application_name FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db.name]);
      return rows.map((r) => r.application_name);
    });

  beforeAll(async () => {
    // a database of its own, so pg_stat_activity shows exactly this instance's connections
    db = await createThrowawayDatabase(serverUrl, 'shutdown');
    await applyPendingMigrations({ databaseUrl: db.url });
    const dataDir = path.join(inject('testDataDir'), `shutdown-${randomBytes(4).toString('hex')}`);
    fs.mkdirSync(dataDir, { recursive: true });
    const config = loadConfig({ NODE_ENV: 'test' }, { DATA_DIR: dataDir, PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: 10_000 });
    app = await startApp({ config, databaseUrl: db.url, migrate: false, runJobs: true, jobPollingIntervalSeconds: 0.5, logger: createLogger('silent') });
    team = await createTeam({ app } as TestServer);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('finishes the in-flight request, refuses new connections, closes sockets and leaves no database connection', async () => {
    const ca = app.tls!.cert;
    // every kind of connection the instance holds is there before the shutdown
    await until('svc, svc-listener and svc-jobs connections', async () => {
      const names = new Set(await connections());
      return ['svc', 'svc-listener', 'svc-jobs'].every((n) => names.has(n));
    });

    // a live subscription, which must be closed (1001 going away) by the shutdown
    let closeCode: number | undefined;
    const ws = serverGraphqlWsClient({ baseUrl: app.baseUrl, ca }, {
      connectionParams: { authorization: `Bearer ${team.apiKey}` },
      lazy: false,
      onNonLazyError: () => {},
      on: { closed: (e) => (closeCode ??= (e as { code: number }).code) },
    });
    let acked = false;
    ws.on('connected', () => (acked = true));
    await until('the WebSocket to be acknowledged', () => acked);

    const name = `Created during shutdown ${Date.now()}`;
    const body = JSON.stringify({ name });
    const slow = slowPost(app.baseUrl, ca, '/v1/team-roles', team.apiKey, body.slice(0, 5));
    await slow.started;

    const closing = app.close();
    let closed = false;
    void closing.then(() => (closed = true));
    // the port stops accepting while the request is still open
    await until('the port to refuse connections', async () => (await tcpProbe(app.port)) === 'refused');
    expect(closed).toBe(false);

    slow.finish(body.slice(5));
    const response = await slow.response;
    expect(response.status).toBe(201);
    expect(response.body.data.name).toBe(name);

    await until('close() to resolve', () => closed, 5000);
    expect(closeCode).toBe(1001);
    await ws.dispose();

    // backends exit moments after their client disconnects
    await until('no connection of the instance to remain', async () => (await connections()).length === 0, 3000);
    // the write made during the shutdown was committed
    const saved = await withClient(db.url, (c) => c.query('SELECT 1 FROM "TeamRole" WHERE name = $1', [name]));
    expect(saved.rowCount).toBe(1);
  });
});

describe('shutdown timing', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('idle keep-alive and silent TCP connections do not hold the shutdown', async () => {
    server = await startTestServer({ env: { SHUTDOWN_TIMEOUT_MS: 10_000 } });
    expect((await server.request('GET', '/healthz')).status).toBe(200); // leaves an idle keep-alive connection
    const silent = net.connect(server.app.port, '127.0.0.1'); // connected, never sends a byte
    await new Promise((resolve) => silent.once('connect', resolve));
    const peerClosed = new Promise((resolve) => silent.once('close', resolve));
    silent.on('error', () => {});

    const started = Date.now();
    await server.app.close();
    expect(Date.now() - started).toBeLessThan(1500);
    await peerClosed;
  });

  it('a request still running after SHUTDOWN_TIMEOUT_MS is cut and close() resolves', async () => {
    server = await startTestServer({ env: { SHUTDOWN_TIMEOUT_MS: 300 } });
    const team = await createTeam(server);
    const slow = slowPost(server.baseUrl, server.ca, '/v1/team-roles', team.apiKey, '{"na');
    await slow.started;
    const started = Date.now();
    await server.app.close();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3000);
    await expect(slow.response).rejects.toThrow();
  });

  it('a transaction still running at the deadline is ended: close() keeps SHUTDOWN_TIMEOUT_MS + margin', async () => {
    server = await startTestServer({ env: { SHUTDOWN_TIMEOUT_MS: 500 } });
    const client = await server.app.services.pool.connect();
    // the shutdown terminates this connection on purpose: its 'error' is expected, not uncaught
    client.on('error', () => {});
    await client.query('BEGIN');
    const sleeping = client.query('SELECT pg_sleep(30)');
    sleeping.catch(() => {});
    const pid = (client as unknown as { processID: number }).processID;
    const started = Date.now();
    await server.app.close();
    expect(Date.now() - started).toBeLessThan(500 + SHUTDOWN_MARGIN_MS + 500);
    await expect(sleeping).rejects.toThrow();
    client.release(true);
    // its backend was terminated, not left running the query
    await until('the backend to end', async () => {
      const { rowCount } = await withClient(inject('databaseUrl'), (c) => c.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]));
      return rowCount === 0;
    }, 3000);
  });
});
