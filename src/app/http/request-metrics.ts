// The two per-request metrics (svc_http_requests_total, svc_http_request_duration_seconds), kept
// in plain counters per method and route and turned into Prometheus series only when /metrics is
// scraped. prom-client's own counter and histogram validate and hash a label object on every
// observation: on a busy server that was several percent of its CPU, for figures read every few
// seconds at most. The exposition is the one prom-client writes for a counter and a histogram.
import type client from 'prom-client';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

interface Series {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  /** observations per bucket, not cumulative; the last slot is above the largest bound */
  buckets: Float64Array;
  sum: number;
  count: number;
}

type MetricValue = { metricName?: string; labels: Record<string, string | number>; sharedLabels?: Record<string, string>; value: number };

export class RequestMetrics {
  private readonly series = new Map<string, Series>();

  constructor(registry: client.Registry) {
    registry.registerMetric(this.metric('svc_http_requests_total', 'HTTP requests by method, route template and status', 'counter', () => this.counts()));
    registry.registerMetric(this.metric('svc_http_request_duration_seconds', 'HTTP request duration by method and route template', 'histogram', () => this.durations()));
  }

  /** One answered request. */
  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route}`;
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { method, route, byStatus: new Map(), buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 }));
    s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    s.buckets[i]!++;
    s.sum += seconds;
    s.count++;
  }

  private counts(): MetricValue[] {
    return [...this.series.values()].flatMap((s) => [...s.byStatus].map(([status, n]) => ({ labels: { method: s.method, route: s.route, status: String(status) }, value: n })));
  }

  private durations(): MetricValue[] {
    const name = 'svc_http_request_duration_seconds';
    return [...this.series.values()].flatMap((s) => {
      const shared = { method: s.method, route: s.route };
      let cumulative = 0;
      const buckets = BUCKETS.map((le, i) => ({ metricName: `${name}_bucket`, labels: { le }, sharedLabels: shared, value: (cumulative += s.buckets[i]!) }));
      return [
        ...buckets,
        { metricName: `${name}_bucket`, labels: { le: '+Inf' }, sharedLabels: shared, value: s.count },
        { metricName: `${name}_sum`, labels: shared, value: s.sum },
        { metricName: `${name}_count`, labels: shared, value: s.count },
      ];
    });
  }

  /** A metric object as the registry reads one (name, help, type, and `get` answering its values). */
  private metric(name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue[]) {
    const metric = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => this.series.clear(),
    };
    return metric as unknown as client.Metric;
  }
}
