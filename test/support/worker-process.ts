// Child processes for tests that kill or stop a process of the platform: any `node …` command with
// its output kept (startChildProcess), and a worker given as an ES module script run with
// `node -e`, started once it prints "working" (startWorkerProcess); the caller kills it.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { untilWith } from './until.ts';

const ROOT = path.dirname(fileURLToPath(new URL('../../package.json', import.meta.url)));
const until = untilWith({ timeoutMs: 30_000, everyMs: 50 });

export interface ChildProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** everything the process printed so far */
  stdout(): string;
  stderr(): string;
  /** resolves with the exit signal (or code) and when it came */
  exited: Promise<{ code: NodeJS.Signals | number | null; at: number }>;
  /** resolves once everything the process printed has been read (it can exit before that) */
  outputRead: Promise<void>;
}

/** Runs `node <args>` from the project folder; `cleanups` gets a SIGKILL for whatever still runs when the test ends. */
export function startChildProcess(args: string[], env: NodeJS.ProcessEnv, cleanups: (() => Promise<unknown>)[]): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: NodeJS.Signals | number | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code: signal ?? code, at: Date.now() })),
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const outputRead = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, stdout: () => stdout, stderr: () => stderr, exited, outputRead };
}

export interface WorkerProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** everything the script printed so far */
  stdout(): string;
  /** resolves with the exit signal (or code) */
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Starts `script`; resolves once it prints "working". */
export async function startWorkerProcess(script: string, env: NodeJS.ProcessEnv, cleanups: (() => Promise<unknown>)[]): Promise<WorkerProcess> {
  const { child, stdout, stderr, exited } = startChildProcess(['--input-type=module', '-e', script], { ...process.env, ...env }, cleanups);
  await until('the worker process to start', () => stdout().includes('working') || child.exitCode !== null);
  if (stderr() !== '' || child.exitCode !== null) throw new Error(`the worker process failed to start (exit ${child.exitCode}):\n${stderr()}`);
  return { child, stdout, exited: exited.then((e) => e.code) };
}
