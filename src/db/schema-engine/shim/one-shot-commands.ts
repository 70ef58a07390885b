// `schema-engine --datasource '<json>' cli <command>`: exit 0 on success; on failure exit 1 with
// stderr lines the CLI parses after skipping the first: an ERROR line from `schema_engine::logger`
// whose fields carry `error_code` and `message` (P1003 makes `migrate dev` create the database).
import { DEFAULT_APPLICATION_NAME } from '../adapter-factory.ts';
import { parseDatabaseUrl } from '../connection-config.ts';
import { checkCanConnect, createDatabase, dropDatabase } from '../database-admin.ts';
import { SchemaEngineError } from '../errors.ts';
import type { ShimDatasource } from './args.ts';
import { ERROR_TARGET, writeLog } from './stderr-log.ts';

const COMMANDS: Record<string, (datasource: ShimDatasource) => Promise<void>> = {
  'can-connect-to-database': async (datasource) => {
    await checkCanConnect(parseDatabaseUrl(datasource.url), DEFAULT_APPLICATION_NAME);
  },
  'create-database': async (datasource) => {
    const name = await createDatabase(parseDatabaseUrl(datasource.url), DEFAULT_APPLICATION_NAME);
    process.stdout.write(`${JSON.stringify({ databaseName: name })}\n`);
  },
  'drop-database': async (datasource) => {
    await dropDatabase(parseDatabaseUrl(datasource.url), DEFAULT_APPLICATION_NAME);
  },
};

export async function runOneShotCommand(command: string, datasource: ShimDatasource | null): Promise<number> {
  // the CLI skips the first stderr line, whatever it is
  writeLog('INFO', `Starting schema engine CLI (wasm): ${command}`);
  try {
    const run = COMMANDS[command];
    if (!run) throw new SchemaEngineError(`Unknown cli command: ${command}`);
    if (!datasource?.url) throw new SchemaEngineError('The datasource URL is empty. See https://pris.ly/d/config-url', { code: 'P1012' });
    await run(datasource);
    return 0;
  } catch (error) {
    const known = error instanceof SchemaEngineError ? error : new SchemaEngineError(String((error as Error)?.message ?? error));
    writeLog('ERROR', known.message, known.code ? { error_code: known.code } : {}, ERROR_TARGET);
    return 1;
  }
}
