// A client span for each SQL statement run through the instance's pg pool: Prisma (through
// @prisma/adapter-pg), the raw queries and transactions of our own code, and pg-boss statements
// sent on our connections. Only inside a recorded span: the statements of background loops make
// no traces of their own. The span records the statement's text with its literals replaced by `?`
// (sql-text.ts), never a parameter value, and the SQLSTATE of a failure, never its message.
// Loaded only with tracing on.
import { context, SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
import {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_NAMESPACE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_SUMMARY,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type pg from 'pg';
import { isDecodedQuery } from '../../db/decoded-query.ts';
import { errorTypeOf, markFailed, type SpanKit } from './span-kit.ts';
import { statementFacts } from './sql-text.ts';

// (incubating in the semantic conventions: named here rather than imported from their incubating entry)
const ATTR_DB_RESPONSE_RETURNED_ROWS = 'db.response.returned_rows';

/** Marks a query config that pool.query already gave a span, so the client's query does not make a second. */
const HAS_SPAN = Symbol('svc.sql-span');
const INSTRUMENTED = Symbol('svc.sql-spans');

type QueryCallback = (error: Error | null, result?: pg.QueryResult) => void;
type QueryFn = (this: unknown, config: unknown, values?: unknown, callback?: unknown) => unknown;

interface Where {
  attributes: Record<string, string | number>;
}

/** Gives every statement of `pool` (from now on) a span under the span active where it was issued. */
export function instrumentPool(pool: pg.Pool, kit: SpanKit): void {
  const where = serverOf(pool);
  const poolQuery = pool.query as unknown as QueryFn;
  // pool.query gets its span where it is called: the client's query runs later, under contention in
  // the context of whichever request released the connection
  const tracedPoolQuery: QueryFn = function (config, values, callback) {
    const parent = recordingParent(config);
    if (!parent) return poolQuery.call(pool, config, values, callback);
    const span = startStatementSpan(kit, parent, textOf(config)!, where);
    // a decoded statement is a Query object: marked itself (a copy would lose its row handlers)
    const marked = typeof config === 'string' ? { text: config } : isDecodedQuery(config) ? config : { ...(config as object) };
    (marked as Record<symbol, boolean>)[HAS_SPAN] = true;
    return runTraced(span, (v, cb) => poolQuery.call(pool, marked, v, cb), values, callback);
  };
  pool.query = tracedPoolQuery as unknown as typeof pool.query;
  // every checkout, so connections opened before tracing started are covered from their next use
  pool.on('acquire', (client) => instrumentClient(client, kit, where));
}

function instrumentClient(client: pg.PoolClient, kit: SpanKit, where: Where): void {
  const marked = client as pg.PoolClient & { [INSTRUMENTED]?: true };
  if (marked[INSTRUMENTED]) return;
  marked[INSTRUMENTED] = true;
  const clientQuery = client.query as unknown as QueryFn;
  const tracedClientQuery: QueryFn = function (this: unknown, config, values, callback) {
    const parent = config && (config as Record<symbol, unknown>)[HAS_SPAN] ? null : recordingParent(config);
    if (!parent) return clientQuery.call(this, config, values, callback);
    const span = startStatementSpan(kit, parent, textOf(config)!, where);
    return runTraced(span, (v, cb) => clientQuery.call(this, config, v, cb), values, callback);
  };
  client.query = tracedClientQuery as unknown as typeof client.query;
}

/** The active context when it holds a recording span and `config` is a statement we can name. */
function recordingParent(config: unknown): Context | null {
  if (textOf(config) === null) return null;
  const active = context.active();
  return trace.getSpan(active)?.isRecording() ? active : null;
}

function textOf(config: unknown): string | null {
  if (typeof config === 'string') return config;
  // a submittable (cursor, stream) runs on its own schedule: left alone; a decoded statement
  // answers through its callback like a text statement
  if (!config || typeof config !== 'object' || (typeof (config as { submit?: unknown }).submit === 'function' && !isDecodedQuery(config))) return null;
  const text = (config as { text?: unknown }).text;
  return typeof text === 'string' ? text : null;
}

function startStatementSpan(kit: SpanKit, parent: Context, sql: string, where: Where): Span {
  const facts = statementFacts(sql);
  return kit.tracer.startSpan(
    facts.summary,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        ...where.attributes,
        [ATTR_DB_OPERATION_NAME]: facts.operation,
        [ATTR_DB_QUERY_SUMMARY]: facts.summary,
        [ATTR_DB_QUERY_TEXT]: facts.text,
        ...(facts.table ? { [ATTR_DB_COLLECTION_NAME]: facts.table } : {}),
      },
    },
    parent,
  );
}

/**
 * Runs the query (`call` gets its values and callback) and ends the span when it settles, answering
 * the caller as it asked: through its callback (given as `values` or `callback`), or pg's promise.
 */
function runTraced(span: Span, call: (values: unknown, callback: QueryCallback | undefined) => unknown, values: unknown, callback: unknown): unknown {
  const end = (error: Error | null, result?: pg.QueryResult) => {
    if (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string') span.setAttribute(ATTR_DB_RESPONSE_STATUS_CODE, code);
      markFailed(span, typeof code === 'string' ? code : errorTypeOf(error));
    } else if (typeof result?.rowCount === 'number') span.setAttribute(ATTR_DB_RESPONSE_RETURNED_ROWS, result.rowCount);
    span.end();
  };
  const callersCallback = (typeof values === 'function' ? values : typeof callback === 'function' ? callback : null) as QueryCallback | null;
  if (callersCallback) {
    const done: QueryCallback = (error, result) => {
      end(error, result);
      callersCallback(error, result);
    };
    return typeof values === 'function' ? call(done, undefined) : call(values, done);
  }
  const result = call(values, undefined) as Promise<pg.QueryResult>;
  result.then(
    (r) => end(null, r),
    (error: Error) => end(error),
  );
  return result;
}

/** The database and server of a pool, from its connection string (never its credentials). */
function serverOf(pool: pg.Pool): Where {
  const attributes: Record<string, string | number> = { [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL };
  const connectionString = (pool as pg.Pool & { options?: { connectionString?: string } }).options?.connectionString;
  try {
    const url = new URL(connectionString ?? '');
    if (url.pathname.length > 1) attributes[ATTR_DB_NAMESPACE] = decodeURIComponent(url.pathname.slice(1));
    if (url.hostname) attributes[ATTR_SERVER_ADDRESS] = url.hostname;
    if (url.port) attributes[ATTR_SERVER_PORT] = Number(url.port);
  } catch {
    // not a URL: the system name alone
  }
  return { attributes };
}
