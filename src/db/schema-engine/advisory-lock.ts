// Serialises migration runs across processes (two servers starting at once, a server and a
// `migrate` command). The engine takes Prisma's own advisory lock (72707369) on its connection,
// but it only covers its own calls; ours spans the whole read-folder/apply/report sequence. It is
// a different key so that the engine, running inside our lock, does not wait for itself.
import pg from 'pg';
import { clientConfig, type PgConnectionFields } from './connection-config.ts';
import { MigrationLockTimeoutError } from './errors.ts';

export const APPLY_MIGRATIONS_LOCK_KEY = 72707370;

const LOCK_NOT_AVAILABLE = '55P03';

export async function withAdvisoryLock<T>(
  fields: PgConnectionFields,
  options: { key: number; timeoutMs: number; applicationName: string },
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client(clientConfig(fields, options.applicationName));
  await client.connect();
  try {
    // lock_timeout bounds the wait for advisory locks too; the lock is released with the session.
    await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`);
    try {
      await client.query('SELECT pg_advisory_lock($1)', [options.key]);
    } catch (error) {
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) {
        throw new MigrationLockTimeoutError(
          `Another process has been applying migrations for more than ${options.timeoutMs} ms (advisory lock ${options.key}).`,
          { cause: error },
        );
      }
      throw error;
    }
    return await run(client);
  } finally {
    // Ending the session releases the lock even if the unlock query cannot be sent.
    await client.end();
  }
}
