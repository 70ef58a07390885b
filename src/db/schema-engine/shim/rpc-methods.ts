// What each JSON-RPC method the Prisma CLI sends does. Names and params are the wasm engine's; the
// exceptions are the methods the wasm build lacks or does differently (createMigration,
// evaluateDataLoss, diff's printed output, database creation, version).
import type { CreateMigrationInput, EvaluateDataLossInput } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { DEFAULT_APPLICATION_NAME } from '../adapter-factory.ts';
import { parseDatabaseUrl } from '../connection-config.ts';
import { evaluateNextMigration, planMigration } from '../create-migration.ts';
import { createDatabase, dropDatabase } from '../database-admin.ts';
import type { SchemaEngineSession } from '../engine.ts';
import { isEngineMethod, type EngineParams } from '../engine-inputs.ts';
import { InvalidEngineInputError, SchemaEngineError } from '../errors.ts';
import type { ShimDatasource } from './args.ts';

export interface RpcContext {
  datasource: ShimDatasource | null;
  session(): Promise<SchemaEngineSession>;
  /** Asks the CLI to print to its stdout (how the engine returns `migrate diff` output). */
  print(content: string): Promise<void>;
}

export class UnknownMethodError extends SchemaEngineError {
  override name = 'UnknownMethodError';
}

type Method = (context: RpcContext, params: unknown) => Promise<unknown>;

const SPECIAL_METHODS: Record<string, Method> = {
  async diff(context, params) {
    const result = await (await context.session()).call('diff', params as EngineParams<'diff'>);
    // The CLI prints what arrives through `print` and ignores the result's stdout (None in the
    // native engine), which would otherwise be printed twice.
    if (result.stdout) await context.print(result.stdout);
    return { exitCode: result.exitCode, stdout: null };
  },
  async createMigration(context, params) {
    return planMigration(await context.session(), params as CreateMigrationInput);
  },
  async evaluateDataLoss(context, params) {
    return evaluateNextMigration(await context.session(), mainDatabase(context), DEFAULT_APPLICATION_NAME, params as EvaluateDataLossInput);
  },
  async version(context) {
    return (await context.session()).version();
  },
  async getDatabaseVersion(context) {
    return (await context.session()).version();
  },
  async createDatabase(context, params) {
    const databaseName = await createDatabase(databaseFromParams(context, params), DEFAULT_APPLICATION_NAME);
    return { databaseName };
  },
  async dropDatabase(context, params) {
    await dropDatabase(databaseFromParams(context, params), DEFAULT_APPLICATION_NAME);
    return null;
  },
  async debugPanic(context) {
    return (await context.session()).debugPanic();
  },
};

export async function callRpcMethod(context: RpcContext, method: string, params: unknown): Promise<unknown> {
  const special = SPECIAL_METHODS[method];
  if (special) return special(context, params);
  if (isEngineMethod(method)) return (await context.session()).call(method, params as never);
  throw new UnknownMethodError(`Method not found: ${method}`, { method });
}

function mainDatabase(context: RpcContext) {
  return parseDatabaseUrl(context.datasource?.url ?? '');
}

/** `{ datasource: { tag: 'ConnectionString', url } }`, or the `--datasource` URL for `{ tag: 'Schema' }`. */
function databaseFromParams(context: RpcContext, params: unknown) {
  const datasource = (params as { datasource?: { tag?: string; url?: unknown } } | null)?.datasource;
  if (datasource?.tag === 'ConnectionString') {
    if (typeof datasource.url !== 'string') throw new InvalidEngineInputError('datasource.url must be a string');
    return parseDatabaseUrl(datasource.url);
  }
  return mainDatabase(context);
}
