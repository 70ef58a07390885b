// Shapes of the wasm engine's method parameters, checked before every call. The engine deserialises
// params inside its own async task: a missing or mistyped field throws there, uncaught, leaves the
// caller's promise pending forever and poisons the instance (pitfall 6). Checking first turns that
// into an InvalidEngineInputError naming the field.
import type {
  ApplyMigrationsInput,
  CreateMigrationInput,
  DbExecuteParams,
  DevDiagnosticInput,
  DiagnoseMigrationHistoryInput,
  DiffParams,
  EnsureConnectionValidityParams,
  EvaluateDataLossInput,
  IntrospectParams,
  IntrospectSqlParams,
  MarkMigrationAppliedInput,
  MarkMigrationRolledBackInput,
  MigrationList,
  ResetInput,
  SchemaFilter,
  SchemaPushInput,
  SchemasContainer,
} from '@prisma/schema-engine-wasm/schema_engine_bg';
import { z } from 'zod';
import { InvalidEngineInputError } from './errors.ts';

const schemaFilter = z.object({
  externalTables: z.array(z.string()),
  externalEnums: z.array(z.string()),
}) satisfies z.ZodType<SchemaFilter>;

const schemaFile = z.object({ path: z.string(), content: z.string() });

const schemasContainer = z.object({
  files: z.array(schemaFile).min(1, 'at least one schema file is required'),
}) satisfies z.ZodType<SchemasContainer>;

const migrationList = z.object({
  baseDir: z.string(),
  lockfile: z.object({ path: z.string(), content: z.string().nullable() }),
  shadowDbInitScript: z.string().default(''),
  migrationDirectories: z.array(
    z.object({
      path: z.string().min(1),
      migrationFile: z.object({
        path: z.string(),
        content: z.discriminatedUnion('tag', [
          z.object({ tag: z.literal('ok'), value: z.string() }),
          z.object({ tag: z.literal('error'), value: z.string() }),
        ]),
      }),
    }),
  ),
}) satisfies z.ZodType<MigrationList>;

const urlContainer = z.object({ url: z.string().min(1, 'the URL is empty') });
const schemasWithConfigDir = z.object({ files: z.array(schemaFile).min(1), configDir: z.string() });

const diffTarget = z.discriminatedUnion('tag', [
  z.object({ tag: z.literal('empty') }),
  z.object({ tag: z.literal('schemaDatasource'), ...schemasWithConfigDir.shape }),
  z.object({ tag: z.literal('schemaDatamodel'), files: z.array(schemaFile).min(1) }),
  z.object({ tag: z.literal('url'), ...urlContainer.shape }),
  z.object({ tag: z.literal('migrations'), ...migrationList.shape }),
]);

const datasourceParam = z.discriminatedUnion('tag', [
  z.object({ tag: z.literal('Schema'), files: z.array(schemaFile).min(1) }),
  z.object({ tag: z.literal('ConnectionString'), ...urlContainer.shape }),
]);

export const engineInputs = {
  applyMigrations: z.object({ migrationsList: migrationList, filters: schemaFilter }) satisfies z.ZodType<ApplyMigrationsInput>,
  dbExecute: z.object({
    datasourceType: z.discriminatedUnion('tag', [
      z.object({ tag: z.literal('schema'), ...schemasWithConfigDir.shape }),
      z.object({ tag: z.literal('url'), ...urlContainer.shape }),
    ]),
    script: z.string(),
  }) satisfies z.ZodType<DbExecuteParams>,
  devDiagnostic: z.object({ migrationsList: migrationList, filters: schemaFilter }) satisfies z.ZodType<DevDiagnosticInput>,
  diagnoseMigrationHistory: z.object({
    migrationsList: migrationList,
    optInToShadowDatabase: z.boolean(),
    filters: schemaFilter,
  }) satisfies z.ZodType<DiagnoseMigrationHistoryInput>,
  diff: z.object({
    from: diffTarget,
    to: diffTarget,
    script: z.boolean(),
    exitCode: z.boolean().nullable().default(null),
    filters: schemaFilter,
  }) satisfies z.ZodType<DiffParams>,
  ensureConnectionValidity: z.object({ datasource: datasourceParam }) satisfies z.ZodType<EnsureConnectionValidityParams>,
  introspect: z.object({
    schema: schemasContainer,
    baseDirectoryPath: z.string(),
    force: z.boolean().default(false),
    compositeTypeDepth: z.number().int().default(-1),
    namespaces: z.array(z.string()).nullable().default(null),
  }) satisfies z.ZodType<IntrospectParams>,
  introspectSql: z.object({
    url: z.string(),
    queries: z.array(z.object({ name: z.string(), source: z.string() })),
  }) satisfies z.ZodType<IntrospectSqlParams>,
  markMigrationApplied: z.object({
    migrationName: z.string().min(1),
    migrationsList: migrationList,
  }) satisfies z.ZodType<MarkMigrationAppliedInput>,
  markMigrationRolledBack: z.object({ migrationName: z.string().min(1) }) satisfies z.ZodType<MarkMigrationRolledBackInput>,
  reset: z.object({ filter: schemaFilter }) satisfies z.ZodType<ResetInput>,
  schemaPush: z.object({ force: z.boolean(), schema: schemasContainer, filters: schemaFilter }) satisfies z.ZodType<SchemaPushInput>,
};

/** The two methods the wasm build cannot run and create-migration.ts implements instead. */
export const migrationPlanningInputs = {
  createMigration: z.object({
    draft: z.boolean(),
    migrationName: z.string(),
    migrationsList: migrationList,
    schema: schemasContainer,
    filters: schemaFilter,
  }) satisfies z.ZodType<CreateMigrationInput>,
  evaluateDataLoss: z.object({
    migrationsList: migrationList,
    schema: schemasContainer,
    filters: schemaFilter,
  }) satisfies z.ZodType<EvaluateDataLossInput>,
};

export type EngineMethod = keyof typeof engineInputs;
export type EngineParams<M extends EngineMethod> = z.input<(typeof engineInputs)[M]>;

export function isEngineMethod(name: string): name is EngineMethod {
  return Object.hasOwn(engineInputs, name);
}

export function validateEngineInput<M extends EngineMethod>(method: M, params: unknown): z.output<(typeof engineInputs)[M]> {
  return validate(method, engineInputs[method] as z.ZodType, params) as z.output<(typeof engineInputs)[M]>;
}

export function validate<T>(method: string, schema: z.ZodType<T>, params: unknown): T {
  const result = schema.safeParse(params);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(params)'}: ${issue.message}`);
    throw new InvalidEngineInputError(`Invalid params for ${method}: ${problems.join('; ')}`, { method });
  }
  return result.data;
}

/** `datamodels: []` panics inside the engine; no schema at all is spelled `undefined`. */
export function toConstructorDatamodels(files: ReadonlyArray<{ path: string; content: string }> | undefined): [string, string][] | undefined {
  if (!files || files.length === 0) return undefined;
  for (const file of files) {
    if (typeof file.path !== 'string' || typeof file.content !== 'string') {
      throw new InvalidEngineInputError('Schema files must be { path: string, content: string }.');
    }
  }
  return files.map((file) => [file.path, file.content]);
}
