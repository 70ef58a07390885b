// Pitfall 3: adapter-pg's executeScript splits scripts on every `;` and runs the pieces outside a
// transaction. Migrations must apply whole, as the native engine applies them.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { SchemaEngineError } from '../../src/db/schema-engine/errors.ts';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';
import { createThrowawayDatabase, migrationsFolder, query, removeFolder, tableNames } from './helpers.ts';

const serverUrl = inject('databaseUrl');

const WITH_SEMICOLONS = `
CREATE TABLE "Note" ("id" SERIAL PRIMARY KEY, "body" TEXT NOT NULL);
INSERT INTO "Note" ("body") VALUES ('a;b'), ('it''s; fine');

CREATE FUNCTION note_count() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  SELECT count(*) INTO n FROM "Note";
  RETURN n;
END;
$$;
`;

const FAILS_HALFWAY = `
CREATE TABLE "First" ("id" INTEGER PRIMARY KEY);
CREATE TABLE "Second" ("id" INTEGER PRIMARY KEY);
INSERT INTO "First" VALUES (1);
SELECT 1 / 0;
CREATE TABLE "Never" ("id" INTEGER PRIMARY KEY);
`;

describe('migration scripts', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("apply whole: 'a;b' literals and $$ function bodies survive", async () => {
    const db = await createThrowawayDatabase(serverUrl, 'script');
    cleanups.push(db.drop);
    const dir = migrationsFolder({ '20250101000000_semicolons': WITH_SEMICOLONS });
    cleanups.push(() => removeFolder(dir));

    expect(await applyPendingMigrations({ databaseUrl: db.url, migrationsDir: dir })).toEqual({ applied: ['20250101000000_semicolons'] });

    expect(await query(db.url, 'SELECT "body" FROM "Note" ORDER BY "id"')).toEqual([{ body: 'a;b' }, { body: "it's; fine" }]);
    expect(await query(db.url, 'SELECT note_count() AS n')).toEqual([{ n: 2 }]);
  });

  it('leave nothing half-applied when a statement fails', async () => {
    const db = await createThrowawayDatabase(serverUrl, 'script');
    cleanups.push(db.drop);
    const dir = migrationsFolder({ '20250101000000_fails': FAILS_HALFWAY });
    cleanups.push(() => removeFolder(dir));

    const failure = await applyPendingMigrations({ databaseUrl: db.url, migrationsDir: dir }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(SchemaEngineError);
    expect((failure as SchemaEngineError).code).toBe('P3018');
    expect((failure as Error).message).toMatch(/division by zero/);
    // only the bookkeeping table exists: the statements before the failure were rolled back
    expect(await tableNames(db.url)).toEqual(['_prisma_migrations']);
    const [row] = await query<{ finished_at: Date | null; logs: string | null }>(db.url, 'SELECT finished_at, logs FROM _prisma_migrations');
    expect(row?.finished_at).toBeNull();
    expect(row?.logs).toMatch(/division by zero/);
  });
});
