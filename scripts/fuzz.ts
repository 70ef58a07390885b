// `npm run fuzz -- [--seed N] [--count N] [--route <substring>] [--case N] [--concurrency N] [--heavy N] [--idle S] [--show]`
//
// The fuzz suite's engine (test/fuzz/fuzz-run.ts) run longer and with any seed, against the server
// as an operator runs it: `svc start` in a child process of its own, on an embedded PostgreSQL in a
// fresh temporary folder (or DATABASE_URL). Prints every failure with the command that replays it
// and what the server logged for it, and exits 1 on any failure. docs/fuzzing.md.
//
// It also measures the server's memory under abuse, from /proc/<pid>/status (VmRSS) of the child:
// warm (after a little valid traffic), the peak during the fuzz and a heavy phase (bodies near the
// 1 MiB limit at concurrency 16), and after --idle seconds without traffic. The idle figure should
// be within 20% of the warm one: a server that keeps what one burst of large bodies took holds
// it for good.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/main/config.ts';
import { createLogger } from '../src/app/logger.ts';
import { closeServices, createServices } from '../src/main/services.ts';
import { SERVER_NODE_FLAGS } from '../src/cli/server-flags.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { applyPendingMigrations } from '../src/db/schema-engine/migrations.ts';
import { createTeam } from '../test/support/fixtures.ts';
import type { TestServer } from '../test/support/server.ts';
import {
  bodyExcerpt,
  formatFailures,
  formatNeverSucceeded,
  formatStatuses,
  httpClient,
  prepareFuzz,
  requestThrough,
  runFuzz,
  runHeavy,
  warmUp,
  type Failure,
  type FuzzOptions,
  type HttpClient,
} from '../test/fuzz/fuzz-run.ts';
import { processRss } from './bench/memory-sampler.ts';
import { freePort } from '../src/db/free-port.ts';

const ROOT = path.dirname(fileURLToPath(new URL('../package.json', import.meta.url)));
const MIB = 1024 * 1024;

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string' },
    count: { type: 'string', default: '50' },
    route: { type: 'string' },
    case: { type: 'string' },
    concurrency: { type: 'string', default: '8' },
    heavy: { type: 'string', default: '300' },
    idle: { type: 'string', default: '25' },
    show: { type: 'boolean', default: false },
  },
});

function integer(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    process.stderr.write(`--${name} must be an integer ≥ ${min} (got "${raw}")\n`);
    process.exit(2);
  }
  return value;
}

const seed = integer('seed', args.seed, -(2 ** 31)) ?? Math.floor(Math.random() * 2 ** 31);
const count = integer('count', args.count, 1)!;
const caseIndex = integer('case', args.case, 0);
const concurrency = integer('concurrency', args.concurrency, 1)!;
const heavyCount = integer('heavy', args.heavy, 0)!;
const idleSeconds = integer('idle', args.idle, 0)!;
// a replay (--route, --case) is about requests: no heavy phase, no idle wait, no memory verdict
const replay = args.route !== undefined || caseIndex !== undefined;
const judgeMemory = !replay && heavyCount > 0 && idleSeconds > 0;

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The child server's log, by request id: what an unexpected error was (the answer never says). */
function collectErrorLog(stream: Readable): Map<string, string> {
  const byRequest = new Map<string, string>();
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      let entry: { requestId?: string; msg?: string; err?: { type?: string; message?: string; stack?: string } };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (!entry.requestId) continue;
      const frame = entry.err?.stack?.split('\n').find((l) => l.includes('/src/') || l.includes('/rest-adapter/'))?.trim();
      byRequest.set(entry.requestId, [entry.msg, entry.err && `${entry.err.type ?? 'Error'}: ${entry.err.message}`, frame].filter(Boolean).join(' — '));
    }
  });
  return byRequest;
}

/** /metrics is served only with a token (src/app/http/metrics-endpoint.ts): the fuzzed server's own. */
const METRICS_TOKEN = randomBytes(24).toString('base64url');

