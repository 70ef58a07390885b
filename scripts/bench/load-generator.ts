// The load generator of `npm run bench`: autocannon in a forked child process (this file, run with
// `--load-generator`), driven over IPC, so the load does not share the servers' event loop.
// docs/benchmark.md ("Load generator") describes what it measures and why.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadRequest {
  id: number;
  title: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** when set, requests cycle through the paths (and bodies) defined under this name
   *  (LoadGenerator.defineVariants) instead of `url`'s path and `body`, one shared cursor across
   *  all connections */
  variantsKey?: string;
  connections: number;
  /** seconds */
  duration: number;
  /** collect per-response latencies (sub-millisecond) for the percentiles */
  record: boolean;
}

export interface RequestVariant {
  path: string;
  body?: string;
}

export interface LoadResult {
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

type ToChild = { kind: 'run'; request: LoadRequest } | { kind: 'variants'; key: string; variants: RequestVariant[] };
type FromChild = { kind: 'result'; result: LoadResult } | { kind: 'error'; id: number; message: string };

async function loadGenerator(): Promise<void> {
  const { default: autocannon } = await import('autocannon');
  // the parent going away (crash, Ctrl-C) ends this process too
  process.on('disconnect', () => process.exit(0));
  const variantSets = new Map<string, RequestVariant[]>();
  process.on('message', (message: ToChild) => {
    if (message.kind === 'variants') {
      variantSets.set(message.key, message.variants);
      return;
    }
    if (message.kind !== 'run') return;
    const request = message.request;
    const latencies: number[] = [];
    const cpuBefore = process.cpuUsage();
    const url = new URL(request.url);
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      process.send!({ kind: 'error', id: request.id, message: `refusing to load a non-loopback host: ${url.hostname}` } satisfies FromChild);
      return;
    }
    const variants = request.variantsKey === undefined ? undefined : variantSets.get(request.variantsKey);
    if (request.variantsKey !== undefined && !variants) {
      process.send!({ kind: 'error', id: request.id, message: `no variants defined as ${request.variantsKey}` } satisfies FromChild);
      return;
    }
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

export class LoadGenerator {
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

  /**
   * Hands the child a list of request variants once, before any load: serialising thousands of
   * bodies for IPC would otherwise happen in the server's process at the start of every measured run.
   * Messages arrive in order, so a run sent after this finds them.
   */
  defineVariants(key: string, variants: RequestVariant[]): void {
    this.child.send({ kind: 'variants', key, variants } satisfies ToChild);
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

if (process.argv.includes('--load-generator')) await loadGenerator();
