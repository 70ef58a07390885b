// Who may read /metrics. The figures are operational, not personal, but they tell an outsider how
// busy and how backed up an instance is, so /metrics is never public by default:
// - METRICS_TOKEN set: the main port serves it to `Authorization: Bearer <METRICS_TOKEN>` (401
//   otherwise);
// - METRICS_PORT set: a separate plain-HTTP listener on METRICS_HOST (default loopback) serves
//   only /metrics, to anyone who can reach that address (and with the token, when one is set);
// - neither: the main port answers 404, as for any unknown path.
import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { noteCredentialKind } from './access-log.ts';
import { sendError } from './envelope.ts';
import type { Metrics } from './metrics.ts';

/** Whether the request carries `Bearer <token>`; compared in constant time (of equal-length digests). */
export function hasMetricsToken(req: IncomingMessage, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

async function writeMetrics(res: ServerResponse, metrics: Metrics, head: boolean): Promise<void> {
  const body = await metrics.registry.metrics();
  res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(head ? undefined : body);
}

/** /metrics on the main port (see the top of this file). */
export async function serveMetricsOnMainPort(req: IncomingMessage, res: ServerResponse, requestId: string, metrics: Metrics, token: string | undefined): Promise<void> {
  if (!token) return sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: `No route for ${req.method} /metrics` });
  if (!hasMetricsToken(req, token)) {
    return sendError(res, requestId, {
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>"',
      headers: { 'www-authenticate': 'Bearer realm="metrics"' },
    });
  }
  noteCredentialKind(requestId, 'METRICS_TOKEN');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendError(res, requestId, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Use GET', headers: { allow: 'GET, HEAD' } });
  }
  await writeMetrics(res, metrics, req.method === 'HEAD');
}

export interface MetricsListener {
  /** e.g. http://127.0.0.1:9464/metrics */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The separate listener: GET /metrics only, plain HTTP (meant for an internal address). */
export async function startMetricsListener(options: { host: string; port: number; token: string | undefined; metrics: Metrics }): Promise<MetricsListener> {
  const { token, metrics } = options;
  const server = http.createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
    const plain = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
      res.end(`${text}\n`);
    };
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return plain(404, 'Not found: this listener serves /metrics only');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(405, 'Method not allowed', { allow: 'GET, HEAD' });
    if (token && !hasMetricsToken(req, token)) return plain(401, 'Unauthorized', { 'www-authenticate': 'Bearer realm="metrics"' });
    writeMetrics(res, metrics, req.method === 'HEAD').catch(() => {
      if (!res.headersSent) plain(500, 'Metrics could not be collected');
      else res.destroy();
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
