// Creates and drops the throwaway database the engine replays the migration history into.
// Done by hand rather than through adapter-pg's connectToShadowDb(), whose pool config is
// `{ ...config, database }`: with a connectionString the string wins and the "shadow" database is
// the main one, so the whole history would be replayed into the real data (pitfall 2).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { clientConfig, quoteIdentifier, type PgConnectionFields } from './connection-config.ts';

export const SHADOW_DATABASE_PREFIX = 'prisma_migrate_shadow_db_';

export async function createShadowDatabase(server: PgConnectionFields, applicationName: string): Promise<string> {
  const name = `${SHADOW_DATABASE_PREFIX}${randomUUID()}`;
  await onMaintenanceConnection(server, applicationName, (client) => client.query(`CREATE DATABASE ${quoteIdentifier(name)}`));
  return name;
}

/** Drops the database even if something (a leaked pool, a psql session) is still connected to it. */
export async function dropShadowDatabase(server: PgConnectionFields, applicationName: string, name: string): Promise<void> {
  if (!name.startsWith(SHADOW_DATABASE_PREFIX)) {
    throw new Error(`Refusing to drop ${name}: not a shadow database`);
  }
  await onMaintenanceConnection(server, applicationName, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`),
  );
}

/** Empties the schema of a configured (not temporary) shadow database. */
export async function resetShadowSchema(shadow: PgConnectionFields, applicationName: string): Promise<void> {
  const schema = quoteIdentifier(shadow.schema);
  await onMaintenanceConnection(shadow, applicationName, (client) =>
    client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema};`),
  );
}

// CREATE/DROP DATABASE cannot run inside a transaction or on the database being dropped, hence a
// short-lived connection of its own (to the main database for those two).
async function onMaintenanceConnection(
  server: PgConnectionFields,
  applicationName: string,
  run: (client: pg.Client) => Promise<unknown>,
): Promise<void> {
  const client = new pg.Client(clientConfig(server, applicationName));
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}
