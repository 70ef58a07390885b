// graphql-yoga over the Pothos schema: GraphQL over HTTP at /graphql and, on the same path,
// graphql-ws subscriptions that authenticate on connection_init with the same credentials.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { type ExecutionArgs, type ExecutionResult, GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import type { WebSocket, WebSocketServer } from 'ws';
import { toGraphQLError, toPublicError } from '../error-mapping.ts';
import { useBodyLimit } from './body-limit.ts';
import { unstorableVariablesError, useStorableText } from './storable-text-plugin.ts';
import { useVariablesDepthLimit, variablesDepthError } from './variables-depth.ts';
import { useCompiledExecution } from './compiled-execution.ts';
import { clientAddress } from '../http/client-address.ts';
import { graphiqlPage } from '../http/graphiql-page.ts';
import type { RequestContext, Services } from '../context.ts';
import { createContext, releaseContext } from '../create-context.ts';
import { PushQueue } from '../pubsub/push-queue.ts';
import { subscribeShared, type SubscriberSocket } from '../pubsub/shared-subscription.ts';
import { tracingPlugins } from '../telemetry/tracing.ts';

export interface NodeServerContext {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
}

interface WsServerContext {
  connectionParams?: Record<string, unknown>;
  requestId: string;
}

type YogaContext = Partial<NodeServerContext> & Partial<WsServerContext> & { request?: Request };

/** Yoga over `schema` (the platform's, assembled by the composition root). */
export function createGraphQLServer(services: Services, schema: GraphQLSchema): YogaServerInstance<NodeServerContext, RequestContext> {
  const { config, logger } = services;
  return createYoga<NodeServerContext, RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL from this server's own files, subscriptions authenticated (src/app/http/graphiql-page.ts)
    ...graphiqlPage(config.graphiql),
    landingPage: false,
    logging: false,
    // HTTP uploads, batching and the like are not part of this API
    batching: false,
    plugins: [useCompiledExecution(), useBodyLimit(config.BODY_LIMIT_BYTES), useVariablesDepthLimit(), useStorableText(), useRequestErrorCodes(), useReleasedContext(), ...tracingPlugins(services)],
    // the same body limit as REST, checked by useBodyLimit (Yoga's own default is 25 MB)
    maxRequestBodySize: false,
    maskedErrors: { maskError: errorMasker(logger) },
    context: async (initial): Promise<RequestContext> => {
      const ctx = initial as unknown as YogaContext;
      if (ctx.connectionParams !== undefined) {
        const params = ctx.connectionParams ?? {};
        return contextOrHttpError(services, {
          requestId: ctx.requestId ?? randomUUID(),
          authorization: stringParam(params, 'authorization') ?? stringParam(params, 'Authorization'),
          teamSelector: stringParam(params, 'X-Team-Id') ?? stringParam(params, 'teamSimplyId'),
          clientIp: ctx.req ? clientAddress(ctx.req, config.TRUST_PROXY) : '',
        });
      }
      const request = ctx.request!;
      return contextOrHttpError(services, {
        requestId: ctx.requestId ?? randomUUID(),
        authorization: request.headers.get('authorization'),
        teamSelector: request.headers.get('x-team-id') ?? new URL(request.url).searchParams.get('teamSimplyId'),
        clientIp: ctx.req ? clientAddress(ctx.req, config.TRUST_PROXY) : '',
        userAgent: request.headers.get('user-agent'),
      });
    },
  });
}

/** What a caller sees of an error: its documented code, or INTERNAL_ERROR (logged). */
export function errorMasker(logger: Services['logger']) {
  return (error: unknown): GraphQLError => {
    const mapped = error instanceof GraphQLError ? toGraphQLError(error) : null;
    if (mapped) return mapped;
    logger.error({ err: error instanceof GraphQLError ? (error.originalError ?? error) : error }, 'unexpected GraphQL error');
    return new GraphQLError('Unexpected failure', { extensions: { code: 'INTERNAL_ERROR', status: 500 } });
  };
}

/**
 * GraphQL's own request errors (syntax, unknown fields, bad variables) carry no code; give them the
 * one the REST face reports for the same mistake, so clients can branch on `extensions.code` alone.
 */
export function withRequestErrorCodes(result: ExecutionResult): ExecutionResult {
  const errors = result.errors;
  return errors?.some((e) => !e.extensions?.code) ? { ...result, errors: errors.map(withCode) } : result;
}

function withCode(error: GraphQLError): GraphQLError {
  if (error.extensions?.code) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: 'VALIDATION_ERROR', status: 400 },
  });
}

function useRequestErrorCodes(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (!result || typeof result !== 'object' || Symbol.asyncIterator in result || Array.isArray(result)) return;
      const coded = withRequestErrorCodes(result as ExecutionResult);
      if (coded !== result) setResult(coded);
    },
  };
}

/** Each operation's context is let go of once it has run (releaseContext: per-request caches). */
function useReleasedContext(): Plugin {
  return {
    onExecute({ args }) {
      return { onExecuteDone: () => releaseContext(args.contextValue as object) };
    },
  };
}

