// `npm run bench`: throughput and latency of the platform against bare pg baselines, over HTTPS
// and over plain HTTP behind a trusted proxy, at several connection counts, with ratios taken
// within each (transport, connections) cell. docs/benchmark.md describes the method and holds
// the latest figures.
//
// This process runs the platform server (startApp): one instance per transport, one after the
// other on the same database: HTTPS (TLS in the server) or TRUST_PROXY (plain HTTP, every request
// carrying x-forwarded-proto: https), in the order scripts/bench/plan.ts gives. The baseline
// server (scripts/bench/baseline-server.ts) runs in a child Node process of its own, one per
// transport, with Node's defaults and its own pool, so it does not share the platform's heap and
// garbage collector; its CPU and RSS are read from /proc at its pid. One server is under load at a
// time. The load generator (autocannon) runs in another forked child process
// (scripts/bench/load-generator.ts).
//
// Environment:
//   DATABASE_URL      use this PostgreSQL (migrations are applied; a "Bench …" team is left in it)
//                     instead of an embedded cluster in a fresh temp folder
//   BENCH_DURATION    seconds measured per run (default 8)
//   BENCH_WARMUP      seconds of warm-up per run, not measured (default 2)
//   BENCH_CONNECTIONS comma-separated connection counts (default 10,50)
//   BENCH_TRANSPORTS  comma-separated, https and/or http (default https,http)
//   BENCH_ONLY        comma-separated scenario ids (default: all; scripts/bench/plan.ts); `records`
//                     stands for every record scenario. A platform scenario brings its baseline;
//                     a scenario named here runs in every cell, not only in the home cell.
//                     `events` (or events-webhooks, … : scripts/bench/events/settings.ts) selects
//                     the events section, which runs after the HTTP one; BENCH_EVENTS* size it.
//                     `files` (or files-upload, files-promotion, files-variants, files-list:
//                     scripts/bench/files/files-section.ts) selects the files section, which runs last
//   BENCH_RECORDS     records seeded for the record scenarios (default 100000; scripts/seed-records.ts)
//   BENCH_JSON=1      print a JSON summary on stdout (the human-readable report goes to stderr)
//   BENCH_CPU_PROF    a folder: write a CPU profile of each measured run there (scripts/bench/cpu-profiler.ts)
//   BENCH_POSTGRAPHILE_URL  http://127.0.0.1:<port>/graphql of a PostGraphile serving DATABASE_URL: adds
//                     postgraphile-record-get and -list in the http cells (docs/benchmark.md)
//   BENCH_POSTGRAPHILE_PID  its process id, for its CPU per request and RSS (read from /proc)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBaselineProcess, type BaselineProcess } from './bench/baseline-process.ts';
import { checkRequest } from './bench/check-request.ts';
import { startCpuMeter } from './bench/cpu-accounting.ts';
import { CpuProfiler } from './bench/cpu-profiler.ts';
import { LoadGenerator } from './bench/load-generator.ts';
import { countPgQueries } from './bench/pg-query-counter.ts';
import { planRuns, TRANSPORTS, type Cell, type Transport } from './bench/plan.ts';
import { judgeTargets, mib, resultTables, targetLines, type ScenarioResult } from './bench/report.ts';
import { sampleMemory } from './bench/memory-sampler.ts';
import { relaunchWithServerFlags } from '../src/cli/server-flags.ts';
import { runEventsSection } from './bench/events/events-section.ts';
import { chosenScenarios, isSectionId, SECTIONS, type SectionResult } from './bench/sections.ts';
import { eventSettings, splitOnly } from './bench/events/settings.ts';
import type { SeedColumn } from './seed-records.ts';
import { coreScenarioRequests, postgraphileScenarioRequests, recordScenarioRequests, type ScenarioRequest } from './bench/scenario-requests.ts';

function numberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number ≥ ${min} (got "${raw}")`);
  return value;
}

function listFromEnv(name: string, fallback: string): string[] {
  const items = (process.env[name] || fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (new Set(items).size !== items.length) throw new Error(`${name} lists an item twice: "${process.env[name]}"`);
  return items;
}

/** An external server to load: loopback only (the load generator refuses anything else), plain HTTP. */
function externalUrl(name: string): URL | null {
  const raw = process.env[name];
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} is not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`${name} must be http://127.0.0.1:<port>/… (plain HTTP on this machine), got "${raw}"`);
  }
  if (!process.env.DATABASE_URL) throw new Error(`${name} needs DATABASE_URL: the other server must read the database the bench seeds`);
  return url;
}

const jsonMode = process.env.BENCH_JSON === '1' || process.env.BENCH_JSON === 'true';
/** progress lines always go to stderr; the report goes to stdout, or to stderr when stdout carries the JSON */
const progress = (line: string) => process.stderr.write(`${line}\n`);
const report = (line: string) => (jsonMode ? process.stderr : process.stdout).write(`${line}\n`);

/** Behind the proxy every request says it arrived over HTTPS, from a client address of the proxy's. */
const PROXY_HEADERS = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' };
const transportHeaders = (transport: Transport): Record<string, string> => (transport === 'http' ? PROXY_HEADERS : {});

/** set on SIGINT/SIGTERM: cleanup runs from the signal handler, failures after it are expected */
let interrupted = false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `fn` once, however often it is called (a phase closes its app; the cleanup list may again). */
const once = (fn: () => Promise<void>) => {
  let done: Promise<void> | null = null;
  return () => (done ??= fn());
};

const toJson = (value: unknown) => JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? String(v) : v), 2);

/** The HTTP section, then the events section (scripts/bench/events/), as BENCH_ONLY selects them; one JSON summary. */
async function main(): Promise<number> {
  const startedAt = Date.now();
  const only = listFromEnv('BENCH_ONLY', '');
  // the self-contained sections' ids (`files`, files-upload, `notifications`, …) are their own; the rest select the others
  const otherIds = only.filter((id) => !isSectionId(id));
  const sections = only.length > 0 && otherIds.length === 0 ? { http: [], events: [], runHttp: false } : splitOnly(otherIds);
  // the events section's knobs are checked before anything long runs
  const events = sections.events.length > 0 ? eventSettings(sections.events) : null;
  const http = sections.runHttp ? await httpSection(sections.http) : null;
  let code = http?.code ?? 0;
  const section = events && !interrupted ? await runEventsSection(events, progress) : null;
  if (section) {
    for (const line of section.lines) report(line);
    for (const line of targetLines(section.targets)) report(line);
    if (section.failed) code = 1;
  }
  const sectionResults: Record<string, SectionResult | null> = {};
  for (const bench of SECTIONS) {
    const chosen = chosenScenarios(bench, only);
    const result = chosen.length > 0 && !interrupted ? await bench.run(chosen, progress) : null;
    sectionResults[bench.group] = result;
    if (!result) continue;
    for (const line of result.lines) report(line);
    for (const line of targetLines(result.targets)) report(line);
    if (result.failed) code = 1;
  }
  if (jsonMode) {
    const httpTargets = (http?.summary.targets as unknown[] | undefined) ?? [];
    process.stdout.write(
      `${toJson({
        ...(http?.summary ?? { startedAt: new Date(startedAt).toISOString() }),
        totalSeconds: (Date.now() - startedAt) / 1000,
        targets: [...httpTargets, ...(section?.targets ?? []), ...Object.values(sectionResults).flatMap((r) => r?.targets ?? [])],
        events: section?.summary ?? null,
        ...Object.fromEntries(Object.entries(sectionResults).map(([group, r]) => [group, r?.summary ?? null])),
      })}\n`,
    );
  }
  return code;
}

