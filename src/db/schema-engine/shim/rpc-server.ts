// The long-lived mode of the schema-engine executable: JSON-RPC on stdin/stdout until the CLI
// closes stdin (or kills us, which it does right after closing it).
import fs from 'node:fs/promises';
import { DEFAULT_APPLICATION_NAME } from '../adapter-factory.ts';
import { openSchemaEngine, type SchemaEngineSession } from '../engine.ts';
import { InvalidEngineInputError, SchemaEngineError, SchemaEnginePanicError } from '../errors.ts';
import type { ShimDatasource } from './args.ts';
import { INVALID_PARAMS, JsonRpcPeer, METHOD_NOT_FOUND, type RpcErrorObject } from './json-rpc.ts';
import { callRpcMethod, UnknownMethodError } from './rpc-methods.ts';
import { writeEngineLogLine, writeLog } from './stderr-log.ts';

// The error code the native engine uses for every error it reports in `data`.
const ENGINE_ERROR = 4466;

export async function runRpcServer(options: { datamodelPaths: string[]; datasource: ShimDatasource | null }): Promise<number> {
  const schemaFiles = await Promise.all(
    options.datamodelPaths.map(async (path) => ({ path, content: await fs.readFile(path, 'utf8') })),
  );
  let session: Promise<SchemaEngineSession> | null = null;
  const openSession = () => {
    session ??= openSchemaEngine({
      databaseUrl: options.datasource?.url ?? '',
      shadowDatabaseUrl: options.datasource?.shadowDatabaseUrl,
      schemaFiles,
      applicationName: DEFAULT_APPLICATION_NAME,
      onLog: (entry) => writeEngineLogLine(entry.raw),
    }).catch((error: unknown) => {
      session = null; // a later request may succeed (e.g. after createDatabase)
      throw error;
    });
    return session;
  };
  const closeSession = async () => {
    const current = session;
    session = null;
    await (await current?.catch(() => null))?.dispose();
  };

  const peer: JsonRpcPeer = new JsonRpcPeer(
    process.stdin,
    process.stdout,
    async (method, params) => {
      try {
        return await callRpcMethod(
          { datasource: options.datasource, session: openSession, print: async (content) => void (await peer.request('print', { content })) },
          method,
          params,
        );
      } catch (error) {
        // a trapped engine cannot serve further requests: the next one gets a fresh instance
        if (error instanceof SchemaEnginePanicError) await closeSession();
        throw error;
      }
    },
    toRpcError,
  );

  const shutdown = async (exitCode: number): Promise<never> => {
    await Promise.race([closeSession().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    process.exit(exitCode);
  };
  // The CLI ends stdin and kills us at once: end the pools first so no connection is left half-open.
  process.once('SIGTERM', () => void shutdown(0));
  process.once('SIGINT', () => void shutdown(130));
  await peer.closed;
  return shutdown(0);
}

function toRpcError(error: unknown): RpcErrorObject {
  if (error instanceof UnknownMethodError) {
    return { code: METHOD_NOT_FOUND, message: error.message, data: { is_panic: false, message: error.message, meta: {} } };
  }
  if (error instanceof SchemaEnginePanicError) {
    writeLog('ERROR', error.message, { is_panic: true });
    return { code: ENGINE_ERROR, message: error.message, data: { is_panic: true, message: error.message, backtrace: error.stack ?? null } };
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof SchemaEngineError ? error.code : undefined;
  return {
    code: error instanceof InvalidEngineInputError ? INVALID_PARAMS : ENGINE_ERROR,
    message: 'An error happened. Check the data field for details.',
    data: { is_panic: false, message, meta: {}, ...(code ? { error_code: code } : {}) },
  };
}
