// The Prisma 7 client over the pg driver adapter. One pg.Pool per process serves both
// Prisma and the few raw queries (NOTIFY, advisory locks, health).
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { trackPoolClients } from './pool-shutdown.ts';
import { poolTypes } from './timestamp-parser.ts';
import { PrismaClient } from '../generated/prisma/client.ts';

export type Prisma = PrismaClient;

/** The Prisma `select`/`include` a caller wants (from Pothos, the GraphQL selection); services pass it through. */
export type PrismaSelection = { select?: object; include?: object };
export { Prisma as PrismaNamespace } from '../generated/prisma/client.ts';

/**
 * How long a query waits for a connection (a new one, or a turn on a busy pool) before it fails:
 * while the database is unreachable a request is answered 503 within seconds instead of hanging.
 */
export const DB_CONNECT_TIMEOUT_MS = 5_000;

export function createPool(connectionString: string, max: number, applicationName = 'svc'): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: applicationName,
    types: poolTypes,
    // UTC sessions: timestamp columns hold UTC (as Prisma writes them), so SQL's now() must too
    options: '-c TimeZone=UTC',
    connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
    // a connection whose peer vanished without a word (a network cut) is noticed and dropped
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // an idle client losing its connection must not crash the process; the pool drops it, and one
  // that broke while checked out is dropped on release: no broken connection is handed out again
  pool.on('error', () => {});
  trackPoolClients(pool, connectionString);
  return pool;
}

/**
 * How long an interactive transaction may stay open. Prisma's own default (5 s) ends a transaction
 * that a loaded machine merely slowed down (a schema change with its DDL under heavy concurrency);
 * the request would fail after its work was done. Locks are still held for a bounded time.
 */
export const TRANSACTION_TIMEOUT_MS = 15_000;

export function createPrisma(pool: pg.Pool): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg(pool),
    // a transaction waits for its connection as long as any query waits on the pool (Prisma's
    // default is 2 s): one limit for the whole process, after which the caller gets a 503
    transactionOptions: { maxWait: DB_CONNECT_TIMEOUT_MS, timeout: TRANSACTION_TIMEOUT_MS },
  });
}
