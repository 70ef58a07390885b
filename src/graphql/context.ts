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
}

export interface GraphQLContext {
  requestId: string;
  principal: Principal;
  clientIp: string;
  services: Services;
}
