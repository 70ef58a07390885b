// The views section of `npm run bench` (BENCH_ONLY=views, or one scenario id below), on a platform server of its
// own (`svc start`) over a fresh database holding 10,000 records (scripts/seed-records.ts):
//   views-ics-feed     the calendar feed of a CALENDAR view over the 10,000 records (one all-day
//                      event each, last changed a day before), one request at a time: as clients
//                      poll it, after a record changed, after the view changed (every record read
//                      and written again), each p95 < 200 ms; answered 304 to its ETag (informational)
//   views-embed-page   the embedded page of a TABLE view, 25 rows a page (pages 1-40 of its
//                      records, sorted by name), 4 connections (p95 < 30 ms)
//   views-admin-list   GET /v1/data-views/admin-list of a team with 1,000 views, 25 a page, pages
//                      1-40, 4 connections (p95 < 20 ms)
import https from 'node:https';
import { createPool, createPrisma } from '../../../src/db/prisma.ts';
import { seedRecords, type SeedResult } from '../../seed-records.ts';
import { queryDatabase } from '../events/databases.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection, type BootstrappedTeam, type SectionBed } from '../section-bed.ts';

export const VIEW_SCENARIOS = ['views-ics-feed', 'views-embed-page', 'views-admin-list'] as const;
export type ViewScenario = (typeof VIEW_SCENARIOS)[number];

const RECORDS = 10_000;
const VIEWS = 1_000;
const FEED_REQUESTS = 60;
const NOT_MODIFIED_REQUESTS = 300;
const COLD_REQUESTS = 20;
const CONNECTIONS = 4;
const REQUESTS_PER_CONNECTION = 150;
const WARMUP = 10;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

/** HTTPS on keep-alive connections that trust the platform's certificate; any headers, any body type. */
class Client {
  private readonly agent: https.Agent;
  private readonly platform: PlatformProcess;
  private readonly apiKey: string;

  constructor(platform: PlatformProcess, apiKey: string, sockets: number) {
    this.platform = platform;
    this.apiKey = apiKey;
    this.agent = new https.Agent({ keepAlive: true, ca: platform.ca, maxSockets: sockets });
  }

  request(method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; anonymous?: boolean } = {}): Promise<Answer> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { ...options.headers };
    if (!options.anonymous) headers.authorization = `Bearer ${this.apiKey}`;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = https.request(`${this.platform.baseUrl}${path}`, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  async data(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await this.request(method, path, { body });
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return JSON.parse(answer.text).data;
  }

  close(): void {
    this.agent.destroy();
  }
}

interface Bed {
  section: SectionBed<ViewScenario>;
  api: Client;
  seed: SeedResult;
}

/** `requests` answers of `path` from `connections` lanes at once; each must have `status`. */
async function measure(api: Client, connections: number, perConnection: number, path: (lane: number, i: number) => string, status = 200, headers?: Record<string, string>): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: connections }, async (_, lane) => {
      for (let i = 0; i < perConnection; i++) {
        const url = path(lane, i);
        const answer = await api.request('GET', url, { headers, anonymous: !url.startsWith('/v1/') });
        if (answer.status !== status) throw new Error(`${url} answered ${answer.status}, expected ${status}: ${answer.text.slice(0, 300)}`);
        latencies.push(answer.ms);
      }
    }),
  );
  return latencies;
}

/** A view of the seeded collection, published, and its public access token of `tokenType`. */
async function sharedView(bed: Bed, body: Record<string, unknown>, tokenType: 'EMBED' | 'ICS_FEED'): Promise<{ view: string; path: string }> {
  const view = await bed.api.data('POST', '/v1/data-views', { dataCollectionSimplyId: bed.seed.collectionSimplyId, isPublished: true, ...body });
  if (tokenType === 'ICS_FEED') await bed.api.data('POST', `/v1/data-views/${view.id}/calendar-date-info-field-links`, { dataFieldSimplyId: bed.seed.fields.joined, label: 'Joined' });
  const token = await bed.api.data('POST', `/v1/data-views/${view.id}/public-access-tokens/${tokenType}`);
  return { view: view.id, path: new URL(token.url).pathname };
}

