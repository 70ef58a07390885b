// The migration operations the platform needs at run time (server start, `svc migrate`, the test
// setup) and to author migrations, all through the wasm schema engine: no Prisma binary, no CLI.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HistoryDiagnostic, SchemaFilter } from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';
import { DEFAULT_APPLICATION_NAME } from './adapter-factory.ts';
import { APPLY_MIGRATIONS_LOCK_KEY, withAdvisoryLock } from './advisory-lock.ts';
import { clientConfig, parseDatabaseUrl, quoteIdentifier, type PgConnectionFields } from './connection-config.ts';
import { diffHistoryToSchema, planMigration } from './create-migration.ts';
import { openSchemaEngine, type EngineLogEntry, type SchemaEngineSession, type SchemaFile } from './engine.ts';
import { allApplied } from './applied-migrations.ts';
import { readMigrationsFolder, writeMigrationFolder } from './migrations-folder.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DEFAULT_MIGRATIONS_DIR = path.join(REPO_ROOT, 'prisma', 'migrations');
/** the schema folder (prisma.config.ts `schema`): platform.prisma and one <area>.prisma per area */
export const DEFAULT_SCHEMA_PATH = path.join(REPO_ROOT, 'prisma', 'schema');

const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };
const DEFAULT_LOCK_TIMEOUT_MS = 10 * 60_000;

export interface MigrationsDatabaseOptions {
  databaseUrl: string;
  /** defaults to <repo>/prisma/migrations */
  migrationsDir?: string;
  /** progress messages (the engine's "Applying `...`" and the like) */
  log?: (message: string) => void;
  /** `application_name` of the connections opened, to find them in pg_stat_activity */
  applicationName?: string;
}

export interface ApplyPendingMigrationsOptions extends MigrationsDatabaseOptions {
  /** how long to wait for another process that is applying migrations; default 10 minutes */
  lockTimeoutMs?: number;
}

/**
 * Applies the migration folders not yet applied, exactly as `prisma migrate deploy` does (same
 * `_prisma_migrations` rows, checksum = sha256 of migration.sql). Concurrent callers, in this or
 * other processes, queue on a PostgreSQL advisory lock; the later ones find nothing to apply.
 */
