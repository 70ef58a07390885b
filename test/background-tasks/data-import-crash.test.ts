// A worker process killed (SIGKILL) in the middle of an import: pg-boss hands the job to another
// worker once the heartbeat is missed, and the import redoes only the chunks that had not committed
// (each chunk's records, row errors and its note on the task commit together). Every row becomes
// exactly one record, the counts are those of one uninterrupted run, and each chunk's events exist
// once. The doomed worker reads its file slowly (the storage stream is throttled) so the kill
// lands mid-import, with chunks committed and others not.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { adminOf, createTask, untilTaskDone } from '../support/background-task-fixtures.ts';
import { createCollection, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { createTeam } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { startWorkerProcess } from '../support/worker-process.ts';
import { eventCountsSince, lastEventId, liveRecords, taskErrors, uploadCsv } from './data-import-support.ts';

const ROWS = 5000;
const until = untilWith({ timeoutMs: 30_000, everyMs: 20 });
const cleanups: (() => Promise<unknown>)[] = [];
let db: ThrowawayDatabase;

beforeAll(async () => {
  // the job must be taken by this file's workers only
  db = await createMigratedDatabase('data_import_crash');
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await db?.drop();
});

it('a worker killed mid-import is replaced and the import resumes without duplicating a row', { timeout: 120_000 }, async () => {
  const dataDir = path.join(inject('testDataDir'), `import-crash-${randomBytes(4).toString('hex')}`);
  const env = { IMPORT_MAX_ROWS: ROWS };
  const server: TestServer = await startTestServer({ databaseUrl: db.url, runJobs: false, dataDir, env });
  cleanups.push(() => server.close());
  const team = await createTeam(server);
  const admin = adminOf(team);
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: REQUIRED_TEXT, n: 'NUMBER' } });

  const script = `
    import { Readable } from 'node:stream';
    import { loadConfig } from ${JSON.stringify(new URL('../../src/main/config.ts', import.meta.url).href)};
    import { createServices } from ${JSON.stringify(new URL('../../src/main/services.ts', import.meta.url).href)};
    import { createLogger } from ${JSON.stringify(new URL('../../src/app/logger.ts', import.meta.url).href)};
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: process.env.DATA_DIR, LOG_LEVEL: 'silent', IMPORT_MAX_ROWS: process.env.IMPORT_MAX_ROWS });
    const services = await createServices({ config, databaseUrl: process.env.DATABASE_URL, migrate: false, logger: createLogger('silent'), jobPollingIntervalSeconds: 0.5 });
    // this worker reads CSV files slowly (1 KiB every 25 ms), so that it is still importing when it is killed
    const read = services.fileStorage.read.bind(services.fileStorage);
    services.fileStorage.read = async (key) => {
      const source = await read(key);
      async function* slow() {
        for await (const chunk of source) {
          for (let at = 0; at < chunk.length; at += 1024) {
            await new Promise((resolve) => setTimeout(resolve, 25));
            yield chunk.subarray(at, at + 1024);
          }
        }
      }
      return Readable.from(slow());
    };
    await services.jobs.start({ work: true });
    process.stdout.write('working\\n');
  `;
  const doomed = await startWorkerProcess(script, { DATABASE_URL: db.url, DATA_DIR: dataDir, IMPORT_MAX_ROWS: String(ROWS) }, cleanups);

  const lines = Array.from({ length: ROWS }, (_, i) => `Person ${i},${i}`);
  // the last row is invalid: its error must be reported once, not once per attempt
  lines[ROWS - 1] = `Broken,not a number`;
  const fileSimplyId = await uploadCsv(server, admin, `name,n\n${lines.join('\n')}\n`);
  const since = await lastEventId(server, team.teamId);
  const created = await createTask(server, admin, 'BULK_DATA_IMPORT', {
    fileSimplyId,
    dataCollectionSimplyId: people.id,
    mapping: [
      { column: 'name', dataFieldSimplyId: people.fields.name },
      { column: 'n', dataFieldSimplyId: people.fields.n },
    ],
  });
  const { prisma } = server.app.services;
  const where = { teamId_simplyId: { teamId: team.teamId, simplyId: created.backgroundTaskSimplyId } };
  await until('the doomed worker to be part-way through the import', async () => {
    const row = await prisma.backgroundTask.findUniqueOrThrow({ where });
    const processed = (row.progress as { processedCount?: number }).processedCount ?? 0;
    return row.status === 'PROCESSING' && processed >= 1000 && processed < ROWS - 1000;
  });
  doomed.child.kill('SIGKILL');
  expect(await doomed.exited).toBe('SIGKILL');
  const killed = await prisma.backgroundTask.findUniqueOrThrow({ where });
  expect(killed.status).toBe('PROCESSING');
  // what the killed worker committed: whole chunks (their records with their note on the task), nothing half-written
  const chunks = Object.entries(killed.internal as Record<string, { counts: { created: number }; complete: boolean }>).filter(([key]) => key.startsWith('importChunk'));
  expect(chunks.length).toBeGreaterThan(0);
  for (const [, chunk] of chunks) expect(chunk).toMatchObject({ complete: true, counts: { created: 500 } });
  expect(await liveRecords(server, team.teamId, people.id)).toHaveLength(chunks.length * 500);

  const restarted = await startTestServer({ databaseUrl: db.url, runJobs: true, dataDir, env });
  cleanups.push(() => restarted.close());
  const task = await untilTaskDone(server, admin, created.backgroundTaskSimplyId);
  expect(task).toMatchObject({
    status: 'PARTIAL_SUCCESS',
    errorCount: 1,
    result: { recordCount: ROWS, recordsCreated: ROWS - 1, successCount: ROWS - 1, failureCount: 1 },
    progress: { processedCount: ROWS, totalCount: ROWS },
  });
  expect((await prisma.backgroundTask.findUniqueOrThrow({ where })).attempts).toBe(2);

  const records = await liveRecords(server, team.teamId, people.id);
  expect(records).toHaveLength(ROWS - 1);
  const numbers = records.map((r) => r.values[people.fields.n!] as number).sort((a, b) => a - b);
  expect(numbers).toEqual(Array.from({ length: ROWS - 1 }, (_, i) => i));
  expect((await taskErrors(server, created.backgroundTaskSimplyId)).map((e) => e.errorContext.rowNumber)).toEqual([ROWS]);
  // one bulk-synced event per chunk, none repeated by the second attempt
  expect(await eventCountsSince(server, team.teamId, since)).toMatchObject({ DATA_RECORD_CREATED: ROWS - 1, DATA_RECORDS_BULK_SYNCED: ROWS / 500 });
});
