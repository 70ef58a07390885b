// A worker in a child process of its own (an ES module script run with `node -e`), for tests that
// kill a process mid-job. Resolves once the script prints "working"; the caller kills it.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { untilWith } from './until.ts';

const ROOT = path.dirname(fileURLToPath(new URL('../../package.json', import.meta.url)));
const until = untilWith({ timeoutMs: 30_000, everyMs: 50 });

export interface WorkerProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** everything the script printed so far */
  stdout(): string;
  /** resolves with the exit signal (or code) */
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Starts `script`; `cleanups` gets a SIGKILL for whatever is still running when the test ends. */
export async function startWorkerProcess(script: string, env: NodeJS.ProcessEnv, cleanups: (() => Promise<unknown>)[]): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  await until('the worker process to start', () => stdout.includes('working') || child.exitCode !== null);
  if (stderr !== '' || child.exitCode !== null) throw new Error(`the worker process failed to start (exit ${child.exitCode}):\n${stderr}`);
  return { child, stdout: () => stdout, exited };
}
