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
//   websites-synced-layout a SYNCED layout used by 100 pages changed (PATCH …/saved-layouts/{id}):
//                          the time until all 100 pages' draft reads show the change, < 5 s
//   websites-import        importing a 20-page site (text, links, styles, a shared image, a script on
//                          each page) from a local node:http server, POST …/import/start until the
//                          WEBSITE_IMPORT task has finished, < 30 s
//   websites-template-release
//                          a template release (5 pages changed, one added) applied to 100 AUTO
//                          sites made from the template, 10 of them with a locally edited page,
//                          managedPublish on: POST …/release until the WEBSITE_TEMPLATE_RELEASE
//                          task has finished with an outcome for every site, < 30 s
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import https from 'node:https';
import { startBaselineBeside } from '../baseline-process.ts';
import { defineBenchSection } from '../bench-section.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { LoadGenerator } from '../load-generator.ts';
import { runSection, type BootstrappedTeam, type SectionBed } from '../section-bed.ts';

export const WEBSITE_SCENARIOS = ['websites-publish', 'websites-serve', 'websites-patch', 'websites-synced-layout', 'websites-import', 'websites-template-release'] as const;
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
  const baseline = await startBaselineBeside(bed.section.database.url, bed.section.dataDir, bed.boot.teamSimplyId);
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
    const baselineP99s: number[] = [];
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const served = await run(pageUrl, SERVE_SECONDS, true);
      failures += served.non2xx + served.errors;
      platformRps.push(served.requestsPerSecond);
      p99s.push(served.latency.p99);
      const bare = await run(baselineUrl, SERVE_SECONDS, true);
      baselineRps.push(bare.requestsPerSecond);
      baselineP99s.push(bare.latency.p99);
    }
    const ratio = median(platformRps) / median(baselineRps);
    const p99 = median(p99s);
    summary.serve = { connections: SERVE_CONNECTIONS, seconds: SERVE_SECONDS, rounds: ROUNDS, bytes: Buffer.byteLength(warm.text), platformPerSecond: platformRps, baselinePerSecond: baselineRps, ratio, p99, baselineP99: median(baselineP99s), failures };
    lines.push(
      '',
      `websites-serve: GET ${pagePath} (${COMPONENTS} components, ${(Buffer.byteLength(warm.text) / 1024).toFixed(1)} KiB) from its stored rendering, ${SERVE_CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SERVE_SECONDS} s`,
      `  platform: ${platformRps.map((r) => r.toFixed(0)).join(', ')} req/s, p99 ${p99s.map((v) => v.toFixed(2)).join(', ')} ms; baseline (one SELECT): ${baselineRps.map((r) => r.toFixed(0)).join(', ')} req/s, p99 ${baselineP99s.map((v) => v.toFixed(2)).join(', ')} ms; median ratio ${ratio.toFixed(2)}; failed ${failures}`,
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

const LAYOUT_PAGES = 100;
const LAYOUT_CHANGES = 5;

async function syncedLayoutScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const site = (await bed.api.data('POST', '/v1/websites', { name: 'Bench layouts' })).websiteSimplyId as string;
  const content = (words: string) => ({ components: [{ tagName: 'section', attributes: { id: 'notice' }, components: [{ tagName: 'p', attributes: { id: 'notice-text' }, components: [{ type: 'textnode', content: words }] }] }] });
  const layout = await bed.api.data('POST', `/v1/websites/${site}/saved-layouts`, { name: 'Notice', category: 'banner', syncMode: 'SYNCED', contentJson: content('Version 0') });
  const pages: string[] = [];
  for (let i = 0; i < LAYOUT_PAGES; i++) {
    const page = (await bed.api.data('POST', `/v1/websites/${site}/pages`, { title: `Page ${i}` })).pageSimplyId as string;
    await bed.api.data('PATCH', `/v1/website-pages/${page}/design`, { operations: [{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: layout.savedLayoutSimplyId }] });
    pages.push(page);
  }
  const reached: number[] = [];
  const patches: number[] = [];
  for (let round = 1; round <= LAYOUT_CHANGES; round++) {
    const words = `Version ${round}`;
    const started = performance.now();
    const changed = await bed.api.request('PATCH', `/v1/websites/${site}/saved-layouts/${layout.savedLayoutSimplyId}`, { contentJson: content(words) });
    if (changed.status !== 200) throw new Error(`PATCH of the layout answered ${changed.status}: ${changed.text.slice(0, 300)}`);
    patches.push(changed.ms);
    let waiting = [...pages];
    while (waiting.length) {
      const reads = await Promise.all(waiting.map(async (page) => ({ page, answer: await bed.api.request('GET', `/v1/website-pages/${page}/design`) })));
      waiting = reads.filter((r) => r.answer.status !== 200 || !r.answer.text.includes(words)).map((r) => r.page);
      if (performance.now() - started > 30_000) throw new Error(`${waiting.length} pages still lack the layout's change after 30 s`);
    }
    reached.push(performance.now() - started);
  }
  const worst = Math.max(...reached);
  summary.syncedLayout = { pages: LAYOUT_PAGES, changes: LAYOUT_CHANGES, patchMs: patches, reachedAllMs: reached };
  lines.push(
    '',
    `websites-synced-layout: a SYNCED layout on ${LAYOUT_PAGES} pages changed ${LAYOUT_CHANGES} times; each time, every page's draft read until all show the change (one keep-alive connection)`,
    `  layout PATCH: p50 ${ms(summarizeLatencies(patches).p50)}; until all ${LAYOUT_PAGES} drafts show it: ${reached.map((v) => ms(v)).join(', ')}`,
  );
  targets.push(judged(`a SYNCED layout change on all ${LAYOUT_PAGES} pages' drafts, worst of ${LAYOUT_CHANGES}, < 5 s`, ms(worst), worst < 5000));
}

