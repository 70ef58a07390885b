// A migrated database of the calling test file's own. The outbox and the pg-boss queues are global
// to a database: a file whose workers dispatch events or run jobs takes one, so that no worker of
// another file (started with other settings, and stopped when that file ends) picks up its work.
import { inject } from 'vitest';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../db/helpers.ts';

export async function createMigratedDatabase(label: string): Promise<ThrowawayDatabase> {
  const database = await createThrowawayDatabase(inject('databaseUrl'), label);
  await applyPendingMigrations({ databaseUrl: database.url });
  return database;
}
