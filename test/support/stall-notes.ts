// Where the test run's workers note the file each runs (worker-file.ts), and where the stall
// watchdog leaves its findings for `npm test` (scripts/test.ts).
import os from 'node:os';
import path from 'node:path';

/** One folder per run: named by Vitest's main process, the workers' parent. */
export const workerNotesDir = (mainPid: number): string => path.join(os.tmpdir(), `svc-test-workers-${mainPid}`);

/** What the watchdog found: files whose worker it stopped, and the files that failed. */
export interface StallReport {
  stalled: string[];
  failed: string[];
}

/** Set by scripts/test.ts: the JSON file the watchdog writes its StallReport to. */
export const STALL_REPORT_ENV = 'TEST_STALL_REPORT';
