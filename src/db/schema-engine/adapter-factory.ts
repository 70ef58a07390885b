// The driver adapters the wasm schema engine runs on: adapter-pg, configured with separate
// connection fields and a client that reads `"char"` as text, with whole-script execution and a
// shadow database of our own. Every pool opened here is tracked, because the engine never disposes
// the adapters it receives (pitfall 7): `close()` ends them all and drops leftover shadow databases.
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type ErrorCapturingSqlMigrationAwareDriverAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { CharAsTextClient } from './char-as-text-client.ts';
import { clientConfig, parseDatabaseUrl, quoteIdentifier, type PgConnectionFields } from './connection-config.ts';
import { toDriverAdapterError } from './driver-error.ts';
import { InvalidEngineInputError, SchemaEngineDisposedError } from './errors.ts';
import { createShadowDatabase, dropShadowDatabase, resetShadowSchema } from './shadow-database.ts';

export const DEFAULT_APPLICATION_NAME = 'svc-schema-engine';

export interface MigrationAdapterOptions {
  databaseUrl: string;
  /** an existing, disposable database to use as shadow instead of a temporary one */
  shadowDatabaseUrl?: string | undefined;
  /** `application_name` of every connection, so they can be found in pg_stat_activity */
  applicationName?: string | undefined;
}

export interface MigrationAdapters {
  /** The factory to hand to `SchemaEngine.new`. */
  readonly factory: ErrorCapturingSqlMigrationAwareDriverAdapterFactory;
  /** Ends every pool opened so far and drops any shadow database still present. Idempotent. */
  close(): Promise<void>;
}

type PgAdapter = Awaited<ReturnType<PrismaPg['connect']>>;

export function createMigrationAdapters(options: MigrationAdapterOptions): MigrationAdapters {
  // Parsed when the engine connects, so that a bad URL is reported as that engine call's error.
  const main = () => parseDatabaseUrl(options.databaseUrl);
  const shadow = () => (options.shadowDatabaseUrl ? parseDatabaseUrl(options.shadowDatabaseUrl) : null);
  const applicationName = options.applicationName ?? DEFAULT_APPLICATION_NAME;
  const open = new Set<SqlDriverAdapter>();
  let closing: Promise<void> | null = null;

  const track = async (connecting: Promise<SqlDriverAdapter>): Promise<SqlDriverAdapter> => {
    const adapter = await connecting;
    if (closing) {
      await adapter.dispose();
      throw new SchemaEngineDisposedError('The schema engine was disposed while it was connecting.');
    }
    open.add(adapter);
    return adapter;
  };

  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    connect: async () => track(connectAdapter(main(), applicationName)),
    connectToShadowDb: async () => {
      const configured = shadow();
      return track(
        configured ? connectConfiguredShadowDb(main(), configured, applicationName) : connectTemporaryShadowDb(main(), applicationName),
      );
    },
  };

  return {
    factory: bindMigrationAwareSqlAdapterFactory(factory),
    close() {
      closing ??= disposeAll([...open]);
      return closing;
    },
  };
}

async function disposeAll(adapters: SqlDriverAdapter[]): Promise<void> {
  const results = await Promise.allSettled(adapters.map((adapter) => adapter.dispose()));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

async function connectTemporaryShadowDb(server: PgConnectionFields, applicationName: string): Promise<SqlDriverAdapter> {
  const name = await createShadowDatabase(server, applicationName);
  const drop = () => dropShadowDatabase(server, applicationName, name);
  try {
    return await connectAdapter({ ...server, database: name }, applicationName, drop);
  } catch (error) {
    await drop();
    throw error;
  }
}

/**
 * A `shadowDatabaseUrl` from the config: the native engine empties it before replaying the history
 * into it, the wasm build does not (leftovers would show up as a bogus diff), so we do. Emptying
 * the main database by mistake is the one thing this must never do.
 */
async function connectConfiguredShadowDb(
  main: PgConnectionFields,
  shadow: PgConnectionFields,
  applicationName: string,
): Promise<SqlDriverAdapter> {
  if (shadow.host === main.host && shadow.port === main.port && shadow.database === main.database) {
    throw new InvalidEngineInputError(
      'The shadow database you configured is the same as the main database; shadowDatabaseUrl must name a disposable database.',
    );
  }
  await resetShadowSchema(shadow, applicationName);
  return connectAdapter(shadow, applicationName);
}

async function connectAdapter(
  fields: PgConnectionFields,
  applicationName: string,
  afterDispose?: () => Promise<void>,
): Promise<SqlDriverAdapter> {
  const inner = await new PrismaPg(poolConfig(fields, applicationName), { schema: fields.schema }).connect();
  return withWholeScripts(inner, afterDispose);
}

function poolConfig(fields: PgConnectionFields, applicationName: string): pg.PoolConfig {
  return {
    ...clientConfig(fields, applicationName),
    ...(fields.schema !== 'public' ? { options: `-c search_path=${quoteIdentifier(fields.schema)}` } : {}),
    Client: CharAsTextClient,
    // One connection, like the native engine: its session-level advisory lock (taken once, never
    // released explicitly) must stay on the connection that runs the migrations, and must not be
    // dropped by an idle timeout halfway through a long migration.
    max: 1,
    idleTimeoutMillis: 0,
  };
}

/**
 * adapter-pg's executeScript splits on every `;` and runs the pieces one by one outside a
 * transaction, so `'a;b'` literals and `$$` bodies break and a failure leaves a half-applied
 * migration (pitfall 3). One simple-protocol query sends the script as PostgreSQL's parser sees it,
 * and PostgreSQL runs a multi-statement query as one implicit transaction — what the native engine
 * does too.
 */
function withWholeScripts(inner: PgAdapter, afterDispose?: () => Promise<void>): SqlDriverAdapter {
  const pool = inner.underlyingDriver();
  let disposing: Promise<void> | null = null;
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query) => inner.queryRaw(query),
    executeRaw: (query) => inner.executeRaw(query),
    startTransaction: (isolationLevel) => inner.startTransaction(isolationLevel),
    getConnectionInfo: () => inner.getConnectionInfo(),
    async executeScript(script) {
      try {
        await pool.query(script);
      } catch (error) {
        throw toDriverAdapterError(error);
      }
    },
    dispose() {
      disposing ??= (async () => {
        try {
          await inner.dispose();
        } finally {
          await afterDispose?.();
        }
      })();
      return disposing;
    },
  };
}
