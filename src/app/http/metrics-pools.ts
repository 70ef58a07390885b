// Database connection pools for /metrics: connections open, idle and queries waiting for one, read
// from pg.Pool when scraped, and how long queries wait for a connection.
import type pg from 'pg';

/**
 * Calls `observe` with the seconds each connection request of `pool` waited (a free connection:
 * microseconds; a new one: a connect; a busy pool: the turn, up to its connection timeout). pg's
 * pool.query and Prisma's adapter both go through pool.connect.
 */
export function timeConnectionWaits(pool: pg.Pool, observe: (seconds: number) => void): void {
  const connect = pool.connect.bind(pool) as (callback?: (...args: unknown[]) => void) => Promise<pg.PoolClient> | undefined;
  const timed = (callback?: (...args: unknown[]) => void) => {
    const started = performance.now();
    const waited = () => observe((performance.now() - started) / 1000);
    if (callback) {
      return connect((...args: unknown[]) => {
        waited();
        callback(...args);
      });
    }
    return connect()!.finally(waited);
  };
  pool.connect = timed as typeof pool.connect;
}

export interface PoolReading {
  pool: string;
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export function readPool(name: string, pool: pg.Pool | undefined): PoolReading | null {
  if (!pool) return null;
  return { pool: name, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: (pool as pg.Pool & { options: { max: number } }).options.max };
}
