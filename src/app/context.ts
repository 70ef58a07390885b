// The request context every service takes: who is calling, in which team, through which face,
// with the instance's services and per-request loaders. Plain data: nothing here knows GraphQL,
// so the same service runs under a resolver, a REST route, a job or the CLI.
import type { PublicAddress } from './public-address.ts';
import type { AiProvider } from './ai/index.ts';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Authenticator } from './auth/authenticator.ts';
import type { Principal } from './auth/principal.ts';
import type { Config } from './config.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { JwtService } from './auth/jwt-service.ts';
import type { PgNotifier } from './pubsub/pg-notifier.ts';

/**
 * What one instance (server, worker or CLI) holds. Services are per instance: tests run two in one
 * process. Modules add their own members by declaration merging in their `index.ts`
 * (`declare module '../../app/context.ts' { interface Services { mail: Mailer } }`) and create them
 * in their manifest's `services` hook, so this file never imports a module.
 */
export interface Services {
  config: Config;
  prisma: PrismaClient;
  pool: pg.Pool;
  logger: Logger;
  authenticator: Authenticator;
  jwt: JwtService;
  notifier: PgNotifier;
  /** the AI model the platform's AI features use (docs/ai.md); null when none is configured */
  ai: AiProvider | null;
  /** where handed-out links point (public-address.ts) */
  publicAddress: PublicAddress;
  // `jobs`, `events` and `outbox` are declared by their own files (jobs.ts, pubsub/event-bus.ts,
  // outbox.ts), which need this interface themselves: declared here they would import each other
}

/** Which face a request came through; recorded in the audit log. */
export type RequestSource = 'REST' | 'GRAPHQL' | 'JOB';

export interface RequestContext {
  requestId: string;
  principal: Principal;
  clientIp: string;
  userAgent?: string | null;
  services: Services;
  logger: Logger;
  source?: RequestSource;
  /** re-authenticates the same credential (subscriptions, per event); store the result in `principal` */
  refreshPrincipal?: () => Promise<Principal>;
  /** per-request DataLoaders, created on first use (request-loader.ts) */
  loaders?: Map<string, unknown>;
}

/** A context for work that no HTTP request started (jobs, the CLI): the given principal acts. */
export function systemContext(services: Services, principal: Principal, requestId: string): RequestContext {
  return { requestId, principal, clientIp: '', services, logger: services.logger, source: 'JOB' };
}
