// The fixed, log-spaced buckets of the analytics duration histograms. Bucket 0 holds durations
// under a second; bucket b (1…MAX_BUCKET) holds [2^((b-1)/8), 2^(b/8)) seconds, eight buckets
// per doubling, the last one everything from 2^26 s (about 777 days) on. Fixed bounds make the
// histograms of different days and agents add up, so a percentile over any range is read from
// the summed counts; it is answered as the bucket's geometric middle, within 4.4 % (2^(1/16))
// of the true value.
export const BUCKETS_PER_DOUBLING = 8;
export const MAX_BUCKET = 1 + 26 * BUCKETS_PER_DOUBLING;

/** The histogram metrics of ConversationAnalyticsBucket.metric. */
export const METRIC = { FIRST_RESPONSE: 1, RESOLUTION: 2 } as const;

export function bucketOf(seconds: number): number {
  if (!(seconds >= 1)) return 0;
  return Math.min(MAX_BUCKET, 1 + Math.floor(Math.log2(seconds) * BUCKETS_PER_DOUBLING));
}

/** The value a bucket stands for, in whole seconds: its geometric middle (0 for bucket 0). */
export function bucketValue(bucket: number): number {
  if (bucket <= 0) return 0;
  return Math.round(2 ** ((bucket - 0.5) / BUCKETS_PER_DOUBLING));
}

/** Nearest-rank percentiles of a histogram (bucket → count), in the order of `ps`: the value of the bucket holding the ceil(p·n)-th duration; null when empty. */
export function percentiles(histogram: ReadonlyMap<number, number>, ps: readonly number[]): { count: number; values: (number | null)[] } {
  const buckets = [...histogram.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const count = buckets.reduce((s, [, n]) => s + n, 0);
  const values = ps.map((p) => {
    if (count === 0) return null;
    const rank = Math.max(1, Math.ceil((p / 100) * count));
    let seen = 0;
    for (const [bucket, n] of buckets) {
      seen += n;
      if (seen >= rank) return bucketValue(bucket);
    }
    return null;
  });
  return { count, values };
}
