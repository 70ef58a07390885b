// `npm run bench`: throughput and latency of the platform against a bare HTTPS + pg baseline.
// docs/benchmark.md describes the method and holds the latest figures.
//
// One process (this one) runs PostgreSQL's client side, the platform server (startApp, HTTPS)
// and the baseline server (node:https + one indexed SELECT through pg), one of them under load
// at a time. autocannon runs in a forked child process (this same file, `--load-generator`) so
// the load generator does not share the servers' event loop.
//
// Environment:
//   DATABASE_URL     use this PostgreSQL (migrations are applied; a "Bench …" team is left in it)
//                    instead of an embedded cluster in a fresh temp folder
//   BENCH_DURATION   seconds measured per scenario (default 10)
//   BENCH_WARMUP     seconds of warm-up per scenario, not measured (default 2)
//   BENCH_CONNECTIONS concurrent keep-alive connections (default 10)
//   BENCH_ONLY       comma-separated scenario ids to run (default: all; see SCENARIO_IDS below);
//                    `records` stands for every record scenario
//   BENCH_RECORDS    records seeded for the record scenarios (default 100000; scripts/seed-records.ts)
//   BENCH_JSON=1     print a JSON summary on stdout (the human-readable report goes to stderr)
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------------------------
// Load generator (child process)
// ---------------------------------------------------------------------------------------------

interface LoadRequest {
  id: number;
  title: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** when set, requests cycle through these paths (and bodies) instead of `url`'s path and `body`,
   *  one shared cursor across all connections */
  variants?: RequestVariant[];
  connections: number;
  /** seconds */
  duration: number;
  /** collect per-response latencies (sub-millisecond) for the percentiles */
  record: boolean;
}

interface RequestVariant {
  path: string;
  body?: string;
}

interface LoadResult {
  id: number;
  title: string;
  /** seconds actually run */
  duration: number;
  /** autocannon: mean of the per-second request counts */
  requestsPerSecond: number;
  /** completed responses, any status */
  responses: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** ms, from per-response hrtime (autocannon's own histogram is whole milliseconds) */
  latency: { p50: number; p90: number; p95: number; p99: number; max: number; mean: number };
  /** autocannon's own (whole-millisecond) latency percentiles, for reference */
  autocannonLatency: { p50: number; p90: number; p99: number };
  /** CPU time the load generator process used during the run, microseconds */
  loadGeneratorCpuMicros: number;
}

type ToChild = { kind: 'run'; request: LoadRequest };
type FromChild = { kind: 'result'; result: LoadResult } | { kind: 'error'; id: number; message: string };

async function loadGenerator(): Promise<void> {
  const { default: autocannon } = await import('autocannon');
  // the parent going away (crash, Ctrl-C) ends this process too
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: ToChild) => {
    if (message.kind !== 'run') return;
    const request = message.request;
    const latencies: number[] = [];
    const cpuBefore = process.cpuUsage();
    const url = new URL(request.url);
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      process.send!({ kind: 'error', id: request.id, message: `refusing to load a non-loopback host: ${url.hostname}` } satisfies FromChild);
      return;
    }
    const variants = request.variants;
    let nextVariant = 0;
    const instance = autocannon(
      {
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: request.body,
        // one request template whose setupRequest picks the next variant: autocannon rebuilds the
        // request bytes for every request then (a few µs in this process, none in the server)
        ...(variants && variants.length > 0
          ? {
              requests: [
                {
                  setupRequest: (req: any) => {
                    const variant = variants[nextVariant++ % variants.length]!;
                    return { ...req, path: variant.path, ...(variant.body !== undefined ? { body: variant.body } : {}) };
                  },
                },
              ],
            }
          : {}),
        connections: request.connections,
        duration: request.duration,
        pipelining: 1,
        timeout: 10,
        // autocannon always passes rejectUnauthorized: false to tls.connect (lib/httpClient.js),
        // whatever tlsOptions say; the parent checks the certificate itself before each scenario.
      },
      (error, result) => {
        if (error) {
          process.send!({ kind: 'error', id: request.id, message: String(error) } satisfies FromChild);
          return;
        }
        latencies.sort((a, b) => a - b);
        const at = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]! : 0);
        const mean = latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : 0;
        const non2xx = result.non2xx;
        process.send!({
          kind: 'result',
          result: {
            id: request.id,
            title: request.title,
            duration: result.duration,
            requestsPerSecond: result.requests.average,
            responses: result['2xx'] + non2xx,
            ok: result['2xx'],
            non2xx,
            errors: result.errors,
            timeouts: result.timeouts,
            latency: { p50: at(50), p90: at(90), p95: at(95), p99: at(99), max: latencies.at(-1) ?? 0, mean },
            autocannonLatency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99 },
            loadGeneratorCpuMicros: ((c) => c.user + c.system)(process.cpuUsage(cpuBefore)),
          },
        } satisfies FromChild);
      },
    );
    if (request.record) {
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      });
    }
  });
  process.send!({ kind: 'ready' });
}

