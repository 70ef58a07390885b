// What every resolver receives. Services are per app instance (tests run two in one process).
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Principal } from '../auth/principal.ts';
import type { Config } from '../config.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { JwtService } from '../identity/jwt-service.ts';
import type { Jobs } from '../jobs/jobs.ts';
import type { EventBus } from '../realtime/event-bus.ts';
import type { PgNotifier } from '../realtime/pg-notifier.ts';
import type { SchemaCache } from '../data/schema/schema-cache.ts';
import type { DomainEventOutbox } from '../data/events/outbox.ts';
import type { Mailer } from '../mail/mailer.ts';

export interface Services {
  config: Config;
  prisma: PrismaClient;
  pool: pg.Pool;
  logger: Logger;
  authenticator: Authenticator;
  jwt: JwtService;
  events: EventBus;
  jobs: Jobs;
  notifier: PgNotifier;
  /** each team's collections and fields, kept in memory until a schema change */
  schemas: SchemaCache;
  /** record-change events waiting for webhooks and automations */
  outbox: DomainEventOutbox;
  /** outgoing mail: stored, then sent by a job over SMTP (or kept in the outbox table) */
  mail: Mailer;
}

/** Which face a request came through; recorded in the audit log. */
export type RequestSource = 'REST' | 'GRAPHQL' | 'JOB';

export interface GraphQLContext {
  requestId: string;
  principal: Principal;
  clientIp: string;
  services: Services;
  source?: RequestSource;
  /** re-authenticates the same credential (subscriptions, per event); store the result in `principal` */
  refreshPrincipal?: () => Promise<Principal>;
  /** per-request DataLoaders, created on first use (src/data/loaders.ts) */
  loaders?: Map<string, unknown>;
}