async function feedScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const f = bed.seed.fields;
  const { view, path } = await sharedView(bed, { name: 'Members joining', enumDataViewTypeId: 'CALENDAR', config: { columns: [f.first_name, f.last_name, f.status] } }, 'ICS_FEED');
  const first = await bed.api.request('GET', path, { anonymous: true });
  const events = (first.text.match(/BEGIN:VEVENT/g) ?? []).length;
  if (first.status !== 200 || events !== RECORDS) throw new Error(`the feed answered ${first.status} with ${events} events, expected ${RECORDS}`);
  const etag = String(first.headers.etag);
  // as calendar clients poll: the whole feed, gzip accepted, no If-None-Match (many send none)
  const polling = { 'accept-encoding': 'gzip' };
  for (let i = 0; i < WARMUP; i++) await bed.api.request('GET', path, { anonymous: true, headers: polling });
  const full = await measure(bed.api, 1, FEED_REQUESTS, () => path, 200, polling);
  const notModified = await measure(bed.api, 1, NOT_MODIFIED_REQUESTS, () => path, 304, { 'if-none-match': etag });
  // a record changes before each request: the feed is written anew from the changes
  const [record] = await bed.api.data('GET', `/v1/data-records?dataCollectionSimplyId=${bed.seed.collectionSimplyId}&limit=1`);
  const rewritten: number[] = [];
  for (let i = 0; i < COLD_REQUESTS; i++) {
    await bed.api.data('PATCH', `/v1/data-records/${record.id}`, { fields: { [f.status]: `changed ${i}` } });
    rewritten.push(...(await measure(bed.api, 1, 1, () => path, 200, polling)));
  }
  // the view changes before each request (a display field's label): every record is read and written again
  const [label] = (await bed.api.data('GET', `/v1/data-views/${view}/display-field-links`)) as { id: string }[];
  const whole: number[] = [];
  for (let i = 0; i < COLD_REQUESTS; i++) {
    await bed.api.data('PATCH', `/v1/data-views/${view}/display-field-links/${label!.id}`, { label: `First name ${i}` });
    whole.push(...(await measure(bed.api, 1, 1, () => path, 200, polling)));
  }
  const fullP95 = p95(full);
  const notModifiedP95 = p95(notModified);
  const rewrittenP95 = p95(rewritten);
  const wholeP95 = p95(whole);
  const bytes = Buffer.byteLength(first.text);
  summary.icsFeed = {
    records: RECORDS,
    events,
    bytes,
    full: { ...summarizeLatencies(full), p95: fullP95 },
    notModified: { ...summarizeLatencies(notModified), p95: notModifiedP95 },
    rewritten: { ...summarizeLatencies(rewritten), p95: rewrittenP95 },
    readWhole: { ...summarizeLatencies(whole), p95: wholeP95 },
  };
  lines.push(
    '',
    `views-ics-feed: a CALENDAR view over ${RECORDS.toLocaleString('en')} records (one all-day event each, 3 display fields), ${(bytes / 1024 / 1024).toFixed(1)} MB, one request at a time`,
    `  whole feed, unchanged since the last request (200, gzip): p50 ${ms(summarizeLatencies(full).p50)}, p95 ${ms(fullP95)} over ${full.length} requests`,
    `  If-None-Match (304): p50 ${ms(summarizeLatencies(notModified).p50)}, p95 ${ms(notModifiedP95)} over ${notModified.length} requests`,
    `  whole feed after a record changed (written from the changes): p50 ${ms(summarizeLatencies(rewritten).p50)}, p95 ${ms(rewrittenP95)} over ${rewritten.length} requests`,
    `  whole feed after the view changed (every record read and written): p50 ${ms(summarizeLatencies(whole).p50)}, p95 ${ms(wholeP95)} over ${whole.length} requests`,
  );
  targets.push(judged(`ICS feed of ${RECORDS.toLocaleString('en')} records as clients poll it, p95 < 200 ms`, ms(fullP95), fullP95 < 200));
  targets.push(judged(`ICS feed of ${RECORDS.toLocaleString('en')} records after a record changed, p95 < 200 ms`, ms(rewrittenP95), rewrittenP95 < 200));
  targets.push(judged(`ICS feed of ${RECORDS.toLocaleString('en')} records read and written whole (after a change of the view), p95 < 200 ms`, ms(wholeP95), wholeP95 < 200));
  targets.push(judged('ICS feed answered 304 to its ETag, p95 (informational)', ms(notModifiedP95), true, { informational: true }));
}

