// Single-row reads by key (a record get) that wait for a pool connection together go out as one
// statement. Under load every statement waits for one of the pool's connections, and each one sent
// costs this process a send that wakes a PostgreSQL backend and PostgreSQL a statement's overhead,
// several times the cost of finding one more row by index (docs/architecture.md, "Record gets that
// wait together"). So the reads of one scope (a team) queue here, with at most one connection
// request pending for them; when the pool grants it, the statement is made of every read queued by
// then (up to `slots`), and the reads that arrive later wait for the next. A read that finds a free
// connection goes out at once, alone: nothing waits to be batched. Scoped by team like any
// statement, each read is answered only with its own key's row.
import pg from 'pg';
import { DecodedQuery, type DecodedStatement, type RowValues, settleAfterIo } from './decoded-query.ts';

export interface LookupStatements<T> {
  /** the most keys one statement takes */
  slots: number;
  /** the statement that finds the rows of these keys (1 to `slots`, distinct) in one scope */
  statement(scope: bigint, keys: readonly string[]): DecodedStatement;
  /** the key a result row answers */
  keyOf(values: RowValues): string;
  decode(values: RowValues): T;
}

interface Waiter<T> {
  key: string;
  resolve(row: T | undefined): void;
  reject(error: unknown): void;
}

interface Queue<T> {
  waiters: Waiter<T>[];
  /** a connection request is pending for this queue's reads */
  requested: boolean;
}

const rowValues = (values: RowValues) => values;

/** A statement whose keys are taken from its queue when it is sent, not when it is queued. */
class LookupQuery<T> extends DecodedQuery<RowValues> {
  batch: Waiter<T>[] | null = null;

  constructor(spec: LookupStatements<T>, scope: bigint, take: () => Waiter<T>[]) {
    // the text of a one-key read until it is sent: what telemetry names the pending statement by
    super(spec.statement(scope, ['']), rowValues);
    // node-postgres calls submit when the statement's connection is ready for it
    const submit = (pg.Query.prototype as unknown as { submit(this: unknown, connection: unknown): Error | null }).submit;
    (this as unknown as { submit(connection: unknown): Error | null }).submit = (connection) => {
      this.batch = take();
      const statement = spec.statement(scope, [...new Set(this.batch.map((w) => w.key))]);
      const self = this as unknown as { text: string; values: unknown[]; name?: string };
      self.text = statement.text;
      self.values = statement.values;
      self.name = statement.name;
      return submit.call(this, connection);
    };
  }
}

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
      if (!pending.requested) this.request(pool, scope, pending, byScope);
    });
  }

  private request(pool: pg.Pool, scope: bigint, queue: Queue<T>, byScope: Map<bigint, Queue<T>>): void {
    queue.requested = true;
    const take = (all: boolean) => {
      queue.requested = false;
      const batch = queue.waiters.splice(0, all ? queue.waiters.length : this.spec.slots);
      if (queue.waiters.length > 0) this.request(pool, scope, queue, byScope);
      else if (byScope.get(scope) === queue) byScope.delete(scope);
      return batch;
    };
    const query = new LookupQuery(this.spec, scope, () => take(false));
    (pool.query as unknown as (query: unknown, callback: (error: Error | null, result?: { rows: RowValues[] }) => void) => void)(query, (error, result) => {
      // never sent (no connection): every read queued with it waited for the same pool
      const batch = query.batch ?? take(true);
      settleAfterIo(() => {
        if (error) {
          for (const waiter of batch) waiter.reject(error);
          return;
        }
        const found = new Map<string, RowValues>();
        for (const values of result!.rows) found.set(this.spec.keyOf(values), values);
        // each read decodes its own row: two reads of one key share nothing they could change
        for (const waiter of batch) {
          const values = found.get(waiter.key);
          waiter.resolve(values ? this.spec.decode(values) : undefined);
        }
      });
    });
  }
}
