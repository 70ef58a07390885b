// The services of one process, without any HTTP: the database pool and Prisma, credential checking,
// realtime, jobs and the outbox, and what every module of the list adds. Shared by the server,
// `svc worker` and the CLI; closed by one deadline.
import type { Logger } from 'pino';
import { createAiProvider, aiSettingsOf, type AiProvider } from '../app/ai/index.ts';
import { Authenticator } from '../app/auth/authenticator.ts';
import { listenForCredentialInvalidation } from '../app/auth/credential-invalidation.ts';
import { JwtService } from '../app/auth/jwt-service.ts';
import { loadOrCreateSigningKey } from '../app/auth/signing-key.ts';
import type { Config } from '../app/config.ts';
import type { Services } from '../app/context.ts';
import { Jobs } from '../app/jobs.ts';
import { createLogger } from '../app/logger.ts';
import { DomainEventOutbox } from '../app/outbox.ts';
import { outboxJobs } from '../app/outbox.jobs.ts';
import { EventBus } from '../app/pubsub/event-bus.ts';
import { PgNotifier } from '../app/pubsub/pg-notifier.ts';
import { startTracing, stopTracing } from '../app/telemetry/tracing.ts';
import { endPool, settlesBy } from '../db/pool-shutdown.ts';
import { createPool, createPrisma } from '../db/prisma.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { applyPendingMigrations } from '../db/schema-engine/migrations.ts';
import { modules } from './modules.ts';

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
  /** the jobs' backstop poll (JobsOptions.backstopPollSeconds); tests that wait on retries shorten it */
  jobBackstopPollSeconds?: number;
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
  const jobs = new Jobs(databaseUrl, logger, {
    pollingIntervalSeconds: options.jobPollingIntervalSeconds,
    backstopPollSeconds: options.jobBackstopPollSeconds,
    concurrency: config.JOB_CONCURRENCY,
  });
  const outbox = new DomainEventOutbox(pool, jobs, ({ consumer, event, error, attempts, dead }) =>
    logger[dead ? 'error' : 'warn'](
      { err: error, consumer, eventId: event.eventId, eventType: event.eventType, attempts },
      dead ? 'domain event consumer gave up on an event (DomainEventFailure kept)' : 'domain event consumer failed; retrying later',
    ),
  );
  // the core services; each module then adds its own (declared on Services by merging)
  const ai = await aiProviderOf(config, prisma, logger);
  const services = { config, prisma, pool, logger, authenticator, jwt, events, jobs, notifier, outbox, ai, publicAddress: { baseUrl: null } } as Services;
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

/** The configured model, its usage stored per team (docs/ai.md "What is stored"); null without one. */
async function aiProviderOf(config: Config, prisma: PrismaClient, logger: Logger): Promise<AiProvider | null> {
  const settings = aiSettingsOf(config);
  if (!settings) return null;
  return createAiProvider(settings, {
    onUsage: async ({ teamId, feature, model, inputTokens, outputTokens, totalTokens }) => {
      await prisma.aiUsage.create({ data: { teamId, feature, model, inputTokens, outputTokens, totalTokens } }).catch((err: unknown) => logger.warn({ err }, 'AI usage not recorded'));
    },
  });
}
