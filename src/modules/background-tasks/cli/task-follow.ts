// Following a background task from the command line until it ends: GET /v1/background-tasks/{id}
// every half second, its progress shown on stderr (stdout stays free for the command's own
// output): a cli-progress bar when stderr is a terminal, otherwise one plain line per change
// ("42% 4200/10000", or "4200 processed" while the total is unknown), which reads well in a log.
import cliProgress from 'cli-progress';
import type { ApiClient } from '../../../app/cli/api-client.ts';

const POLL_MS = 500;
const FINAL = new Set(['COMPLETED', 'FAILED', 'PARTIAL_SUCCESS']);

export interface TaskErrorEntry {
  errorType: string;
  errorMessage: string;
  errorContext?: Record<string, unknown> | null;
}

export interface TaskDetail {
  backgroundTaskSimplyId: string;
  status: string;
  progress: { processedCount?: number; totalCount?: number | null } | null;
  result: Record<string, unknown> | null;
  errorCount?: number;
  errors?: TaskErrorEntry[];
}

export interface ProgressDisplay {
  update(processed: number, total: number | null): void;
  end(): void;
}

/** The bar on a terminal, plain lines otherwise. */
export function progressDisplay(stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  return stream.isTTY ? barDisplay(stream) : lineDisplay(stream);
}

function barDisplay(stream: NodeJS.WriteStream): ProgressDisplay {
  const bar = new cliProgress.SingleBar({ stream, format: ' {bar} {percentage}% | {value}/{total} | {duration_formatted}', hideCursor: true }, cliProgress.Presets.shades_classic);
  let started = false;
  // Ctrl-C stops following, not the task: give the terminal its cursor back and say so
  const interrupted = () => {
    if (started) bar.stop();
    stream.write('stopped following; the task goes on (cancel it in the platform)\n');
    process.exit(130);
  };
  return {
    update(processed, total) {
      // the bar needs a total: until the task knows one, it shows what is done so far
      const end = total ?? Math.max(processed, 1);
      if (!started) {
        process.once('SIGINT', interrupted);
        bar.start(end, processed);
        started = true;
      } else {
        bar.setTotal(end);
        bar.update(processed);
      }
    },
    end() {
      if (!started) return;
      process.off('SIGINT', interrupted);
      bar.stop();
    },
  };
}

function lineDisplay(stream: NodeJS.WritableStream): ProgressDisplay {
  let last = '';
  return {
    update(processed, total) {
      const line = progressLine(processed, total);
      if (line === last) return;
      last = line;
      stream.write(`${line}\n`);
    },
    end() {},
  };
}

export function progressLine(processed: number, total: number | null): string {
  if (total === null || total <= 0) return `${processed} processed`;
  return `${Math.floor((Math.min(processed, total) / total) * 100)}% ${processed}/${total}`;
}

/** Polls the task until it is COMPLETED, FAILED or PARTIAL_SUCCESS; answers its last detail. */
export async function followTask(client: ApiClient, taskSimplyId: string, display: ProgressDisplay): Promise<TaskDetail> {
  try {
    for (;;) {
      const task = await client.call<TaskDetail>('GET', `/v1/background-tasks/${encodeURIComponent(taskSimplyId)}`);
      const processed = Number(task.progress?.processedCount ?? 0);
      const total = task.progress?.totalCount ?? null;
      if (task.status !== 'QUEUED') display.update(processed, total === null ? null : Number(total));
      if (FINAL.has(task.status)) return task;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    display.end();
  }
}

/** Exit status of a finished task: 0 COMPLETED, 3 PARTIAL_SUCCESS, 1 FAILED. */
export function exitCodeOf(status: string): number {
  if (status === 'COMPLETED') return 0;
  if (status === 'PARTIAL_SUCCESS') return 3;
  return 1;
}

/** where an entry happened, said first in this order (the database keeps no key order) */
const PLACE_KEYS = ['rowNumber', 'row', 'column', 'dataFieldSimplyId', 'dataRecordSimplyId'];
const placeRank = (key: string) => (PLACE_KEYS.includes(key) ? PLACE_KEYS.indexOf(key) : PLACE_KEYS.length);

/** One line per error entry: type, where (row, column, field, record), message. */
export function errorLines(errors: readonly TaskErrorEntry[], errorCount: number): string[] {
  const lines = errors.map((e) => {
    const where = Object.entries(e.errorContext ?? {})
      .filter(([, v]) => v !== null && typeof v !== 'object')
      .sort(([a], [b]) => placeRank(a) - placeRank(b))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    return `  ${e.errorType}${where ? ` (${where})` : ''}: ${e.errorMessage}`;
  });
  if (errorCount > errors.length) lines.push(`  … ${errorCount - errors.length} more (see the task's errors in the platform)`);
  return lines;
}
