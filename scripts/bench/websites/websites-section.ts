// The websites section of `npm run bench` (BENCH_ONLY=websites, or one scenario id below), on a
// platform server of its own (`svc start`) over a fresh database:
//   websites-publish       publishing a page of 200 components (the draft edited by one operation
//                          before each publish), one at a time, p95 < 300 ms; the first visit after
//                          each publish, which renders and stores the page, is reported beside it
//   websites-serve         the published page served from its stored rendering, 50 connections:
//                          p99 < 10 ms, and requests per second against the bare node:http
//                          baseline (scripts/bench/baseline-server.ts, one indexed SELECT a request)
//                          ≥ 0.8×
//   websites-patch         a design PATCH of 10 operations on that page, one at a time, p95 < 30 ms
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { createPool } from '../../../src/db/prisma.ts';
import { startBaselineProcess } from '../baseline-process.ts';
import { defineBenchSection } from '../bench-section.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { LoadGenerator } from '../load-generator.ts';
import { runSection, type BootstrappedTeam, type SectionBed } from '../section-bed.ts';

export const WEBSITE_SCENARIOS = ['websites-publish', 'websites-serve', 'websites-patch'] as const;
export type WebsiteScenario = (typeof WEBSITE_SCENARIOS)[number];

const COMPONENTS = 200;
const PUBLISHES = 40;
const PATCHES = 200;
const SERVE_CONNECTIONS = 50;
const SERVE_SECONDS = 10;
const ROUNDS = 3;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** HTTPS on a keep-alive connection as the team's signed-in admin (websites refuse API keys). */
class Client {
  private readonly agent: https.Agent;
  private readonly platform: PlatformProcess;
  private readonly boot: BootstrappedTeam;
  constructor(platform: PlatformProcess, boot: BootstrappedTeam) {
    this.platform = platform;
    this.boot = boot;
    this.agent = new https.Agent({ keepAlive: true, ca: platform.ca, maxSockets: 1 });
  }

