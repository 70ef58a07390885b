// Throwaway databases and migration folders for the schema-engine tests, so that tests applying
// their own migrations never touch the shared database the rest of the suite uses.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { lockfileText } from '../../src/db/schema-engine/migrations-folder.ts';
import { SHADOW_DATABASE_PREFIX } from '../../src/db/schema-engine/shadow-database.ts';
import { late } from '../support/late.ts';

export interface ThrowawayDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** An empty database on the server of `serverUrl`, or a copy of `template` (a database without sessions). */
export async function createThrowawayDatabase(serverUrl: string, label = 'test', template?: string): Promise<ThrowawayDatabase> {
  const name = `${label}_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  const url = databaseUrlFor(serverUrl, name);
  return {
    name,
    url,
    drop: () => withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

/** A throwaway database created before the suite's tests (beforeAll) and dropped after them. */
export function useThrowawayDatabase(serverUrl: string, label: string): ThrowawayDatabase {
  let db: ThrowawayDatabase | undefined;
  beforeAll(async () => {
    db = await createThrowawayDatabase(serverUrl, label);
  });
  afterAll(() => db?.drop());
  return late(`the ${label} database`, () => db);
}

export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withClient<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function query<Row extends pg.QueryResultRow>(databaseUrl: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  return withClient(databaseUrl, async (client) => (await client.query<Row>(sql, values)).rows);
}

/** A migrations folder (with lockfile) holding `migrations`, in the order given. */
export function migrationsFolder(migrations: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-migrations-'));
  fs.writeFileSync(path.join(dir, 'migration_lock.toml'), lockfileText('postgresql'));
  for (const [name, sql] of Object.entries(migrations)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

export function removeFolder(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export async function tableNames(databaseUrl: string): Promise<string[]> {
  const rows = await query<{ table_name: string }>(
    databaseUrl,
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

export async function shadowDatabases(databaseUrl: string): Promise<string[]> {
  const rows = await query<{ datname: string }>(databaseUrl, `SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY 1`, [
    SHADOW_DATABASE_PREFIX,
  ]);
  return rows.map((row) => row.datname);
}

export async function connectionsOf(databaseUrl: string, applicationName: string): Promise<number> {
  const rows = await query<{ n: number }>(databaseUrl, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [
    applicationName,
  ]);
  return rows[0]?.n ?? 0;
}

export const MINIMAL_SCHEMA_HEADER = `datasource db {\n  provider = "postgresql"\n}\n`;

export function schemaFile(body: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-schema-'));
  const file = path.join(dir, 'schema.prisma');
  fs.writeFileSync(file, `${MINIMAL_SCHEMA_HEADER}\n${body}\n`);
  return file;
}
