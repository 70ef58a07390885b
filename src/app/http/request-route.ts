// The route template a request is served as (a REST route's pattern, a fixed path, or `unmatched`),
// decided by the handler in src/main/server.ts as it routes, and read once the response is done by
// whatever describes the request (access line, metrics, the trace's server span). Never the concrete
// path: ids and other values stay out of logs, labels and spans.
// Kept on the response itself, not in a module-level WeakMap: V8's young-generation collector keeps
// the values of an old WeakMap alive until the next full collection, so the reader (a closure over
// the handler's state) would take every request's objects into the old generation (docs/architecture.md).
import type { ServerResponse } from 'node:http';

const routeReader = Symbol('routeReader');

type Routed = ServerResponse & { [routeReader]?: () => string };

export function recordRoute(res: ServerResponse, read: () => string): void {
  (res as Routed)[routeReader] = read;
}

export function routeOf(res: ServerResponse): string {
  return (res as Routed)[routeReader]?.() ?? 'unmatched';
}
