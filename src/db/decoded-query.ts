// Hot statements (a record get, a record page) whose rows are decoded straight from PostgreSQL's
// text values into the caller's shape. node-postgres builds, for every result, a dictionary of
// its column names (Result.addFields), copies it into a fresh object per row and looks up a type
// reader per column (parseRow), and copies a config object given with a statement name: about a
// tenth of a record get's CPU in this process. Here the statement is a node-postgres Query whose
// row handlers call one decoder that knows its columns by position, and whose text is handed over
// as a string (nothing to copy). Everything else (prepare once per connection by name, bind,
// errors, the pool) is node-postgres's own, except that no result description is asked for.
import pg from 'pg';

/** One row's values in the statement's column order: text, or null for SQL NULL. */
export type RowValues = readonly (string | null)[];
/** Turns one row into the caller's value; `index` counts the statement's rows from 0. */
export type RowDecoder<T> = (values: RowValues, index: number) => T;

export interface DecodedStatement {
  /** prepared once per connection under this name when given (a bounded set of texts only) */
  name?: string;
  text: string;
  values: unknown[];
}

interface QueryInternals {
  name?: string;
  _result: { rows: unknown[]; fields: unknown[] };
  _canceledDueToError: unknown;
  _checkForMultirow(): void;
}

export class DecodedQuery<T> extends pg.Query {
  private readonly decode: RowDecoder<T>;
  private count = 0;
  /** the statement's first row as sent (a page's total rides on it) */
  first: RowValues | null = null;

  constructor(statement: DecodedStatement, decode: RowDecoder<T>) {
    super(statement.text, statement.values);
    if (statement.name) (this as unknown as QueryInternals).name = statement.name;
    this.decode = decode;
  }

  // Bind and Execute without Describe: the decoder knows its columns by position, so PostgreSQL
  // need not build a description of the result for every execution, nor this process parse one.
  // node-postgres always asks for it (Query.prepare); its connection is lent a Describe that sends nothing.
  prepare(connection: { describe: unknown }): void {
    const describe = connection.describe;
    connection.describe = sendNothing;
    try {
      (pg.Query.prototype as unknown as { prepare(this: unknown, connection: unknown): void }).prepare.call(this, connection);
    } finally {
      connection.describe = describe;
    }
  }

  handleRowDescription(msg: { fields: unknown[] }): void {
    const self = this as unknown as QueryInternals;
    self._checkForMultirow();
    self._result.fields = msg.fields;
  }

  handleDataRow(msg: { fields: RowValues }): void {
    const self = this as unknown as QueryInternals;
    if (self._canceledDueToError) return;
    if (this.count === 0) this.first = msg.fields;
    try {
      self._result.rows.push(this.decode(msg.fields, this.count++));
    } catch (error) {
      // reported once the statement has finished, as node-postgres does for a failing type reader
      self._canceledDueToError = error;
    }
  }
}

const sendNothing = () => {};

/** node-postgres's submit of a statement, called when its connection is ready for it (a method of
 *  the prototype; the type declarations of pg.Query make it a property) */
export type Submit = (this: unknown, connection: unknown) => Error | null;
export const submitQuery = (pg.Query.prototype as unknown as { submit: Submit }).submit;

type Callback = (error: Error | null, result?: { rows: unknown[] }) => void;

/** Runs one statement and returns its decoded rows. */
export function queryDecoded<T>(db: pg.Pool | pg.PoolClient, statement: DecodedStatement, decode: RowDecoder<T>): Promise<T[]> {
  // a Query given to a client without a callback is not a promise: the callback form works for
  // both a pool and a checked-out client
  return new Promise((resolve, reject) => {
    const settle: Callback = (error, result) => (error ? reject(error) : resolve(result!.rows as T[]));
    // a checked-out client (a transaction) is no one else's to wait for: its next statement is this caller's
    const done: Callback = db instanceof pg.Pool ? (error, result) => settleAfterIo(() => settle(error, result)) : settle;
    (db.query as unknown as (query: unknown, callback: Callback) => void)(new DecodedQuery(statement, decode), done);
  });
}

// A pool's connections are the scarce resource under load (requests wait for one: dozens at a time
// at 50 concurrent clients on a pool of 10). A connection is free again only once this process has
// read its result, and node-postgres hands it to the next waiting statement right then. What the
// result's request does next (the rest of its resolvers, its response) would run at once, before the
// event loop reads the other connections' results that arrived meanwhile, each of which then waits
// for all of that. So a pool statement's result is handed on after the loop's I/O callbacks: every
// ready connection is read and given its next statement first (docs/benchmark.md, "Results handed
// on after the loop's reads").
let settling: (() => void)[] = [];
export function settleAfterIo(settle: () => void): void {
  if (settling.push(settle) === 1) setImmediate(settleAll);
}
function settleAll(): void {
  const now = settling;
  settling = [];
  for (const settle of now) settle();
}

/** A statement of queryDecoded (telemetry gives it a span like any text statement). */
export function isDecodedQuery(value: unknown): value is { text: string } {
  return value instanceof DecodedQuery;
}

/** PostgreSQL's text for a boolean */
export const readBoolean = (text: string | null): boolean => text === 't';
