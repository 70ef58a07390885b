// What every event scenario starts from: a fresh copy of the bootstrapped template database, the
// platform server on it (platform-process.ts) with the scenario's settings, the bench team's API
// key, and a collection of three fields to write records into. `close` stops the server and
// drops the database.
import { ApiClient } from './api-client.ts';
import type { EventDatabases, ScenarioDatabase } from './databases.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from './platform-process.ts';
import type { EventSettings } from './settings.ts';

export interface BenchTeam {
  teamId: bigint;
  teamSimplyId: string;
  userSimplyId: string;
  apiKey: string;
}

export interface BenchCollection {
  id: string;
  /** field simplyIds */
  fields: { name: string; email: string; amount: string };
}

/** What the section hands every scenario. */
export interface SectionContext {
  settings: EventSettings;
  databases: EventDatabases;
  /** bootstrapped once; scenarios run on copies */
  template: ScenarioDatabase;
  team: BenchTeam;
  /** the servers' DATA_DIR (certificate, signing keys), shared by every scenario */
  dataDir: string;
  progress(line: string): void;
  /** registers what an interrupted run must still stop; returns its unregistration */
  track(stop: () => Promise<void>): () => void;
}

export interface Bed {
  platform: PlatformProcess;
  api: ApiClient;
  database: ScenarioDatabase;
  collection: BenchCollection;
  close(): Promise<void>;
}

export async function openBed(ctx: SectionContext, label: string, settings: Record<string, string> = {}): Promise<Bed> {
  const database = await ctx.databases.copy(ctx.template, label);
  let platform: PlatformProcess | null = null;
  let api: ApiClient | null = null;
  let untrack = () => {};
  const close = async () => {
    untrack();
    api?.close();
    await platform?.stop();
    await database.drop();
  };
  untrack = ctx.track(close);
  try {
    platform = await startPlatform(svcEnvironment({ DATABASE_URL: database.url, DATA_DIR: ctx.dataDir, HOST: '127.0.0.1', PORT: '0', ...settings }));
    api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: ctx.team.apiKey, sockets: ctx.settings.writers });
    const created = await api.expect(201, 'POST', '/v1/data-collections', {
      name: `Bench ${label}`,
      fields: [
        { title: 'Name', dataType: 'PLAIN_TEXT', isRequired: true },
        { title: 'Email', dataType: 'EMAIL_ADDRESS' },
        { title: 'Amount', dataType: 'NUMBER' },
      ],
      dataRecordCalculatedNameFormula: '{name}',
    });
    const byColumn = Object.fromEntries((created.fields as { columnName: string; id: string }[]).map((f) => [f.columnName, f.id]));
    if (!byColumn.name || !byColumn.email || !byColumn.amount) throw new Error(`unexpected fields of the bench collection: ${JSON.stringify(created.fields)}`);
    ctx.progress(`  ${label}: server pid ${platform.pid} at ${platform.baseUrl} on database ${database.name}`);
    return { platform, api, database, collection: { id: created.id, fields: { name: byColumn.name, email: byColumn.email, amount: byColumn.amount } }, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

/** the fields of record number `i` */
export function recordFields(collection: BenchCollection, i: number): Record<string, unknown> {
  return { [collection.fields.name]: `Person ${i}`, [collection.fields.email]: `person-${i}@example.test`, [collection.fields.amount]: i };
}

export interface WriteStretch {
  requests: number;
  /** wall-clock ms (stats.ts wallClockMs) */
  firstSentAt: number;
  lastDoneAt: number;
  /** ms per request */
  latencies: number[];
}

/**
 * Writes `count` records through POST /v1/data-records/batch, `batchSize` per request, `writers`
 * requests in flight, each batch started no earlier than `recordsPerSecond` allows (0: at once);
 * every request must create all of its records.
 */
export async function writeRecords(bed: Bed, count: number, batchSize: number, writers: number, recordsPerSecond = 0): Promise<WriteStretch> {
  const batches = Array.from({ length: Math.ceil(count / batchSize) }, (_, b) =>
    Array.from({ length: Math.min(batchSize, count - b * batchSize) }, (_, i) => ({ fields: recordFields(bed.collection, b * batchSize + i) })),
  );
  const stretch: WriteStretch = { requests: 0, firstSentAt: Infinity, lastDoneAt: 0, latencies: [] };
  let next = 0;
  const start = performance.timeOrigin + performance.now();
  const lane = async () => {
    while (next < batches.length) {
      const index = next++;
      const records = batches[index]!;
      const due = recordsPerSecond > 0 ? start + ((index * batchSize) / recordsPerSecond) * 1000 : 0;
      const wait = due - (performance.timeOrigin + performance.now());
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const response = await bed.api.request('POST', '/v1/data-records/batch', { dataCollectionSimplyId: bed.collection.id, records });
      if (response.status !== 200 || response.body?.data?.created !== records.length) {
        throw new Error(`batch create: ${response.status} ${JSON.stringify(response.body).slice(0, 1000)}`);
      }
      stretch.requests++;
      stretch.firstSentAt = Math.min(stretch.firstSentAt, response.sentAt);
      stretch.lastDoneAt = Math.max(stretch.lastDoneAt, response.doneAt);
      stretch.latencies.push(response.doneAt - response.sentAt);
    }
  };
  await Promise.all(Array.from({ length: Math.min(writers, batches.length) }, lane));
  return stretch;
}

/** Polls `done` every `everyMs` until it is true or `deadline` (wall-clock ms) passes; true when done. */
export async function waitUntil(done: () => boolean | Promise<boolean>, deadline: number, everyMs = 100): Promise<boolean> {
  for (;;) {
    if (await done()) return true;
    if (performance.timeOrigin + performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
