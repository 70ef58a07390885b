// An API server killed with SIGKILL in the middle of a batch record write (its transaction has
// inserted the records and waits for a lock the test holds): the batch is not committed at all,
// the batches it had answered are complete, another instance serves normally, and every event of
// the committed writes is dispatched from the outbox (none lost, none for the killed batch).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { query, type ThrowawayDatabase } from '../db/helpers.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { startWorkerProcess } from '../support/worker-process.ts';

const BATCH = 25;
const until = untilWith({ timeoutMs: 20_000, everyMs: 100 });
const cleanups: (() => Promise<unknown>)[] = [];
let db: ThrowawayDatabase;

beforeAll(async () => {
  // its own outbox and queues: only this file's workers dispatch its events
  db = await createMigratedDatabase('api_sigkill');
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await db?.drop();
});

it('a batch write cut by SIGKILL is all or nothing; committed writes keep their events', { timeout: 120_000 }, async () => {
  // one data folder for both instances: the same signing key and TLS certificate
  const dataDir = path.join(inject('testDataDir'), `api-sigkill-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  // the surviving instance, with the job workers (the outbox dispatcher among them)
  const survivor: TestServer = await startTestServer({ databaseUrl: db.url, dataDir, runJobs: true });
  cleanups.push(() => survivor.close());
  const team = await createTeam(survivor);
  const people = await createCollection(survivor, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  const name = people.fields.name!;

  // the doomed instance: an API server in a process of its own, running no workers
  const script = `
    import { loadConfig } from ${JSON.stringify(new URL('../../src/main/config.ts', import.meta.url).href)};
    import { startApp } from ${JSON.stringify(new URL('../../src/main/server.ts', import.meta.url).href)};
    import { createLogger } from ${JSON.stringify(new URL('../../src/app/logger.ts', import.meta.url).href)};
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: process.env.DATA_DIR, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent' });
    const app = await startApp({ config, databaseUrl: process.env.DATABASE_URL, migrate: false, runJobs: false, logger: createLogger('silent') });
    process.stdout.write('working ' + app.baseUrl + '\\n');
  `;
  const doomed = await startWorkerProcess(script, { DATABASE_URL: db.url, DATA_DIR: dataDir }, cleanups);
  const baseUrl = /working (\S+)/.exec(doomed.stdout())![1]!;
  const dispatcher = new Agent({ connect: { ca: survivor.ca } });
  cleanups.push(() => dispatcher.close());
  const batchWrite = (tag: string) =>
    fetch(`${baseUrl}/v1/data-records/batch`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: `Bearer ${team.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dataCollectionSimplyId: people.id, records: Array.from({ length: BATCH }, (_, i) => ({ fields: { [name]: `${tag} #${i}` } })) }),
    });

  // batches the doomed server answered: committed, each with its events in the outbox
  const committed = ['first', 'second', 'third'];
  for (const tag of committed) {
    const response = await batchWrite(tag);
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json() as any).data.created).toBe(BATCH);
  }

  // the next batch inserts its records, then waits for the audit log, which the test has locked
  const locker = new pg.Client({ connectionString: db.url });
  await locker.connect();
  cleanups.push(() => locker.end());
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE "AuditLogEntry" IN SHARE MODE');
  const cut = batchWrite('cut');
  cut.catch(() => {});
  const waiting = await until('the batch write to wait for the lock', async () => {
    const rows = await query<{ pid: number }>(db.url, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO "AuditLogEntry"%'`);
    return rows[0];
  });
  doomed.child.kill('SIGKILL');
  expect(await doomed.exited).toBe('SIGKILL');
  await expect(cut).rejects.toThrow();
  await locker.query('ROLLBACK');
  // the killed server's backend notices its client is gone once it can go on, and rolls back
  await until('the killed write to end', async () => (await query(db.url, 'SELECT 1 FROM pg_stat_activity WHERE pid = $1', [waiting.pid])).length === 0);

  const countOf = async (tag: string) =>
    Number((await query<{ n: string }>(db.url, `SELECT count(*) AS n FROM "DataRecord" WHERE "collectionId" = $1 AND "calculatedName" LIKE $2`, [people.internalId, `${tag} #%`]))[0]!.n);
  expect(await countOf('cut')).toBe(0);
  for (const tag of committed) expect(await countOf(tag)).toBe(BATCH);

  // the other instance serves as usual, and its write nudges the dispatcher
  const later = expectOk(await survivor.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [name]: 'later #0' } } }), 201);
  const listed = expectOk(await survivor.request('GET', `/v1/data-records?dataCollectionSimplyId=${people.id}&limit=100`, { token: team.apiKey }));
  expect(listed).toHaveLength(committed.length * BATCH + 1);
  expect(listed.map((r: { id: string }) => r.id)).toContain(later.id);

  // every committed record has exactly one CREATED event, all dispatched; the cut batch has none
  const events = () =>
    query<{ recordId: string; dispatched: boolean }>(
      db.url,
      `SELECT payload->'data'->>'id' AS "recordId", "dispatchedAt" IS NOT NULL AS dispatched FROM "DomainEvent" WHERE "teamId" = $1 AND "eventType" = 'DATA_RECORD_CREATED'`,
      [team.teamId],
    );
  await until('every event to be dispatched', async () => (await events()).every((e) => e.dispatched));
  const recordIds = (await query<{ simplyId: string }>(db.url, `SELECT "simplyId" FROM "DataRecord" WHERE "collectionId" = $1`, [people.internalId])).map((r) => r.simplyId);
  expect((await events()).map((e) => e.recordId).sort()).toEqual(recordIds.sort());
});