/** The V8 heap in use and reserved, from the server's /metrics: whether memory kept after a load is live objects or pages V8 holds. */
async function heapOf(client: HttpClient): Promise<string> {
  const headers = { authorization: `Bearer ${METRICS_TOKEN}` };
  const text = (await client.send({ method: 'GET', path: '/metrics', headers, intent: '' }).catch(() => null))?.text ?? '';
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const used = gauge('svc_nodejs_heap_size_used_bytes');
  const total = gauge('svc_nodejs_heap_size_total_bytes');
  const external = gauge('svc_nodejs_external_memory_bytes');
  return Number.isNaN(used) ? 'heap unknown' : `V8 heap ${(used / MIB).toFixed(0)} MiB used of ${(total / MIB).toFixed(0)} MiB, external ${(external / MIB).toFixed(0)} MiB`;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

async function main(): Promise<number> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanup = async () => {
    while (cleanups.length) await cleanups.pop()!().catch((error) => log(`cleanup: ${String(error)}`));
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));
  try {
    // 1. the database and this process's services (teams, users, mail are made directly in it, as the tests do)
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-fuzz-'));
    // as root the embedded cluster runs as the postgres user, which must traverse this folder
    fs.chmodSync(dataDir, 0o755);
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      log(`starting embedded PostgreSQL in ${dataDir}`);
      const db = await startEmbeddedPostgres({ dataDir });
      cleanups.push(() => db.stop());
      databaseUrl = db.url;
    }
    await applyPendingMigrations({ databaseUrl });
    const port = await freePort();
    const config = loadConfig({}, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: port, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_LOOPBACK: true });
    const services = await createServices({ config, databaseUrl, migrate: false, logger: createLogger('silent') });
    cleanups.push(() => closeServices(services));
    // the worker, apart from the server as an operator may run them (`svc worker`): the worlds' files are promoted by a job
    await services.jobs.start({ work: true });

    // 2. the server: `svc start` as an operator runs it (its own heap flags, no relaunch so the pid is the server's)
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!/^(TLS_|JWT_|PUBLIC_BASE_URL|TRUST_PROXY|NODE_OPTIONS|VITEST)/.test(key)) env[key] = value;
    const child: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'src/cli/svc.ts'), 'start'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...env,
        MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2',
        SVC_NO_RELAUNCH: '1',
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        JOBS_IN_SERVER: 'false',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        RATE_LIMIT_PER_MINUTE: '100000000',
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000000',
        METRICS_TOKEN,
      },
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanups.push(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    });
    const serverLog = collectErrorLog(child.stdout);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    const certFile = path.join(dataDir, 'tls', 'self-signed-cert.pem');
    await until('the server certificate', () => fs.existsSync(certFile) || child.exitCode !== null, 60_000);
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${stderr}`);
    const baseUrl = `https://127.0.0.1:${port}`;
    const ca = fs.readFileSync(certFile, 'utf8');
    const client = httpClient(baseUrl, ca, Math.max(concurrency, 16));
    cleanups.push(async () => client.close());
    await until('the server to be ready', async () => (await client.send({ method: 'GET', path: '/readyz', headers: {}, intent: '' }).catch(() => ({ status: 0 }))).status === 200, 60_000);
    log(`server pid ${child.pid} on ${baseUrl}`);

    // 3. the worlds, built through the API (and this process's services for what the API cannot make)
    const request = requestThrough(client);
    const server = {
      app: { services },
      baseUrl,
      ca,
      dataDir,
      request,
      graphql: async (query: string, variables?: Record<string, unknown>, o = {}) => {
        const response = await request('POST', '/graphql', { ...o, body: { query, variables } });
        return { status: response.status, data: response.body?.data ?? null, errors: response.body?.errors };
      },
      close: async () => {},
    } as unknown as TestServer; // the fixtures use request, graphql and app.services only
    const [team, other] = await Promise.all([createTeam(server), createTeam(server)]);
    const setup = await prepareFuzz(server, team, other);

    // 4. warm: valid traffic, then a pause
    const pid = child.pid!;
    await warmUp(client, setup, 10);
    await sleep(2_000);
    const warm = processRss(pid) ?? 0;
    const warmHeap = await heapOf(client);
    let peak = warm;
    const sampler = setInterval(() => (peak = Math.max(peak, processRss(pid) ?? 0)), 100);

    // 5. the fuzz, then the heavy phase
    log(`fuzzing: seed ${seed}, ${count} per route and credential${args.route ? `, routes matching "${args.route}"` : ''}${caseIndex !== undefined ? `, case ${caseIndex} only` : ''}`);
    const show: FuzzOptions['onAnswer'] = (c, answer) =>
      log(`#${c.index} ${c.credential} ${c.request.method} ${c.request.path.slice(0, 160)} ${bodyExcerpt(c.request.body, 160)}\n   → ${answer ? `${answer.status} ${answer.text.slice(0, 200)}` : 'no answer'}`);
    const report = await runFuzz(client, setup, { seed, count, route: args.route, caseIndex, concurrency, onAnswer: args.show ? show : undefined });
    log(formatStatuses(report));
    const never = formatNeverSucceeded(report);
    if (never) log(`routes that answered no fuzzed request with 2xx (a hint: where the generators or the world's state stop valid-shaped input):\n${never}`);
    const failures: Failure[] = [...report.failures];
    if (heavyCount > 0 && !replay) {
      const started = Date.now();
      const heavy = await runHeavy(client, setup, { seed, count: heavyCount, concurrency: 16 });
      log(`heavy phase: ${heavy.sent} requests with bodies near the limit at concurrency 16 in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      failures.push(...heavy.failures);
    }
    clearInterval(sampler);
    peak = Math.max(peak, processRss(pid) ?? 0);
    const afterLoad = processRss(pid) ?? 0;
    const afterLoadHeap = await heapOf(client);
    if (!replay) {
      log(`idle for ${idleSeconds} s…`);
      for (let waited = 0; waited < idleSeconds; waited += 5) {
        await sleep(Math.min(5, idleSeconds - waited) * 1000);
        log(`  ${Math.min(waited + 5, idleSeconds)} s: RSS ${((processRss(pid) ?? 0) / MIB).toFixed(0)} MiB`);
      }
    }
    const idle = processRss(pid) ?? 0;
    const idleHeap = await heapOf(client);
    const idleOk = !judgeMemory || idle <= warm * 1.2;

    // 6. the report
    if (child.exitCode !== null || child.signalCode !== null) {
      console.log(`THE SERVER PROCESS DIED during the run (exit ${child.exitCode ?? child.signalCode}); the end of its stderr:\n${stderr}`);
    }
    for (const f of failures) if (f.requestId && serverLog.has(f.requestId)) f.serverLog = serverLog.get(f.requestId);
    if (failures.length > 0) {
      console.log(formatFailures(failures, { maxGroups: 100 }));
      const file = path.join(os.tmpdir(), `svc-fuzz-failures-${seed}.json`);
      const full = failures.map((f) => ({ ...f, request: { ...f.request, headers: undefined, body: typeof f.request.body === 'string' ? f.request.body : bodyExcerpt(f.request.body) } }));
      fs.writeFileSync(file, JSON.stringify(full, null, 1));
      console.log(`\nevery failure with its full request: ${file}`);
    } else {
      console.log('no failures');
    }
    const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`;
    console.log(`\nserver RSS: warm ${mib(warm)}, peak ${mib(peak)}, right after the load ${mib(afterLoad)}, after ${replay ? 0 : idleSeconds} s idle ${mib(idle)}`);
    console.log(`  warm: ${warmHeap}\n  after the load: ${afterLoadHeap}\n  idle: ${idleHeap}`);
    const verdict = !judgeMemory ? 'not judged (--route, --case, --heavy 0 or --idle 0)' : idleOk ? 'yes' : `no (${((idle / warm - 1) * 100).toFixed(0)}% above)`;
    console.log(`idle RSS within 20% of warm: ${verdict}`);
    console.log(`seed ${seed}: npm run fuzz -- --seed ${seed} --count ${count}${args.route ? ` --route '${args.route}'` : ''}`);
    const died = child.exitCode !== null || child.signalCode !== null;
    return failures.length > 0 || !idleOk || died ? 1 : 0;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
