// Composes one server instance: database pool, credential checking, GraphQL (HTTP + WebSocket),
// the REST adapter, realtime, jobs, health and metrics, behind the HTTPS front door.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { Authenticator } from './auth/authenticator.ts';
import type { Config } from './config.ts';
import { createPool, createPrisma } from '../db/prisma.ts';
import { applyPendingMigrations } from '../db/schema-engine/migrations.ts';
import type { Services } from './context.ts';
import { listenForCredentialInvalidation } from './auth/credential-invalidation.ts';
import { schema } from './schema.ts';
import { attachSubscriptions, createGraphQLServer } from './graphql/yoga.ts';
import { JwtService } from './auth/jwt-service.ts';
import { loadOrCreateSigningKey } from './auth/signing-key.ts';
import { Jobs } from './jobs.ts';
import { DomainEventOutbox } from './outbox.ts';
import { EventBus } from './pubsub/event-bus.ts';
import { PgNotifier } from './pubsub/pg-notifier.ts';
import { RestAdapter } from '../../rest-adapter/handler.ts';
import { cachedOpenApiDocument } from '../../rest-adapter/openapi.ts';
import { serveDocs } from '../../rest-adapter/docs-page.ts';
import { modules, routes } from './modules.ts';
import type { ModuleListener } from './module.ts';
import { outboxJobs } from './outbox.jobs.ts';
import { clientAddress } from './http/client-address.ts';
import { sendData, sendError, sendJson } from './http/envelope.ts';
import { toPublicError } from './error-mapping.ts';
import { RateLimitError, SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS, ServiceUnavailableError } from './errors.ts';
import { endPool, settlesBy } from '../db/pool-shutdown.ts';
import { dotSegmentError, hasDotSegment } from './http/dot-segments.ts';
import { createFrontDoor, HTTPS_REQUIRED } from './http/front-door.ts';
import { FRONT_PAGE_PATH, serveFrontPage } from './http/front-page.ts';
import { GRAPHIQL_ASSETS_PATH, serveGraphiQLAsset } from './http/graphiql-assets.ts';
import { createLogger } from './logger.ts';
import { Metrics } from './http/metrics.ts';
import { serveMetricsOnMainPort, startMetricsListener, type MetricsListener } from './http/metrics-endpoint.ts';
import { observeRequest } from './http/access-log.ts';
import { recordRoute } from './http/request-route.ts';
import { NOT_READY_SHUTTING_DOWN, Readiness } from './drain.ts';
import { RateLimiter } from './http/rate-limiter.ts';
import { releaseMemoryAfterLoad } from './http/release-after-load.ts';
import { loadTls, type TlsMaterial } from './http/tls.ts';
import { startTracing, stopTracing, traceRequests } from './telemetry/tracing.ts';

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

export interface StartOptions {
  config: Config;
  databaseUrl: string;
  /** run pg-boss workers in this process (default: config.JOBS_IN_SERVER) */
  runJobs?: boolean;
  /** apply pending migrations first (default true) */
  migrate?: boolean;
  logger?: Logger;
  /** pg-boss polling interval; tests shorten it */
  jobPollingIntervalSeconds?: number;
}