  request(method: string, path: string, body?: unknown, anonymous = false): Promise<{ status: number; text: string; ms: number }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = anonymous ? {} : { authorization: `Bearer ${this.boot.userToken}`, 'x-team-id': this.boot.teamSimplyId };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = https.request(`${this.platform.baseUrl}${path}`, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  async data(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await this.request(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return JSON.parse(answer.text).data;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A page-sized design: sections of headings, text, images, links and lists, COMPONENTS components in all. */
function bigDesign(): unknown[] {
  const out: unknown[] = [];
  let n = 0;
  const id = () => `b${(n++).toString(36).padStart(4, '0')}`;
  while (n < COMPONENTS - 8) {
    out.push({
      tagName: 'section',
      attributes: { id: id() },
      classes: ['block'],
      style: { padding: '2rem' },
      components: [
        { tagName: 'h2', attributes: { id: id() }, components: [{ type: 'textnode', content: `Section ${n}` }] },
        { type: 'text', attributes: { id: id() }, content: 'Some <b>rich</b> text about the park and its <i>friends</i>.' },
        { type: 'image', src: 'https://example.org/tree.png', attributes: { id: id(), alt: 'A tree' } },
        { type: 'link', attributes: { id: id(), href: 'https://example.org/' }, components: [{ type: 'textnode', content: 'Read more' }] },
        { tagName: 'ul', attributes: { id: id() }, components: [{ tagName: 'li', attributes: { id: id() }, components: [{ type: 'textnode', content: 'One' }] }, { tagName: 'li', attributes: { id: id() }, components: [{ type: 'textnode', content: 'Two' }] }] },
      ],
    });
  }
  return out;
}

interface Bed {
  section: SectionBed<WebsiteScenario>;
  platform: PlatformProcess;
  boot: BootstrappedTeam;
  api: Client;
  site: { websiteSimplyId: string; slug: string };
  page: string;
}

async function publishScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const publishes: number[] = [];
  const firstVisits: number[] = [];
  const visits: number[] = [];
  for (let i = 0; i < PUBLISHES + 5; i++) {
    await bed.api.data('PATCH', `/v1/website-pages/${bed.page}/design`, { operations: [{ op: 'setText', id: 'b0001', text: `Section ${i}` }] });
    const published = await bed.api.request('POST', `/v1/website-pages/${bed.page}/publish`, {});
    if (published.status !== 200) throw new Error(`publish answered ${published.status}: ${published.text.slice(0, 300)}`);
    const first = await bed.api.request('GET', `/sites/${bed.site.slug}/`, undefined, true);
    if (first.status !== 200 || !first.text.includes(`Section ${i}`)) throw new Error(`the page after publish ${i} answered ${first.status} without the new text`);
    const second = await bed.api.request('GET', `/sites/${bed.site.slug}/`, undefined, true);
    if (i >= 5) (publishes.push(published.ms), firstVisits.push(first.ms), visits.push(second.ms));
  }
  const value = p95(publishes);
  summary.publish = { components: COMPONENTS, publishes: publishes.length, p50: summarizeLatencies(publishes).p50, p95: value, firstVisitP95: p95(firstVisits), nextVisitP95: p95(visits) };
  lines.push(
    '',
    `websites-publish: publishing a page of ${COMPONENTS} components, ${publishes.length} publishes one at a time (each after a one-operation edit)`,
    `  publish: p50 ${ms(summarizeLatencies(publishes).p50)}, p95 ${ms(value)}`,
    `  first visit after the publish (renders, sanitizes and stores the page): p50 ${ms(summarizeLatencies(firstVisits).p50)}, p95 ${ms(p95(firstVisits))}`,
    `  the visit after that (stored rendering): p95 ${ms(p95(visits))}`,
  );
  targets.push(judged(`publishing a ${COMPONENTS}-component page, p95 < 300 ms`, ms(value), value < 300));
  targets.push(judged(`first visit after a publish (render and store), p95 (informational; < 300 ms with the publish)`, ms(p95(firstVisits)), true, { informational: true }));
}

async function serveScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const pagePath = `/sites/${bed.site.slug}/`;
  const warm = await bed.api.request('GET', pagePath, undefined, true);
  if (warm.status !== 200) throw new Error(`the page answered ${warm.status}`);
  const pool = createPool(bed.section.database.url, 1, 'svc-bench-websites');
  const { rows } = await pool.query('SELECT id FROM "Team" WHERE "simplyId" = $1', [bed.boot.teamSimplyId]);
  await pool.end();
  const tls = path.join(bed.section.dataDir, 'tls');
  const baseline = await startBaselineProcess({
    databaseUrl: bed.section.database.url,
    poolSize: 10,
    teamId: String(rows[0].id),
    tls: { cert: fs.readFileSync(path.join(tls, 'self-signed-cert.pem'), 'utf8'), key: fs.readFileSync(path.join(tls, 'self-signed-key.pem'), 'utf8') },
  });
  const loader = new LoadGenerator();
  try {
    await loader.ready;
    const run = (url: string, seconds: number, record: boolean) => loader.run({ title: 'served page', url, method: 'GET', headers: {}, connections: SERVE_CONNECTIONS, duration: seconds, record });
    const pageUrl = `${bed.platform.baseUrl}${pagePath}`;
    const baselineUrl = `${baseline.url}/teams/${bed.boot.teamSimplyId}`;
    await run(pageUrl, 2, false);
    await run(baselineUrl, 2, false);
    const platformRps: number[] = [];
    const baselineRps: number[] = [];
    const p99s: number[] = [];
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const served = await run(pageUrl, SERVE_SECONDS, true);
      failures += served.non2xx + served.errors;
      platformRps.push(served.requestsPerSecond);
      p99s.push(served.latency.p99);
      const bare = await run(baselineUrl, SERVE_SECONDS, false);
      baselineRps.push(bare.requestsPerSecond);
    }
    const ratio = median(platformRps) / median(baselineRps);
    const p99 = median(p99s);
    summary.serve = { connections: SERVE_CONNECTIONS, seconds: SERVE_SECONDS, rounds: ROUNDS, bytes: Buffer.byteLength(warm.text), platformPerSecond: platformRps, baselinePerSecond: baselineRps, ratio, p99, failures };
    lines.push(
      '',
      `websites-serve: GET ${pagePath} (${COMPONENTS} components, ${(Buffer.byteLength(warm.text) / 1024).toFixed(1)} KiB) from its stored rendering, ${SERVE_CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SERVE_SECONDS} s`,
      `  platform: ${platformRps.map((r) => r.toFixed(0)).join(', ')} req/s, p99 ${p99s.map((v) => v.toFixed(2)).join(', ')} ms; baseline (one SELECT): ${baselineRps.map((r) => r.toFixed(0)).join(', ')} req/s; median ratio ${ratio.toFixed(2)}; failed ${failures}`,
    );
    targets.push(judged(`a published page from its stored rendering, ${SERVE_CONNECTIONS} connections, p99 < 10 ms`, ms(p99), p99 < 10 && failures === 0));
    targets.push(judged('published page throughput vs the bare node:http baseline ≥ 0.8×', `${ratio.toFixed(2)}×`, ratio >= 0.8));
  } finally {
    await loader.close();
    await baseline.close();
  }
}

async function patchScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const latencies: number[] = [];
  for (let i = 0; i < PATCHES + 10; i++) {
    const operations = [
      ...Array.from({ length: 4 }, (_, k) => ({ op: 'setText', id: `b000${k + 1}`, text: `Patch ${i}.${k}` })),
      { op: 'setStyle', id: 'b0000', style: { padding: `${i % 5}rem` } },
      { op: 'setAttributes', id: 'b0003', attributes: { title: `Image ${i}` } },
      { op: 'setClasses', id: 'b0000', classes: ['block', `v${i % 3}`] },
      { op: 'insert', parentId: 'b0000', component: { tagName: 'p', attributes: { id: `n${i}` }, components: [{ type: 'textnode', content: 'new' }] } },
      { op: 'remove', id: `n${i}` },
      { op: 'setRule', selectors: ['block'], style: { margin: `${i % 4}px` } },
    ];
    const answer = await bed.api.request('PATCH', `/v1/website-pages/${bed.page}/design`, { operations });
    if (answer.status !== 200) throw new Error(`PATCH answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    if (i >= 10) latencies.push(answer.ms);
  }
  const value = p95(latencies);
  summary.patch = { operations: 10, patches: latencies.length, p50: summarizeLatencies(latencies).p50, p95: value };
  lines.push('', `websites-patch: a design PATCH of 10 operations on a ${COMPONENTS}-component page, ${latencies.length} one at a time`, `  p50 ${ms(summarizeLatencies(latencies).p50)}, p95 ${ms(value)}`);
  targets.push(judged('design PATCH of 10 operations, p95 < 30 ms', ms(value), value < 30));
}

export const runWebsitesSection = (scenarios: readonly WebsiteScenario[], progress: (line: string) => void) =>
  runSection('websites', scenarios, progress, async (section) => {
    const boot = await section.bootstrap('Bench websites');
    const platform = await startPlatform(svcEnvironment({ ...section.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000' }));
    section.onCleanup(() => platform.stop());
    const api = new Client(platform, boot);
    section.onCleanup(() => api.close());
    const site = await api.data('POST', '/v1/websites', { name: 'Bench park' });
    const page = (await api.data('POST', `/v1/websites/${site.websiteSimplyId}/pages`, { title: 'Home' })).pageSimplyId as string;
    await api.data('PATCH', `/v1/website-pages/${page}/design`, { operations: bigDesign().map((component) => ({ op: 'insert', parentId: null, component })) });
    await api.data('POST', `/v1/website-pages/${page}/publish`, {});
    const { activationToken } = await api.data('POST', `/v1/websites/${site.websiteSimplyId}/publish-activation`);
    await api.data('PUT', `/v1/websites/${site.websiteSimplyId}`, { isPublished: true, activationToken });
    progress(`websites: a live site with a ${COMPONENTS}-component home page`);
    const bed: Bed = { section, platform, boot, api, site, page };
    await section.scenario('websites-publish', () => publishScenario(bed));
    await section.scenario('websites-serve', () => serveScenario(bed));
    await section.scenario('websites-patch', () => patchScenario(bed));
  });

export const benchSection = defineBenchSection('websites', WEBSITE_SCENARIOS, runWebsitesSection);
