// GraphQL over HTTP for the common request, without Yoga's Fetch adaptation: a POST of a JSON body
// with a declared length within the limit, asking for a query's or mutation's JSON answer. Yoga
// turns each request into a whatwg Request, runs envelop's hooks around every stage and builds a
// Response; on a record get that cost as much server time as executing the operation itself.
// Here each query text is parsed, validated and compiled once (an LRU), and a request runs the
// checks of Yoga's plugins (variables depth, storable text), the same context and the same
// compiled execution, then writes its JSON. Errors in a result are masked, coded and shaped by
// Yoga's own result processor, so status and body are Yoga's. Everything else goes to Yoga with
// the body already read: other methods and media types, CORS, a body that is not a plain
// { query, variables, operationName }, a document that does not parse or validate, a
// subscription, a credential that fails, and every request while tracing is on (Yoga's tracing
// plugin spans the stages).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOperationAST, parse, validate, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { RequestContext, Services } from '../context.ts';
import { createContext, releaseContext } from '../create-context.ts';
import { requestCaller } from '../http/request-caller.ts';
import { readUpTo } from '../http/read-body.ts';
import { compileOperation, type CompiledOperation } from './compiled-execution.ts';
import { unstorableLiteral, unstorableVariablesError } from './storable-text-plugin.ts';
import { variablesDepthError } from './variables-depth.ts';
import { errorMasker, withRequestErrorCodes, type NodeServerContext } from './yoga.ts';

type MediaType = 'application/json' | 'application/graphql-response+json';

/** query texts compiled at once; a client rarely sends more distinct ones (Yoga keeps as many parsed) */
const PREPARED_TEXTS = 1000;
/** and their total length: the compiled code grows with the text, and a body may hold 1 MiB of it */
const PREPARED_CHARS = 8 * 1024 * 1024;
const DECIMAL_LENGTH = /^\d+$/;

/** Serves a request and resolves true, or resolves false having read nothing (Yoga serves it then). */
export type JsonPostHandler = (req: IncomingMessage, res: ServerResponse, url: URL, requestId: string) => Promise<boolean>;

export function createJsonPostHandler(
  services: Services,
  schema: GraphQLSchema,
  yoga: YogaServerInstance<NodeServerContext, RequestContext>,
): JsonPostHandler {
  const { config, logger } = services;
  const mask = errorMasker(logger);
  // false: the text is Yoga's to answer (it does not parse or validate, or is a subscription)
  const prepared = new LRUCache<string, CompiledOperation | false>({ max: PREPARED_TEXTS, maxSize: PREPARED_CHARS, sizeCalculation: (_value, key) => key.length });
  const prepare = (query: string, operationName: string | null): CompiledOperation | false => {
    const key = `${operationName ?? ''} ${query}`;
    let operation = prepared.get(key);
    if (operation === undefined) prepared.set(key, (operation = compile(schema, query, operationName)));
    return operation;
  };

  // the body has been read: Yoga takes it from req.body (as from a body-parsing framework)
  const toYoga = async (req: IncomingMessage, res: ServerResponse, requestId: string, body: Buffer) => {
    (req as IncomingMessage & { body?: Buffer }).body = body;
    await yoga.handle(req, res, { req, res, requestId });
    return true;
  };

  return async (req, res, url, requestId) => {
    if (services.tracing || req.method !== 'POST' || req.headers.origin !== undefined) return false;
    if (!isJson(req.headers['content-type'])) return false;
    const declared = req.headers['content-length'];
    if (declared === undefined || !DECIMAL_LENGTH.test(declared) || Number(declared) > config.BODY_LIMIT_BYTES) return false;
    const mediaType = answerType(req.headers.accept);
    if (!mediaType) return false;

    const body = await readUpTo(req, config.BODY_LIMIT_BYTES);
    const params = plainParams(body);
    if (!params || variablesDepthError(params.variables) || unstorableVariablesError(params.variables)) return toYoga(req, res, requestId, body);
    const operation = prepare(params.query, params.operationName);
    if (!operation) return toYoga(req, res, requestId, body);

    let context: RequestContext;
    try {
      context = await createContext(services, requestCaller(req, url, requestId, config.TRUST_PROXY));
    } catch {
      // Yoga builds the context again and answers the failure its own way (401, 403, 503)
      return toYoga(req, res, requestId, body);
    }
    const result = await operation(undefined, context, params.variables);
    releaseContext(context);
    if (!result.errors?.length) {
      // a string: written with the head in one socket write, as the REST envelope is (http/envelope.ts)
      const json = JSON.stringify(result);
      res.writeHead(200, { 'content-type': `${mediaType}; charset=utf-8`, 'content-length': Buffer.byteLength(json) });
      res.end(json);
      return true;
    }
    const shaped = withRequestErrorCodes({ ...result, errors: result.errors.map((error) => mask(error)) } as ExecutionResult);
    const response = processRegularResult(shaped as never, yoga.fetchAPI, mediaType) as Response;
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
    const answer = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': answer.length });
    res.end(answer);
    return true;
  };
}

/** The operation of `query`, compiled, or false when Yoga is to answer it. */
function compile(schema: GraphQLSchema, query: string, operationName: string | null): CompiledOperation | false {
  let document;
  try {
    document = parse(query);
  } catch {
    return false;
  }
  if (validate(schema, document).length > 0 || unstorableLiteral(document)) return false;
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation === 'subscription') return false;
  const compiled = compileOperation(schema, document, operationName);
  return typeof compiled === 'function' ? compiled : false;
}

interface PlainParams {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}

/** { query, variables?, operationName?, extensions? } exactly as Yoga accepts them, or null. */
function plainParams(body: Buffer): PlainParams | null {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  for (const key of Object.keys(value)) if (key !== 'query' && key !== 'variables' && key !== 'operationName' && key !== 'extensions') return null;
  const { query, variables = null, operationName = null, extensions = null } = value;
  if (typeof query !== 'string' || query === '') return null;
  if (variables !== null && !isObject(variables)) return null;
  if (operationName !== null && typeof operationName !== 'string') return null;
  // extensions ask for something of Yoga's plugins (persisted queries and the like): Yoga's to answer
  if (extensions !== null && !(isObject(extensions) && Object.keys(extensions).length === 0)) return null;
  return { query, variables, operationName };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...rest] = contentType.toLowerCase().split(';').map((part) => part.trim());
  return type === 'application/json' && rest.every((param) => param === 'charset=utf-8');
}

/**
 * The media type Yoga answers a query or mutation with for `accept`, or null when the header lists
 * anything but JSON types (event streams and multipart answers are Yoga's). Yoga reads the list
 * from its end and the last JSON type that matches wins; types in another charset do not count.
 */
export function answerType(accept: string | undefined): MediaType | null {
  let chosen: MediaType | null = null;
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',').reverse()) {
    const [range = '', ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    const [type, subtype] = range.split('/');
    if (type !== '*' && type !== 'application') return null;
    const accepted = (['application/graphql-response+json', 'application/json'] as const).filter((candidate) => subtype === '*' || candidate === `application/${subtype}`);
    if (accepted.length === 0) return null;
    chosen = accepted[accepted.length - 1]!;
  }
  return chosen;
}
