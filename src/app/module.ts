// What an area hands the app: the contract of every `src/modules/<area>/module.ts`. The app reads
// these manifests through one list (modules.ts) to build the schema, the REST router, the
// services of an instance, its job queues, the outbox consumers and the route checklist.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { ApiError } from './errors.ts';
import type { ConfigSlice } from './config.ts';
import type { Services } from './context.ts';
import type { IdKind } from './ids.ts';
import type { JobDefinition } from './jobs.ts';
import type { DomainEventConsumer } from './outbox.ts';

export interface AppModule {
  /** the area: its folder `src/modules/<name>/`, its REST table `rest-adapter/routes/<name>.ts`, its tests `test/<name>/` */
  name: string;
  /** what the area offers, in a user's words (the OpenAPI tag of its routes) */
  description: string;
  /**
   * The area's Pothos registration. Importing `<area>.schema.ts` registers its types and fields on
   * the one builder; the manifest holds the imported namespace so the dependency is explicit.
   */
  schema?: object;
  /** the area's settings, merged into the one validated configuration (src/main/config.ts) */
  config?: ConfigSlice;
  /** identifiers the area mints (`<prefix>-XXXX-XXXX-XXXX`); prefixes are unique across modules */
  ids?: readonly IdKind[];
  /** members the area adds to `Services` (declared by merging into that interface), created once per instance */
  services?: (services: Services) => Promise<Partial<Services>> | Partial<Services>;
  /** the area's pg-boss queues with their handlers */
  jobs?: (services: Services) => JobDefinition<never>[];
  /** consumers of record-change domain events, by consumer name (dispatch runs them in the outbox transaction) */
  outboxConsumers?: (services: Services) => Record<string, DomainEventConsumer>;
  /**
   * Plain HTTP endpoints outside /v1 and /graphql that authorize themselves (e.g. the local file
   * storage's signed upload and download URLs), served by the front door of every instance. An
   * endpoint that runs operations of the API (MCP) is given the assembled schema.
   */
  httpEndpoints?: (services: Services, app: AppFaces) => HttpEndpoint[];
  /** called once the server listens, with its public base URL (signed URLs the area hands out point there) */
  onListening?: (services: Services, baseUrl: string) => void;
  /**
   * A listener of the area's own besides HTTP (e.g. inbound SMTP), opened by the server once it
   * listens (never by workers or the CLI) and closed on shutdown, before the services. Null: not
   * configured.
   */
  listen?: (services: Services) => Promise<ModuleListener | null>;
  /** realtime topics the area publishes on (documentation and the topic registry of the event bus) */
  topics?: readonly string[];
}

/** What the composition root hands an area's endpoints besides the services. */
export interface AppFaces {
  /** the assembled schema, for an endpoint that runs operations of the API (MCP) */
  schema: GraphQLSchema;
  /** the per-credential (or, without one, per-address) rate limit of /v1 and /graphql: the refusal, or null */
  rateLimited(req: IncomingMessage): ApiError | null;
}

/** A path prefix an area serves itself (AppModule.httpEndpoints). */
export interface HttpEndpoint {
  /** e.g. "/storage/": every path starting with it */
  prefix: string;
  /** the route template of the access log and metrics */
  route: string;
  handle(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void>;
  /** whether every path on this Host is the endpoint's (a website's custom domain); asked for each request, so it answers from memory */
  servesHost?(host: string | undefined): boolean;
}

/** What AppModule.listen opened. */
export interface ModuleListener {
  /** stops accepting; sessions still open may finish until `deadline` (epoch ms) and are cut then */
  close(deadline: number): Promise<void>;
}

export function defineModule<M extends AppModule>(module: M): M {
  return module;
}