async function embedScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const f = bed.seed.fields;
  const { path } = await sharedView(
    bed,
    {
      name: 'Members',
      enumDataViewTypeId: 'TABLE',
      config: { columns: [f.first_name, f.last_name, f.email, f.status, f.amount, f.joined], sortOrder: [{ field: 'calculatedName', direction: 'asc' }] },
    },
    'EMBED',
  );
  const page = (lane: number, i: number) => `${path}?page=${1 + ((lane * 37 + i) % 40)}`;
  await measure(bed.api, CONNECTIONS, WARMUP, page);
  const loaded = await measure(bed.api, CONNECTIONS, REQUESTS_PER_CONNECTION, page);
  const alone = await measure(bed.api, 1, 100, (_lane, i) => page(0, i));
  const value = p95(loaded);
  summary.embedPage = { records: RECORDS, rowsPerPage: 25, connections: CONNECTIONS, ...summarizeLatencies(loaded), p95: value, aloneP50: summarizeLatencies(alone).p50, aloneP95: p95(alone) };
  lines.push(
    '',
    `views-embed-page: the embedded page of a TABLE view (6 columns, sorted by name) over ${RECORDS.toLocaleString('en')} records, 25 rows, pages 1-40, ${CONNECTIONS} connections, ${loaded.length} requests`,
    `  page: p50 ${ms(summarizeLatencies(loaded).p50)}, p95 ${ms(value)}, p99 ${ms(summarizeLatencies(loaded).p99)}`,
    `  one request at a time (informational): p50 ${ms(summarizeLatencies(alone).p50)}, p95 ${ms(p95(alone))}`,
  );
  targets.push(judged(`embedded view page of 25 rows, ${CONNECTIONS} connections, p95 < 30 ms`, ms(value), value < 30));
}

/** VIEWS views on the seeded collection, written straight to the table (a thousand API creations would each snapshot the schema). */
async function seedViews(section: SectionBed<ViewScenario>, boot: BootstrappedTeam, seed: SeedResult): Promise<void> {
  await queryDatabase(
    section.database.url,
    `INSERT INTO "DataView" ("simplyId", "teamId", "collectionId", name, "viewType", "isPublished", config, "updatedAt")
     -- ids in the platform's alphabet (no 0 or 1): md5 hex with those two swapped for G and H
     SELECT 'view-' || regexp_replace(translate(upper(substr(md5('bench-view' || g), 1, 12)), '01', 'GH'), '(.{4})(.{4})(.{4})', '\\1-\\2-\\3'),
            t.id, $2::bigint, to_jsonb('View ' || g), (ARRAY['LIST','TABLE','CALENDAR','DETAIL']::"DataViewType"[])[1 + g % 4], g % 3 = 0,
            jsonb_build_object('columns', jsonb_build_array($3::text), 'filters', '[]'::jsonb, 'sortOrder', '[]'::jsonb,
              'displayFieldLinks', jsonb_build_array(jsonb_build_object('id', 'vfl-' || regexp_replace(translate(upper(substr(md5('bench-link' || g), 1, 12)), '01', 'GH'), '(.{4})(.{4})(.{4})', '\\1-\\2-\\3'), 'dataFieldSimplyId', $3::text, 'label', null, 'aggregation', null))),
            now()
       FROM "Team" t, generate_series(1, $4::int) AS g
      WHERE t."simplyId" = $1`,
    [boot.teamSimplyId, String(seed.collectionId), seed.fields.first_name, VIEWS],
  );
  await queryDatabase(section.database.url, 'VACUUM ANALYZE "DataView"');
}

