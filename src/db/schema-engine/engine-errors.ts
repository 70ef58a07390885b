// Turns what the wasm engine rejects with (an Error named SchemaConnectorError, a Prisma `code`
// when it has one, a Rust span trace in the message) into a SchemaEngineError a caller can act on.
import type { MigrationAdapters } from './adapter-factory.ts';
import { SchemaEngineError } from './errors.ts';

// Engine errors carry a Rust span trace after the message ("\n   0: sql_schema_connector::..."),
// useful in a bug report and noise for everybody else: it stays on `cause`.
const SPAN_TRACE = /\n\s+0: [a-z_]+::[\s\S]*$/;
// The native engine reports a failing migration script as P3018 naming the migration; the wasm
// build only says "external connector error", with the migration name left in the span trace.
const FAILED_MIGRATION = /apply_migration::apply_script\s+with migration_name="([^"]+)"/;

// A JavaScript exception inside an adapter reaches the engine as an id into the factory's error
// registry; the engine only reports "External error id#3". The original is what the caller needs.
const EXTERNAL_ERROR = /External error id#(\d+)/;

/** The SchemaEngineError for an error the wasm engine rejected with. */
export function toSchemaEngineError(method: string, error: unknown, adapters: MigrationAdapters): SchemaEngineError {
  const source = error as { message?: unknown; code?: unknown } | null;
  const message = typeof source?.message === 'string' ? source.message.replace(SPAN_TRACE, '') : String(error);
  const external = EXTERNAL_ERROR.exec(message);
  const original = external ? adapters.factory.errorRegistry.consumeError(Number(external[1]))?.error : undefined;
  if (original instanceof SchemaEngineError) return original;
  if (original instanceof Error) return new SchemaEngineError(original.message, { method, cause: original });
  const code = typeof source?.code === 'string' ? source.code : undefined;
  const failedMigration = typeof source?.message === 'string' ? FAILED_MIGRATION.exec(source.message)?.[1] : undefined;
  if (failedMigration && !code) {
    const databaseError = message.replace(/^external connector error\n/, '').replace(/^Error querying the database: /, '');
    return new SchemaEngineError(
      `A migration failed to apply. New migrations cannot be applied before the error is recovered from. Read more about how to resolve migration issues in a production database: https://pris.ly/d/migrate-resolve\n\nMigration name: ${failedMigration}\n\nDatabase error:\n${databaseError}`,
      { method, cause: error, code: 'P3018' },
    );
  }
  return new SchemaEngineError(message, { method, cause: error, ...(code ? { code } : {}) });
}
