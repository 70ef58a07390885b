// The communications section of `npm run bench` (docs/benchmark.md "Communication history"), on a
// platform server of its own (`svc start`) over a fresh database:
//   communications-list  GET /v1/data-records/{id}/communications for a team with 100,000
//                        deliveries over 1,000 records (five with 8,000 each, the rest about 60),
//                        10 connections: first pages of any record, and keyset pages deep into
//                        the largest histories (p95 < 20 ms each)
// The deliveries are written straight into the table (one INSERT … SELECT), as the history writer
// would have left them; the reads go through the REST route like any integration's.
import { ApiClient } from '../events/api-client.ts';
import { queryDatabase, type ScenarioDatabase } from '../events/databases.ts';
import { startPlatform, svcEnvironment } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { historyPageStatement } from '../../../src/modules/communications/communications.sql.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection, type BootstrappedTeam, type SectionBed } from '../section-bed.ts';

export const COMMUNICATION_SCENARIOS = ['communications-list'] as const;
export type CommunicationScenario = (typeof COMMUNICATION_SCENARIOS)[number];

const DELIVERIES = 100_000;
const RECORDS = 1_000;
const HEAVY_RECORDS = 5;
const PER_HEAVY = 8_000;
const CONNECTIONS = 10;
const REQUESTS_PER_CONNECTION = 100;
const PAGE = 25;
const TARGET_MS = 20;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;
const fixed = (ms: number) => ms.toFixed(1);