async function adminListScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const total: number = JSON.parse((await bed.api.request('GET', '/v1/data-views/admin-list?pageSize=1')).text).meta.pagination.total;
  if (total < VIEWS) throw new Error(`the admin list counts ${total} views, expected at least ${VIEWS}`);
  const page = (lane: number, i: number) => `/v1/data-views/admin-list?page=${1 + ((lane * 37 + i) % 40)}`;
  await measure(bed.api, CONNECTIONS, WARMUP, page);
  const loaded = await measure(bed.api, CONNECTIONS, REQUESTS_PER_CONNECTION, page);
  const alone = await measure(bed.api, 1, 100, (_lane, i) => page(0, i));
  const value = p95(loaded);
  summary.adminList = { views: total, pageSize: 25, connections: CONNECTIONS, ...summarizeLatencies(loaded), p95: value, aloneP50: summarizeLatencies(alone).p50, aloneP95: p95(alone) };
  lines.push(
    '',
    `views-admin-list: GET /v1/data-views/admin-list of a team with ${total.toLocaleString('en')} views, 25 a page, pages 1-40, ${CONNECTIONS} connections, ${loaded.length} requests`,
    `  list: p50 ${ms(summarizeLatencies(loaded).p50)}, p95 ${ms(value)}, p99 ${ms(summarizeLatencies(loaded).p99)}`,
    `  one request at a time (informational): p50 ${ms(summarizeLatencies(alone).p50)}, p95 ${ms(p95(alone))}`,
  );
  targets.push(judged(`view admin list with ${VIEWS.toLocaleString('en')} views, ${CONNECTIONS} connections, p95 < 20 ms`, ms(value), value < 20));
}

export const runViewsSection = (scenarios: readonly ViewScenario[], progress: (line: string) => void) =>
  runSection('views', scenarios, progress, async (section) => {
    const boot = await section.bootstrap('Bench views');
    progress(`views: seeding ${RECORDS.toLocaleString('en')} records`);
    const pool = createPool(section.database.url, 3, 'svc-bench-views');
    const prisma = createPrisma(pool);
    let seed: SeedResult;
    try {
      const team = await prisma.team.findUniqueOrThrow({ where: { simplyId: boot.teamSimplyId }, select: { id: true } });
      seed = await seedRecords(pool, prisma, team.id, RECORDS);
      // records last changed a day ago, as a calendar's records mostly are (not in the minute before the feed is read)
      await pool.query(`UPDATE "DataRecord" SET "createdAt" = "createdAt" - interval '1 day', "updatedAt" = "updatedAt" - interval '1 day' WHERE "teamId" = $1`, [team.id]);
      await pool.query(
        `UPDATE "DataRecordMembership" SET "recordCreatedAt" = "recordCreatedAt" - interval '1 day', "recordUpdatedAt" = "recordUpdatedAt" - interval '1 day' WHERE "teamId" = $1`,
        [team.id],
      );
      if (section.wants('views-admin-list')) await seedViews(section, boot, seed);
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
    const platform = await startPlatform(svcEnvironment({ ...section.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000' }));
    section.onCleanup(() => platform.stop());
    const api = new Client(platform, boot.apiKey, CONNECTIONS);
    section.onCleanup(() => api.close());
    const bed: Bed = { section, api, seed };
    await section.scenario('views-ics-feed', () => feedScenario(bed));
    await section.scenario('views-embed-page', () => embedScenario(bed));
    await section.scenario('views-admin-list', () => adminListScenario(bed));
  });

export const benchSection = defineBenchSection('views', VIEW_SCENARIOS, runViewsSection);
