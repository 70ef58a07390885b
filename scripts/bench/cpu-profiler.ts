// BENCH_CPU_PROF=<dir>: a V8 CPU profile of the bench process around each measured run only
// (not the seed, the warm-up or the other scenarios), one `<scenario>.<transport>-<n>c.cpuprofile`
// per run, for Chrome DevTools or speedscope. The inspector session profiles the main thread of
// the process it is made in: the bench's, where the platform runs, and the baseline server's own
// child process for the baselines' runs (baseline-server.ts).
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

export class CpuProfiler {
  private readonly session = new Session();
  private connected = false;

  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true });
  }

  async start(): Promise<void> {
    if (!this.connected) {
      this.session.connect();
      this.connected = true;
      await this.session.post('Profiler.enable');
    }
    await this.session.post('Profiler.start');
  }

  /** stops the profile started last and writes it; returns the file's path */
  async stop(name: string): Promise<string> {
    const { profile } = await this.session.post('Profiler.stop');
    const file = path.join(this.dir, `${name}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    return file;
  }

  async close(): Promise<void> {
    if (!this.connected) return;
    await this.session.post('Profiler.disable');
    this.session.disconnect();
    this.connected = false;
  }
}
