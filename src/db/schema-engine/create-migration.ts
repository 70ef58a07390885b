// createMigration and evaluateDataLoss, which the wasm build cannot run ("PostgreSQL shadow DB must
// be provided through an external factory"): the next migration is the diff from the migration
// history (replayed into a shadow database, never the main one) to the target schema.
import type {
  CreateMigrationInput,
  CreateMigrationOutput,
  EvaluateDataLossInput,
  EvaluateDataLossOutput,
  MigrationList,
  SchemaFilter,
  SchemasContainer,
} from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { PgConnectionFields } from './connection-config.ts';
import { evaluateDataLoss } from './data-loss.ts';
import type { SchemaEngineSession } from './engine.ts';
import { migrationPlanningInputs, validate } from './engine-inputs.ts';
import { lockfileText, migrationFolderName } from './migrations-folder.ts';
import { EMPTY_MIGRATION_SCRIPT, isEmptyMigrationScript } from './migration-steps.ts';

/** SQL taking the database produced by `migrationsList` to `schema`; `-- This is an empty migration.` when none. */
export async function diffHistoryToSchema(
  session: SchemaEngineSession,
  migrationsList: MigrationList,
  schema: SchemasContainer,
  filters: SchemaFilter,
): Promise<string> {
  // A project's first migration has no lockfile yet, and the engine needs one to pick the
  // connector; `migrate dev` writes it with the migration, so assume it (we only run PostgreSQL).
  const lockfile = migrationsList.lockfile.content === null ? { ...migrationsList.lockfile, content: lockfileText('postgresql') } : migrationsList.lockfile;
  const result = await session.call('diff', {
    from: { tag: 'migrations', ...migrationsList, lockfile },
    to: { tag: 'schemaDatamodel', files: schema.files },
    script: true,
    exitCode: null,
    filters,
  });
  return result.stdout ?? EMPTY_MIGRATION_SCRIPT;
}

/** The engine's createMigration: computes the folder name and script; the caller writes them. */
export async function planMigration(session: SchemaEngineSession, params: CreateMigrationInput): Promise<CreateMigrationOutput> {
  const input = validate('createMigration', migrationPlanningInputs.createMigration, params);
  const script = await diffHistoryToSchema(session, input.migrationsList, input.schema, input.filters);
  const empty = isEmptyMigrationScript(script);
  return {
    connectorType: 'postgresql',
    generatedMigrationName: migrationFolderName(input.migrationName),
    // null tells the CLI "nothing to create"; a draft (--create-only) is written even when empty
    migrationScript: empty && !input.draft ? null : empty ? `${EMPTY_MIGRATION_SCRIPT}\n` : script,
    extension: 'sql',
  };
}

/** The engine's evaluateDataLoss, measured against the development database. */
export async function evaluateNextMigration(
  session: SchemaEngineSession,
  database: PgConnectionFields,
  applicationName: string,
  params: EvaluateDataLossInput,
): Promise<EvaluateDataLossOutput> {
  const input = validate('evaluateDataLoss', migrationPlanningInputs.evaluateDataLoss, params);
  const script = await diffHistoryToSchema(session, input.migrationsList, input.schema, input.filters);
  if (isEmptyMigrationScript(script)) return { migrationSteps: 0, warnings: [], unexecutableSteps: [] };
  return evaluateDataLoss(database, applicationName, script);
}
