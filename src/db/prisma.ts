// The Prisma 7 client over the pg driver adapter. One pg.Pool per process serves both
// Prisma and the few raw queries (NOTIFY, advisory locks, health).
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { poolTypes } from './timestamp-parser.ts';
import { PrismaClient } from '../generated/prisma/client.ts';

export type Prisma = PrismaClient;

/** The Prisma `select`/`include` a caller wants (from Pothos, the GraphQL selection); services pass it through. */
export type PrismaSelection = { select?: object; include?: object };
export { Prisma as PrismaNamespace } from '../generated/prisma/client.ts';

export function createPool(connectionString: string, max: number, applicationName = 'svc'): pg.Pool {
  // UTC sessions: timestamp columns hold UTC (as Prisma writes them), so SQL's now() must too
  const pool = new pg.Pool({ connectionString, max, application_name: applicationName, types: poolTypes, options: '-c TimeZone=UTC' });
  // an idle client losing its connection must not crash the process; the pool replaces it
  pool.on('error', () => {});
  return pool;
}

export function createPrisma(pool: pg.Pool): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}