/** `count` records in a collection of their own, through the batch route; their simplyIds in creation order. */
async function createRecords(api: ApiClient, count: number): Promise<string[]> {
  const collection = await api.request('POST', '/v1/data-collections', {
    name: 'Bench constituents',
    fields: [
      { title: 'Name', dataType: 'PLAIN_TEXT', isRequired: true },
      { title: 'Email', dataType: 'EMAIL_ADDRESS' },
    ],
    dataRecordCalculatedNameFormula: '{name}',
  });
  if (collection.status !== 201) throw new Error(`collection: ${collection.status} ${JSON.stringify(collection.body).slice(0, 500)}`);
  const fields = Object.fromEntries((collection.body.data.fields as { columnName: string; id: string }[]).map((f) => [f.columnName, f.id]));
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const records = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({ fields: { [fields.name!]: `Constituent ${start + i}`, [fields.email!]: `c${start + i}@example.test` } }));
    const response = await api.request('POST', '/v1/data-records/batch', { dataCollectionSimplyId: collection.body.data.id, records });
    if (response.status !== 200) throw new Error(`batch create: ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
    for (const result of response.body.data.results as { dataRecordSimplyId: string }[]) ids.push(result.dataRecordSimplyId);
  }
  return ids;
}

/**
 * The deliveries: the first 40,000 go to the five heavy records, the rest round-robin over the
 * others; one second apart (newest last), with a realistic row width (content, addresses).
 */
async function seedDeliveries(database: ScenarioDatabase, teamSimplyId: string, heavy: readonly string[]): Promise<void> {
  await queryDatabase(
    database.url,
    `WITH team AS (SELECT id FROM "Team" WHERE "simplyId" = $1),
          heavy AS (SELECT r.id, ord - 1 AS n FROM unnest($2::text[]) WITH ORDINALITY AS h(simply_id, ord)
                      JOIN "DataRecord" r ON r."simplyId" = h.simply_id AND r."teamId" = (SELECT id FROM team)),
          light AS (SELECT r.id, row_number() OVER (ORDER BY r.id) - 1 AS n FROM "DataRecord" r
                     WHERE r."teamId" = (SELECT id FROM team) AND r."simplyId" <> ALL($2::text[])),
          light_count AS (SELECT count(*) AS c FROM light)
     INSERT INTO "ConstituentMessageDelivery" ("simplyId", "teamId", "dataRecordId", "sourceType", "sourceSimplyId", "channelId", "currentStateId",
                                               sensitivity, "hasProtectedContent", "attachmentCount", destination, "senderAddress",
                                               "renderedSubject", "renderedText", "renderedHtml", "createdAt", "stateChangedAt")
     -- ids in the platform's alphabet (no 0 or 1): md5 hex with those two swapped for G and H
     SELECT 'cmd-' || regexp_replace(translate(upper(substr(md5('delivery' || g), 1, 12)), '01', 'GH'), '(.{4})(.{4})(.{4})', '\\1-\\2-\\3'),
            (SELECT id FROM team),
            CASE WHEN g < $3 THEN (SELECT id FROM heavy WHERE n = g % $4) ELSE (SELECT id FROM light WHERE n = g % (SELECT c FROM light_count)) END,
            (ARRAY['MESSAGE_COMPOSER','AUTOMATION','CONSTITUENT_AUTHENTICATION'])[1 + g % 3], NULL,
            CASE WHEN g % 10 = 0 THEN 'SMS' ELSE 'EMAIL' END,
            (ARRAY['SENT','DELIVERED','DELIVERED','DELIVERED','BOUNCED','QUEUED','FAILED'])[1 + g % 7],
            CASE WHEN g % 20 = 0 THEN 'SENSITIVE' ELSE 'STANDARD' END, true, g % 3 / 2,
            'person-' || g || '@example.test', 'news@bench.test', 'Newsletter ' || g, repeat('Body text of delivery ' || g || '. ', 8),
            '<p>' || repeat('Body text of delivery ' || g || '. ', 8) || '</p>',
            now() - (($5::int - g) || ' seconds')::interval, now() - (($5::int - g) || ' seconds')::interval
       FROM generate_series(0, $5::int - 1) AS g`,
    [teamSimplyId, heavy, HEAVY_RECORDS * PER_HEAVY, HEAVY_RECORDS, DELIVERIES],
  );
  await queryDatabase(database.url, 'VACUUM ANALYZE "ConstituentMessageDelivery"');
}

/** The plan of a keyset page `depth` rows deep, as the service runs it: one scan of the history index, no sort. */
async function pagePlan(database: ScenarioDatabase, heavyRecord: string, depth: number): Promise<string> {
  const [at] = await queryDatabase<{ teamId: string; simplyId: string }>(
    database.url,
    `SELECT d."teamId", d."simplyId"
       FROM "ConstituentMessageDelivery" d JOIN "DataRecord" r ON r.id = d."dataRecordId" AND r."teamId" = d."teamId"
      WHERE r."simplyId" = $1 ORDER BY d."createdAt" DESC, d.id DESC OFFSET $2 LIMIT 1`,
    [heavyRecord, depth],
  );
  if (!at) throw new Error(`no delivery ${depth} rows deep`);
  const statement = historyPageStatement({
    teamId: BigInt(at.teamId),
    dataRecordSimplyId: heavyRecord,
    after: at.simplyId,
    channelId: null,
    currentStateId: null,
    take: PAGE + 1,
    snapshot: false,
  });
  const rows = await queryDatabase<{ 'QUERY PLAN': string }>(database.url, `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${statement.text}`, statement.values);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

async function listScenario({ database, env, progress, lines, targets, summary }: SectionBed, boot: BootstrappedTeam): Promise<void> {
  // 1,000 requests within a minute from one key: the per-credential limit would answer many with 429
  const platform = await startPlatform(svcEnvironment({ ...env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000' }));
  try {
    const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: boot.apiKey, sockets: CONNECTIONS });
    progress(`communications: creating ${RECORDS.toLocaleString('en')} records`);
    const records = await createRecords(api, RECORDS);
    const heavy = records.slice(0, HEAVY_RECORDS);
    progress(`communications: seeding ${DELIVERIES.toLocaleString('en')} deliveries`);
    await seedDeliveries(database, boot.teamSimplyId, heavy);
    const history = (record: string, query = '') => `/v1/data-records/${record}/communications?limit=${PAGE}${query}`;

    // cursors deep into the heavy histories: walked once with the largest pages
    progress('communications: collecting deep cursors');
    const deep: string[] = [];
    for (const record of heavy) {
      let cursor: string | null = null;
      for (let page = 0; page < PER_HEAVY / 100; page++) {
        const response = await api.request('GET', `/v1/data-records/${record}/communications?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        if (response.status !== 200) throw new Error(`walk answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
        cursor = response.body.meta.nextCursor;
        if (!cursor) break;
        if (page % 4 === 3) deep.push(`${record}|${cursor}`);
      }
    }
    const deepUrl = (i: number) => {
      const [record, cursor] = deep[i % deep.length]!.split('|');
      return history(record!, `&cursor=${cursor}`);
    };
    const firstUrl = (i: number) => history(records[(i * 7919) % records.length]!);
    for (let i = 0; i < 50; i++) await api.request('GET', i % 2 ? firstUrl(i) : deepUrl(i));

    // unloaded: one request at a time (informational)
    const alone = { first: [] as number[], deep: [] as number[] };
    for (let i = 0; i < 200; i++) {
      const which = i % 2 === 0 ? 'first' : 'deep';
      const response = await api.request('GET', which === 'first' ? firstUrl(i) : deepUrl(i));
      alone[which].push(response.doneAt - response.sentAt);
    }
    const measured = { first: [] as number[], deep: [] as number[] };
    const lane = async (laneIndex: number) => {
      for (let i = 0; i < REQUESTS_PER_CONNECTION; i++) {
        const n = laneIndex * REQUESTS_PER_CONNECTION + i;
        const which = (i + laneIndex) % 2 === 0 ? 'first' : 'deep';
        const url = which === 'first' ? firstUrl(n) : deepUrl(n);
        const response = await api.request('GET', url);
        if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
        measured[which].push(response.doneAt - response.sentAt);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => lane(i)));
    api.close();
    const plan = await pagePlan(database, heavy[0]!, PER_HEAVY - 100);
    const firstP95 = p95(measured.first);
    const deepP95 = p95(measured.deep);
    summary.list = {
      deliveries: DELIVERIES,
      records: RECORDS,
      heavyRecords: { count: HEAVY_RECORDS, deliveriesEach: PER_HEAVY },
      deepCursors: deep.length,
      connections: CONNECTIONS,
      alone: { firstP95: p95(alone.first), deepP95: p95(alone.deep) },
      first: { ...summarizeLatencies(measured.first), p95: firstP95 },
      deep: { ...summarizeLatencies(measured.deep), p95: deepP95 },
      plan,
    };
    lines.push(
      '',
      `communications-list: ${DELIVERIES.toLocaleString('en')} deliveries over ${RECORDS.toLocaleString('en')} records (${HEAVY_RECORDS} with ${PER_HEAVY.toLocaleString('en')} each), ${CONNECTIONS} connections, ${CONNECTIONS * REQUESTS_PER_CONNECTION} requests (half first pages, half deep keyset pages), limit ${PAGE}`,
      `  first page of any record: p50 ${fixed(summarizeLatencies(measured.first).p50)} ms, p95 ${fixed(firstP95)} ms`,
      `  keyset pages 400-8,000 rows deep: p50 ${fixed(summarizeLatencies(measured.deep).p50)} ms, p95 ${fixed(deepP95)} ms`,
      `  one request at a time (informational): first p95 ${fixed(p95(alone.first))} ms, deep p95 ${fixed(p95(alone.deep))} ms`,
      `  plan of a page ${(PER_HEAVY - 100).toLocaleString('en')} rows deep:`,
      ...plan.split('\n').map((l) => `    ${l}`),
    );
    targets.push(judged(`history first page at ${DELIVERIES.toLocaleString('en')} deliveries, ${CONNECTIONS} connections, p95 < ${TARGET_MS} ms`, `${fixed(firstP95)} ms`, firstP95 < TARGET_MS));
    targets.push(judged(`history deep keyset page (up to ${PER_HEAVY.toLocaleString('en')} rows deep), ${CONNECTIONS} connections, p95 < ${TARGET_MS} ms`, `${fixed(deepP95)} ms`, deepP95 < TARGET_MS));
  } finally {
    await platform.stop();
  }
}

export const runCommunicationsSection = (scenarios: readonly CommunicationScenario[], progress: (line: string) => void) =>
  runSection('communications', scenarios, progress, async (bed) => {
    const boot = await bed.bootstrap('Bench communications');
    await bed.scenario('communications-list', () => listScenario(bed, boot));
  });

export const benchSection = defineBenchSection('communications', COMMUNICATION_SCENARIOS, runCommunicationsSection);
