// Serves /v1: match the route, read the body, build the caller's context, run the operation,
// shape the envelope. Errors of every stage leave through the same error envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { RequestContext, Services } from '../src/app/context.ts';
import { createContext, releaseContext } from '../src/app/create-context.ts';
import { requestCaller } from '../src/app/http/request-caller.ts';
import { toPublicError } from '../src/app/error-mapping.ts';
import { sendData, sendError } from '../src/app/http/envelope.ts';
import { ApiError, NotFoundError } from '../src/app/errors.ts';
import { readJsonBody, readTextBody } from '../src/app/http/read-body.ts';
import { OperationExecutor } from './executor.ts';
import { deprecationHeaders, respond, type RawBody, type RestRoute } from './route.ts';
import { validateInput } from './validate-input.ts';
import { Router, type RouteMatch } from './router.ts';

export class MethodNotAllowedError extends ApiError {
  constructor(allowed: string[]) {
    super(405, 'METHOD_NOT_ALLOWED', `Allowed methods: ${allowed.join(', ')}`, { headers: { Allow: allowed.join(', ') } });
  }
}

export class RestAdapter {
  private readonly router: Router;
  private readonly executor: OperationExecutor;
  private readonly services: Services;

  constructor(schema: GraphQLSchema, routes: readonly RestRoute[], services: Services) {
    this.router = new Router(routes);
    this.executor = new OperationExecutor(schema, routes);
    this.services = services;
  }

  /** Matched once per request: the caller labels its metrics with it, then hands it to `handle`. */
  match(method: string, path: string): RouteMatch {
    return this.router.match(method, path);
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string, match: RouteMatch): Promise<void> {
    let context: RequestContext | undefined;
    try {
      if (match.kind === 'not-found') throw new NotFoundError('Route', `${req.method} ${url.pathname}`);
      if (match.kind === 'method-not-allowed') throw new MethodNotAllowedError(match.allowed);
      const { route, params } = match;
      // set before anything can fail, so that every answer of a deprecated route says so
      if (route.deprecation) for (const [name, value] of Object.entries(deprecationHeaders(route.deprecation, params))) res.setHeader(name, value);
      // The refusal order: the credential (401), then the route's tier (403), then the input (400).
      // A caller without the credential or the tier learns nothing about a route's input, and its body is not read.
      // A bad credential fails here, while the context is built (401)
      context = await createContext(this.services, requestCaller(req, url, requestId, this.services.config.TRUST_PROXY));
      context.source = 'REST';
      // the top-level field's auth scopes (credential kind, team, feature permission, OAuth scope):
      // a caller without a credential is 401 there, unless the route's tier is public
      await this.executor.authorize(route, context);
      const body = route.rawBody
        ? await readTextBody(req, route.rawBody.maxBytes, route.rawBody.mediaTypes)
        : await readJsonBody(req, this.services.config.BODY_LIMIT_BYTES);
      const input = validateInput(route, params, url, body);
      input.headers = req.headers;
      const variables = route.variables?.(input) ?? {};
      const { result, field } = await this.executor.run(route, variables, context);
      if (result.errors && result.errors.length > 0) throw result.errors[0];
      const value = (result.data as Record<string, unknown>)[field];
      const shaped = (route.respond ?? respond.field).map(value, input);
      if (shaped.raw) return sendRaw(res, shaped.status ?? route.status ?? 200, requestId, shaped.raw);
      sendData(res, shaped.status ?? route.status ?? 200, requestId, shaped.data, shaped.meta);
    } catch (error) {
      const publicError = toPublicError(error);
      if (publicError.unexpected) this.services.logger.error({ err: unwrap(error), requestId }, 'unexpected REST error');
      sendError(res, requestId, publicError);
    } finally {
      if (context) releaseContext(context);
    }
  }
}

function sendRaw(res: ServerResponse, status: number, requestId: string, raw: RawBody): void {
  const body = typeof raw.body === 'string' ? Buffer.from(raw.body) : raw.body;
  res.writeHead(status, { 'content-type': raw.contentType, 'content-length': body.length, 'x-request-id': requestId, 'x-content-type-options': 'nosniff', ...raw.headers });
  res.end(body);
}

function unwrap(error: unknown): unknown {
  return (error as { originalError?: unknown })?.originalError ?? error;
}