const IMPORT_PAGES = 20;
/** a 1×1 PNG, the image every imported page shows */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** The site to import: IMPORT_PAGES pages linking to each other, with a stylesheet, a script and an image. */
function importSourcePage(n: number): string {
  const links = Array.from({ length: IMPORT_PAGES }, (_, i) => `<li><a href="/p/${i}">Page ${i}</a></li>`).join('');
  const text = Array.from({ length: 20 }, (_, i) => `<p class="para">Paragraph ${i} of page ${n}, <em>with</em> <a href="https://example.org/${i}">a link</a>.</p>`).join('');
  return `<!doctype html><html><head><title>Page ${n}</title><style>.para { line-height: 1.5 } h1 { color: #123456 }</style></head><body><h1>Page ${n}</h1><nav><ul>${links}</ul></nav>${text}<img src="/logo.png" alt="Logo" width="120" height="40"><script>track()</script></body></html>`;
}

async function importScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const page = /^\/p\/(\d+)$/.exec(path);
    if (path === '/logo.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(PIXEL_PNG);
    }
    if (page && Number(page[1]) < IMPORT_PAGES) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(importSourcePage(Number(page[1])));
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const started = performance.now();
    const task = await bed.api.data('POST', '/v1/websites/import/start', { sourceUrl: `${base}/p/0`, targetMode: 'NEW_WEBSITE', selectedPages: Array.from({ length: IMPORT_PAGES }, (_, i) => `${base}/p/${i}`) });
    let detail: any;
    for (;;) {
      detail = await bed.api.data('GET', `/v1/background-tasks/${task.backgroundTaskSimplyId}`);
      if (['COMPLETED', 'FAILED', 'PARTIAL_SUCCESS'].includes(detail.status)) break;
      if (performance.now() - started > 120_000) throw new Error('the import did not finish in 120 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const elapsed = performance.now() - started;
    const created = Number(detail.result?.successCount ?? 0);
    summary.import = { pages: IMPORT_PAGES, status: detail.status, created, ms: elapsed };
    lines.push('', `websites-import: a ${IMPORT_PAGES}-page site from a local server (one image, a stylesheet, a script on each page), start until the task finished`, `  ${detail.status}, ${created} draft pages, ${ms(elapsed)}`);
    targets.push(judged(`importing a ${IMPORT_PAGES}-page site, every page a draft, < 30 s`, ms(elapsed), elapsed < 30_000 && detail.status === 'COMPLETED' && created === IMPORT_PAGES));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const TEMPLATE_SITES = 100;
const TEMPLATE_PAGES = 5;
const LOCALLY_EDITED = 10;

/** Polls the tasks until each has finished; answers their details. */
async function untilFinished(api: Client, tasks: string[], limitMs: number): Promise<any[]> {
  const started = performance.now();
  const done = new Map<string, any>();
  while (done.size < tasks.length) {
    for (const task of tasks.filter((t) => !done.has(t))) {
      const detail = await api.data('GET', `/v1/background-tasks/${task}`);
      if (['COMPLETED', 'FAILED', 'PARTIAL_SUCCESS'].includes(detail.status)) done.set(task, detail);
    }
    if (done.size < tasks.length) {
      if (performance.now() - started > limitMs) throw new Error(`${tasks.length - done.size} tasks did not finish in ${limitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return tasks.map((t) => done.get(t));
}

async function templateReleaseScenario(bed: Bed): Promise<void> {
  const { lines, targets, summary } = bed.section;
  const api = bed.api;
  const source = (await api.data('POST', '/v1/websites', { name: 'Bench template source' })).websiteSimplyId as string;
  const design = (words: string) => [{ op: 'insert', parentId: null, component: { tagName: 'section', attributes: { id: 'main' }, components: [{ tagName: 'h1', attributes: { id: 'title' }, components: [{ type: 'textnode', content: words }] }, ...Array.from({ length: 20 }, (_, i) => ({ tagName: 'p', attributes: { id: `p${i}` }, components: [{ type: 'textnode', content: `${words}, paragraph ${i}` }] }))] } }];
  const pages: string[] = [];
  for (let i = 0; i < TEMPLATE_PAGES; i++) {
    const page = (await api.data('POST', `/v1/websites/${source}/pages`, { title: `Page ${i}` })).pageSimplyId as string;
    await api.data('PATCH', `/v1/website-pages/${page}/design`, { operations: design(`Page ${i}, first release`) });
    pages.push(page);
  }
  const template = (await api.data('POST', '/v1/website-templates', { name: 'Bench chapter site', sourceWebsiteSimplyId: source })).teamWebsiteTemplateSimplyId as string;
  await api.data('POST', `/v1/website-templates/${template}/release`, {});
  const made: { site: string; task: string }[] = [];
  for (let i = 0; i < TEMPLATE_SITES; i++) {
    const answer = await api.data('POST', `/v1/website-templates/${template}/websites`, { name: `Bench chapter ${i}`, templateSyncMode: 'AUTO' });
    made.push({ site: answer.website.websiteSimplyId, task: answer.backgroundTaskSimplyId });
  }
  const copyStarted = performance.now();
  const copies = await untilFinished(api, made.map((m) => m.task), 300_000);
  const copyMs = performance.now() - copyStarted;
  if (copies.some((c) => c.status !== 'COMPLETED')) throw new Error('a copy of the template did not complete');
  for (const { site } of made.slice(0, LOCALLY_EDITED)) {
    const [first] = await api.data('GET', `/v1/websites/${site}/pages`);
    await api.data('PATCH', `/v1/website-pages/${first.pageSimplyId}/design`, { operations: [{ op: 'setText', id: 'title', text: 'Our own title' }] });
  }
  for (const [i, page] of pages.entries()) await api.data('PATCH', `/v1/website-pages/${page}/design`, { operations: [{ op: 'setText', id: 'title', text: `Page ${i}, second release` }] });
  await api.data('POST', `/v1/websites/${source}/pages`, { title: 'News' });

  const started = performance.now();
  const released = await api.data('POST', `/v1/website-templates/${template}/release`, { releaseNotes: 'Bench', applyAutoSites: true, managedPublish: true });
  const [task] = await untilFinished(api, [released.release.backgroundTaskSimplyId], 120_000);
  const elapsed = performance.now() - started;
  const outcomes: any[] = task.result?.sites ?? [];
  const applied = outcomes.filter((o) => o.status === 'APPLIED').length;
  const keptLocal = outcomes.reduce((n, o) => n + (o.keptLocal?.length ?? 0), 0);
  summary.templateRelease = { sites: TEMPLATE_SITES, pages: TEMPLATE_PAGES + 1, copyAllMs: copyMs, status: task.status, outcomes: outcomes.length, applied, keptLocal, ms: elapsed, durationMs: task.result?.durationMs };
  lines.push(
    '',
    `websites-template-release: a release (${TEMPLATE_PAGES} pages changed, one added, managedPublish) applied to ${TEMPLATE_SITES} AUTO sites (${LOCALLY_EDITED} with a locally edited page)`,
    `  ${task.status}: ${outcomes.length} site outcomes, ${applied} applied, ${keptLocal} pages kept local; POST …/release until the task finished ${ms(elapsed)} (the task itself ${ms(Number(task.result?.durationMs ?? 0))})`,
    `  before it: ${TEMPLATE_SITES} sites copied from the first release (WEBSITE_COPY tasks) in ${ms(copyMs)}`,
  );
  targets.push(
    judged(`a template release applied to ${TEMPLATE_SITES} AUTO sites with per-site outcomes, < 30 s`, ms(elapsed), elapsed < 30_000 && task.status === 'COMPLETED' && applied === TEMPLATE_SITES && keptLocal === LOCALLY_EDITED),
  );
}

export const runWebsitesSection = (scenarios: readonly WebsiteScenario[], progress: (line: string) => void) =>
  runSection('websites', scenarios, progress, async (section) => {
    const boot = await section.bootstrap('Bench websites');
    const platform = await startPlatform(svcEnvironment({ ...section.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000', WEBSITE_IMPORT_ALLOW_LOOPBACK: 'true' }));
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
    await section.scenario('websites-synced-layout', () => syncedLayoutScenario(bed));
    await section.scenario('websites-import', () => importScenario(bed));
    await section.scenario('websites-template-release', () => templateReleaseScenario(bed));
  });

export const benchSection = defineBenchSection('websites', WEBSITE_SCENARIOS, runWebsitesSection);
