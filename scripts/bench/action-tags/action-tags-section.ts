// The action-tags section of `npm run bench` (BENCH_ONLY=action-tags, or one scenario id below), on
// a platform server of its own (`svc start`) over a fresh database:
//   action-tags-resolve    GET /a/{id}?source=QR of an ACTIVE URL tag (302), 50 connections, scan
//                          logging on: p99 < 10 ms, and requests per second against the bare
//                          node:http(s) + pg baseline (scripts/bench/baseline-server.ts, one
//                          indexed SELECT a request) ≥ 0.8×; GET /readyz beside them (the
//                          platform's front door and one SELECT 1) shows what any platform route
//                          costs; then every scan of the runs is written (the batch drained) and
//                          counted
//   action-tags-analytics  100,000 scans of 50 tags spread over 90 days (written as the scan
//                          batches write them: the rows and their daily aggregates), then
//                          GET /v1/action-tags/analytics for those 90 days, one at a time,
//                          p95 < 50 ms
import { Agent, fetch as undiciFetch } from 'undici';
import { createPool } from '../../../src/db/prisma.ts';
import { startBaselineBeside } from '../baseline-process.ts';
import { defineBenchSection } from '../bench-section.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { LoadGenerator } from '../load-generator.ts';
import { runSection, type BootstrappedTeam, type SectionBed } from '../section-bed.ts';

export const ACTION_TAG_SCENARIOS = ['action-tags-resolve', 'action-tags-analytics'] as const;
export type ActionTagScenario = (typeof ACTION_TAG_SCENARIOS)[number];

const CONNECTIONS = 50;
const SECONDS = 8;
const ROUNDS = 3;
const SCANS = 100_000;
const TAGS = 50;
const DAYS = 90;
const READS = 200;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;
const ms = (value: number) => `${value.toFixed(2)} ms`;

interface Bed {
  section: SectionBed<ActionTagScenario>;
  platform: PlatformProcess;
  boot: BootstrappedTeam;
  dispatcher: Agent;
}

