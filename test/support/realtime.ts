// graphql-ws clients for the tests: over `ws`, trusting the test server's self-signed CA, never
// retrying; and a teamEvents subscriber that records what it receives.
import { createClient, type Client, type ClientOptions } from 'graphql-ws';
import WebSocket from 'ws';
import { createRole, unique, type TeamFixture } from './fixtures.ts';
import type { TestServer } from './server.ts';
import { until } from './until.ts';

/** A WebSocket class (for graphql-ws `webSocketImpl`) that opens every socket with `options`. */
export function webSocketWith(options: WebSocket.ClientOptions) {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, options);
    }
  };
}

/** The wss:// URL of `path` (by default the GraphQL endpoint) on an https:// base URL. */
export function wssUrl(baseUrl: string, path = '/graphql'): string {
  return `${baseUrl.replace(/^https:/, 'wss:')}${path}`;
}

export type GraphqlWsOptions = Omit<ClientOptions, 'url' | 'webSocketImpl'>;

/** A graphql-ws client for `url` whose sockets open with `socket` options; no retries unless given. */
export function graphqlWsClient(url: string, socket: WebSocket.ClientOptions, options: GraphqlWsOptions = {}): Client {
  return createClient({ url, webSocketImpl: webSocketWith(socket), retryAttempts: 0, ...options });
}

/** A graphql-ws client for a server's wss://…/graphql, trusting its certificate `ca`. */
export function serverGraphqlWsClient(server: { baseUrl: string; ca: string }, options: GraphqlWsOptions = {}): Client {
  return graphqlWsClient(wssUrl(server.baseUrl), { ca: server.ca }, options);
}

export const TEAM_EVENT_FIELDS = 'type resourceType resourceId actor { kind id }';

export interface TeamEvent {
  type: string;
  resourceType: string;
  resourceId: string;
  /** when selected (see `subscribeTeamEvents`' `fields`) */
  occurredAt?: string;
  actor: { kind: string; id: string | null };
}

export interface GraphQLErrorShape {
  message: string;
  extensions?: { code?: string };
}

/**
 * One graphql-ws client subscribed to teamEvents (selecting `fields`). Records the events, the
 * GraphQL errors (a `next` carrying `errors`, or an `error` message), every error as received
 * (`errors`: an `errors` array, an `error` payload, or a `next` with neither data nor errors), and
 * the close code should the server refuse or close.
 */
export function subscribeTeamEvents(server: TestServer, connectionParams: Record<string, string>, fields = TEAM_EVENT_FIELDS) {
  const state = {
    events: [] as TeamEvent[],
    graphqlErrors: [] as GraphQLErrorShape[],
    errors: [] as unknown[],
    closeCode: undefined as number | undefined,
    connected: false,
    done: false,
  };
  const client = serverGraphqlWsClient(server, {
    connectionParams,
    on: {
      connected: () => (state.connected = true),
      closed: (event) => (state.closeCode ??= (event as { code?: number })?.code),
    },
  });
  client.subscribe<{ teamEvents: TeamEvent }>(
    { query: `subscription { teamEvents { ${fields} } }` },
    {
      next: (result) => {
        if (result.errors) {
          state.errors.push(result.errors);
          state.graphqlErrors.push(...(result.errors as GraphQLErrorShape[]));
        } else if (!result.data?.teamEvents) state.errors.push(result);
        if (result.data?.teamEvents) state.events.push(result.data.teamEvents);
      },
      error: (error) => {
        state.errors.push(error);
        if (Array.isArray(error)) state.graphqlErrors.push(...(error as GraphQLErrorShape[]));
        else if (error && typeof error === 'object' && 'code' in error) state.closeCode ??= (error as { code: number }).code;
        state.done = true;
      },
      complete: () => (state.done = true),
    },
  );
  return { state, close: () => client.dispose() };
}

export type TeamEventSubscriber = ReturnType<typeof subscribeTeamEvents>;

/**
 * The protocol does not announce when a subscription is live: creates roles in `team` through
 * `writer` until `sub` has seen one of them. Returns the ids of the roles it created.
 */
export async function warmUp(writer: TestServer, team: TeamFixture, sub: TeamEventSubscriber, what = 'the subscription to go live'): Promise<string[]> {
  const created: string[] = [];
  const seen = () => sub.state.events.some((e) => created.includes(e.resourceId));
  await until(
    what,
    async () => {
      if (seen()) return true;
      created.push(await createRole(writer, team, { name: `Warm-up ${created.length} ${unique()}` }));
      return until('an event', seen, 500, 20).catch(() => false);
    },
    10_000,
    0,
  );
  return created;
}
