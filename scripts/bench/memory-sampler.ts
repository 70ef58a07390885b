// The server's memory during a measured run. The platform lives in the bench process (the load
// generator and the baseline server are children), so this process's RSS is the platform's plus
// the bench's own request lists and pool and whatever an earlier phase's instance left on the
// heap: an upper bound of a little more than the platform alone. The V8 heap in use shows how
// much of the RSS is live JavaScript objects and how much is heap V8 keeps reserved. A server in
// a process of its own (the baseline's child, PostGraphile via BENCH_POSTGRAPHILE_PID) is sampled
// from /proc at its pid.
import fs from 'node:fs';

const SAMPLE_EVERY_MS = 200;

export interface MemoryPeak {
  /** largest resident set size seen, bytes */
  rssMaxBytes: number;
  /** largest V8 heap in use seen (heapUsed), bytes */
  heapUsedMaxBytes: number;
  /** largest RSS of the external process, bytes; null: none named or not readable */
  externalRssMaxBytes: number | null;
}

/** VmRSS of another process, bytes (null when not readable) */
export function processRss(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples memory every 200 ms until `stop`, which returns the largest values seen. */
export function sampleMemory(externalPid: number | null = null): { stop: () => MemoryPeak } {
  const peak: MemoryPeak = { rssMaxBytes: 0, heapUsedMaxBytes: 0, externalRssMaxBytes: null };
  const sample = () => {
    const usage = process.memoryUsage();
    peak.rssMaxBytes = Math.max(peak.rssMaxBytes, usage.rss);
    peak.heapUsedMaxBytes = Math.max(peak.heapUsedMaxBytes, usage.heapUsed);
    const external = externalPid === null ? null : processRss(externalPid);
    if (external !== null) peak.externalRssMaxBytes = Math.max(peak.externalRssMaxBytes ?? 0, external);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