function stringParam(params: Record<string, unknown>, key: string): string | undefined {
  const value = params[key];
  return typeof value === 'string' ? value : undefined;
}

/** A credential failure happens before execution: report it with its HTTP status. */
async function contextOrHttpError(services: Services, caller: Parameters<typeof createContext>[1]): Promise<RequestContext> {
  try {
    return await createContext(services, caller);
  } catch (error) {
    const p = toPublicError(error);
    if (p.unexpected) throw error;
    throw new GraphQLError(p.message, { extensions: { code: p.code, status: p.status, http: { status: p.status } } });
  }
}

/** The caller facts of a graphql-ws connection: its connection_init params and its socket's address. */
function socketCaller(services: Services, ctx: { connectionParams?: Readonly<Record<string, unknown>>; extra: unknown }) {
  const params = ctx.connectionParams ?? {};
  return {
    requestId: randomUUID(),
    authorization: stringParam(params, 'authorization') ?? stringParam(params, 'Authorization'),
    teamSelector: stringParam(params, 'X-Team-Id') ?? stringParam(params, 'teamSimplyId'),
    clientIp: clientAddress((ctx.extra as { request: IncomingMessage }).request, services.config.TRUST_PROXY),
  };
}

/** What onSubscribe leaves for execute/subscribe: Yoga's enveloped executor and the socket's facts. */
interface OperationRoot {
  execute: (a: ExecutionArgs) => unknown;
  socket: SubscriberSocket;
}

/**
 * graphql-ws on the Yoga endpoint, through Yoga's envelop (context, parse, validate) so the same
 * rules apply. Subscriptions are delivered by the event bus's hub: each event is resolved once per
 * group of subscribers with the same operation and permissions (src/app/pubsub/shared-subscription.ts).
 */
/** A credential that fails closes the socket with 4403; a database outage with 1013 (try again later). */
function closeRefused(extra: unknown, error: unknown): void {
  const { socket } = extra as { socket: { close(code: number, reason: string): void } };
  if (toPublicError(error).code === 'SERVICE_UNAVAILABLE') socket.close(1013, 'Service unavailable');
  else socket.close(4403, 'Forbidden');
}

export function attachSubscriptions(
  wsServer: WebSocketServer,
  yoga: YogaServerInstance<NodeServerContext, RequestContext>,
  services: Services,
) {
  const mask = errorMasker(services.logger);
  return useServer(
    {
      execute: (args) => (args.rootValue as OperationRoot).execute(args as ExecutionArgs) as never,
      subscribe: (args) => {
        const { socket } = args.rootValue as OperationRoot;
        return subscribeShared({ ...(args as ExecutionArgs), rootValue: undefined }, services.events.hub, mask, socket) as never;
      },
      onConnect: async (ctx) => {
        // authenticate on connection_init: a bad credential closes the socket (4403) before any operation
        try {
          await createContext(services, socketCaller(services, ctx));
          return true;
        } catch (error) {
          closeRefused(ctx.extra, error);
          return false;
        }
      },
      onNext: async (ctx, id) => {
        // a credential revoked, rotated or expired after connection_init must stop receiving events:
        // re-check it before each delivery (a cache hit while it stays valid) and close the socket
        // (4403) otherwise; the message is then not sent. Shared subscriptions were checked by the hub.
        if (ctx.subscriptions[id] instanceof PushQueue) return;
        try {
          await createContext(services, socketCaller(services, ctx));
        } catch (error) {
          closeRefused(ctx.extra, error);
        }
      },
      onSubscribe: async (ctx, id, payload) => {
        // the edge checks of GraphQL over HTTP (onParams, onExecute), which this path does not pass
        const refused = variablesDepthError(payload.variables) ?? unstorableVariablesError(payload.variables);
        if (refused) return [refused];
        const extra = ctx.extra as unknown as { request: IncomingMessage };
        const { schema: envelopedSchema, execute, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          connectionParams: ctx.connectionParams ?? {},
          req: extra.request,
          requestId: randomUUID(),
          params: payload,
        });
        const caller = socketCaller(services, ctx);
        const ws = (ctx.extra as unknown as { socket: WebSocket }).socket;
        // the start of this subscription's `next` messages (graphql-ws protocol), built once
        const nextPrefix = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
        const socket: SubscriberSocket = {
          callerKey: JSON.stringify([caller.authorization ?? null, caller.teamSelector ?? null, caller.clientIp]),
          close: (code, reason) => ws.close(code, reason),
          sendNext: (payloadJson) => {
            if (ws.readyState !== ws.OPEN) return false;
            ws.send(`${nextPrefix}${payloadJson}}`);
            return true;
          },
          bufferedAmount: () => ws.bufferedAmount,
        };
        const args = {
          schema: envelopedSchema,
          operationName: payload.operationName,
          document: parse(payload.query),
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, socket } satisfies OperationRoot,
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args;
      },
    },
    wsServer,
  );
}
