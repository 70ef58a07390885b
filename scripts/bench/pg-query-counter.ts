// Counts the statements a process sends through pg: a tiny wrapper on pg.Client.prototype.query,
// put on the platform's process and on the baseline's child alike, so both pay for it.
import type pg from 'pg';

/** Starts counting in this process: `count()` reads the count so far, `stop()` removes the wrapper. */
export function countPgQueries(pgModule: typeof pg): { count: () => number; stop: () => void } {
  let count = 0;
  const clientProto = pgModule.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const originalQuery = clientProto.query;
  clientProto.query = function countedQuery(this: unknown, ...args: unknown[]) {
    count++;
    return originalQuery.apply(this, args);
  };
  return {
    count: () => count,
    stop: () => {
      clientProto.query = originalQuery;
    },
  };
}