async function api(bed: Bed, method: string, path: string, body?: unknown): Promise<{ status: number; data: any; ms: number }> {
  const started = performance.now();
  const response = await undiciFetch(`${bed.platform.baseUrl}${path}`, {
    method,
    dispatcher: bed.dispatcher,
    headers: { authorization: `Bearer ${bed.boot.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { status: response.status, data: JSON.parse(text).data, ms: elapsed };
}

async function resolveScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary, database, dataDir } = bed.section;
  const tag = (await api(bed, 'POST', '/v1/action-tags', { name: 'Bench poster', status: 'ACTIVE', actionUrl: 'https://example.org/landing' })).data;
  const url = `${bed.platform.baseUrl}/a/${tag.id}?source=QR`;
  const first = await undiciFetch(url, { dispatcher: bed.dispatcher, redirect: 'manual' });
  if (first.status !== 302) throw new Error(`the tag answered ${first.status}`);
  const pool = createPool(database.url, 1, 'svc-bench-action-tags');
  try {
    const baseline = await startBaselineBeside(database.url, dataDir, bed.boot.teamSimplyId);
    const loader = new LoadGenerator();
    try {
      await loader.ready;
      const run = (target: string, seconds: number, record: boolean) => loader.run({ title: 'resolve', url: target, method: 'GET', headers: { 'user-agent': 'Mozilla/5.0 (iPhone) Safari/604.1' }, connections: CONNECTIONS, duration: seconds, record });
      const baselineUrl = `${baseline.url}/teams/${bed.boot.teamSimplyId}`;
      // every answer of the tag's URL so far (the first fetch, warm-ups, measured runs): each is a scan to be written
      let sent = 1 + (await run(url, 2, false)).responses;
      const scansWritten = async () => Number((await pool.query<{ n: string }>('SELECT "lifetimeScans" AS n FROM "ActionTag" WHERE "simplyId" = $1', [tag.id])).rows[0]!.n);
      // the scans of a run are written before the next run starts, so that no run shares the
      // machine with the previous run's writes; how long that took is reported (a writer that
      // keeps up needs about one flush interval)
      const drains: number[] = [];
      const drain = async () => {
        const started = Date.now();
        while ((await scansWritten()) < sent && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 50));
        drains.push(Date.now() - started);
      };
      await drain();
      await run(baselineUrl, 2, false);
      const platformRps: number[] = [];
      const baselineRps: number[] = [];
      const readyRps: number[] = [];
      const p99s: number[] = [];
      // the bare server's own tail under the same load: what the machine allows
      const baselineP99s: number[] = [];
      let failures = 0;
      let resolved = 0;
      for (let round = 0; round < ROUNDS; round++) {
        // the platform's own floor: its front door and one SELECT 1 (/readyz), no action-tag code
        readyRps.push((await run(`${bed.platform.baseUrl}/readyz`, SECONDS, false)).requestsPerSecond);
        const served = await run(url, SECONDS, true);
        // every answer is the 302: "2xx" counts none of them
        failures += served.errors + served.timeouts + served.ok;
        resolved += served.responses;
        sent += served.responses;
        await drain();
        platformRps.push(served.requestsPerSecond);
        // the load generator times 2xx answers only: the 302s are read from autocannon's own (whole-millisecond) histogram
        p99s.push(served.autocannonLatency.p99);
        const bare = await run(baselineUrl, SECONDS, false);
        baselineRps.push(bare.requestsPerSecond);
        baselineP99s.push(bare.autocannonLatency.p99);
      }
      const ratio = median(platformRps) / median(baselineRps);
      const p99 = median(p99s);
      const written = await scansWritten();
      summary.resolve = { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, platformPerSecond: platformRps, baselinePerSecond: baselineRps, readyzPerSecond: readyRps, ratio, p99, baselineP99: median(baselineP99s), failures, measuredResolutions: resolved, scansWritten: Number(written), drainMs: drains };
      lines.push(
        '',
        `action-tags-resolve: GET /a/{id}?source=QR of an ACTIVE URL tag (302), scan logging on, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s`,
        `  platform: ${platformRps.map((r) => r.toFixed(0)).join(', ')} req/s, p99 ${p99s.map((v) => v.toFixed(0)).join(', ')} ms (whole ms); baseline (one SELECT): ${baselineRps.map((r) => r.toFixed(0)).join(', ')} req/s, p99 ${baselineP99s.map((v) => v.toFixed(0)).join(', ')} ms; median ratio ${ratio.toFixed(2)}; failed ${failures}`,
        `  the platform's front door with one SELECT 1 (GET /readyz, no action-tag code): ${readyRps.map((r) => r.toFixed(0)).join(', ')} req/s; resolve / readyz ${(median(platformRps) / median(readyRps)).toFixed(2)}`,
        `  scans written: ${Number(written)} (every resolution of the warm-ups and measured runs; ${resolved} measured); written ${drains.map((d) => d.toFixed(0)).join(', ')} ms after each run ended`,
      );
      targets.push(judged(`resolving an ACTIVE URL tag, ${CONNECTIONS} connections, p99 < 10 ms`, ms(p99), p99 < 10 && failures === 0));
      targets.push(judged('resolve throughput vs the bare node:http + pg baseline ≥ 0.8×', `${ratio.toFixed(2)}×`, ratio >= 0.8));
      targets.push(judged('every resolution written as a scan', `${Number(written)} of ${sent}`, Number(written) >= sent));
    } finally {
      await loader.close();
      await baseline.close();
    }
  } finally {
    await pool.end();
  }
}

