// A histogram observed on hot paths (every request, every database checkout): plain counts per
// bucket, turned into Prometheus series only when /metrics is scraped. prom-client's own histogram
// validates and hashes its label object on every observation, a child made with labels() included:
// on a busy server that was a percent or two of its CPU, for figures read every few seconds at most.
// The exposition is the one prom-client writes for a histogram.
import type client from 'prom-client';

export type MetricValue = { metricName?: string; labels: Record<string, string | number>; sharedLabels?: Record<string, string>; value: number };

export class BucketHistogram {
  private readonly bounds: readonly number[];
  /** observations per bucket, not cumulative; the last slot is above the largest bound */
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }

  /** The series of metric `name` with `labels`: cumulative buckets, +Inf, sum and count. */
  series(name: string, labels: Record<string, string>): MetricValue[] {
    let cumulative = 0;
    const buckets = this.bounds.map((le, i) => ({ metricName: `${name}_bucket`, labels: { le }, sharedLabels: labels, value: (cumulative += this.counts[i]!) }));
    return [
      ...buckets,
      { metricName: `${name}_bucket`, labels: { le: '+Inf' }, sharedLabels: labels, value: this.count },
      { metricName: `${name}_sum`, labels, value: this.sum },
      { metricName: `${name}_count`, labels, value: this.count },
    ];
  }
}

/** Registers a metric whose values `values` computes at each scrape (a counter or a histogram); `reset` clears them. */
export function registerComputedMetric(
  registry: client.Registry,
  spec: { name: string; help: string; type: 'counter' | 'histogram'; values: () => MetricValue[]; reset: () => void },
): void {
  const { name, help, type, values, reset } = spec;
  const metric = { name, help, type, aggregator: 'sum', get: async () => ({ name, help, type, aggregator: 'sum', values: values() }), reset };
  registry.registerMetric(metric as unknown as client.Metric);
}