export async function applyPendingMigrations(options: ApplyPendingMigrationsOptions): Promise<{ applied: string[] }> {
  const database = parseDatabaseUrl(options.databaseUrl);
  const applicationName = options.applicationName ?? DEFAULT_APPLICATION_NAME;
  const lock = { key: APPLY_MIGRATIONS_LOCK_KEY, timeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, applicationName };
  return withAdvisoryLock(database, lock, async (client) => {
    const migrationsList = await readMigrationsFolder(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
    if (await allApplied(client, database.schema, migrationsList.migrationDirectories)) {
      options.log?.('No pending migrations to apply.');
      return { applied: [] };
    }
    const { appliedMigrationNames } = await withEngine(options, (engine) =>
      engine.call('applyMigrations', { migrationsList, filters: NO_FILTERS }),
    );
    options.log?.(
      appliedMigrationNames.length === 0
        ? 'No pending migrations to apply.'
        : `Applied ${appliedMigrationNames.length} migration(s): ${appliedMigrationNames.join(', ')}`,
    );
    return { applied: appliedMigrationNames };
  });
}

export interface MigrationStatus {
  /** applied and not rolled back, in the order they were applied */
  applied: string[];
  /** in the folder, not applied yet */
  pending: string[];
  /** started and failed; `prisma migrate resolve` (or a fix and re-apply) is needed */
  failed: string[];
  /** applied, but migration.sql changed since (checksum mismatch) */
  edited: string[];
  /** applied to the database but absent from the folder */
  missingFromFolder: string[];
  hasMigrationsTable: boolean;
}

export async function migrationStatus(options: MigrationsDatabaseOptions): Promise<MigrationStatus> {
  const migrationsList = await readMigrationsFolder(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  const diagnosis = await withEngine(options, (engine) =>
    engine.call('diagnoseMigrationHistory', { migrationsList, optInToShadowDatabase: false, filters: NO_FILTERS }),
  );
  const history = diagnosis.history;
  return {
    applied: diagnosis.hasMigrationsTable
      ? await readAppliedMigrationNames(parseDatabaseUrl(options.databaseUrl), options.applicationName)
      : [],
    pending: unappliedNames(history),
    failed: diagnosis.failedMigrationNames,
    edited: diagnosis.editedMigrationNames,
    missingFromFolder: history && history.diagnostic !== 'databaseIsBehind' ? history.unpersistedMigrationNames : [],
    hasMigrationsTable: diagnosis.hasMigrationsTable,
  };
}

export interface DiffMigrationsToSchemaOptions extends MigrationsDatabaseOptions {
  /** a .prisma file or a schema folder; defaults to <repo>/prisma/schema */
  schemaPath?: string;
  /** a disposable database to replay the history into (emptied first); default: a temporary one */
  shadowDatabaseUrl?: string;
  /** SQL (true, the default) or the engine's human-readable summary */
  script?: boolean;
}

/**
 * The SQL taking the database built by the migrations folder to the schema, i.e. the next
 * migration; `-- This is an empty migration.` when they agree. The history is replayed into a
 * temporary shadow database on the same server: the database at `databaseUrl` is never written.
 */
export async function diffMigrationsToSchema(options: DiffMigrationsToSchemaOptions): Promise<string> {
  const migrationsList = await readMigrationsFolder(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  const schema = { files: await readSchemaFiles(options.schemaPath ?? DEFAULT_SCHEMA_PATH) };
  return withEngine(options, async (engine) => {
    if (options.script === false) {
      const summary = await engine.call('diff', {
        from: { tag: 'migrations', ...migrationsList },
        to: { tag: 'schemaDatamodel', files: schema.files },
        script: false,
        exitCode: null,
        filters: NO_FILTERS,
      });
      return summary.stdout ?? '';
    }
    return diffHistoryToSchema(engine, migrationsList, schema, NO_FILTERS);
  });
}

export interface CreateMigrationOptions extends DiffMigrationsToSchemaOptions {
  /** e.g. `add_invoices`; slugged like `prisma migrate dev --name` */
  name: string;
  /** write the folder even when there is nothing to migrate (like `--create-only`) */
  draft?: boolean;
}

/** Writes `<migrationsDir>/<timestamp>_<name>/migration.sql` for the pending schema changes, or returns null when there are none. */
export async function createMigration(options: CreateMigrationOptions): Promise<{ name: string; directory: string; sql: string } | null> {
  const migrationsDir = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  const migrationsList = await readMigrationsFolder(migrationsDir);
  const schema = { files: await readSchemaFiles(options.schemaPath ?? DEFAULT_SCHEMA_PATH) };
  const planned = await withEngine(options, (engine) =>
    planMigration(engine, { migrationName: options.name, draft: options.draft ?? false, migrationsList, schema, filters: NO_FILTERS }),
  );
  if (planned.migrationScript === null) return null;
  const directory = await writeMigrationFolder(migrationsDir, planned.generatedMigrationName, planned.migrationScript, planned.connectorType);
  return { name: planned.generatedMigrationName, directory, sql: planned.migrationScript };
}

/** One file, or every .prisma file under a folder (recursively, in path order), as the Prisma CLI loads them. */
export async function readSchemaFiles(schemaPath: string): Promise<SchemaFile[]> {
  if (!(await fs.stat(schemaPath)).isDirectory()) return [{ path: schemaPath, content: await fs.readFile(schemaPath, 'utf8') }];
  const entries = await fs.readdir(schemaPath, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: SchemaFile[] = [];
  for (const entry of entries) {
    const entryPath = path.join(schemaPath, entry.name);
    if (entry.isDirectory()) files.push(...(await readSchemaFiles(entryPath)));
    else if (entry.isFile() && path.extname(entry.name) === '.prisma') files.push({ path: entryPath, content: await fs.readFile(entryPath, 'utf8') });
  }
  if (files.length === 0) throw new Error(`No .prisma files in the schema folder ${schemaPath}`);
  return files;
}

async function withEngine<T>(
  options: MigrationsDatabaseOptions & { shadowDatabaseUrl?: string },
  run: (engine: SchemaEngineSession) => Promise<T>,
): Promise<T> {
  const log = options.log;
  const engine = await openSchemaEngine({
    databaseUrl: options.databaseUrl,
    shadowDatabaseUrl: options.shadowDatabaseUrl,
    applicationName: options.applicationName,
    onLog: log ? (entry: EngineLogEntry) => forwardEngineLog(entry, log) : undefined,
  });
  try {
    return await run(engine);
  } finally {
    await engine.dispose();
  }
}

// The engine also logs debug dumps of its inputs (whole schemas) at INFO; keep the readable lines.
function forwardEngineLog(entry: EngineLogEntry, log: (message: string) => void): void {
  if (entry.message && !entry.message.startsWith('SchemasContainer') && !entry.message.startsWith('Analysis run')) {
    log(entry.message);
  }
}

function unappliedNames(history: HistoryDiagnostic | null): string[] {
  if (!history || history.diagnostic === 'migrationsDirectoryIsBehind') return [];
  return history.unappliedMigrationNames;
}

async function readAppliedMigrationNames(database: PgConnectionFields, applicationName = DEFAULT_APPLICATION_NAME): Promise<string[]> {
  const client = new pg.Client(clientConfig(database, applicationName));
  await client.connect();
  try {
    const result = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM ${quoteIdentifier(database.schema)}."_prisma_migrations"
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY started_at, migration_name`,
    );
    return result.rows.map((row) => row.migration_name);
  } finally {
    await client.end();
  }
}
