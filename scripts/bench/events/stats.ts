// Percentiles and rates of the events section. A delivery that never arrived counts as infinitely
// late, so a percentile that falls on a missing one says so instead of describing only the lucky.
export interface LatencySummary {
  /** samples expected (arrived + missing) */
  count: number;
  missing: number;
  /** ms; Infinity when the percentile falls on a missing sample */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarizeLatencies(arrivedMs: number[], missing = 0): LatencySummary {
  const sorted = [...arrivedMs].sort((a, b) => a - b);
  const count = sorted.length + missing;
  const at = (p: number) => {
    if (count === 0) return 0;
    const index = Math.min(count - 1, Math.ceil((p / 100) * count) - 1);
    return index < sorted.length ? sorted[Math.max(0, index)]! : Infinity;
  };
  return { count, missing, p50: at(50), p90: at(90), p99: at(99), max: missing > 0 ? Infinity : (sorted.at(-1) ?? 0) };
}

/** Items per second between the first and the last arrival (0 with fewer than two). */
export function sustainedRate(arrivalsMs: number[]): { perSecond: number; firstMs: number | null; lastMs: number | null } {
  if (arrivalsMs.length === 0) return { perSecond: 0, firstMs: null, lastMs: null };
  let first = Infinity;
  let last = -Infinity;
  for (const t of arrivalsMs) {
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const seconds = (last - first) / 1000;
  return { perSecond: arrivalsMs.length > 1 && seconds > 0 ? (arrivalsMs.length - 1) / seconds : 0, firstMs: first, lastMs: last };
}

/** The busiest and the quietest whole second between the first and the last arrival. */
export function perSecondRange(arrivalsMs: number[]): { min: number; max: number } | null {
  const { firstMs: first, lastMs: last } = sustainedRate(arrivalsMs);
  if (arrivalsMs.length < 2 || first === null || last === null) return null;
  const buckets = new Map<number, number>();
  for (const t of arrivalsMs) {
    const second = Math.floor((t - first) / 1000);
    buckets.set(second, (buckets.get(second) ?? 0) + 1);
  }
  const lastFull = Math.floor((last - first) / 1000) - 1;
  if (lastFull < 0) return null;
  const counts = Array.from({ length: lastFull + 1 }, (_, s) => buckets.get(s) ?? 0);
  return { min: Math.min(...counts), max: Math.max(...counts) };
}

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : 'never (missing)');

/** performance.timeOrigin + performance.now(): wall-clock ms with sub-ms resolution, comparable between processes */
export const wallClockMs = () => performance.timeOrigin + performance.now();
