// V8 heap settings of the processes that serve requests (`svc start`, `svc worker`, the benchmark).
// Node 24's default young generation grows to 2 × 64 MiB of semi-spaces; a request's objects are
// short-lived and small, so 2 × 8 MiB costs a few more (sub-millisecond) scavenges and keeps ~100 MiB
// out of the resident set (docs/benchmark.md "Memory"). V8 reads these flags only when it starts,
// so a process started without them starts itself again with them.
import { spawn } from 'node:child_process';
import os from 'node:os';

export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'] as const;

const hasFlag = (flag: string) => process.execArgv.some((arg) => arg.split('=')[0] === flag.split('=')[0]);

/**
 * Runs this process's script again under SERVER_NODE_FLAGS when they are missing (flags the caller
 * chose stay theirs), passing signals on and exiting with the child's status. Returns true when it
 * did: the caller must then do nothing else.
 */
export function relaunchWithServerFlags(): boolean {
  const missing = SERVER_NODE_FLAGS.filter((flag) => !hasFlag(flag));
  if (missing.length === 0 || process.env.SVC_NO_RELAUNCH === '1') return false;
  const child = spawn(process.execPath, [...missing, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, SVC_NO_RELAUNCH: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
  return true;
}
