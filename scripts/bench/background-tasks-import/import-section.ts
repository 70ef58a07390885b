// The import and bulk-delete section of `npm run bench` (docs/benchmark.md "Background tasks"), on a platform server of
// its own (`svc start`, job workers in the server, local storage) over a fresh database:
//   tasks-import       a 100,000-row CSV (10 columns: text, email, number, decimal, money, date,
//                      boolean, URL) uploaded as a file and imported by a BULK_DATA_IMPORT task
//                      (CREATE): from POST /v1/background-tasks to COMPLETED < 60 s. The import
//                      limits are raised for it (IMPORT_MAX_ROWS, IMPORT_MAX_BYTES; the
//                      documented defaults are 5000 rows and 5 MB).
//   tasks-bulk-delete  10,000 of those records deleted by a BULK_DELETE task (by ids): from POST
//                      to COMPLETED < 10 s.
// Both go through the records service as the API does: value layer, audit entries, record events
// (one bulk-synced event per chunk). The server's RSS growth is reported, not judged.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ApiClient } from '../events/api-client.ts';
import { untilTaskFinished } from '../background-tasks/finished-task.ts';
import { queryDatabase } from '../events/databases.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { watchRss } from '../events/process-meter.ts';
import { judged } from '../events/results.ts';
import { postFormFromFile } from '../files/multipart-post.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection } from '../section-bed.ts';

export const IMPORT_SCENARIOS = ['tasks-import', 'tasks-bulk-delete'] as const;
export type ImportScenario = (typeof IMPORT_SCENARIOS)[number];

const MIB = 1024 * 1024;
const ROWS = 100_000;
const DELETED = 10_000;
const IMPORT_TARGET_MS = 60_000;
const DELETE_TARGET_MS = 10_000;
const CITIES = ['Berlin', 'Paris', 'Lisbon', 'Oslo', 'Rome', 'Vienna', 'Dublin', 'Prague'];

const FIELDS = [
  { title: 'Name', columnName: 'name', dataType: 'PLAIN_TEXT', isRequired: true },
  { title: 'Email', columnName: 'email', dataType: 'EMAIL_ADDRESS' },
  { title: 'City', columnName: 'city', dataType: 'PLAIN_TEXT' },
  { title: 'Age', columnName: 'age', dataType: 'NUMBER' },
  { title: 'Score', columnName: 'score', dataType: 'DECIMAL', config: { scale: 2 } },
  { title: 'Amount', columnName: 'amount', dataType: 'MONEY', config: { currency: 'EUR' } },
  { title: 'Joined', columnName: 'joined', dataType: 'DATE' },
  { title: 'Active', columnName: 'active', dataType: 'BOOLEAN' },
  { title: 'Site', columnName: 'site', dataType: 'URL' },
  { title: 'Note', columnName: 'note', dataType: 'PLAIN_TEXT' },
];

