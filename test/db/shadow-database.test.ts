// Pitfall 2: creating a migration replays the whole history into a shadow database. adapter-pg's
// own shadow factory, given a connection string, replays it into the main database instead.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMigration, diffMigrationsToSchema } from '../../src/db/schema-engine/migrations.ts';
import {
  createThrowawayDatabase,
  migrationsFolder,
  query,
  removeFolder,
  schemaFile,
  shadowDatabases,
  tableNames,
  type ThrowawayDatabase,
} from './helpers.ts';

const serverUrl = inject('databaseUrl');

const HISTORY = {
  '20250101000000_only_in_history': 'CREATE TABLE "OnlyInHistory" ("id" INTEGER PRIMARY KEY);\nINSERT INTO "OnlyInHistory" VALUES (1);\n',
};
const TARGET_SCHEMA = `
model OnlyInHistory {
  id Int @id
}

model AddedBySchema {
  id   Int    @id
  name String
}
`;

async function snapshot(databaseUrl: string) {
  return {
    tables: await tableNames(databaseUrl),
    migrations: (await tableNames(databaseUrl)).includes('_prisma_migrations')
      ? await query(databaseUrl, 'SELECT * FROM _prisma_migrations ORDER BY migration_name')
      : [],
  };
}

describe('the shadow database', () => {
  let db: ThrowawayDatabase;
  let schemaPath: string;
  const folders: string[] = [];
  beforeAll(async () => {
    db = await createThrowawayDatabase(serverUrl, 'shadow');
    schemaPath = schemaFile(TARGET_SCHEMA);
    folders.push(path.dirname(schemaPath));
  });
  afterAll(async () => {
    folders.forEach(removeFolder);
    await db.drop();
  });

  it('receives the history: diffing never writes to the main database', async () => {
    const migrationsDir = migrationsFolder(HISTORY);
    folders.push(migrationsDir);
    const shadowsBefore = await shadowDatabases(serverUrl);
    const before = await snapshot(db.url);

    const sql = await diffMigrationsToSchema({ databaseUrl: db.url, migrationsDir, schemaPath });

    // the diff saw the history (OnlyInHistory exists there, so only AddedBySchema is created)...
    expect(sql).toMatch(/CREATE TABLE "AddedBySchema"/);
    expect(sql).not.toMatch(/CREATE TABLE "OnlyInHistory"/);
    // ...but the main database is exactly as it was: no replayed tables, no _prisma_migrations
    expect(await snapshot(db.url)).toEqual(before);
    expect(before.tables).toEqual([]);
    // and the temporary shadow database is gone (others' may come and go meanwhile: wait them out)
    await expect.poll(async () => (await shadowDatabases(serverUrl)).filter((name) => !shadowsBefore.includes(name)), { timeout: 10_000 }).toEqual([]);
  });

  it('keeps the main database untouched when creating a migration folder', async () => {
    const migrationsDir = migrationsFolder(HISTORY);
    folders.push(migrationsDir);
    const sharedBefore = await snapshot(serverUrl);

    const created = await createMigration({ databaseUrl: serverUrl, migrationsDir, schemaPath, name: 'Add Thing' });

    expect(created?.name).toMatch(/^\d{14}_add_thing$/);
    expect(created?.sql).toMatch(/CREATE TABLE "AddedBySchema"/);
    expect(await snapshot(serverUrl)).toEqual(sharedBefore);
  });

  it('when configured (shadowDatabaseUrl), is emptied first, and refused if it is the main database', async () => {
    const migrationsDir = migrationsFolder(HISTORY);
    folders.push(migrationsDir);
    const configured = await createThrowawayDatabase(serverUrl, 'shadow_cfg');
    try {
      await query(configured.url, 'CREATE TABLE "Leftover" ("id" INTEGER)');
      const options = { databaseUrl: db.url, migrationsDir, schemaPath };

      const sql = await diffMigrationsToSchema({ ...options, shadowDatabaseUrl: configured.url });

      expect(sql).not.toMatch(/Leftover/);
      expect(await tableNames(configured.url)).not.toContain('Leftover');
      await expect(diffMigrationsToSchema({ ...options, shadowDatabaseUrl: db.url })).rejects.toThrow(/same as the main database/);
    } finally {
      await configured.drop();
    }
  });

  it('is not created when there is nothing to migrate', async () => {
    const migrationsDir = migrationsFolder({ ...HISTORY, '20250101000001_added': 'CREATE TABLE "AddedBySchema" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL);\n' });
    folders.push(migrationsDir);
    const created = await createMigration({ databaseUrl: db.url, migrationsDir, schemaPath, name: 'noop' });
    expect(created).toBeNull();
  });
});
