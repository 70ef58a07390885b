// SIGTERM with slow requests in flight, through the real `svc start`: the process exits within
// SHUTDOWN_TIMEOUT_MS + SHUTDOWN_MARGIN_MS (one deadline for requests, jobs and the pool), a
// request that finishes in time is answered, a transaction still running at the deadline is
// rolled back, and no connection of the process is left in pg_stat_activity.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { SHUTDOWN_MARGIN_MS } from '../../src/main/services.ts';
import { query, type ThrowawayDatabase } from '../db/helpers.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { rawRequest, slowPost } from '../support/raw-https.ts';
import { cleanEnv, runSvc, SVC } from '../support/svc-cli.ts';
import { untilWith } from '../support/until.ts';
import { startChildProcess } from '../support/worker-process.ts';

const SHUTDOWN_TIMEOUT_MS = 2_000;
/** starting and ending a Node process, on top of the shutdown itself */
const PROCESS_SLACK_MS = 1_500;
const until = untilWith({ timeoutMs: 30_000, everyMs: 50 });
const cleanups: (() => Promise<unknown>)[] = [];
let db: ThrowawayDatabase;

beforeAll(async () => {
  // a database of its own: pg_stat_activity then shows exactly this server's connections
  db = await createMigratedDatabase('sigterm_deadline');
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await db?.drop();
});

it('exits within SHUTDOWN_TIMEOUT_MS + margin with a transaction stuck on a lock, and leaves no connection', { timeout: 120_000 }, async () => {
  const dataDir = path.join(inject('testDataDir'), `sigterm-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const env = {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    NODE_ENV: 'test',
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
  };
  const bootstrap = await runSvc(['bootstrap', '--team', 'Sigterm', '--email', `sigterm-${randomBytes(3).toString('hex')}@example.test`], env);
  expect(bootstrap.code, bootstrap.stderr).toBe(0);
  const { apiKey } = JSON.parse(bootstrap.stdout);

  const { child, stderr, exited } = startChildProcess([SVC, 'start'], cleanEnv(env), cleanups);
  const baseUrl = await until('the server to be ready', () => /ready at (\S+)/.exec(stderr())?.[1] ?? (child.exitCode !== null && Promise.reject(new Error(stderr()))));
  const ca = fs.readFileSync(path.join(dataDir, 'tls', 'self-signed-cert.pem'), 'utf8');
  const post = (path: string, body: unknown) => rawRequest(baseUrl, ca, { method: 'POST', path, token: apiKey, body });
  expect((await post('/v1/team-roles', { name: 'Before the shutdown' })).status).toBe(201);

  // a write whose transaction waits for a lock the test holds: still running at the deadline
  const locker = new pg.Client({ connectionString: db.url });
  await locker.connect();
  cleanups.push(() => locker.end());
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE "TeamRole" IN SHARE MODE');
  const stuck = post('/v1/team-roles', { name: 'Stuck on a lock' });
  stuck.catch(() => {});
  await until('the write to wait for the lock', async () => {
    const rows = await query(db.url, `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc' AND wait_event_type = 'Lock'`);
    return rows.length > 0;
  });
  // a slow request that completes during the drain (it needs no lock the test holds)
  const body = JSON.stringify({ expiresInMinutes: 30 });
  const slow = slowPost(baseUrl, ca, '/v1/session-tokens', apiKey, body.slice(0, 3));
  await slow.started;

  const signalledAt = Date.now();
  child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  slow.finish(body.slice(3));
  const finished = await slow.response;
  expect(finished.status, JSON.stringify(finished.body)).toBe(201);

  const { code, at } = await exited;
  const took = at - signalledAt;
  expect(code, stderr()).toBe(0);
  // the stuck write held the shutdown until the deadline, not longer
  expect(took).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS - 100);
  expect(took).toBeLessThan(SHUTDOWN_TIMEOUT_MS + SHUTDOWN_MARGIN_MS + PROCESS_SLACK_MS);
  await expect(stuck).rejects.toThrow(); // its connection was cut at the deadline

  const leftovers = () => query(db.url, `SELECT application_name, state, wait_event_type, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'svc%'`);
  await until('no connection of the server to remain', async () => (await leftovers()).length === 0, 5_000).catch(async (error) => {
    throw new Error(`${error.message}: ${JSON.stringify(await leftovers())}`);
  });

  // the stuck transaction was rolled back, not committed once the lock went away
  await locker.query('ROLLBACK');
  const names = (await query<{ name: string }>(db.url, `SELECT name FROM "TeamRole" WHERE name IN ('Before the shutdown', 'Stuck on a lock')`)).map((r) => r.name);
  expect(names).toEqual(['Before the shutdown']);
});