async function analyticsScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary, database } = bed.section;
  const tags: string[] = [];
  for (let i = 0; i < TAGS; i++) tags.push((await api(bed, 'POST', '/v1/action-tags', { name: `Bench tag ${i}`, status: 'ACTIVE', actionUrl: `https://example.org/${i}`, labelSimplyIds: [`batch-${i % 5}`] })).data.id);
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const path90 = `/v1/action-tags/analytics?from=${from}&to=${to}`;
  // the resolve scenario's scans are the team's too
  const before = (await api(bed, 'GET', `${path90}&trafficClass=ALL`)).data.totals.scans as number;
  const pool = createPool(database.url, 2, 'svc-bench-action-tags');
  const started = performance.now();
  try {
    // the rows a scan batch writes (scan-recorder.ts), spread over the 90 days, sources, classes and places
    await pool.query(
      `INSERT INTO "ActionTagScan" ("teamId", "actionTagId", "scannedAt", "resolveStatus", "resolvedDestination", "interactionSource", "trafficClass", "countedAsInteraction", city, region, country)
       SELECT t."teamId", t.id, date_trunc('day', now() AT TIME ZONE 'UTC') - (g % ${DAYS}) * interval '1 day' + (g % 3600) * interval '1 second', 'RESOLVED', t."actionUrl",
              (ARRAY['QR','NFC','LINK','UNKNOWN'])[1 + g % 4], (ARRAY['HUMAN','HUMAN','HUMAN','BOT','LINK_PREVIEW'])[1 + g % 5], g % 3 = 0,
              (ARRAY['London','Berlin','Paris','Austin'])[1 + g % 4], (ARRAY['England','Berlin','Île-de-France','Texas'])[1 + g % 4], (ARRAY['GB','DE','FR','US'])[1 + g % 4]
         FROM generate_series(1, $1::int) g
         JOIN LATERAL (SELECT id, "teamId", "actionUrl" FROM "ActionTag" WHERE "simplyId" = ($2::text[])[1 + g % ${TAGS}]) t ON true`,
      [SCANS, tags],
    );
    await pool.query(
      `INSERT INTO "ActionTagDailyStat" ("teamId", "actionTagId", day, "interactionSource", "trafficClass", "resolveStatus", country, region, city, scans, interactions)
       SELECT "teamId", "actionTagId", "scannedAt"::date, "interactionSource", "trafficClass", "resolveStatus", country, region, city, count(*), count(*) FILTER (WHERE "countedAsInteraction")
         FROM "ActionTagScan" s WHERE s."actionTagId" IN (SELECT id FROM "ActionTag" WHERE "simplyId" = ANY($1::text[]))
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9`,
      [tags],
    );
    await pool.query('ANALYZE "ActionTagScan", "ActionTagDailyStat"');
  } finally {
    await pool.end();
  }
  const seeded = performance.now() - started;
  const check = (await api(bed, 'GET', `${path90}&trafficClass=ALL`)).data;
  if (check.totals.scans - before !== SCANS) throw new Error(`analytics counted ${check.totals.scans - before} new scans, not ${SCANS}`);
  const latencies: number[] = [];
  for (let i = 0; i < READS + 10; i++) {
    const answer = await api(bed, 'GET', i % 2 === 0 ? path90 : `${path90}&labelSimplyIds=batch-${i % 5}`);
    if (i >= 10) latencies.push(answer.ms);
  }
  const value = p95(latencies);
  summary.analytics = { scans: SCANS, tags: TAGS, days: DAYS, seedMs: seeded, reads: READS, p50: summarizeLatencies(latencies).p50, p95: value };
  lines.push(
    '',
    `action-tags-analytics: ${SCANS} scans of ${TAGS} tags over ${DAYS} days (seeded with their daily aggregates in ${ms(seeded)}), GET /v1/action-tags/analytics for ${DAYS} days, ${READS} one at a time (half with a label filter)`,
    `  p50 ${ms(summarizeLatencies(latencies).p50)}, p95 ${ms(value)}`,
  );
  targets.push(judged(`analytics over ${DAYS} days of ${SCANS} scans, p95 < 50 ms`, ms(value), value < 50));
}

export const runActionTagsSection = (scenarios: readonly ActionTagScenario[], progress: (line: string) => void) =>
  runSection('action-tags', scenarios, progress, async (section) => {
    const boot = await section.bootstrap('Bench action tags');
    const platform = await startPlatform(svcEnvironment({ ...section.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000' }));
    section.onCleanup(() => platform.stop());
    const dispatcher = new Agent({ connect: { ca: platform.ca } });
    section.onCleanup(() => dispatcher.close());
    const bed: Bed = { section, platform, boot, dispatcher };
    progress('action-tags: a platform with a bootstrapped team (the default plan: standalone, 500 band)');
    await section.scenario('action-tags-resolve', () => resolveScenario(bed));
    await section.scenario('action-tags-analytics', () => analyticsScenario(bed));
  });

export const benchSection = defineBenchSection('action-tags', ACTION_TAG_SCENARIOS, runActionTagsSection);
