// The platform as production runs it: `svc start` (what `npm start` runs) in a process of its own,
// NODE_ENV=production, its job workers in-process (JOBS_IN_SERVER's default), on the scenario's
// database. It is started with the V8 flags and MALLOC_ARENA_MAX that `svc start` gives itself
// (src/cli/server-flags.ts), so it does not relaunch itself and its pid is the server's.
// Settings the operator exported (JOB_CONCURRENCY, DB_POOL_SIZE, LOG_LEVEL, …) pass through;
// those that decide where and how the bench reaches the server are the bench's.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../../src/cli/server-flags.ts';

const SVC = fileURLToPath(new URL('../../../src/cli/svc.ts', import.meta.url));
const ROOT = path.dirname(fileURLToPath(new URL('../../../package.json', import.meta.url)));
/** how much of the server's output is kept for the report of a failure */
const OUTPUT_TAIL = 64 * 1024;

/** variables the bench decides (set below or left at their defaults on purpose) */
const OWNED = /^(BENCH_|SVC_NO_RELAUNCH$|DATABASE_URL$|DATA_DIR$|EMBEDDED_PG_PORT$|HOST$|PORT$|PUBLIC_BASE_URL$|TLS_|TRUST_PROXY$|JOBS_IN_SERVER$|WEBHOOK_|SMTP_URL$|NODE_ENV$)/;
/** settings of the platform's (README "Configuration") that the operator may pass through */
const PLATFORM_SETTING = /^(LOG_LEVEL|JOB_CONCURRENCY|DB_POOL_SIZE|SHUTDOWN_TIMEOUT_MS|RATE_LIMIT_|CREDENTIAL_CACHE_TTL_SECONDS|BODY_LIMIT_BYTES|MAIL_FROM|AUTOMATION_MAX_DEPTH|GRAPHIQL|JWT_|IDP_|REFRESH_TOKEN_TTL_DAYS|SECRETS_KEY_FILE|MALLOC_ARENA_MAX|NODE_OPTIONS)$/;

/** The environment of a `svc` process: the operator's, without what the bench decides, plus `settings`. */
export function svcEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { MALLOC_ARENA_MAX: '2' };
  for (const [key, value] of Object.entries(process.env)) if (!OWNED.test(key)) env[key] = value;
  return { ...env, NODE_ENV: process.env.NODE_ENV ?? 'production', ...settings };
}

/** The platform settings the operator's environment passes to the server, for the report. */
export function passedThroughSettings(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([key, value]) => PLATFORM_SETTING.test(key) && key !== 'MALLOC_ARENA_MAX' && value !== undefined) as [string, string][]);
}

/** the line of a failed start's output that says why: the first naming an error, or the last */
function reasonIn(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.find((l) => /error/i.test(l)) ?? lines.at(-1) ?? 'no output').slice(0, 300);
}

export interface PlatformProcess {
  pid: number;
  baseUrl: string;
  /** the server's self-signed certificate (PEM) */
  ca: string;
  /** MaxListenersExceededWarning lines the process printed so far */
  listenerWarnings(): string[];
  /** the last part of what it printed */
  outputTail(): string;
  /** SIGTERM, then SIGKILL after `graceMs` */
  stop(graceMs?: number): Promise<void>;
}

/** `svc <args>` to its end; its stdout (rejects on a non-zero exit). */
/** Runs a `node` script of the project (a `svc` command, a seed script) to its end; its stdout. */
export function runNodeScript(script: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${path.basename(script)} ${args[0] ?? ''} exited with ${code ?? signal}\n${stdout}\n${stderr}`));
    });
  });
}

export function runSvc(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<string> {
  return runNodeScript(SVC, args, env, timeoutMs);
}

export async function startPlatform(env: NodeJS.ProcessEnv, startTimeoutMs = 120_000): Promise<PlatformProcess> {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, [...SERVER_NODE_FLAGS, SVC, 'start'], {
    cwd: ROOT,
    env: process.env.BENCH_PLATFORM_NODE_OPTIONS ? { ...env, NODE_OPTIONS: process.env.BENCH_PLATFORM_NODE_OPTIONS } : env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let tail = '';
  let stdout = '';
  const warnings: string[] = [];
  // whole lines only, per stream, so that a warning split between two chunks is still seen
  const lineReader = () => {
    let partial = '';
    return (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-OUTPUT_TAIL);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.includes('MaxListenersExceededWarning')) warnings.push(line.trim());
      return text;
    };
  };
  const fromStdout = lineReader();
  const fromStderr = lineReader();
  child.stdout.on('data', (c: Buffer) => (stdout = (stdout + fromStdout(c)).slice(-OUTPUT_TAIL)));
  // the ready banner is on stderr (stdout carries only JSON log lines): both are read for it
  child.stderr.on('data', (c: Buffer) => (stdout = (stdout + fromStderr(c)).slice(-OUTPUT_TAIL)));

  const stop = async (graceMs = 20_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  const started = Date.now();
  // `svc start` prints the base URL, then the certificate it generated (always: the bench sets no TLS_* files)
  let baseUrl: string | null = null;
  let certFile: string | null = null;
  for (;;) {
    baseUrl = /svc platform ready at (\S+)\n/.exec(stdout)?.[1] ?? null;
    certFile = /self-signed certificate: (\S+) \(curl/.exec(stdout)?.[1] ?? null;
    if (baseUrl && certFile) break;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`svc start exited with ${child.exitCode ?? child.signalCode} before it was ready (${reasonIn(tail)}):\n${tail}`);
    }
    if (Date.now() - started > startTimeoutMs) {
      await stop(2_000);
      throw new Error(`svc start was not ready within ${startTimeoutMs / 1000} s:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid: child.pid!,
    baseUrl,
    ca: fs.readFileSync(certFile, 'utf8'),
    listenerWarnings: () => [...warnings],
    outputTail: () => tail,
    stop,
  };
}
