// Single-row reads by key (a record get) made close together go out as one statement. Each
// statement sent costs this process a send that wakes a PostgreSQL backend, the pool a checkout,
// and PostgreSQL a statement's overhead: several times the cost of finding one more row by index
// (docs/architecture.md, "Record gets made together"). So the reads of one scope (a team) queue
// here, with at most one statement pending for them. When a connection is free, that statement is
// sent once the current turn of the event loop has read its sockets (the requests that arrived in
// the same turn join it; a lone read goes alone, a turn later at most). When none is free, it waits
// for one like any statement. Either way it is made, when sent, of every read queued by then (up to
// `slots` distinct keys); later reads wait for the next. Scoped by team like any statement, each
// read is answered only with its own key's row.
// Rows are decoded as they arrive and the statement's submit is one method on the prototype: a
// closure per statement with rows decoded when answering made V8 promote three to five times the
// bytes per get to its old generation (more full collections under load).
import pg from 'pg';
import { DecodedQuery, type DecodedStatement, type RowValues, settleAfterIo, type Submit, submitQuery } from './decoded-query.ts';

export interface LookupStatements<T> {
  /** the most keys one statement takes */
  slots: number;
  /** the statement that finds the rows of these keys (1 to `slots`, distinct) in one scope */
  statement(scope: bigint, keys: readonly string[]): DecodedStatement;
  /** the key a decoded row answers */
  keyOf(row: T): string;
  decode(values: RowValues): T;
}

interface Waiter<T> {
  key: string;
  resolve(row: T | undefined): void;
  reject(error: unknown): void;
}

interface Queue<T> {
  waiters: Waiter<T>[];
  /** a statement for these reads is scheduled or waiting for a connection */
  requested: boolean;
}

/** A statement whose keys are taken from its queue when it is sent, not when it is queued. */
class LookupQuery<T> extends DecodedQuery<T> {
  batch: Waiter<T>[] | null = null;
  readonly spec: LookupStatements<T>;
  readonly scope: bigint;
  readonly take: () => { batch: Waiter<T>[]; keys: string[] };

  constructor(spec: LookupStatements<T>, scope: bigint, take: () => { batch: Waiter<T>[]; keys: string[] }) {
    // the text of a one-key read until it is sent: what telemetry names the pending statement by
    super(spec.statement(scope, ['']), spec.decode);
    this.spec = spec;
    this.scope = scope;
    this.take = take;
  }
}

// node-postgres calls submit when the statement's connection is ready for it
(LookupQuery.prototype as unknown as { submit: Submit }).submit = function (connection) {
  const query = this as LookupQuery<unknown>;
  const { batch, keys } = query.take();
  query.batch = batch;
  const statement = query.spec.statement(query.scope, keys);
  const self = this as { text: string; values: unknown[]; name?: string };
  self.text = statement.text;
  self.values = statement.values;
  self.name = statement.name;
  return submitQuery.call(this, connection);
};

export class CoalescedLookups<T> {
  private readonly queues = new WeakMap<pg.Pool, Map<bigint, Queue<T>>>();
  private readonly spec: LookupStatements<T>;

  constructor(spec: LookupStatements<T>) {
    this.spec = spec;
  }

  /** The row of `key` in `scope`, or undefined when there is none. */
  lookup(pool: pg.Pool, scope: bigint, key: string): Promise<T | undefined> {
    let byScope = this.queues.get(pool);
    if (!byScope) this.queues.set(pool, (byScope = new Map()));
    let queue = byScope.get(scope);
    if (!queue) byScope.set(scope, (queue = { waiters: [], requested: false }));
    const pending = queue;
    return new Promise((resolve, reject) => {
      pending.waiters.push({ key, resolve, reject });
      if (pending.requested) return;
      // A free connection: the statement goes once this turn of the event loop has read its
      // sockets, with the reads that came in meanwhile. None: it waits for one in any case.
      if (pool.idleCount > 0 && pool.waitingCount === 0) {
        pending.requested = true;
        setImmediate(() => this.request(pool, scope, pending, byScope));
      } else this.request(pool, scope, pending, byScope);
    });
  }

  /** how many of the first waiters ask for no more than `slots` distinct keys, and those keys */
  private fitting(waiters: readonly Waiter<T>[]): { count: number; keys: string[] } {
    const keys = new Set<string>();
    let count = 0;
    for (const waiter of waiters) {
      if (!keys.has(waiter.key)) {
        if (keys.size === this.spec.slots) break;
        keys.add(waiter.key);
      }
      count++;
    }
    return { count, keys: [...keys] };
  }

  private request(pool: pg.Pool, scope: bigint, queue: Queue<T>, byScope: Map<bigint, Queue<T>>): void {
    queue.requested = true;
    const take = (count: number) => {
      queue.requested = false;
      const batch = queue.waiters.splice(0, count);
      if (queue.waiters.length > 0) this.request(pool, scope, queue, byScope);
      else if (byScope.get(scope) === queue) byScope.delete(scope);
      return batch;
    };
    const query = new LookupQuery(this.spec, scope, () => {
      const { count, keys } = this.fitting(queue.waiters);
      return { batch: take(count), keys };
    });
    (pool.query as unknown as (query: unknown, callback: (error: Error | null, result?: { rows: T[] }) => void) => void)(query, (error, result) => {
      // never sent (no connection): every read queued with it waited for the same pool
      const batch = query.batch ?? take(queue.waiters.length);
      settleAfterIo(() => {
        if (error) {
          for (const waiter of batch) waiter.reject(error);
          return;
        }
        const rows = result!.rows;
        const given = new Set<T>();
        for (const waiter of batch) {
          let row = rows.find((r) => this.spec.keyOf(r) === waiter.key);
          // two reads of one key: the second gets a copy, so neither can change what the other holds
          if (row !== undefined && given.has(row)) row = structuredClone(row);
          else if (row !== undefined) given.add(row);
          waiter.resolve(row);
        }
      });
    });
  }
}
