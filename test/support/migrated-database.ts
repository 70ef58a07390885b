// A migrated database of the calling test file's own. The outbox and the pg-boss queues are global
// to a database: a file whose workers dispatch events or run jobs takes one, so that no worker of
// another file (started with other settings, and stopped when that file ends) picks up its work.
// It is a copy of the template the global setup migrated once.
import { inject } from 'vitest';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../db/helpers.ts';

export function createMigratedDatabase(label: string): Promise<ThrowawayDatabase> {
  return createThrowawayDatabase(inject('databaseUrl'), label, inject('templateDatabase'));
}
