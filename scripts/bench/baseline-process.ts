// The bench's handle on the baseline server (baseline-server.ts), which runs in a child Node
// process of its own: started with Node's defaults (none of the platform's heap flags, which are
// the platform's tuning, not a bare server's), driven over IPC, and killed should the bench exit
// without closing it. Its pid is what /proc is read at for its CPU and RSS.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPool } from '../../src/db/prisma.ts';
import type { BaselineOptions, BaselineRunCounters, FromBaseline, ToBaseline } from './baseline-server.ts';

const SERVER_FILE = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));

export interface BaselineProcess {
  /** http(s)://127.0.0.1:<port> */
  url: string;
  pid: number;
  /** just before a measured run: counters start, and a CPU profile when `profileDir` is set */
  beginRun(profileDir: string | null): Promise<void>;
  /** just after it: what the child counted, and the profile written as `<profileName>.cpuprofile` */
  endRun(profileName: string | null): Promise<BaselineRunCounters>;
  /** closes the server and its pool; resolves once the child has exited */
  close(): Promise<void>;
}

/** The environment less what the bench sets for the platform's heap (src/cli/server-flags.ts). */
function bareEnvironment(): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _nodeOptions, MALLOC_ARENA_MAX: _arenas, ...env } = process.env;
  return env;
}

export async function startBaselineProcess(options: BaselineOptions): Promise<BaselineProcess> {
  const child: ChildProcess = fork(SERVER_FILE, ['--baseline-server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [], env: bareEnvironment() });
  // 'exit' handlers run synchronously: a bench that crashes or calls process.exit still ends it
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => process.removeListener('exit', killOnExit));

  // one request at a time: the bench awaits each before the next
  let waiting: { expect: FromBaseline['kind']; resolve: (m: FromBaseline) => void; reject: (e: Error) => void } | null = null;
  child.on('message', (message: FromBaseline) => {
    const w = waiting;
    waiting = null;
    if (!w) return;
    if (message.kind === w.expect) w.resolve(message);
    else w.reject(new Error(message.kind === 'failed' ? `baseline server: ${message.message}` : `baseline server answered ${message.kind}, not ${w.expect}`));
  });
  child.once('exit', (code, signal) => {
    waiting?.reject(new Error(`baseline server exited (${signal ?? `code ${code}`})`));
    waiting = null;
  });
  child.once('error', (error) => {
    waiting?.reject(error);
    waiting = null;
  });
  const ask = <K extends FromBaseline['kind']>(message: ToBaseline, expect: K) =>
    new Promise<Extract<FromBaseline, { kind: K }>>((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null || !child.connected) return reject(new Error('baseline server is not running'));
      waiting = { expect, resolve: resolve as (m: FromBaseline) => void, reject };
      child.send(message);
    });

  let listening: Extract<FromBaseline, { kind: 'listening' }>;
  try {
    listening = await ask({ kind: 'start', options }, 'listening');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: listening.url,
    pid: child.pid!,
    beginRun: async (profileDir) => {
      await ask({ kind: 'begin-run', profileDir }, 'run-begun');
    },
    endRun: async (profileName) => (await ask({ kind: 'end-run', profileName }, 'run-ended')).counters,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ kind: 'close' } satisfies ToBaseline);
      else child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A bare server beside a section's own `svc start`: the same database, reading within the
 * bootstrapped team, over the certificate the platform generated in its data folder (HTTPS, as the
 * platform is measured), with the platform's default pool of 10.
 */
export async function startBaselineBeside(databaseUrl: string, dataDir: string, teamSimplyId: string): Promise<BaselineProcess> {
  const pool = createPool(databaseUrl, 1, 'svc-bench-baseline');
  let teamId: string;
  try {
    teamId = String((await pool.query<{ id: string }>('SELECT id FROM "Team" WHERE "simplyId" = $1', [teamSimplyId])).rows[0]!.id);
  } finally {
    await pool.end();
  }
  const tls = path.join(dataDir, 'tls');
  const read = (name: string) => fs.readFileSync(path.join(tls, name), 'utf8');
  return startBaselineProcess({ databaseUrl, poolSize: 10, teamId, tls: { cert: read('self-signed-cert.pem'), key: read('self-signed-key.pem') } });
}
