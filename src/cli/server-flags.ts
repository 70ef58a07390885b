// V8 heap settings of the processes that serve requests (`svc start`, `svc worker`, the benchmark).
// - Young generation: Node 24's semi-spaces grow to 64 MiB each. 16 MiB keeps ~100 MiB out of the
//   resident set; a request's objects are short-lived, and smaller semi-spaces (8 MiB) promoted
//   in-flight requests to the old generation and cost more in major collections than they saved.
// - Old generation: V8 lets it grow far past the live set (~75 MiB at rest) while allocation is
//   fast; a 256 MiB ceiling keeps a loaded server near 300 MiB resident at the same throughput
//   (docs/benchmark.md "Memory"). It is a hard limit: a deployment that serves larger requests
//   raises it with its own --max-old-space-size (on the command line or in NODE_OPTIONS).
// - --expose-gc: a server whose WebSocket clients left by the thousand, or that read a burst of
//   large bodies, runs one memory-reducing collection once the load is gone
//   (src/app/http/release-after-load.ts), so V8 hands back the pages it would otherwise keep.
// - glibc's malloc arenas: one per thread by default; two keep ~13 MiB of native fragmentation out of
//   a loaded server at no measurable cost (MALLOC_ARENA_MAX, read when the process starts).
// V8 reads these flags only when it starts, so a process started without them replaces itself
// (execve: the same pid, nothing left behind) with one started with them; flags and environment
// the caller chose win. It happens before the platform is loaded, so nothing is loaded twice.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { compileCacheEnv } from './compiled-relaunch.ts';

export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=256', '--expose-gc'] as const;

const nameOf = (flag: string) => flag.split('=')[0]!.replaceAll('_', '-');

function chosenByCaller(flag: string): boolean {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].filter(Boolean);
  return given.some((arg) => nameOf(arg) === nameOf(flag));
}

/**
 * Runs this process's script again under SERVER_NODE_FLAGS when any is missing. Where Node can
 * (process.execve, Node 23.11 and later) the process is replaced and this never returns. Otherwise a
 * child runs it, with signals passed on, and this process exits with the child's status; true:
 * the caller must then do nothing else. False: the flags are in place, go on.
 */
export function relaunchWithServerFlags(): boolean {
  const missing = SERVER_NODE_FLAGS.filter((flag) => !chosenByCaller(flag));
  if (missing.length === 0 || process.env.SVC_NO_RELAUNCH === '1') return false;
  const args = [...missing, ...process.execArgv, ...process.argv.slice(1)];
  // the compile cache on from the replacement's first line: compiled-relaunch.ts
  const env = { MALLOC_ARENA_MAX: '2', ...compileCacheEnv(), ...process.env, SVC_NO_RELAUNCH: '1' };
  if (typeof process.execve === 'function') process.execve(process.execPath, [process.execPath, ...args], env);
  const child = spawn(process.execPath, args, { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
  return true;
}