/** The CSV: a header and ROWS rows of the ten columns (about 9 MB). */
function writeCsv(file: string): number {
  const lines = ['name,email,city,age,score,amount,joined,active,site,note'];
  for (let i = 0; i < ROWS; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    lines.push(`Person ${i},p${i}@example.org,${CITIES[i % CITIES.length]},${18 + (i % 60)},${(i % 1000) / 100},${i % 500}.50,2024-03-${day},${i % 2 === 0},https://e.org/${i},"n, ${i}"`);
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return fs.statSync(file).size;
}

/** A signed-in member's calls: background tasks refuse API keys, the team goes in the query. */
function asMember(api: ApiClient, teamSimplyId: string) {
  return (method: string, route: string, body?: unknown) => api.request(method, `${route}${route.includes('?') ? '&' : '?'}teamSimplyId=${teamSimplyId}`, body);
}

export const runImportSection = (scenarios: readonly ImportScenario[], progress: (line: string) => void) =>
  runSection('import', scenarios, progress, async (bed) => {
    const { root, database, lines, targets, summary } = bed;
    let platform: PlatformProcess | null = null;
    bed.onCleanup(() => platform?.stop());
    // one stretch: each step needs the one before, and the delete deletes what the import made
    await bed.guard('import section', async () => {
      const team = await bed.bootstrap('Bench import');
      platform = await startPlatform(svcEnvironment({ ...bed.env, IMPORT_MAX_ROWS: String(ROWS), IMPORT_MAX_BYTES: String(10 * MIB) }));
      progress(`import: server ${platform.baseUrl} (pid ${platform.pid})`);
      const admin = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: team.apiKey, sockets: 2 });
      const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: team.userToken, sockets: 2 });
      const member = asMember(api, team.teamSimplyId);

      const collection = (await admin.expect(201, 'POST', '/v1/data-collections', { name: 'Imported people', dataRecordCalculatedNameFormula: '{name}', fields: FIELDS })) as { id: string; fields: { id: string; columnName: string }[] };
      const mapping = collection.fields.map((f) => ({ column: f.columnName, dataFieldSimplyId: f.id }));

      const csv = path.join(root, 'people.csv');
      const bytes = writeCsv(csv);
      const checksum = createHash('sha256').update(fs.readFileSync(csv)).digest('base64');
      const intent = await member('POST', '/v1/file-uploads', { filename: 'people.csv', contentType: 'text/csv', fileSizeBytes: bytes, checksumSha256: checksum });
      if (intent.status !== 201) throw new Error(`upload intent answered ${intent.status}: ${JSON.stringify(intent.body)}`);
      const upload = intent.body.data;
      const posted = await postFormFromFile({ url: upload.upload.url, fields: upload.upload.fields, file: csv, contentType: 'text/csv', ca: platform.ca });
      if (posted.status >= 300) throw new Error(`upload answered ${posted.status}: ${posted.text}`);
      let status = (await member('POST', `/v1/file-uploads/${upload.fileUploadSimplyId}/complete`)).body.data;
      while (status.status === 'PENDING') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await member('GET', `/v1/file-uploads/${upload.fileUploadSimplyId}`)).body.data;
      }
      if (status.status !== 'COMPLETED') throw new Error(`the CSV upload ended ${status.status}`);

      if (scenarios.includes('tasks-import') || scenarios.includes('tasks-bulk-delete')) {
        progress(`import: ${ROWS.toLocaleString('en')} rows (${(bytes / MIB).toFixed(1)} MiB) through BULK_DATA_IMPORT`);
        const rss = watchRss(platform.pid, 100);
        const before = rss.stop().lastBytes ?? 0;
        const during = watchRss(platform.pid, 100);
        const started = performance.now();
        const created = await member('POST', '/v1/background-tasks', { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: status.fileSimplyId, dataCollectionSimplyId: collection.id, mapping } });
        if (created.status !== 201) throw new Error(`import task answered ${created.status}: ${JSON.stringify(created.body)}`);
        const createMs = performance.now() - started;
        const task = await untilTaskFinished(api, team.teamSimplyId, created.body.data.backgroundTaskSimplyId, 5 * IMPORT_TARGET_MS);
        const ms = performance.now() - started;
        const growth = (during.stop().maxBytes ?? before) - before;
        if (task.status !== 'COMPLETED' || task.result.recordsCreated !== ROWS) throw new Error(`the import ended ${task.status}: ${JSON.stringify(task.result)} ${JSON.stringify(task.errors?.slice(0, 3))}`);
        summary.import = { rows: ROWS, bytes, ms, createMs, rowsPerSecond: ROWS / (ms / 1000), rssGrowthBytes: growth, result: task.result };
        lines.push(
          '',
          `tasks-import: a ${ROWS.toLocaleString('en')}-row CSV (10 columns, ${(bytes / MIB).toFixed(1)} MiB) imported by BULK_DATA_IMPORT (CREATE, chunks of 500)`,
          `  POST → COMPLETED ${(ms / 1000).toFixed(1)} s (${Math.round(ROWS / (ms / 1000)).toLocaleString('en')} rows/s; the POST itself, which reads and counts the file, ${createMs.toFixed(0)} ms); server RSS growth ${(growth / MIB).toFixed(0)} MiB`,
        );
        targets.push(judged(`import of ${ROWS.toLocaleString('en')} rows < ${IMPORT_TARGET_MS / 1000} s`, `${(ms / 1000).toFixed(1)} s`, ms < IMPORT_TARGET_MS));
      }

      if (scenarios.includes('tasks-bulk-delete')) {
        const ids = (
          await queryDatabase<{ simplyId: string }>(
            database.url,
            `SELECT r."simplyId" FROM "DataRecord" r JOIN "DataCollection" c ON c."teamId" = r."teamId" AND c.id = r."collectionId"
              WHERE c."simplyId" = $1 AND r."deletedAt" IS NULL ORDER BY r.id LIMIT $2`,
            [collection.id, DELETED],
          )
        ).map((r) => r.simplyId);
        progress(`import: deleting ${ids.length.toLocaleString('en')} records through BULK_DELETE`);
        const started = performance.now();
        const created = await member('POST', '/v1/background-tasks', { enumBackgroundTaskTypeId: 'BULK_DELETE', queueData: { dataCollectionSimplyId: collection.id, dataRecordSimplyIds: ids } });
        if (created.status !== 201) throw new Error(`delete task answered ${created.status}: ${JSON.stringify(created.body)}`);
        const task = await untilTaskFinished(api, team.teamSimplyId, created.body.data.backgroundTaskSimplyId, 10 * DELETE_TARGET_MS);
        const ms = performance.now() - started;
        if (task.status !== 'COMPLETED' || task.result.successCount !== DELETED) throw new Error(`the bulk delete ended ${task.status}: ${JSON.stringify(task.result)}`);
        summary.bulkDelete = { records: DELETED, ms, result: task.result };
        lines.push('', `tasks-bulk-delete: ${DELETED.toLocaleString('en')} records deleted by BULK_DELETE (by ids, chunks of 1000, a RecordTaskLink per record)`, `  POST → COMPLETED ${(ms / 1000).toFixed(2)} s`);
        targets.push(judged(`bulk delete of ${DELETED.toLocaleString('en')} records < ${DELETE_TARGET_MS / 1000} s`, `${(ms / 1000).toFixed(2)} s`, ms < DELETE_TARGET_MS));
      }
    }, () => platform?.outputTail());
  });

export const benchSection = defineBenchSection('background-tasks-import', IMPORT_SCENARIOS, runImportSection);
