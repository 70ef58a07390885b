import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import {
  applyPendingMigrations,
  DEFAULT_MIGRATIONS_DIR,
  diffMigrationsToSchema,
  migrationStatus,
} from '../../src/db/schema-engine/migrations.ts';
import { isEmptyMigrationScript } from '../../src/db/schema-engine/migration-steps.ts';
import { schemaEngineInstances } from '../../src/db/schema-engine/load-wasm.ts';
import { createThrowawayDatabase, migrationsFolder, query, removeFolder, type ThrowawayDatabase } from './helpers.ts';

const serverUrl = inject('databaseUrl');

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
}

describe('applyPendingMigrations', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const throwaway = async (): Promise<ThrowawayDatabase> => {
    const db = await createThrowawayDatabase(serverUrl, 'apply');
    cleanups.push(db.drop);
    return db;
  };

  it('applies the committed migrations and writes the rows `prisma migrate deploy` writes', async () => {
    const db = await throwaway();
    const folders = fs
      .readdirSync(DEFAULT_MIGRATIONS_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders.length).toBeGreaterThan(0);

    const { applied } = await applyPendingMigrations({ databaseUrl: db.url });

    expect(applied).toEqual(folders);
    const rows = await query<MigrationRow>(db.url, 'SELECT * FROM _prisma_migrations ORDER BY migration_name');
    expect(rows.map((row) => row.migration_name)).toEqual(folders);
    for (const row of rows) {
      const sql = fs.readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.started_at.getTime()).toBeLessThanOrEqual(row.finished_at!.getTime());
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it('is idempotent: a second run applies nothing and changes no row', async () => {
    const db = await throwaway();
    await applyPendingMigrations({ databaseUrl: db.url });
    const before = await query(db.url, 'SELECT * FROM _prisma_migrations ORDER BY migration_name');

    expect(await applyPendingMigrations({ databaseUrl: db.url })).toEqual({ applied: [] });
    expect(await query(db.url, 'SELECT * FROM _prisma_migrations ORDER BY migration_name')).toEqual(before);
  });

  it('answers an up-to-date database without the schema engine, and leaves a failed migration to it', async () => {
    const db = await throwaway();
    const dir = migrationsFolder({ '20250101000000_ok': 'CREATE TABLE "Ok" ("id" INTEGER PRIMARY KEY);\n' });
    cleanups.push(() => removeFolder(dir));
    expect(await applyPendingMigrations({ databaseUrl: db.url, migrationsDir: dir })).toEqual({ applied: ['20250101000000_ok'] });

    const instances = schemaEngineInstances();
    expect(await applyPendingMigrations({ databaseUrl: db.url, migrationsDir: dir })).toEqual({ applied: [] });
    expect(schemaEngineInstances()).toBe(instances);

    // a folder not applied yet goes to the engine; once it failed, every later start is refused there (P3009)
    fs.mkdirSync(path.join(dir, '20250101000001_broken'));
    fs.writeFileSync(path.join(dir, '20250101000001_broken', 'migration.sql'), 'SELECT * FROM "NoSuchTable";\n');
    await expect(applyPendingMigrations({ databaseUrl: db.url, migrationsDir: dir })).rejects.toMatchObject({ code: 'P3018' });
    await expect(applyPendingMigrations({ databaseUrl: db.url, migrationsDir: dir })).rejects.toMatchObject({ code: 'P3009' });
  });

  it('applies each migration exactly once when two callers run at the same time', async () => {
    const db = await throwaway();
    const dir = migrationsFolder({
      // the sleep keeps the first caller inside the lock while the second one arrives
      '20250101000000_one': 'SELECT pg_sleep(0.3);\nCREATE TABLE "One" ("id" INTEGER PRIMARY KEY);\n',
      '20250101000001_two': 'CREATE TABLE "Two" ("id" INTEGER PRIMARY KEY);\n',
      '20250101000002_three': 'CREATE TABLE "Three" ("id" INTEGER PRIMARY KEY);\n',
    });
    cleanups.push(() => removeFolder(dir));

    const [first, second] = await Promise.all([
      applyPendingMigrations({ databaseUrl: db.url, migrationsDir: dir }),
      applyPendingMigrations({ databaseUrl: db.url, migrationsDir: dir }),
    ]);

    expect([...first.applied, ...second.applied].sort()).toEqual(['20250101000000_one', '20250101000001_two', '20250101000002_three']);
    expect(first.applied.length === 0 || second.applied.length === 0).toBe(true);
    const rows = await query<{ n: number }>(db.url, 'SELECT count(*)::int AS n FROM _prisma_migrations');
    expect(rows[0]?.n).toBe(3);
  });

  it('reports pending, applied and failed migrations', async () => {
    const db = await throwaway();
    const dir = migrationsFolder({
      '20250101000000_ok': 'CREATE TABLE "Ok" ("id" INTEGER PRIMARY KEY);\n',
      '20250101000001_broken': 'CREATE TABLE "Broken" ("id" INTEGER PRIMARY KEY);\nSELECT * FROM "NoSuchTable";\n',
    });
    cleanups.push(() => removeFolder(dir));

    const fresh = await migrationStatus({ databaseUrl: db.url, migrationsDir: dir });
    expect(fresh).toMatchObject({ applied: [], pending: ['20250101000000_ok', '20250101000001_broken'], failed: [], hasMigrationsTable: false });

    await expect(applyPendingMigrations({ databaseUrl: db.url, migrationsDir: dir })).rejects.toMatchObject({ code: 'P3018' });

    const after = await migrationStatus({ databaseUrl: db.url, migrationsDir: dir });
    expect(after).toMatchObject({ applied: ['20250101000000_ok'], failed: ['20250101000001_broken'], hasMigrationsTable: true });
  });
});

describe('the committed migrations', () => {
  it('produce exactly the schema in prisma/schema (run `node scripts/new-migration.ts <name>` when this fails)', async () => {
    const sql = await diffMigrationsToSchema({ databaseUrl: serverUrl });
    expect(isEmptyMigrationScript(sql), `prisma/schema has changes without a migration:\n${sql}`).toBe(true);
  });

  // Objects the Prisma schema cannot model live only in migrations: a later generated migration must
  // not drop them (and the diff above must not see them).
  it('keep the partial filter-key indexes and the extended statistics the record search relies on', async () => {
    const db = await createThrowawayDatabase(serverUrl, 'objects');
    try {
      await applyPendingMigrations({ databaseUrl: db.url });
      const indexes = await query<{ indexname: string; indexdef: string }>(
        db.url,
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'DataRecordKey' AND indexname IN ('DataRecordKey_prefix_key', 'DataRecordKey_numKey_key') ORDER BY indexname`,
      );
      expect(indexes.map((i) => i.indexname)).toEqual(['DataRecordKey_numKey_key', 'DataRecordKey_prefix_key']);
      for (const index of indexes) expect(index.indexdef).toMatch(/WHERE \(.+ IS NOT NULL\)$/);
      const statistics = await query<{ stxname: string }>(db.url, `SELECT stxname FROM pg_statistic_ext ORDER BY stxname`);
      expect(statistics.map((s) => s.stxname)).toEqual(['DataRecordKey_numKey_stats', 'DataRecordKey_prefix_stats', 'DataRecordMembership_stats']);
    } finally {
      await db.drop();
    }
  });
});
