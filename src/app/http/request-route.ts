// The route template a request is served as (a REST route's pattern, a fixed path, or `unmatched`),
// decided by the handler in src/main/server.ts as it routes, and read once the response is done by
// whatever describes the request (access line, metrics, the trace's server span). Never the concrete
// path: ids and other values stay out of logs, labels and spans.
import type { ServerResponse } from 'node:http';

const readers = new WeakMap<ServerResponse, () => string>();

export function recordRoute(res: ServerResponse, read: () => string): void {
  readers.set(res, read);
}

export function routeOf(res: ServerResponse): string {
  return readers.get(res)?.() ?? 'unmatched';
}
