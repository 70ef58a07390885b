// The two per-request metrics (svc_http_requests_total, svc_http_request_duration_seconds), kept
// in plain counters per method and route (bucket-histogram.ts) and turned into Prometheus series
// only when /metrics is scraped.
import type client from 'prom-client';
import { BucketHistogram, registerComputedMetric, type MetricValue } from './bucket-histogram.ts';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

interface Series {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  durations: BucketHistogram;
}

export class RequestMetrics {
  private readonly series = new Map<string, Series>();

  constructor(registry: client.Registry) {
    const reset = () => this.series.clear();
    registerComputedMetric(registry, { name: 'svc_http_requests_total', help: 'HTTP requests by method, route template and status', type: 'counter', values: () => this.counts(), reset });
    registerComputedMetric(registry, {
      name: 'svc_http_request_duration_seconds',
      help: 'HTTP request duration by method and route template',
      type: 'histogram',
      values: () => [...this.series.values()].flatMap((s) => s.durations.series('svc_http_request_duration_seconds', { method: s.method, route: s.route })),
      reset,
    });
  }

  /** One answered request. */
  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route}`;
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { method, route, byStatus: new Map(), durations: new BucketHistogram(BUCKETS) }));
    s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
    s.durations.observe(seconds);
  }

  private counts(): MetricValue[] {
    return [...this.series.values()].flatMap((s) => [...s.byStatus].map(([status, n]) => ({ labels: { method: s.method, route: s.route, status: String(status) }, value: n })));
  }
}
