// The one way to run work in a database transaction. Areas that go through Prisma use
// `runTransaction` (Prisma's interactive transaction; unique and foreign-key violations become
// 409 CONFLICT); hot paths written in SQL use `inTransaction` (one pooled pg connection,
// BEGIN/COMMIT). docs/architecture.md says which areas use which.
import type pg from 'pg';
import { Prisma } from '../generated/prisma/client.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { ConflictError } from '../app/errors.ts';

export type Tx = Prisma.TransactionClient;

/** Runs `work` in one transaction on one pooled connection. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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
    return await prisma.$transaction(work, options.snapshot ? { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead } : undefined);
  } catch (error) {
    throw translatePrismaError(error);
  }
}

export function translatePrismaError(error: unknown): unknown {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === 'P2002') return new ConflictError('A resource with the same unique value already exists');
    if (error.code === 'P2003') return new ConflictError('The resource is still referenced and cannot be changed this way');
  }
  return error;
}