class LoadGenerator {
  readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  private readonly exited: Promise<void>;
  readonly ready: Promise<void>;

  constructor() {
    this.child = fork(fileURLToPath(import.meta.url), ['--load-generator'], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.ready = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('exit', (code) => {
        reject(new Error(`load generator exited early (code ${code})`));
        for (const p of this.pending.values()) p.reject(new Error(`load generator exited (code ${code})`));
        this.pending.clear();
      });
      this.child.on('message', (message: FromChild | { kind: 'ready' }) => {
        if (message.kind === 'ready') return resolve();
        const id = message.kind === 'result' ? message.result.id : message.id;
        const waiter = this.pending.get(id);
        this.pending.delete(id);
        if (message.kind === 'result') waiter?.resolve(message.result);
        else waiter?.reject(new Error(message.message));
      });
    });
  }

  run(request: Omit<LoadRequest, 'id'>): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ kind: 'run', request: { ...request, id } } satisfies ToChild);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      if (this.child.connected) this.child.disconnect();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Orchestrator (parent process)
// ---------------------------------------------------------------------------------------------

const CORE_SCENARIO_IDS = ['baseline', 'healthz', 'rest-me', 'graphql-me', 'rest-team-roles', 'graphql-team-roles'] as const;
/** need the seeded collection (BENCH_RECORDS records); `BENCH_ONLY=records` selects them all */
const RECORD_SCENARIO_IDS = [
  'rest-record-get',
  'rest-record-list',
  'rest-record-search',
  'rest-record-search-selective',
  'rest-record-batch-create',
] as const;
const SCENARIO_IDS = [...CORE_SCENARIO_IDS, ...RECORD_SCENARIO_IDS] as const;

/** What the record scenarios are held to (docs/benchmark.md "Record scenarios"); null: not measurable in this run. */
const TARGETS: { scenario: string; label: string; met: (r: ScenarioResult) => boolean | null; value: (r: ScenarioResult) => string }[] = [
  {
    scenario: 'rest-record-get',
    label: 'record get ≥ 0.5 × baseline req/s',
    met: (r) => (r.ratioToBaseline === null ? null : r.ratioToBaseline >= 0.5),
    value: (r) => (r.ratioToBaseline === null ? 'no baseline in this run' : `${r.ratioToBaseline.toFixed(2)} ×`),
  },
  { scenario: 'rest-record-search', label: 'search p95 < 25 ms', met: (r) => r.latency.p95 < 25, value: (r) => `${r.latency.p95.toFixed(1)} ms` },
  { scenario: 'rest-record-search-selective', label: 'selective search p95 < 25 ms', met: (r) => r.latency.p95 < 25, value: (r) => `${r.latency.p95.toFixed(1)} ms` },
  { scenario: 'rest-record-batch-create', label: 'batch create of 100 p50 < 200 ms', met: (r) => r.latency.p50 < 200, value: (r) => `${r.latency.p50.toFixed(1)} ms` },
];

interface Scenario {
  id: string;
  title: string;
  /** where it runs: the bare baseline server or the platform */
  target: 'baseline' | 'platform';
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** requests cycle through these (path, body); the check request uses the first */
  variants?: RequestVariant[];
  /** checks one response (status and body) before the scenario is measured */
  expect: (status: number, body: any) => string | null;
  /** a line about the checked response for the report (rows matched, …) */
  note?: (body: any) => string;
}

interface ScenarioResult extends Omit<LoadResult, 'id'> {
  scenario: string;
  target: Scenario['target'];
  request: string;
  ratioToBaseline: number | null;
  /** Authenticator.loads during the measured run, and per response */
  credentialLoads: number | null;
  credentialLoadsPerRequest: number | null;
  /** statements sent through pg (every pool in this process) per response */
  pgQueriesPerRequest: number;
  /** CPU time of the server process (user + system, all threads) per response, microseconds */
  serverCpuMicrosPerRequest: number;
  /** server process CPU use over the measured run, in cores (1.0 = one core saturated) */
  serverCpuCores: number;
  /** machine-wide CPU use during the measured run, in cores */
  cpu: CpuSplit;
  /** from the check request (Scenario.note) */
  note: string | null;
}

function numberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number ≥ ${min} (got "${raw}")`);
  return value;
}

const jsonMode = process.env.BENCH_JSON === '1' || process.env.BENCH_JSON === 'true';
/** progress lines always go to stderr; the report goes to stdout, or to stderr when stdout carries the JSON */
const progress = (line: string) => process.stderr.write(`${line}\n`);
const report = (line: string) => (jsonMode ? process.stderr : process.stdout).write(`${line}\n`);

/** One HTTPS request that verifies the server certificate against `ca` (unlike autocannon). */
function verifiedRequest(
  url: string,
  options: { ca: string; method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: options.method, headers: options.headers, ca: options.ca, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** CPU accounting from /proc (Linux): who used the machine's cores during a measured run. */
const CLOCK_TICKS_PER_SECOND = 100;

function machineTicks(): { busy: number; steal: number } | null {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return { busy: user + nice + system + irq + softirq + steal, steal };
  } catch {
    return null;
  }
}

/** utime + stime per process of the postmaster and its children, in clock ticks (null when not measurable). */
function postgresTicks(postmasterPid: number | null): Map<number, number> | null {
  if (postmasterPid === null) return null;
  const ticks = new Map<number, number>();
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // exited meanwhile
      }
      // fields after "(comm)": state ppid … utime(14) stime(15), counted from the pid as field 1
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      if (pid !== postmasterPid && Number(rest[1]) !== postmasterPid) continue;
      ticks.set(pid, Number(rest[11]) + Number(rest[12]));
    }
    return ticks;
  } catch {
    return null;
  }
}

/**
 * Ticks the cluster used between two snapshots. Backends come and go (pg.Pool closes clients idle
 * for 10 s): a process only in `after` counts whole, one gone by `after` is left out (it was idle).
 */
function postgresDelta(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, ticks] of after) total += ticks - (before.get(pid) ?? 0);
  return total;
}

interface CpuSplit {
  /** cores in use on average over the run (1.0 = one core busy the whole time) */
  server: number;
  loadGenerator: number;
  /** the embedded cluster's processes; null with DATABASE_URL */
  postgres: number | null;
  /** everything else on the machine (other processes), null when /proc is not readable */
  other: number | null;
  /** time the hypervisor gave to other guests */
  steal: number | null;
  machineCores: number;
}

/** set on SIGINT/SIGTERM: cleanup runs from the signal handler, failures after it are expected */
let interrupted = false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<number> {
  const duration = numberFromEnv('BENCH_DURATION', 10, 1);
  const warmup = numberFromEnv('BENCH_WARMUP', 2, 0);
  const connections = Math.round(numberFromEnv('BENCH_CONNECTIONS', 10, 1));
  const recordCount = Math.round(numberFromEnv('BENCH_RECORDS', 100_000, 100));
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((id) => (id === 'records' ? [...RECORD_SCENARIO_IDS] : [id]));
  const unknown = only.filter((id) => !(SCENARIO_IDS as readonly string[]).includes(id));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIO_IDS.join(', ')}, records`);
  const wants = (id: string) => only.length === 0 || only.includes(id);
  const withRecords = RECORD_SCENARIO_IDS.some(wants);
  const startedAt = Date.now();

  // Measure what production runs: graphql-js and the Pothos Prisma plugin read NODE_ENV when they
  // are imported (development adds multi-realm instanceOf checks and unused-selection checks).
  process.env.NODE_ENV ??= 'production';

  // Count every statement sent through pg in this process (Prisma's adapter, the baseline pool,
  // pg-boss, the notifier): the platform and the baseline pay the same tiny wrapper.
  const { default: pg } = await import('pg');
  let pgQueries = 0;
  const clientProto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const originalQuery = clientProto.query;
  clientProto.query = function countedQuery(this: unknown, ...args: unknown[]) {
    pgQueries++;
    return originalQuery.apply(this, args);
  };

  const { loadConfig } = await import('../src/app/config.ts');
  const { startEmbeddedPostgres } = await import('../src/db/embedded-postgres.ts');
  const { applyPendingMigrations } = await import('../src/db/schema-engine/migrations.ts');
  const { startApp } = await import('../src/app/server.ts');
  const { createLogger } = await import('../src/app/logger.ts');
  const { bootstrapTeam } = await import('../src/modules/teams/bootstrap.service.ts');
  const { FEATURE_PERMISSIONS } = await import('../src/app/auth/feature-permissions.ts');
  const { routes } = await import('../src/app/modules.ts');
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

    // 2. the platform, in this process ---------------------------------------------------------
    const config = loadConfig(
      process.env,
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: 0,
        LOG_LEVEL: 'silent',
        TRUST_PROXY: false,
        JOBS_IN_SERVER: false,
        RATE_LIMIT_PER_MINUTE: 1_000_000_000,
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: 1_000_000_000,
        SHUTDOWN_TIMEOUT_MS: 2_000,
      },
    );
    const app: App = await startApp({ config, databaseUrl, migrate: false, runJobs: false, logger: createLogger('silent') });
    cleanups.push(() => app.close());
    if (!app.tls) throw new Error('the platform started without TLS');
    const ca = app.tls.cert;
    progress(`platform listening on ${app.baseUrl}`);

    // the tenant: a team, its admin user (JWT), a full-access API key, and ten roles to list
    const team = await bootstrapTeam(app.services.prisma, {
      teamName: `Bench ${new Date().toISOString()}`,
      email: `bench-${randomBytes(5).toString('hex')}@example.test`,
      password: randomBytes(18).toString('base64url'),
    });
    const { token: userToken } = await app.services.jwt.issueAccessToken(team.userSimplyId);
    for (let i = 1; i <= 9; i++) {
      const created = await verifiedRequest(`${app.baseUrl}/v1/team-roles`, {
        ca,
        method: 'POST',
        headers: { authorization: `Bearer ${team.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Bench role ${i}`,
          dataPermissions: [{ dataCollectionSimplyId: '*', level: 'READ' }],
          featurePermissions: FEATURE_PERMISSIONS.slice(0, i).map((name) => ({ name, level: i % 2 ? 'VIEW' : 'EDIT' })),
        }),
      });
      if (created.status !== 201) throw new Error(`creating a role: ${created.status} ${JSON.stringify(created.body)}`);
    }

    // 3. the baseline: bare node:https, same certificate, one indexed SELECT through pg ---------
    const baselinePool = new pg.Pool({ connectionString: databaseUrl, max: config.DB_POOL_SIZE, application_name: 'svc-bench-baseline' });
    baselinePool.on('error', () => {});
    cleanups.push(() => baselinePool.end());
    const baseline = https.createServer(
      { cert: app.tls.cert, key: app.tls.key, keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 60_000 },
      (req, res) => {
        const simplyId = decodeURIComponent((req.url ?? '').slice('/teams/'.length));
        baselinePool.query('SELECT id, name FROM "Team" WHERE "simplyId" = $1', [simplyId]).then(
          (result) => {
            const row = result.rows[0];
            const payload = JSON.stringify(row ? { data: { id: String(row.id), name: row.name } } : { error: 'not found' });
            res.writeHead(row ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
            res.end(payload);
          },
          () => {
            res.writeHead(500);
            res.end();
          },
        );
      },
    );
    await new Promise<void>((resolve, reject) => {
      baseline.once('error', reject);
      baseline.listen(0, '127.0.0.1', () => resolve());
    });
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          baseline.close(() => resolve());
          baseline.closeAllConnections();
        }),
    );
    const baselineUrl = `https://127.0.0.1:${(baseline.address() as AddressInfo).port}`;
    progress(`baseline listening on ${baselineUrl}`);

    // 4. scenarios ----------------------------------------------------------------------------
    const route = (method: string, p: string) => {
      const found = routes.find((r) => r.method === method && r.path === p);
      if (!found) throw new Error(`no REST route ${method} ${p}`);
      return found;
    };
    // the GraphQL twin of a REST route: its operation, with the variables the route builds from the same query
    const restVariables = (method: string, p: string, query: string) => {
      const r = route(method, p);
      return r.variables?.(validateInput(r, {}, new URLSearchParams(query), undefined)) ?? {};
    };
    const graphqlBody = (method: string, p: string, query: string) =>
      JSON.stringify({ query: route(method, p).operation, variables: restVariables(method, p, query) });
    const userHeaders = { authorization: `Bearer ${userToken}`, 'x-team-id': team.teamSimplyId };
    const keyHeaders = { authorization: `Bearer ${team.apiKey}` };
    const gqlHeaders = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' };
    const noErrors = (body: any) => (body?.errors ? `GraphQL errors: ${JSON.stringify(body.errors)}` : null);

    const scenarios: Scenario[] = [
      {
        id: 'baseline',
        title: 'baseline: node:https + pg SELECT',
        target: 'baseline',
        method: 'GET',
        path: `/teams/${encodeURIComponent(team.teamSimplyId)}`,
        headers: {},
        expect: (status, body) => (status === 200 && body?.data?.id === String(team.teamId) ? null : `unexpected ${status} ${JSON.stringify(body)}`),
      },
      {
        id: 'healthz',
        title: 'platform GET /healthz (no auth, no DB)',
        target: 'platform',
        method: 'GET',
        path: '/healthz',
        headers: {},
        expect: (status, body) => (status === 200 && body?.data?.status === 'ok' ? null : `unexpected ${status} ${JSON.stringify(body)}`),
      },
      {
        id: 'rest-me',
        title: 'REST GET /v1/users/me (user JWT + X-Team-Id)',
        target: 'platform',
        method: 'GET',
        path: '/v1/users/me',
        headers: userHeaders,
        expect: (status, body) =>
          status === 200 && body?.data?.userSimplyId === team.userSimplyId && body.data.selectedTeam?.teamSimplyId === team.teamSimplyId
            ? null
            : `unexpected ${status} ${JSON.stringify(body)}`,
      },
      {
        id: 'graphql-me',
        title: 'GraphQL me (same selection, user JWT)',
        target: 'platform',
        method: 'POST',
        path: '/graphql',
        headers: { ...userHeaders, ...gqlHeaders },
        body: graphqlBody('GET', '/v1/users/me', ''),
        expect: (status, body) =>
          noErrors(body) ?? (status === 200 && body?.data?.me?.userSimplyId === team.userSimplyId ? null : `unexpected ${status} ${JSON.stringify(body)}`),
      },
      {
        id: 'rest-team-roles',
        title: 'REST GET /v1/team-roles?limit=25 (API key)',
        target: 'platform',
        method: 'GET',
        path: '/v1/team-roles?limit=25',
        headers: keyHeaders,
        expect: (status, body) =>
          status === 200 && Array.isArray(body?.data) && body.data.length === 10 ? null : `unexpected ${status} ${JSON.stringify(body)}`,
      },
      {
        id: 'graphql-team-roles',
        title: 'GraphQL teamRoles(limit: 25) (same selection, API key)',
        target: 'platform',
        method: 'POST',
        path: '/graphql',
        headers: { ...keyHeaders, ...gqlHeaders },
        body: graphqlBody('GET', '/v1/team-roles', 'limit=25'),
        expect: (status, body) =>
          noErrors(body) ?? (status === 200 && body?.data?.teamRoles?.nodes?.length === 10 ? null : `unexpected ${status} ${JSON.stringify(body)}`),
      },
    ];
    if (scenarios.map((s) => s.id).join() !== CORE_SCENARIO_IDS.join()) throw new Error('CORE_SCENARIO_IDS is out of step with the scenarios');

    // 4b. records: a seeded collection, then the record scenarios ------------------------------
    let seeded: { records: number; insertSeconds: number; analyzeSeconds: number; dataCollectionSimplyId: string } | null = null;
    if (withRecords) {
      const { seedRecords, seedInput, seedRandom, SEED_STATUSES } = await import('./seed-records.ts');
      progress(`seeding ${recordCount} records (scripts/seed-records.ts)…`);
      const seed = await seedRecords(app.services.pool, app.services.prisma, team.teamId, recordCount, { log: progress });
      // the NOTIFY from the seed would do this too, a moment later
      app.services.schemas.invalidate(team.teamId);
      progress(`  ${seed.records} records in ${seed.insertSeconds.toFixed(1)} s (${Math.round(seed.records / seed.insertSeconds)}/s), VACUUM (ANALYZE) ${seed.analyzeSeconds.toFixed(1)} s`);
      seeded = { records: seed.records, insertSeconds: seed.insertSeconds, analyzeSeconds: seed.analyzeSeconds, dataCollectionSimplyId: seed.collectionSimplyId };
      const f = seed.fields;
      const collection = seed.collectionSimplyId;
      // record gets cycle through up to 10 000 ids spread over the whole collection
      const ids = (
        await baselinePool.query<{ simplyId: string }>(
          `SELECT "simplyId" FROM "DataRecord" WHERE "teamId" = $1 AND "collectionId" = $2 ORDER BY random() LIMIT 10000`,
          [team.teamId, seed.collectionId],
        )
      ).rows.map((r) => r.simplyId);
      const jsonHeaders = { ...keyHeaders, 'content-type': 'application/json' };
      const searchBody = (status: string, minAmount: string) =>
        JSON.stringify({
          dataCollectionSimplyId: collection,
          filters: [
            { field: f.status, operator: 'eq', value: status },
            { field: f.amount, operator: 'gte', value: minAmount },
          ],
          limit: 25,
        });
      const searchExpect = (status: string, minAmount: number) => (code: number, body: any) => {
        if (code !== 200 || !Array.isArray(body?.data)) return `unexpected ${code} ${JSON.stringify(body)}`;
        const wrong = body.data.find((r: any) => r.fields?.[f.status] !== status || Number(r.fields?.[f.amount]) < minAmount);
        if (wrong) return `a row that does not match the filters: ${JSON.stringify(wrong)}`;
        return body.data.length === Math.min(25, body.meta?.pagination?.total ?? -1) ? null : `page and total disagree: ${JSON.stringify(body.meta)}`;
      };
      const matched = (body: any) => `${body?.meta?.pagination?.total} of ${seed.records} match`;
      // batch bodies: 20 different sets of 100 records (values as the seed makes them), in turn
      const random = seedRandom(7);
      const batchBodies = Array.from({ length: 20 }, (_, b) =>
        JSON.stringify({ dataCollectionSimplyId: collection, records: Array.from({ length: 100 }, (_, i) => ({ fields: seedInput(random, 10_000_000 + b * 100 + i, f) })) }),
      );
      if (!SEED_STATUSES.includes('active') || !SEED_STATUSES.includes('trial')) throw new Error('the search scenarios expect statuses active and trial');
      scenarios.push(
        {
          id: 'rest-record-get',
          title: 'REST GET /v1/data-records/{id} (API key, random ids)',
          target: 'platform',
          method: 'GET',
          path: `/v1/data-records/${ids[0]}`,
          variants: ids.map((id) => ({ path: `/v1/data-records/${id}` })),
          headers: keyHeaders,
          expect: (status, body) =>
            status === 200 && body?.data?.id === ids[0] && body.data.dataCollectionSimplyId === collection && typeof body.data.fields?.[f.email] === 'string'
              ? null
              : `unexpected ${status} ${JSON.stringify(body)}`,
          note: () => `${ids.length} ids in turn`,
        },
        {
          id: 'rest-record-list',
          title: 'REST GET /v1/data-records?dataCollectionSimplyId=…&limit=25 (API key)',
          target: 'platform',
          method: 'GET',
          path: `/v1/data-records?dataCollectionSimplyId=${collection}&limit=25`,
          headers: keyHeaders,
          expect: (status, body) =>
            status === 200 && Array.isArray(body?.data) && body.data.length === 25 && body.meta?.pagination?.total >= seed.records
              ? null
              : `unexpected ${status} ${JSON.stringify(body?.meta ?? body)}`,
          note: (body) => `total ${body?.meta?.pagination?.total}`,
        },
        {
          id: 'rest-record-search',
          title: "REST POST /v1/data-records/search status eq 'active' AND amount gte 500.00, limit 25",
          target: 'platform',
          method: 'POST',
          path: '/v1/data-records/search',
          headers: jsonHeaders,
          body: searchBody('active', '500.00'),
          expect: searchExpect('active', 500),
          note: matched,
        },
        {
          id: 'rest-record-search-selective',
          title: "REST POST /v1/data-records/search status eq 'trial' AND amount gte 990.00, limit 25",
          target: 'platform',
          method: 'POST',
          path: '/v1/data-records/search',
          headers: jsonHeaders,
          body: searchBody('trial', '990.00'),
          expect: searchExpect('trial', 990),
          note: matched,
        },
        {
          id: 'rest-record-batch-create',
          title: 'REST POST /v1/data-records/batch, 100 records per request',
          target: 'platform',
          method: 'POST',
          path: '/v1/data-records/batch',
          headers: jsonHeaders,
          body: batchBodies[0],
          variants: batchBodies.map((body) => ({ path: '/v1/data-records/batch', body })),
          expect: (status, body) =>
            status === 200 && body?.data?.created === 100 && body.data.failed === 0 ? null : `unexpected ${status} ${JSON.stringify(body).slice(0, 2000)}`,
          note: () => `${batchBodies.length} different bodies in turn`,
        },
      );
      if (scenarios.map((s) => s.id).join() !== SCENARIO_IDS.join()) throw new Error('SCENARIO_IDS is out of step with the scenarios');
    }
    const selected = scenarios.filter((s) => wants(s.id));

    const loader = new LoadGenerator();
    cleanups.push(() => loader.close());
    await loader.ready;

    progress(
      `\n${selected.length} scenario(s): ${warmup}s warm-up + ${duration}s measured each, ${connections} connections, ` +
        `autocannon in child process ${loader.child.pid}, node ${process.version}, ${os.cpus().length} CPU(s)`,
    );
    const results: ScenarioResult[] = [];
    for (const scenario of selected) {
      const base = scenario.target === 'baseline' ? baselineUrl : app.baseUrl;
      const url = `${base}${scenario.path}`;
      // the certificate check autocannon does not do, and a correct answer before any load
      const check = await verifiedRequest(url, { ca, method: scenario.method, headers: scenario.headers, body: scenario.body });
      const problem = scenario.expect(check.status, check.body);
      if (problem) throw new Error(`${scenario.id}: ${problem}`);

      const load = { title: scenario.id, url, method: scenario.method, headers: scenario.headers, body: scenario.body, variants: scenario.variants, connections };
      if (warmup > 0) await loader.run({ ...load, duration: warmup, record: false });

      const loadsBefore = app.services.authenticator.loads;
      const queriesBefore = pgQueries;
      const machineBefore = machineTicks();
      const postgresBefore = postgresTicks(postmasterPid());
      const cpuBefore = process.cpuUsage();
      const wallBefore = process.hrtime.bigint();
      const measured = await loader.run({ ...load, duration, record: true });
      const wallSeconds = Number(process.hrtime.bigint() - wallBefore) / 1e9;
      const cpu = process.cpuUsage(cpuBefore);
      const machineAfter = machineTicks();
      const postgresAfter = postgresTicks(postmasterPid());
      const cores = (ticks: number) => ticks / CLOCK_TICKS_PER_SECOND / wallSeconds;
      const serverCores = (cpu.user + cpu.system) / 1e6 / wallSeconds;
      const loadGeneratorCores = measured.loadGeneratorCpuMicros / 1e6 / wallSeconds;
      const postgresTicksUsed = postgresDelta(postgresBefore, postgresAfter);
      const postgresCores = postgresTicksUsed === null ? null : cores(postgresTicksUsed);
      const busyCores = machineBefore && machineAfter ? cores(machineAfter.busy - machineBefore.busy) : null;
      const cpuSplit: CpuSplit = {
        server: serverCores,
        loadGenerator: loadGeneratorCores,
        postgres: postgresCores,
        other: busyCores === null || postgresCores === null ? null : Math.max(0, busyCores - serverCores - loadGeneratorCores - postgresCores - (cores(machineAfter!.steal - machineBefore!.steal))),
        steal: machineBefore && machineAfter ? cores(machineAfter.steal - machineBefore.steal) : null,
        machineCores: os.cpus().length,
      };
      const loads = app.services.authenticator.loads - loadsBefore;
      const queries = pgQueries - queriesBefore;
      const responses = Math.max(1, measured.responses);
      const baselineResult = results.find((r) => r.scenario === 'baseline');
      const { id: _loadId, ...measuredFields } = measured;
      const result: ScenarioResult = {
        ...measuredFields,
        scenario: scenario.id,
        title: scenario.title,
        target: scenario.target,
        request: `${scenario.method} ${scenario.path}`,
        ratioToBaseline: baselineResult ? measured.requestsPerSecond / baselineResult.requestsPerSecond : null,
        credentialLoads: scenario.target === 'platform' ? loads : null,
        credentialLoadsPerRequest: scenario.target === 'platform' ? loads / responses : null,
        pgQueriesPerRequest: queries / responses,
        serverCpuMicrosPerRequest: (cpu.user + cpu.system) / responses,
        serverCpuCores: serverCores,
        cpu: cpuSplit,
        note: scenario.note ? scenario.note(check.body) : null,
      };
      results.push(result);
      progress(
        `  ${scenario.id.padEnd(20)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50.toFixed(2)} ms  ` +
          `p95 ${result.latency.p95.toFixed(2)} ms  p99 ${result.latency.p99.toFixed(2)} ms  non-2xx ${result.non2xx}  errors ${result.errors}` +
          (result.note ? `  (${result.note})` : ''),
      );
      await sleep(500);
    }

    // 5. report -------------------------------------------------------------------------------
    const pgVersion = (await baselinePool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '?';
    const header = ['scenario', 'req/s', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms', 'errors', 'non-2xx', 'vs baseline', 'cred loads/req', 'pg queries/req', 'server CPU µs/req'];
    const rows = results.map((r) => [
      r.scenario,
      r.requestsPerSecond.toFixed(0),
      r.latency.p50.toFixed(2),
      r.latency.p90.toFixed(2),
      r.latency.p95.toFixed(2),
      r.latency.p99.toFixed(2),
      String(r.errors + r.timeouts),
      String(r.non2xx),
      r.ratioToBaseline === null ? (r.scenario === 'baseline' ? '1.00' : 'n/a') : r.ratioToBaseline.toFixed(2),
      r.credentialLoadsPerRequest === null ? '-' : `${r.credentialLoadsPerRequest.toFixed(4)} (${r.credentialLoads})`,
      r.pgQueriesPerRequest.toFixed(2),
      r.serverCpuMicrosPerRequest.toFixed(0),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
    report('');
    report(
      `node ${process.version} (NODE_ENV=${process.env.NODE_ENV}), ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, PostgreSQL ${pgVersion} (${embedded ? 'embedded' : 'DATABASE_URL'}), ` +
        `${connections} connections, ${warmup}s warm-up + ${duration}s per scenario, DB pool ${config.DB_POOL_SIZE}`,
    );
    report(line(header));
    report(`|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const row of rows) report(line(row));
    report('');
    report('CPU during the measured runs, in cores (of ' + os.cpus().length + '):');
    const cpuHeader = ['scenario', 'server', 'postgres', 'autocannon', 'other processes', 'steal'];
    const fmt = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));
    const cpuRows = results.map((r) => [r.scenario, fmt(r.cpu.server), fmt(r.cpu.postgres), fmt(r.cpu.loadGenerator), fmt(r.cpu.other), fmt(r.cpu.steal)]);
    const cpuWidths = cpuHeader.map((h, i) => Math.max(h.length, ...cpuRows.map((row) => row[i]!.length)));
    const cpuLine = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(cpuWidths[i]!) : c.padStart(cpuWidths[i]!))).join(' | ')} |`;
    report(cpuLine(cpuHeader));
    report(`|${cpuWidths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const row of cpuRows) report(cpuLine(row));
    if (seeded) {
      report('');
      report(
        `records: ${seeded.records} seeded into collection ${seeded.dataCollectionSimplyId} in ${seeded.insertSeconds.toFixed(1)} s, VACUUM (ANALYZE) ${seeded.analyzeSeconds.toFixed(1)} s`,
      );
      for (const r of results) if (r.note) report(`  ${r.scenario}: ${r.note}`);
    }
    const targets = TARGETS.flatMap((t) => {
      const r = results.find((x) => x.scenario === t.scenario);
      return r ? [{ scenario: t.scenario, target: t.label, value: t.value(r), met: t.met(r) }] : [];
    });
    if (targets.length > 0) {
      report('');
      report(`targets (latencies at ${connections} connection${connections === 1 ? '' : 's'}):`);
      for (const t of targets) report(`  ${t.met === null ? '?   ' : t.met ? 'met ' : 'MISS'} ${t.target}: ${t.value}`);
    }
    const busiest = Math.max(0, ...results.map((r) => r.cpu.other ?? 0));
    if (busiest > 0.25) {
      report(`warning: other processes used up to ${busiest.toFixed(2)} cores during the runs; the figures are not from a quiet machine`);
    }
    for (const r of results) {
      if (r.credentialLoadsPerRequest !== null && r.credentialLoadsPerRequest > 0.001) {
        report(`warning: ${r.scenario} loaded credentials from the database ${r.credentialLoads} times during the measured run`);
      }
    }
    const failed = results.filter((r) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.ok === 0);
    for (const r of failed) report(`warning: ${r.scenario} had ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
    const totalSeconds = (Date.now() - startedAt) / 1000;
    report(`total ${totalSeconds.toFixed(1)} s`);

    if (jsonMode) {
      process.stdout.write(
        `${JSON.stringify(
          {
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
            settings: { durationSeconds: duration, warmupSeconds: warmup, connections, loadGenerator: 'autocannon 9, forked child process' },
            seed: seeded,
            targets,
            results,
          },
          null,
          2,
        )}\n`,
      );
    }
    return failed.length > 0 ? 1 : 0;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    if (!interrupted) await cleanup();
    clientProto.query = originalQuery;
  }
}

if (process.argv.includes('--load-generator')) {
  await loadGenerator();
} else {
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
