// Database-level checks the Prisma CLI asks the schema engine for before it starts it properly
// (`cli can-connect-to-database`, `cli create-database`), answered with the engine's error codes so
// that `migrate dev` creates a missing database instead of failing.
import pg from 'pg';
import { clientConfig, quoteIdentifier, type PgConnectionFields } from './connection-config.ts';
import { SchemaEngineError } from './errors.ts';

const CONNECTION_REFUSED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

export async function checkCanConnect(database: PgConnectionFields, applicationName: string): Promise<void> {
  await withConnection(database, applicationName, (client) => client.query('SELECT 1'));
}

/** Creates the database named in `database`, connecting to the server's `postgres` database. */
export async function createDatabase(database: PgConnectionFields, applicationName: string): Promise<string> {
  await withConnection({ ...database, database: 'postgres' }, applicationName, (client) =>
    client.query(`CREATE DATABASE ${quoteIdentifier(database.database)}`),
  ).catch((error: unknown) => {
    if (error instanceof SchemaEngineError || (error as { code?: string }).code !== '42P04') throw error;
    throw new SchemaEngineError(`Database \`${database.database}\` already exists on the database server at \`${where(database)}\``, {
      code: 'P1009',
      cause: error,
    });
  });
  return database.database;
}

export async function dropDatabase(database: PgConnectionFields, applicationName: string): Promise<void> {
  await withConnection({ ...database, database: 'postgres' }, applicationName, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(database.database)} WITH (FORCE)`),
  );
}

async function withConnection<T>(database: PgConnectionFields, applicationName: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(clientConfig(database, applicationName));
  // a refused connection also emits 'error' on some pg versions; the rejection below reports it
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw connectionError(database, error);
  }
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The Prisma error (P1000, P1001, P1003, P1010) for a failed connection attempt. */
export function connectionError(database: PgConnectionFields, error: unknown): SchemaEngineError {
  const code = (error as { code?: string }).code ?? '';
  const at = where(database);
  if (code === '3D000') {
    return new SchemaEngineError(`Database \`${database.database}\` does not exist on the database server at \`${at}\`.`, {
      code: 'P1003',
      cause: error,
    });
  }
  if (code === '28P01' || code === '28000') {
    return new SchemaEngineError(
      `Authentication failed against database server at \`${database.host}\`, the provided database credentials for \`${database.user}\` are not valid.\n\nPlease make sure to provide valid database credentials for the database server at \`${database.host}\`.`,
      { code: 'P1000', cause: error },
    );
  }
  if (code === '42501') {
    return new SchemaEngineError(`User \`${database.user}\` was denied access on the database \`${database.database}\``, {
      code: 'P1010',
      cause: error,
    });
  }
  if (CONNECTION_REFUSED.has(code) || /timeout/i.test((error as Error).message ?? '')) {
    return new SchemaEngineError(`Can't reach database server at \`${at}\`\n\nPlease make sure your database server is running at \`${at}\`.`, {
      code: 'P1001',
      cause: error,
    });
  }
  return new SchemaEngineError((error as Error).message ?? String(error), { cause: error });
}

function where(database: PgConnectionFields): string {
  return `${database.host}:${database.port}`;
}
