// A reporter in Vitest's main process that turns a stuck test file into a loud failure instead of a
// run that never ends. Vitest's own timeouts live in the worker: a worker whose thread is blocked
// (a synchronous call that never returns) never fires them, and the run waits for ever. When a file
// has run longer than TEST_STALL_MINUTES (default 5; the slowest file takes under a minute), this
// prints what the worker was doing (the test under way, its processes, each thread's kernel wait)
// and kills the worker, so Vitest reports the file as failed and finishes the run. It writes the
// stalled and failed files to TEST_STALL_REPORT for scripts/test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { STALL_REPORT_ENV, type StallReport, workerNotesDir } from './stall-notes.ts';

const STALL_MS = Number(process.env.TEST_STALL_MINUTES ?? 5) * 60_000;
const CHECK_EVERY_MS = Math.min(15_000, STALL_MS / 4);

export default class StallWatchdog implements Reporter {
  private readonly running = new Map<string, { since: number; test: string | null }>();
  private readonly stalled = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private readonly notes = workerNotesDir(process.pid);

  onInit(): void {
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  onTestModuleStart(module: TestModule): void {
    this.running.set(module.moduleId, { since: Date.now(), test: null });
  }

  onTestCaseReady(test: TestCase): void {
    const entry = this.running.get(test.module.moduleId);
    if (entry) entry.test = test.fullName;
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(module.moduleId);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (this.timer) clearInterval(this.timer);
    fs.rmSync(this.notes, { recursive: true, force: true });
    const failed = modules.filter((m) => !m.ok()).map((m) => m.moduleId);
    this.write({ stalled: [...this.stalled], failed });
  }

  private check(): void {
    const now = Date.now();
    for (const [file, { since, test }] of this.running) {
      if (now - since < STALL_MS || this.stalled.has(file)) continue;
      this.stalled.add(file);
      const pid = this.workerOf(file);
      const lines = [
        `\n[stall-watchdog] ${path.relative(process.cwd(), file)} has run for ${Math.round((now - since) / 1000)} s; the last test it reported starting: ${test ?? '(none)'}`,
        pid ? describeProcess(pid) : '[stall-watchdog] its worker process is not known',
      ];
      process.stderr.write(`${lines.join('\n')}\n`);
      if (pid) killTree(pid);
      this.write({ stalled: [...this.stalled], failed: [] });
    }
  }

  private workerOf(file: string): number | null {
    const entries = fs.existsSync(this.notes) ? fs.readdirSync(this.notes) : [];
    const pid = entries.find((name) => fs.readFileSync(path.join(this.notes, name), 'utf8') === file);
    return pid ? Number(pid) : null;
  }

  private write(report: StallReport): void {
    const target = process.env[STALL_REPORT_ENV];
    if (target) fs.writeFileSync(target, JSON.stringify(report));
  }
}

/** The worker and its children, and per thread the kernel function it waits in (Linux /proc). */
function describeProcess(pid: number): string {
  const out: string[] = [];
  try {
    out.push(execFileSync('ps', ['-o', 'pid,ppid,etimes,stat,wchan:32,args', '--pid', String(pid), '--ppid', String(pid)], { encoding: 'utf8', timeout: 5000 }));
  } catch {
    out.push(`[stall-watchdog] ps failed for ${pid}`);
  }
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const comm = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const wchan = fs.readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8').trim();
      const state = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[0];
      out.push(`  thread ${tid} ${comm}: state ${state}, waiting in ${wchan || '-'}`);
    }
  } catch {
    // not Linux, or the process is gone
  }
  return out.join('\n');
}

/** The worker and every process it started (a spawned child it may be waiting for). */
function killTree(pid: number): void {
  const children = (parent: number): number[] => {
    try {
      return fs
        .readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  const all: number[] = [];
  const walk = (p: number) => {
    all.push(p);
    for (const child of children(p)) walk(child);
  };
  walk(pid);
  for (const p of all.reverse()) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