async function httpSection(only: string[]): Promise<{ code: number; summary: Record<string, unknown> }> {
  const duration = numberFromEnv('BENCH_DURATION', 8, 1);
  const warmup = numberFromEnv('BENCH_WARMUP', 2, 0);
  const connections = listFromEnv('BENCH_CONNECTIONS', '10,50').map((raw) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_CONNECTIONS: "${raw}" is not a whole number ≥ 1`);
    return n;
  });
  const transports = listFromEnv('BENCH_TRANSPORTS', 'https,http').map((raw) => {
    if (!(TRANSPORTS as readonly string[]).includes(raw)) throw new Error(`BENCH_TRANSPORTS: "${raw}" is not one of ${TRANSPORTS.join(', ')}`);
    return raw as Transport;
  });
  const recordCount = Math.round(numberFromEnv('BENCH_RECORDS', 100_000, 100));
  const postgraphileUrl = externalUrl('BENCH_POSTGRAPHILE_URL');
  const postgraphilePid = process.env.BENCH_POSTGRAPHILE_PID ? Math.round(numberFromEnv('BENCH_POSTGRAPHILE_PID', 0, 1)) : null;
  if (postgraphilePid !== null && !fs.existsSync(`/proc/${postgraphilePid}/stat`)) throw new Error(`BENCH_POSTGRAPHILE_PID: no process ${postgraphilePid}`);
  const plan = planRuns(only, transports, connections, { external: postgraphileUrl !== null });
  const profiler = process.env.BENCH_CPU_PROF ? new CpuProfiler(path.resolve(process.env.BENCH_CPU_PROF)) : null;
  const startedAt = Date.now();

  // Measure what production runs: graphql-js and the Pothos Prisma plugin read NODE_ENV when they
  // are imported (development adds multi-realm instanceOf checks and unused-selection checks).
  process.env.NODE_ENV ??= 'production';

  // Count every statement sent through pg in this process (Prisma's adapter, pg-boss, the
  // notifier); the baseline's child counts its own the same way.
  const { default: pg } = await import('pg');
  const { count: pgQueries, stop: stopCountingPgQueries } = countPgQueries(pg);

  const { loadConfig } = await import('../src/main/config.ts');
  const { startEmbeddedPostgres } = await import('../src/db/embedded-postgres.ts');
  const { applyPendingMigrations } = await import('../src/db/schema-engine/migrations.ts');
  const { startApp } = await import('../src/main/server.ts');
  const { createLogger } = await import('../src/app/logger.ts');
  const { bootstrapTeam } = await import('../src/modules/teams/bootstrap.service.ts');
  const { FEATURE_PERMISSIONS } = await import('../src/app/auth/feature-permissions.ts');
  const { routes } = await import('../src/main/modules.ts');
  const { validateInput } = await import('../rest-adapter/validate-input.ts');

  type App = Awaited<ReturnType<typeof startApp>>;
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    while (cleanups.length > 0) {
      const step = cleanups.pop()!;
      try {
        await step();
      } catch (error) {
        progress(`cleanup step failed: ${String(error)}`);
      }
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    progress(`\n${signal}: stopping…`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // 1. PostgreSQL, migrations --------------------------------------------------------------
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
    // as root the embedded cluster runs as the postgres user, which must traverse this folder
    fs.chmodSync(dataDir, 0o755);
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));

    let databaseUrl = process.env.DATABASE_URL;
    const embedded = !databaseUrl;
    const postmasterPid = (): number | null => {
      if (!embedded) return null;
      try {
        const pid = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'cluster', 'postmaster.pid'), 'utf8').split('\n')[0]);
        return Number.isInteger(pid) && pid > 0 ? pid : null;
      } catch {
        return null;
      }
    };
    if (!databaseUrl) {
      progress(`starting embedded PostgreSQL in ${dataDir}`);
      const db = await startEmbeddedPostgres({ dataDir });
      databaseUrl = db.url;
      cleanups.push(() => db.stop());
    } else {
      progress('using DATABASE_URL');
    }
    const { applied } = await applyPendingMigrations({ databaseUrl });
    progress(`migrations: ${applied.length} applied`);

    // 2. the platform, in this process: one instance per transport, on the same data folder
    //    (certificate, JWT signing key) and database ------------------------------------------
    const configFor = (transport: Transport) =>
      loadConfig(process.env, {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: 0,
        LOG_LEVEL: 'silent',
        TRUST_PROXY: transport === 'http',
        JOBS_IN_SERVER: false,
        RATE_LIMIT_PER_MINUTE: 1_000_000_000,
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: 1_000_000_000,
        SHUTDOWN_TIMEOUT_MS: 2_000,
      });
    const config = configFor(plan.phases[0]!.transport);
    interface Platform {
      app: App;
      transport: Transport;
      url: string;
      /** the certificate clients check (HTTPS) */
      ca: string | null;
      close: () => Promise<void>;
    }
    const startPlatform = async (transport: Transport): Promise<Platform> => {
      const app = await startApp({ config: configFor(transport), databaseUrl, migrate: false, runJobs: false, logger: createLogger('silent') });
      const close = once(() => app.close());
      cleanups.push(close);
      if ((transport === 'https') !== (app.tls !== null)) throw new Error(`the platform started ${app.tls ? 'with' : 'without'} TLS for transport ${transport}`);
      const url = `${transport}://127.0.0.1:${app.port}`;
      progress(`platform listening on ${url}${transport === 'http' ? ' (TRUST_PROXY)' : ''}; process RSS ${mib(process.memoryUsage.rss()).toFixed(0)} MiB`);
      return { app, transport, url, ca: app.tls?.cert ?? null, close };
    };
    let platform = await startPlatform(plan.phases[0]!.transport);
    const platformRequest = (p: string, method: string, headers: Record<string, string>, body?: string) =>
      checkRequest(`${platform.url}${p}`, { ca: platform.ca, method, headers: { ...headers, ...transportHeaders(platform.transport) }, body });

    // the tenant: a team, its admin user (JWT), a full-access API key, and ten roles to list
    const setupApp = platform.app;
    const team = await bootstrapTeam(setupApp.services.prisma, {
      teamName: `Bench ${new Date().toISOString()}`,
      email: `bench-${randomBytes(5).toString('hex')}@example.test`,
      password: randomBytes(18).toString('base64url'),
    });
    // every instance reads the signing key from the same data folder, so the token serves all phases
    const { token: userToken } = await setupApp.services.jwt.issueAccessToken(team.userSimplyId);
    for (let i = 1; i <= 9; i++) {
      const created = await platformRequest(
        '/v1/team-roles',
        'POST',
        { authorization: `Bearer ${team.apiKey}`, 'content-type': 'application/json' },
        JSON.stringify({
          name: `Bench role ${i}`,
          dataPermissions: [{ dataCollectionSimplyId: '*', level: 'READ' }],
          featurePermissions: FEATURE_PERMISSIONS.slice(0, i).map((name) => ({ name, level: i % 2 ? 'VIEW' : 'EDIT' })),
        }),
      );
      if (created.status !== 201) throw new Error(`creating a role: ${created.status} ${JSON.stringify(created.body)}`);
    }

    // 3. a bare pg pool for the bench's own reads (record ids, the server version); the baseline
    //    server serves from a pool of its own, of the platform's size, in its child process ------
    const benchPool = new pg.Pool({ connectionString: databaseUrl, max: 2, application_name: 'svc-bench' });
    benchPool.on('error', () => {});
    cleanups.push(() => benchPool.end());

    // 4. scenarios ----------------------------------------------------------------------------
    const route = (method: string, p: string) => {
      const found = routes.find((r) => r.method === method && r.path === p);
      if (!found) throw new Error(`no REST route ${method} ${p}`);
      return found;
    };
    // the GraphQL twin of a REST route: its operation, with the variables the route builds from the same input
    const graphqlBody = (method: string, p: string, query: string, params: Record<string, string> = {}) => {
      const r = route(method, p);
      const variables = r.variables?.(validateInput(r, params, new URL(`https://localhost/?${query}`), undefined)) ?? {};
      return JSON.stringify({ query: r.operation, variables });
    };
    const requests: Record<string, ScenarioRequest> = coreScenarioRequests({ team, userToken, graphqlBody });

    let seeded: { records: number; insertSeconds: number; analyzeSeconds: number; dataCollectionSimplyId: string } | null = null;
    if (plan.withRecords) {
      const { seedInput, seedRandom, SEED_STATUSES } = await import('./seed-records.ts');
      if (!SEED_STATUSES.includes('active') || !SEED_STATUSES.includes('trial')) throw new Error('the search scenarios expect statuses active and trial');
      progress(`seeding ${recordCount} records (scripts/seed-records.ts, in a child process)…`);
      const seed = await seedInChildProcess(databaseUrl, team.teamSimplyId, recordCount);
      // the NOTIFY from the seed would do this too, a moment later
      setupApp.services.schemas.invalidate(team.teamId);
      progress(`  ${seed.records} records in ${seed.insertSeconds.toFixed(1)} s (${Math.round(seed.records / seed.insertSeconds)}/s), VACUUM (ANALYZE) ${seed.analyzeSeconds.toFixed(1)} s`);
      seeded = { records: seed.records, insertSeconds: seed.insertSeconds, analyzeSeconds: seed.analyzeSeconds, dataCollectionSimplyId: seed.collectionSimplyId };
      // record gets cycle through up to 10 000 ids spread over the whole collection
      const ids = (
        await benchPool.query<{ simplyId: string }>(
          `SELECT "simplyId" FROM "DataRecord" WHERE "teamId" = $1 AND "collectionId" = $2 ORDER BY random() LIMIT 10000`,
          [team.teamId, seed.collectionId],
        )
      ).rows.map((r) => r.simplyId);
      // batch bodies: 20 different sets of 100 records (values as the seed makes them), in turn
      const random = seedRandom(7);
      const batchBodies = Array.from({ length: 20 }, (_, b) =>
        JSON.stringify({
          dataCollectionSimplyId: seed.collectionSimplyId,
          records: Array.from({ length: 100 }, (_, i) => ({ fields: seedInput(random, 10_000_000 + b * 100 + i, seed.fields) })),
        }),
      );
      if (postgraphileUrl) {
        Object.assign(
          requests,
          postgraphileScenarioRequests({ path: postgraphileUrl.pathname, teamId: team.teamId, collection: { id: seed.collectionId, records: seed.records }, ids }),
        );
      }
      Object.assign(
        requests,
        recordScenarioRequests({
          apiKey: team.apiKey,
          graphqlBody,
          collection: { id: seed.collectionId, simplyId: seed.collectionSimplyId, records: seed.records, fields: seed.fields },
          ids,
          batchBodies,
        }),
      );
    }
    const missing = plan.scenarios.filter((s) => !requests[s.id]);
    if (missing.length > 0) throw new Error(`no request for scenario(s) ${missing.map((s) => s.id).join(', ')}`);

    const loader = new LoadGenerator();
    cleanups.push(() => loader.close());
    await loader.ready;

    const totalRuns = plan.phases.reduce((n, p) => n + p.runs.length, 0);
    progress(
      `\n${totalRuns} run(s) of ${plan.scenarios.length} scenario(s): ${warmup}s warm-up + ${duration}s measured each; ` +
        `transports ${transports.join(', ')}; connections ${connections.join(', ')}; single runs at ${plan.home.transport}, ${plan.home.connections} connections; ` +
        `autocannon in child process ${loader.child.pid}, node ${process.version}, ${os.cpus().length} CPU(s)` +
        (profiler ? `; CPU profiles into ${profiler.dir}` : ''),
    );
    if (profiler) cleanups.push(() => profiler.close());

    // 5. the runs, one platform instance per phase -----------------------------------------------
    const results: ScenarioResult[] = [];
    const variantsSent = new Set<string>();
    for (const [index, phase] of plan.phases.entries()) {
      if (index > 0) {
        await platform.close();
        platform = await startPlatform(phase.transport);
      }
      const baseline: BaselineProcess = await startBaselineProcess({
        databaseUrl,
        poolSize: config.DB_POOL_SIZE,
        teamId: String(team.teamId),
        tls: phase.transport === 'https' ? platform.app.tls : null,
      });
      const closeBaseline = once(() => baseline.close());
      cleanups.push(closeBaseline);
      progress(`\n${phase.transport}: baseline listening on ${baseline.url} (process ${baseline.pid})`);

      for (const { scenario, cell } of phase.runs) {
        const request = requests[scenario.id]!;
        const base = scenario.target === 'baseline' ? baseline.url : scenario.target === 'external' ? postgraphileUrl!.origin : platform.url;
        const url = `${base}${request.path}`;
        const onPlatform = scenario.target === 'platform';
        const headers = { ...request.headers, ...transportHeaders(cell.transport) };
        // the certificate check autocannon does not do, and a correct answer before any load
        const check = await checkRequest(url, { ca: platform.ca, method: request.method, headers, body: request.body });
        const problem = request.expect(check.status, check.body);
        if (problem) throw new Error(`${scenario.id} (${cell.transport}, ${cell.connections} connections): ${problem}`);

        if (request.variants && !variantsSent.has(scenario.id)) {
          loader.defineVariants(scenario.id, request.variants);
          variantsSent.add(scenario.id);
        }
        const variantsKey = request.variants ? scenario.id : undefined;
        const load = { title: scenario.id, url, method: request.method, headers, body: request.body, variantsKey, connections: cell.connections };
        if (warmup > 0) await loader.run({ ...load, duration: warmup, record: false });

        const loadsBefore = platform.app.services.authenticator.loads;
        const queriesBefore = pgQueries();
        // a server in a process of its own (the baseline's child, PostGraphile) is read at its pid
        const onBaseline = scenario.target === 'baseline';
        const ownProcess = onBaseline || scenario.target === 'external';
        const profileName = `${scenario.id}.${cell.transport}-${cell.connections}c`;
        if (onBaseline) await baseline.beginRun(profiler?.dir ?? null);
        else if (profiler) await profiler.start();
        const external = onBaseline ? baseline.pid : scenario.target === 'external' ? postgraphilePid : null;
        const memory = sampleMemory(external);
        const cpuMeter = startCpuMeter(postmasterPid, external);
        const measured = await loader.run({ ...load, duration, record: true });
        const cpu = cpuMeter.stop(measured.loadGeneratorCpuMicros);
        const { rssMaxBytes, heapUsedMaxBytes, externalRssMaxBytes } = memory.stop();
        const inBaseline = onBaseline ? await baseline.endRun(profiler ? profileName : null) : null;
        const cpuProfile = inBaseline ? inBaseline.cpuProfile : profiler ? await profiler.stop(profileName) : null;
        const loads = platform.app.services.authenticator.loads - loadsBefore;
        const queries = inBaseline ? inBaseline.pgQueries : pgQueries() - queriesBefore;
        const responses = Math.max(1, measured.responses);
        const baselineResult = scenario.baseline
          ? results.find((r) => r.scenario === scenario.baseline && r.transport === cell.transport && r.connections === cell.connections)
          : undefined;
        const { id: _loadId, ...measuredFields } = measured;
        const result: ScenarioResult = {
          ...measuredFields,
          scenario: scenario.id,
          title: request.title,
          target: scenario.target,
          transport: cell.transport,
          connections: cell.connections,
          baseline: scenario.baseline,
          request: `${request.method} ${request.path}`,
          ratioToBaseline: baselineResult ? measured.requestsPerSecond / baselineResult.requestsPerSecond : null,
          credentialLoads: onPlatform ? loads : null,
          credentialLoadsPerRequest: onPlatform ? loads / responses : null,
          // the baseline and an external server are processes of their own: their CPU and RSS come
          // from /proc at their pid (PostGraphile's only when BENCH_POSTGRAPHILE_PID names it); the
          // baseline's child counts its own statements and heap
          pgQueriesPerRequest: scenario.target === 'external' ? null : queries / responses,
          serverCpuMicrosPerRequest: ownProcess ? (cpu.externalCpuMicros === null ? null : cpu.externalCpuMicros / responses) : cpu.serverCpuMicros / responses,
          serverCpuCores: ownProcess ? (cpu.split.external ?? 0) : cpu.split.server,
          cpu: cpu.split,
          rssMaxBytes: ownProcess ? externalRssMaxBytes : rssMaxBytes,
          heapUsedMaxBytes: inBaseline ? inBaseline.heapUsedMaxBytes : scenario.target === 'external' ? null : heapUsedMaxBytes,
          matched: request.matched ? request.matched(check.body) : null,
          note: request.note ? request.note(check.body) : null,
          cpuProfile,
        };
        results.push(result);
        progress(
          `  ${`${cell.transport} ${cell.connections}`.padEnd(9)} ${scenario.id.padEnd(28)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
            `p50 ${result.latency.p50.toFixed(2)} ms  p95 ${result.latency.p95.toFixed(2)} ms  p99 ${result.latency.p99.toFixed(2)} ms  ` +
            (result.rssMaxBytes !== null && result.heapUsedMaxBytes !== null ? `RSS ${mib(result.rssMaxBytes).toFixed(0)} MiB (heap ${mib(result.heapUsedMaxBytes).toFixed(0)})  ` : '') +
            `non-2xx ${result.non2xx}  errors ${result.errors}` +
            (result.ratioToBaseline !== null ? `  ${result.ratioToBaseline.toFixed(2)} × ${scenario.baseline}` : '') +
            (result.note ? `  (${result.note})` : ''),
        );
        await sleep(500);
      }
      await closeBaseline();
    }

    // 6. report -------------------------------------------------------------------------------
    const pgVersion = (await benchPool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '?';
    const cells: Cell[] = transports.flatMap((transport) => connections.map((n) => ({ transport, connections: n })));
    // results in matrix order (transports as listed, then connections), whatever order they ran in
    const cellIndex = (r: ScenarioResult) => cells.findIndex((c) => c.transport === r.transport && c.connections === r.connections);
    const ordered = results.map((r, i) => ({ r, i })).sort((a, b) => cellIndex(a.r) - cellIndex(b.r) || a.i - b.i).map((x) => x.r);
    report('');
    report(
      `node ${process.version} (NODE_ENV=${process.env.NODE_ENV}), ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, PostgreSQL ${pgVersion} (${embedded ? 'embedded' : 'DATABASE_URL'}), ` +
        `${warmup}s warm-up + ${duration}s per run, DB pool ${config.DB_POOL_SIZE}; https: TLS in the server; http: TRUST_PROXY, plain HTTP with x-forwarded-proto: https`,
    );
    for (const line of resultTables(ordered, cells)) report(line);
    if (seeded) {
      report('');
      report(
        `records: ${seeded.records} seeded into collection ${seeded.dataCollectionSimplyId} in ${seeded.insertSeconds.toFixed(1)} s, VACUUM (ANALYZE) ${seeded.analyzeSeconds.toFixed(1)} s`,
      );
      const notes = new Map(ordered.filter((r) => r.note).map((r) => [r.scenario, r.note]));
      for (const [scenario, note] of notes) report(`  ${scenario}: ${note}`);
    }
    // the platform's runs only: a baseline's and an external server's memory is their own
    const peak = ordered.reduce<ScenarioResult | null>((max, r) => (r.target === 'platform' && (max === null || r.rssMaxBytes! > max.rssMaxBytes!) ? r : max), null);
    if (peak) {
      report(
        `\nserver RSS: at most ${mib(peak.rssMaxBytes!).toFixed(0)} MiB over the platform's measured runs (${peak.scenario}, ${peak.transport}, ${peak.connections} connections; ` +
          `V8 heap in use at most ${mib(Math.max(...ordered.filter((r) => r.target === 'platform').map((r) => r.heapUsedMaxBytes!))).toFixed(0)} MiB)`,
      );
    }
    const targets = judgeTargets(ordered, seeded?.records ?? null);
    for (const line of targetLines(targets)) report(line);
    if (profiler) report(`\nCPU profiles (measured runs only): ${profiler.dir}`);
    // PostGraphile's own CPU is "other processes" in its rows
    const busiest = Math.max(0, ...results.filter((r) => r.target !== 'external').map((r) => r.cpu.other ?? 0));
    if (busiest > 0.25) {
      report(`warning: other processes used up to ${busiest.toFixed(2)} cores during the runs; the figures are not from a quiet machine`);
    }
    for (const r of ordered) {
      if (r.credentialLoadsPerRequest !== null && r.credentialLoadsPerRequest > 0.001) {
        report(`warning: ${r.scenario} (${r.transport}, ${r.connections}) loaded credentials from the database ${r.credentialLoads} times during the measured run`);
      }
    }
    const failed = ordered.filter((r) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.ok === 0);
    for (const r of failed) report(`warning: ${r.scenario} (${r.transport}, ${r.connections}) had ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
    const totalSeconds = (Date.now() - startedAt) / 1000;
    report(`total ${totalSeconds.toFixed(1)} s`);

    const summary = {
      startedAt: new Date(startedAt).toISOString(),
      totalSeconds,
      environment: {
        node: process.version,
        nodeEnv: process.env.NODE_ENV,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model.trim() ?? null,
        postgres: pgVersion,
        database: embedded ? 'embedded' : 'DATABASE_URL',
        dbPoolSize: config.DB_POOL_SIZE,
      },
      settings: {
        durationSeconds: duration,
        warmupSeconds: warmup,
        connections,
        transports,
        singleRunsAt: plan.home,
        loadGenerator: 'autocannon 9, forked child process',
      },
      seed: seeded,
      rssMaxBytes: peak?.rssMaxBytes ?? null,
      postgraphileUrl: postgraphileUrl?.href ?? null,
      targets,
      results: ordered,
    };
    return { code: failed.length > 0 ? 1 : 0, summary };
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    if (!interrupted) await cleanup();
    stopCountingPgQueries();
  }
}

/**
 * The seed runs as its own process (the seed-records CLI): the 100 000 records it builds would
 * otherwise grow this process's heap, which is the platform's, before anything is measured.
 */
async function seedInChildProcess(databaseUrl: string, teamSimplyId: string, records: number) {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./seed-records.ts', import.meta.url)), '--records', String(records), '--team', teamSimplyId], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`scripts/seed-records.ts exited with ${code}`);
  const out = JSON.parse(stdout) as { dataCollectionSimplyId: string; dataCollectionId: string; fields: Record<SeedColumn, string>; records: number; insertSeconds: number; analyzeSeconds: number };
  return { collectionSimplyId: out.dataCollectionSimplyId, collectionId: BigInt(out.dataCollectionId), fields: out.fields, records: out.records, insertSeconds: out.insertSeconds, analyzeSeconds: out.analyzeSeconds };
}

// the platform is measured under the heap settings it runs with (src/cli/server-flags.ts)
if (!relaunchWithServerFlags()) {
  let code = 1;
  try {
    code = await main();
  } catch (error) {
    if (!interrupted) progress(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  process.exitCode = code;
  // embedded-postgres installs async-exit-hook, whose 'beforeExit' listener calls process.exit(0)
  // and so would turn a failed run into exit 0: exit with our code first. 'beforeExit' only fires
  // once nothing holds the event loop, so reaching it still proves everything was closed.
  process.prependOnceListener('beforeExit', () => process.exit(code));
  // should a library still hold a handle, say which rather than hang
  setTimeout(() => {
    progress(`bench: still alive 5 s after cleanup (${process.getActiveResourcesInfo().join(', ')}); exiting`);
    process.exit(code);
  }, 5_000).unref();
}
