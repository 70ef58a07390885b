// A worker process killed (SIGKILL) in the middle of an export: pg-boss hands the job to another
// worker once the heartbeat is missed, the export starts over under the same object key, and the
// starter gets one complete CSV (every record once, no half-written object, nothing duplicated).
// The doomed worker's storage stops taking the CSV part-way, so the kill lands mid-export.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { seedRecords } from '../../scripts/seed-records.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { adminOf, createTask, untilTaskDone } from '../support/background-task-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { startWorkerProcess } from '../support/worker-process.ts';

const RECORDS = 6000;
const until = untilWith({ timeoutMs: 30_000, everyMs: 20 });
const cleanups: (() => Promise<unknown>)[] = [];
let db: ThrowawayDatabase;

beforeAll(async () => {
  // the job must be taken by this file's workers only
  db = await createMigratedDatabase('data_export_crash');
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await db?.drop();
});

it('a worker killed mid-export is replaced and the starter gets one complete CSV', { timeout: 120_000 }, async () => {
  // one data folder for every process: the same storage folder and signing keys
  const dataDir = path.join(inject('testDataDir'), `export-crash-${randomBytes(4).toString('hex')}`);
  const server: TestServer = await startTestServer({ databaseUrl: db.url, runJobs: false, dataDir });
  cleanups.push(() => server.close());
  const team = await createTeam(server);
  const { prisma, pool } = server.app.services;
  const seeded = await seedRecords(pool, prisma, team.teamId, RECORDS);
  server.app.services.schemas.invalidate(team.teamId);

  const script = `
    import { pipeline, Transform } from 'node:stream';
    import { loadConfig } from ${JSON.stringify(new URL('../../src/main/config.ts', import.meta.url).href)};
    import { createServices } from ${JSON.stringify(new URL('../../src/main/services.ts', import.meta.url).href)};
    import { createLogger } from ${JSON.stringify(new URL('../../src/app/logger.ts', import.meta.url).href)};
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: process.env.DATA_DIR, LOG_LEVEL: 'silent' });
    const services = await createServices({ config, databaseUrl: process.env.DATABASE_URL, migrate: false, logger: createLogger('silent'), jobPollingIntervalSeconds: 0.5 });
    // this worker's storage takes the first part of the CSV and then stops taking more, so it is
    // still exporting (part-way, for as long as the test needs) when it is killed
    const write = services.fileStorage.write.bind(services.fileStorage);
    services.fileStorage.write = (key, body, options) => {
      let taken = 0;
      const slow = new Transform({ transform(chunk, _encoding, done) { taken += chunk.length; if (taken < 320_000) done(null, chunk); } });
      pipeline(body, slow, () => {});
      return write(key, slow, options);
    };
    await services.jobs.start({ work: true });
    process.stdout.write('working\\n');
  `;
  const doomed = await startWorkerProcess(script, { DATABASE_URL: db.url, DATA_DIR: dataDir }, cleanups);

  const admin = adminOf(team);
  const fields = Object.values(seeded.fields);
  const created = await createTask(server, admin, 'DATA_EXPORT', { dataCollectionSimplyId: seeded.collectionSimplyId, dataFieldSimplyIds: fields, systemColumns: ['RECORD_SIMPLY_ID'] });
  const where = { teamId_simplyId: { teamId: team.teamId, simplyId: created.backgroundTaskSimplyId } };
  await until('the doomed worker to be part-way through the export', async () => {
    const row = await prisma.backgroundTask.findUniqueOrThrow({ where });
    const progress = row.progress as { processedCount?: number; totalCount?: number };
    // records read and handed to the storage, which never finishes the object: the kill lands mid-export
    return row.status === 'PROCESSING' && (progress.processedCount ?? 0) > 0;
  });
  doomed.child.kill('SIGKILL');
  expect(await doomed.exited).toBe('SIGKILL');
  const killed = await prisma.backgroundTask.findUniqueOrThrow({ where });
  expect(killed.status).toBe('PROCESSING');
  expect((killed.internal as Record<string, unknown>).resultFile).toBeUndefined();

  // the restart: an instance with workers notices the dead worker's job and runs it again
  const restarted = await startTestServer({ databaseUrl: db.url, runJobs: true, dataDir });
  cleanups.push(() => restarted.close());
  const task = await untilTaskDone(server, admin, created.backgroundTaskSimplyId);
  expect(task.status, JSON.stringify(task.errors)).toBe('COMPLETED');
  expect(task.result).toMatchObject({ recordCount: RECORDS });
  expect(task.progress).toEqual({ processedCount: RECORDS, totalCount: RECORDS });
  expect((await prisma.backgroundTask.findUniqueOrThrow({ where })).attempts).toBe(2);

  const link = expectOk(await server.request('GET', `/v1/background-tasks/${created.backgroundTaskSimplyId}/result-download`, { token: admin.token, teamId: admin.teamId }));
  const response = await undiciFetch(link.url, { dispatcher: new Agent({ connect: { ca: server.ca || undefined } }) });
  expect(response.status).toBe(200);
  const rows = parse(Buffer.from(await response.arrayBuffer()).toString('utf8')) as string[][];
  expect(rows).toHaveLength(RECORDS + 1);
  const ids = rows.slice(1).map((r) => r[0]);
  const stored = await pool.query(`SELECT "simplyId" FROM "DataRecord" WHERE "teamId" = $1 ORDER BY id`, [team.teamId]);
  expect(ids).toEqual(stored.rows.map((r) => r.simplyId));
  // one object in the team's export folder: the retry overwrote the key, nothing half-written stays
  const exportsDir = path.join(dataDir, 'files', 'teams', team.teamSimplyId, 'exports');
  expect(fs.readdirSync(exportsDir).filter((name) => !name.endsWith('.meta.json'))).toHaveLength(1);
});