/** Builds the services one process needs, without any HTTP: shared by the server, the worker and the CLI. */
export async function createServices(options: StartOptions): Promise<Services> {
  const { config, databaseUrl } = options;
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, 'svc', config.LOG_FORMAT);
  if (options.migrate !== false) {
    const { applied } = await applyPendingMigrations({ databaseUrl });
    if (applied.length > 0) logger.info({ applied }, 'applied database migrations');
  }
  const pool = createPool(databaseUrl, config.DB_POOL_SIZE);
  const prisma = createPrisma(pool);
  const notifier = new PgNotifier(databaseUrl, pool, (msg, err) => logger.warn({ err }, msg));
  await notifier.start();
  const jwt = new JwtService(await loadOrCreateSigningKey(config.jwtSigningKeyFile), config);
  const authenticator = new Authenticator(prisma, jwt, config.CREDENTIAL_CACHE_TTL_SECONDS, config.RATE_LIMIT_ANONYMOUS_PER_MINUTE);
  await listenForCredentialInvalidation(notifier, authenticator);
  const events = new EventBus(notifier, (err) => logger.warn({ err }, 'event publish failed'));
  await events.start();
  const jobs = new Jobs(databaseUrl, logger, { pollingIntervalSeconds: options.jobPollingIntervalSeconds, concurrency: config.JOB_CONCURRENCY });
  const outbox = new DomainEventOutbox(pool, jobs, ({ consumer, event, error, attempts, dead }) =>
    logger[dead ? 'error' : 'warn'](
      { err: error, consumer, eventId: event.eventId, eventType: event.eventType, attempts },
      dead ? 'domain event consumer gave up on an event (DomainEventFailure kept)' : 'domain event consumer failed; retrying later',
    ),
  );
  // the core services; each module then adds its own (declared on Services by merging)
  const services = { config, prisma, pool, logger, authenticator, jwt, events, jobs, notifier, outbox } as Services;
  await startTracing(services);
  for (const module of modules) Object.assign(services, await module.services?.(services));
  for (const definition of outboxJobs) jobs.define(definition);
  for (const module of modules) {
    for (const definition of module.jobs?.(services) ?? []) jobs.define(definition);
    for (const [name, consume] of Object.entries(module.outboxConsumers?.(services) ?? {})) outbox.register(name, consume);
  }
  jobs.bindServices(services);
  return services;
}

/**
 * How long past SHUTDOWN_TIMEOUT_MS a shutdown may take to cut what did not finish in time (end
 * busy database connections, close the listener and the job system); README documents it.
 */
export const SHUTDOWN_MARGIN_MS = 1_000;

/**
 * Stops jobs, the notifier, Prisma and the pool by one deadline (epoch ms; default
 * SHUTDOWN_TIMEOUT_MS from now): job handlers and transactions still running then are cut, and
 * this resolves by deadline + SHUTDOWN_MARGIN_MS at the latest.
 */
export async function closeServices(services: Services, deadline = Date.now() + services.config.SHUTDOWN_TIMEOUT_MS): Promise<void> {
  const hardDeadline = deadline + SHUTDOWN_MARGIN_MS;
  // in-flight handlers may finish until the deadline; pg-boss then hands what is left back to its
  // queue (retried elsewhere) and closes its own connections, finishing in the background if late
  await settlesBy(services.jobs.stop(Math.max(0, deadline - Date.now())), deadline);
  services.events.stop();
  // side by side: Prisma's disconnect waits for its running transactions, which only end once the
  // pool has cut their connections at the deadline
  await Promise.all([
    settlesBy(services.notifier.stop(), hardDeadline),
    settlesBy(services.prisma.$disconnect(), hardDeadline),
    endPool(services.pool, deadline, hardDeadline),
  ]);
  await stopTracing(services, hardDeadline);
}

export async function startApp(options: StartOptions): Promise<App> {
  const services = await createServices(options);
  const { config, logger } = services;
  await services.jobs.start({ work: options.runJobs ?? config.JOBS_IN_SERVER });

  const tls = config.TRUST_PROXY ? null : await loadTls(config);
  const yoga = createGraphQLServer(services);
  const rest = new RestAdapter(schema, routes, services);
  const metrics = new Metrics(services, { webSockets: () => wsServer.clients.size });
  const readiness = new Readiness();
  const endpoints = modules.flatMap((m) => m.httpEndpoints?.(services) ?? []);
  const callerLimiter = new RateLimiter(config.RATE_LIMIT_PER_MINUTE);
  const anonymousLimiter = new RateLimiter(config.RATE_LIMIT_ANONYMOUS_PER_MINUTE);
  let draining = false;
  const baseUrlRef = { value: '' };

  const rateLimited = (req: IncomingMessage): RateLimitError | null => {
    const auth = req.headers.authorization;
    const wait = auth
      ? callerLimiter.take(createHash('sha256').update(auth).digest('base64url'))
      : anonymousLimiter.take(clientAddress(req, config.TRUST_PROXY));
    return wait > 0 ? new RateLimitError(wait) : null;
  };

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
