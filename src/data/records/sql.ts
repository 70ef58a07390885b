// A parameter list for hand-written SQL: `sql.param(value)` returns the `$n` placeholder.
import type pg from 'pg';

export class SqlParams {
  readonly values: unknown[] = [];

  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

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

/** LIKE pattern for a literal: `\`, `%` and `_` escaped (PostgreSQL's default escape is `\`). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The smallest byte string greater than every string starting with `prefix`, or null if none. */
export function prefixUpperBound(prefix: Buffer): Buffer | null {
  const bytes = Buffer.from(prefix);
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 0xff) {
      bytes[i]!++;
      return bytes.subarray(0, i + 1);
    }
  }
  return null;
}
