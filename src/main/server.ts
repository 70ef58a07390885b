// Composes one server instance: database pool, credential checking, GraphQL (HTTP + WebSocket),
// the REST adapter, realtime, jobs, health and metrics, behind the HTTPS front door.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Services } from '../app/context.ts';
import { schema } from './schema.ts';
import { attachSubscriptions, createGraphQLServer } from '../app/graphql/yoga.ts';
import { createJsonPostHandler } from '../app/graphql/json-post.ts';
import { RestAdapter } from '../../rest-adapter/handler.ts';
import { cachedOpenApiDocument } from '../../rest-adapter/openapi.ts';
import { serveDocs } from '../../rest-adapter/docs-page.ts';
import { modules, routes } from './modules.ts';
import type { ModuleListener } from '../app/module.ts';
import { clientAddress } from '../app/http/client-address.ts';
import { authorizationDigest } from '../app/http/credential-digest.ts';
import { sendData, sendError, sendJson } from '../app/http/envelope.ts';
import { toPublicError } from '../app/error-mapping.ts';
import { RateLimitError, SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS, ServiceUnavailableError } from '../app/errors.ts';
import { settlesBy } from '../db/pool-shutdown.ts';
import { dotSegmentError, hasDotSegment } from '../app/http/dot-segments.ts';
import { createFrontDoor, HTTPS_REQUIRED } from '../app/http/front-door.ts';
import { FRONT_PAGE_PATH, serveFrontPage } from '../app/http/front-page.ts';
import { GRAPHIQL_ASSETS_PATH, serveGraphiQLAsset } from '../app/http/graphiql-assets.ts';
import { Metrics } from '../app/http/metrics.ts';
import { serveMetricsOnMainPort, startMetricsListener, type MetricsListener } from '../app/http/metrics-endpoint.ts';
import { observeRequest } from '../app/http/access-log.ts';
import { recordRoute } from '../app/http/request-route.ts';
import { NOT_READY_SHUTTING_DOWN, Readiness } from '../app/drain.ts';
import { RateLimiter } from '../app/http/rate-limiter.ts';
import { releaseMemoryAfterLoad } from '../app/http/release-after-load.ts';
import { loadTls, type TlsMaterial } from '../app/http/tls.ts';
import { traceRequests } from '../app/telemetry/tracing.ts';
import { closeServices, createServices, SHUTDOWN_MARGIN_MS, type StartOptions } from './services.ts';

export interface App {
  baseUrl: string;
  port: number;
  services: Services;
  tls: TlsMaterial | null;
  /** the separate /metrics listener (METRICS_PORT), when there is one */
  metricsListener: MetricsListener | null;
  /** readiness off, SHUTDOWN_GRACE_MS still serving (src/app/drain.ts), then the shutdown below */
  close(): Promise<void>;
}

