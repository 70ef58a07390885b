// Identical reads made close together (one named statement, the same parameters: many clients
// showing the first page of one collection) share one execution. Each statement sent costs this
// process a send that wakes a PostgreSQL backend and a pool checkout, and PostgreSQL the whole page
// again (docs/architecture.md, "Identical reads made together"). A read joins a statement only
// while that statement has not been sent: it is sent after the read arrived, so every reader sees
// what was committed before it asked (its own writes included). Like a record get, the statement
// waits, when a connection is free, for the current turn of the event loop to read its sockets;
// when none is, it waits for one in the pool's queue, and identical reads arriving meanwhile join it.
// Every reader gets its own array of the same decoded rows: the decoder's rows are shared, so they
// must be values no one changes (the record page's are frozen).
import pg from 'pg';
import { DecodedQuery, type DecodedStatement, type RowDecoder, type RowValues, settleAfterIo, type Submit, submitQuery } from './decoded-query.ts';

export interface ReadResult<T> {
  rows: T[];
  /** the first row as PostgreSQL sent it (null when there was none) */
  first: RowValues | null;
}

interface Reader<T> {
  resolve(result: ReadResult<T>): void;
  reject(error: unknown): void;
}

/** the readers of one statement not yet sent */
interface Pending<T> {
  readers: Reader<T>[];
  /** where the statement is found by its key until it is sent (none for a statement read alone) */
  open: Map<string, Pending<unknown>> | null;
  key: string;
}

class SharedQuery<T> extends DecodedQuery<T> {
  readonly pending: Pending<T>;

  constructor(statement: DecodedStatement, decode: RowDecoder<T>, pending: Pending<T>) {
    super(statement, decode);
    this.pending = pending;
  }
}

// sent: no reader joins it any more
(SharedQuery.prototype as unknown as { submit: Submit }).submit = function (connection) {
  closeStatement((this as SharedQuery<unknown>).pending);
  return submitQuery.call(this, connection);
};

function closeStatement(pending: Pending<unknown>): void {
  if (pending.open?.get(pending.key) === pending) pending.open.delete(pending.key);
  pending.open = null;
}

const openByPool = new WeakMap<pg.Pool, Map<string, Pending<unknown>>>();

/**
 * The statement's decoded rows and first row. On a pool, a named statement whose parameters are
 * strings and numbers is shared with the identical reads not yet sent; otherwise it runs alone.
 */
export function readRows<T>(db: pg.Pool | pg.PoolClient, statement: DecodedStatement, decode: RowDecoder<T>): Promise<ReadResult<T>> {
  const key = db instanceof pg.Pool && statement.name ? keyOf(statement.name, statement.values) : null;
  return new Promise((resolve, reject) => {
    const reader: Reader<T> = { resolve, reject };
    if (key === null) {
      send(db, statement, decode, { readers: [reader], open: null, key: '' });
      return;
    }
    const pool = db as pg.Pool;
    let open = openByPool.get(pool);
    if (!open) openByPool.set(pool, (open = new Map()));
    const joined = open.get(key) as Pending<T> | undefined;
    if (joined) {
      joined.readers.push(reader);
      return;
    }
    const pending: Pending<T> = { readers: [reader], open, key };
    open.set(key, pending as Pending<unknown>);
    // a free connection: sent once this turn of the event loop has read its sockets; none: it
    // waits for one in any case
    if (pool.idleCount > 0 && pool.waitingCount === 0) setImmediate(() => send(pool, statement, decode, pending));
    else send(pool, statement, decode, pending);
  });
}

function send<T>(db: pg.Pool | pg.PoolClient, statement: DecodedStatement, decode: RowDecoder<T>, pending: Pending<T>): void {
  const query = new SharedQuery(statement, decode, pending);
  (db.query as unknown as (query: unknown, callback: (error: Error | null, result?: { rows: T[] }) => void) => void)(query, (error, result) => {
    // never sent (no connection): its readers all waited for the same pool
    closeStatement(pending as Pending<unknown>);
    const answer = () => {
      const readers = pending.readers;
      if (error) {
        for (const reader of readers) reader.reject(error);
        return;
      }
      const rows = result!.rows;
      for (let i = 0; i < readers.length; i++) readers[i]!.resolve({ rows: i === 0 ? rows : rows.slice(), first: query.first });
    };
    // a checked-out client (a transaction) is no one else's to wait for: its next statement is this caller's
    if (db instanceof pg.Pool) settleAfterIo(answer);
    else answer();
  });
}

/** one string per statement and parameters; null when a parameter is not a string or a number */
function keyOf(name: string, values: readonly unknown[]): string | null {
  let key = name;
  for (const value of values) {
    if (typeof value === 'string') key += `\u0000s${value.length}:${value}`;
    else if (typeof value === 'bigint' || typeof value === 'number') key += `\u0000n${value}`;
    else return null;
  }
  return key;
}
