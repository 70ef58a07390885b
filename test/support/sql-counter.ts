// Counts the SQL statements an app instance sends through its pg.Pool (the pool Prisma uses), so
// tests can prove a request costs a fixed number of queries whatever the number of rows (no N+1).
// Only that pool is watched: the LISTEN connection and pg-boss have pools of their own.
import type pg from 'pg';

export interface SqlCounter {
  /** statements sent since the last reset */
  readonly statements: string[];
  readonly count: number;
  reset(): void;
  /** runs `work` and returns the statements it sent */
  measure(work: () => Promise<unknown>): Promise<string[]>;
}

const WATCHED = Symbol('sql-counter');

export function countSql(pool: pg.Pool): SqlCounter {
  const statements: string[] = [];
  const watch = (client: pg.PoolClient & { [WATCHED]?: boolean }) => {
    if (client[WATCHED]) return;
    client[WATCHED] = true;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string };
      statements.push(typeof first === 'string' ? first : (first?.text ?? '?'));
      return query(...args);
    };
  };
  // pool.query() and pool.connect() both check clients out through pool.connect
  const connect = pool.connect.bind(pool) as (cb?: (err: Error | undefined, client: pg.PoolClient, done: () => void) => void) => unknown;
  (pool as unknown as { connect: typeof connect }).connect = (cb) => {
    if (cb) {
      return connect((err, client, done) => {
        if (client) watch(client);
        cb(err, client, done);
      });
    }
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      watch(client);
      return client;
    });
  };
  return {
    statements,
    get count() {
      return statements.length;
    },
    reset() {
      statements.length = 0;
    },
    async measure(work) {
      statements.length = 0;
      await work();
      return [...statements];
    },
  };
}
