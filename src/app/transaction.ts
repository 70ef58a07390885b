// The one way to run work in a database transaction. Areas that go through Prisma use
// `runTransaction` (Prisma's interactive transaction; unique and foreign-key violations become
// 409 CONFLICT); hot paths written in SQL use `inTransaction` (one pooled pg connection,
// BEGIN/COMMIT). docs/architecture.md says which areas use which.
//
// Both run `work` again when PostgreSQL aborted the transaction for a deadlock or a serialization
// failure: nothing of the attempt was kept in the database, so a rerun is the transaction as if it
// had come a moment later. An effect outside the database inside `work` (an SMTP send in a delivery
// batch) is repeated, exactly as the job's own retry of the aborted batch would repeat it; request
// writes keep their events and cache invalidations after commit. When the conflict persists, the
// caller gets 409 CONFLICT, never a 500.
import type pg from 'pg';
import { Prisma, type PrismaClient } from '../generated/prisma/client.ts';
import { ConflictError, NotFoundError, ServiceUnavailableError } from './errors.ts';

/** attempts of one transaction that keeps being aborted by concurrent writers */
const CONFLICT_ATTEMPTS = 4;

/** PostgreSQL's deadlock (40P01) and serialization failure (40001), through pg or Prisma. */
function isTransientConflict(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2034') return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '40P01' || code === '40001') return true;
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null)?.meta?.driverAdapterError?.cause?.originalCode;
  return cause === '40P01' || cause === '40001';
}

async function retryingConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransientConflict(error)) throw error;
      if (n >= CONFLICT_ATTEMPTS) throw new ConflictError('The resource was being changed by another request at the same time; retry');
      // spread the reruns out so the same writers do not collide again in lockstep
      await new Promise((resolve) => setTimeout(resolve, 5 * n + Math.random() * 20 * n));
    }
  }
}

export type Tx = Prisma.TransactionClient;

/** Runs `work` in one transaction on one pooled connection. */
export function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return retryingConflicts(() => onePgTransaction(pool, work));
}

async function onePgTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // pg-pool listens for errors only on idle clients: a connection lost while checked out and
  // between queries (e.g. an outbox consumer awaiting other I/O) would otherwise be an uncaught
  // 'error' event that ends the process. The failure reaches `work` through its next query; the
  // broken client is discarded on release.
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.off('error', onError);
    client.release(lost);
  }
}

/** Unique-constraint violations become 409 CONFLICT instead of a 500. `snapshot`: every read sees one
 *  snapshot of the database (REPEATABLE READ), for reads that must agree with each other. */
export async function runTransaction<T>(prisma: PrismaClient, work: (tx: Tx) => Promise<T>, options: { snapshot?: boolean } = {}): Promise<T> {
  try {
    return await retryingConflicts(() => prisma.$transaction(work, options.snapshot ? { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead } : undefined));
  } catch (error) {
    throw translatePrismaError(error);
  }
}

/** Prisma's request errors that a caller's own (or a concurrent caller's) action explains, as documented errors. */
export function translatePrismaError(error: unknown): unknown {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === 'P2002') return new ConflictError('A resource with the same unique value already exists');
    if (error.code === 'P2003') return new ConflictError('The resource is still referenced and cannot be changed this way');
    // an update or delete of a row a concurrent request deleted after this one found it
    if (error.code === 'P2025') return new NotFoundError('The resource');
    // no connection to start the transaction on within the pool's wait, or a transaction that
    // outlived its time on a saturated server: nothing was committed, the same request may succeed later
    if (error.code === 'P2028') return new ServiceUnavailableError('The service is busy: the request could not complete in time; retry');
  }
  return error;
}
