// Prometheus metrics at /metrics. One registry per app instance (tests run several in one process).
import client from 'prom-client';

export class Metrics {
  readonly registry = new client.Registry();
  readonly requests: client.Counter<'method' | 'route' | 'status'>;
  readonly duration: client.Histogram<'method' | 'route'>;

  constructor(collect: { credentialCacheSize: () => number; credentialLoads: () => number }) {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
    this.requests = new client.Counter({
      name: 'svc_http_requests_total',
      help: 'HTTP requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.duration = new client.Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'HTTP request duration by method and route template',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.gauge('svc_credential_cache_entries', 'Checked credentials held in memory', collect.credentialCacheSize);
    this.gauge('svc_credential_loads_total', 'Credential checks that needed the database (cache misses)', collect.credentialLoads);
  }

  /** A gauge read from `value` whenever /metrics is scraped. */
  private gauge(name: string, help: string, value: () => number): void {
    new client.Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(value());
      },
    });
  }
}
