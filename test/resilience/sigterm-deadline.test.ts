// SIGTERM with slow requests in flight, through the real `svc start`: the process exits within
// SHUTDOWN_TIMEOUT_MS + SHUTDOWN_MARGIN_MS (one deadline for requests, jobs and the pool), a
// request that finishes in time is answered, a transaction still running at the deadline is
// rolled back, and no connection of the process is left in pg_stat_activity.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { SHUTDOWN_MARGIN_MS } from '../../src/app/server.ts';
import { query, type ThrowawayDatabase } from '../db/helpers.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { cleanEnv, runSvc, SVC, ROOT } from '../support/svc-cli.ts';
import { untilWith } from '../support/until.ts';

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

interface Answer {
  status: number;
  body: any;
}

/** A POST whose body the test sends in two parts; `started` once the server is handling it (100 Continue). */
function twoPartPost(baseUrl: string, ca: string, urlPath: string, token: string, body: string) {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const req = https.request(new URL(urlPath, baseUrl), {
    method: 'POST',
    ca,
    agent: false,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', expect: '100-continue', 'transfer-encoding': 'chunked' },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('continue', () => {
      req.write(body.slice(0, 3));
      markStarted();
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
  });
  answer.catch(() => {});
  return { started, finish: () => req.end(body.slice(3)), answer };
}

function post(baseUrl: string, ca: string, urlPath: string, token: string, body: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(urlPath, baseUrl), { method: 'POST', ca, agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

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

  const child = spawn(process.execPath, [SVC, 'start'], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const baseUrl = await until('the server to be ready', () => /ready at (\S+)/.exec(stdout)?.[1] ?? (child.exitCode !== null && Promise.reject(new Error(stderr))));
  const ca = fs.readFileSync(path.join(dataDir, 'tls', 'self-signed-cert.pem'), 'utf8');
  expect((await post(baseUrl, ca, '/v1/team-roles', apiKey, { name: 'Before the shutdown' })).status).toBe(201);

  // a write whose transaction waits for a lock the test holds: still running at the deadline
  const locker = new pg.Client({ connectionString: db.url });
  await locker.connect();
  cleanups.push(() => locker.end());
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE "TeamRole" IN SHARE MODE');
  const stuck = post(baseUrl, ca, '/v1/team-roles', apiKey, { name: 'Stuck on a lock' });
  stuck.catch(() => {});
  await until('the write to wait for the lock', async () => {
    const rows = await query(db.url, `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc' AND wait_event_type = 'Lock'`);
    return rows.length > 0;
  });
  // a slow request that completes during the drain (it needs no lock the test holds)
  const slow = twoPartPost(baseUrl, ca, '/v1/session-tokens', apiKey, JSON.stringify({ expiresInMinutes: 30 }));
  await slow.started;

  const signalledAt = Date.now();
  child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  slow.finish();
  const finished = await slow.answer;
  expect(finished.status, JSON.stringify(finished.body)).toBe(201);

  const { code, at } = await exited;
  const took = at - signalledAt;
  expect(code, stderr).toBe(0);
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