export async function startApp(options: StartOptions): Promise<App> {
  const services = await createServices(options);
  const { config, logger } = services;
  await services.jobs.start({ work: options.runJobs ?? config.JOBS_IN_SERVER });

  const tls = config.TRUST_PROXY ? null : await loadTls(config);
  const yoga = createGraphQLServer(services, schema);
  const graphqlJsonPost = createJsonPostHandler(services, schema, yoga);
  const rest = new RestAdapter(schema, routes, services);
  const metrics = new Metrics(services, { webSockets: () => wsServer.clients.size });
  const readiness = new Readiness();
  const callerLimiter = new RateLimiter(config.RATE_LIMIT_PER_MINUTE);
  const anonymousLimiter = new RateLimiter(config.RATE_LIMIT_ANONYMOUS_PER_MINUTE);
  let draining = false;
  const baseUrlRef = { value: '' };

  const rateLimited = (req: IncomingMessage): RateLimitError | null => {
    const digest = authorizationDigest(req);
    const wait = digest ? callerLimiter.take(digest) : anonymousLimiter.take(clientAddress(req, config.TRUST_PROXY));
    return wait > 0 ? new RateLimitError(wait) : null;
  };
  // an area's endpoints that answer API calls (MCP) share the callers' budget with /v1 and /graphql
  const endpoints = modules.flatMap((m) => m.httpEndpoints?.(services, { schema, rateLimited }) ?? []);

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    const method = req.method ?? 'GET';
    let route = 'unmatched';
    res.setHeader('x-request-id', requestId);
    recordRoute(res, () => route);
    observeRequest({ req, res, requestId, metrics, logger });
    // draining: still served, but on a connection of its own, so clients move to other instances
    if (!readiness.ready) res.setHeader('connection', 'close');
    try {
      if (config.TRUST_PROXY && req.headers['x-forwarded-proto'] !== 'https') return sendError(res, requestId, HTTPS_REQUIRED);
      if (draining) {
        res.setHeader('connection', 'close');
        return sendError(res, requestId, toPublicError(new ServiceUnavailableError('The server is shutting down')));
      }
      if (hasDotSegment(req.url ?? '/')) return sendError(res, requestId, toPublicError(dotSegmentError()));
      const url = new URL(req.url ?? '/', 'https://localhost');
      const path = url.pathname;
      if (path === '/healthz') {
        route = path;
        return sendData(res, 200, requestId, { status: 'ok' });
      }
      if (path === '/readyz') {
        route = path;
        if (!readiness.ready) return sendError(res, requestId, NOT_READY_SHUTTING_DOWN);
        // a fresh query each time, so readiness comes back by itself once the database does
        try {
          await services.pool.query('SELECT 1');
          return sendData(res, 200, requestId, { status: 'ready', database: 'ok' });
        } catch {
          return sendError(res, requestId, {
            status: 503,
            code: 'NOT_READY',
            message: 'The database is not reachable',
            headers: { 'Retry-After': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
          });
        }
      }
      // a host an area serves whole (a website's custom domain): every path there is the area's
      const hosted = endpoints.find((e) => e.servesHost?.(req.headers.host));
      if (hosted) {
        route = hosted.route;
        return await hosted.handle(req, res, url, requestId);
      }
      if (path === '/metrics') {
        route = path;
        return await serveMetricsOnMainPort(req, res, requestId, metrics, config.METRICS_TOKEN);
      }
      if (path === '/.well-known/jwks.json') {
        route = path;
        return sendJson(res, 200, services.jwt.jwks, { 'cache-control': 'public, max-age=300' });
      }
      if (path === '/openapi.json') {
        route = path;
        return sendJson(res, 200, cachedOpenApiDocument({ schema, modules, serverUrl: baseUrlRef.value }));
      }
      if ((method === 'GET' || method === 'HEAD') && (path === '/docs' || path.startsWith('/docs/')) && serveDocs(res, path)) {
        route = '/docs';
        return;
      }
      if (path === FRONT_PAGE_PATH) {
        route = path;
        return serveFrontPage(req, res, requestId, config.graphiql);
      }
      if (path.startsWith(GRAPHIQL_ASSETS_PATH)) {
        route = GRAPHIQL_ASSETS_PATH;
        return serveGraphiQLAsset(req, res, requestId, path, config.graphiql);
      }
      if (path === '/graphql') {
        route = path;
        const limited = rateLimited(req);
        if (limited) {
          return sendJson(res, 429, { errors: [{ message: limited.message, extensions: { code: limited.code } }] }, limited.headers);
        }
        if (await graphqlJsonPost(req, res, url, requestId)) return;
        return await yoga.handle(req, res, { req, res, requestId });
      }
      if (path === '/v1' || path.startsWith('/v1/')) {
        const match = rest.match(method, path);
        route = match.kind === 'found' ? match.route.path : 'v1-unmatched';
        const limited = rateLimited(req);
        if (limited) return sendError(res, requestId, { status: 429, code: limited.code, message: limited.message, headers: limited.headers });
        return await rest.handle(req, res, url, requestId, match);
      }
      const endpoint = endpoints.find((e) => path.startsWith(e.prefix));
      if (endpoint) {
        route = endpoint.route;
        // not rate-limited by address: these authorize by a signature that a rate-limited /v1 call
        // handed out (a page of 200 thumbnails is 200 signed downloads from one address)
        return await endpoint.handle(req, res, url, requestId);
      }
      return sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: `No route for ${method} ${path}` });
    } catch (error) {
      const publicError = toPublicError(error);
      if (publicError.unexpected) logger.error({ err: error, requestId }, 'request failed');
      sendError(res, requestId, publicError);
    }
  };

  const wsServer = new WebSocketServer({ noServer: true });
  const subscriptions = attachSubscriptions(wsServer, yoga, services);
  const frontDoor = createFrontDoor({
    tls,
    handler: traceRequests(services, (req, res) => void handler(req, res)),
    onUpgrade: (req, socket, head) => {
      const path = hasDotSegment(req.url ?? '/') ? null : new URL(req.url ?? '/', 'https://localhost').pathname;
      const proxiedPlain = config.TRUST_PROXY && req.headers['x-forwarded-proto'] !== 'https';
      if (path !== '/graphql' || proxiedPlain || draining) {
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wsServer.handleUpgrade(req, socket, head, (ws) => wsServer.emit('connection', ws, req));
    },
  });
  releaseMemoryAfterLoad({ ws: wsServer, http: frontDoor.app });

  await new Promise<void>((resolve, reject) => {
    frontDoor.listener.once('error', reject);
    frontDoor.listener.listen(config.PORT, config.HOST, () => resolve());
  });
  const port = (frontDoor.listener.address() as AddressInfo).port;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const baseUrl = config.PUBLIC_BASE_URL ?? `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  baseUrlRef.value = baseUrl;
  services.publicAddress.baseUrl = baseUrl;
  for (const module of modules) module.onListening?.(services, baseUrl);
  const metricsListener =
    config.METRICS_PORT === undefined ? null : await startMetricsListener({ host: config.METRICS_HOST, port: config.METRICS_PORT, token: config.METRICS_TOKEN, metrics });
  const moduleListeners: ModuleListener[] = [];
  for (const module of modules) {
    const listener = await module.listen?.(services);
    if (listener) moduleListeners.push(listener);
  }

  let closing: Promise<void> | null = null;
  // One deadline for the whole shutdown: requests, WebSockets, jobs and database connections share
  // SHUTDOWN_TIMEOUT_MS; what is still running then is cut (closeServices: + SHUTDOWN_MARGIN_MS).
  const close = () =>
    (closing ??= (async () => {
      await readiness.drain(config.shutdownGraceMs, logger);
      const deadline = Date.now() + config.SHUTDOWN_TIMEOUT_MS;
      draining = true;
      void metricsListener?.close();
      for (const client of wsServer.clients) client.close(1001, 'server shutting down');
      // a subscriber that does not answer its close frame is cut at the deadline with its socket
      await Promise.all([
        frontDoor.close(Math.max(0, deadline - Date.now())),
        settlesBy(Promise.resolve(subscriptions.dispose()), deadline),
        ...moduleListeners.map((listener) => settlesBy(listener.close(deadline), deadline + SHUTDOWN_MARGIN_MS)),
      ]);
      for (const client of wsServer.clients) client.terminate();
      wsServer.close();
      await closeServices(services, deadline);
    })());

  return { baseUrl, port, services, tls, metricsListener, close };
}
