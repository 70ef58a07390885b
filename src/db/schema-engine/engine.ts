// One wasm SchemaEngine bound to one database, with the rough edges filed off: inputs are checked
// before they reach the engine, calls run one at a time, engine errors become SchemaEngineErrors
// (with the Prisma error code), traps become SchemaEnginePanicErrors instead of hanging, and
// dispose() frees the engine and ends the pools it never ends itself.
import type { SchemaEngine as WasmSchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { createMigrationAdapters, DEFAULT_APPLICATION_NAME, type MigrationAdapters } from './adapter-factory.ts';
import { parseDatabaseUrl } from './connection-config.ts';
import { checkCanConnect } from './database-admin.ts';
import { toConstructorDatamodels, validateEngineInput, type EngineMethod, type EngineParams } from './engine-inputs.ts';
import { InvalidEngineInputError, SchemaEngineDisposedError, SchemaEngineError } from './errors.ts';
import { toSchemaEngineError } from './engine-errors.ts';
import { loadSchemaEngineWasm, type SchemaEngineWasm } from './load-wasm.ts';

export interface SchemaFile {
  path: string;
  content: string;
}

export interface EngineLogEntry {
  level: string;
  message: string;
  target: string;
  /** the engine's JSON log line, verbatim */
  raw: string;
}

export interface OpenSchemaEngineOptions {
  databaseUrl: string;
  shadowDatabaseUrl?: string | undefined;
  /** the Prisma schema the engine starts with (the CLI's `--datamodels`); may be omitted */
  schemaFiles?: readonly SchemaFile[] | undefined;
  applicationName?: string | undefined;
  onLog?: ((entry: EngineLogEntry) => void) | undefined;
}

type EngineResult<M extends EngineMethod> = Awaited<ReturnType<WasmSchemaEngine[M]>>;

export class SchemaEngineSession implements AsyncDisposable {
  readonly #wasm: SchemaEngineWasm;
  readonly #engine: WasmSchemaEngine;
  readonly #adapters: MigrationAdapters;
  #queue: Promise<unknown> = Promise.resolve();
  #disposing: Promise<void> | null = null;

  constructor(wasm: SchemaEngineWasm, engine: WasmSchemaEngine, adapters: MigrationAdapters) {
    this.#wasm = wasm;
    this.#engine = engine;
    this.#adapters = adapters;
  }

  /** Calls an engine method by name (names and params as in the wasm engine and the JSON-RPC protocol). */
  call<M extends EngineMethod>(method: M, params: EngineParams<M>): Promise<EngineResult<M>> {
    let input: unknown;
    try {
      input = validateEngineInput(method, params);
    } catch (error) {
      return Promise.reject(error);
    }
    const invoke = this.#engine[method].bind(this.#engine) as (input: unknown) => Promise<EngineResult<M>>;
    return this.#run(method, () => invoke(input));
  }

  /** The database server's version string. */
  version(): Promise<string> {
    // `version({})` fails deserialising a required `datasource`; `null` means "the connected one".
    return this.#run('version', () => this.#engine.version(null));
  }

  /** Makes the engine panic on purpose (the CLI's FORCE_PANIC_SCHEMA_ENGINE). */
  debugPanic(): Promise<never> {
    return this.#run('debugPanic', async () => {
      this.#engine.debugPanic();
      throw new SchemaEngineError('debugPanic returned without panicking');
    });
  }

  dispose(): Promise<void> {
    this.#disposing ??= (async () => {
      await this.#queue.catch(() => {});
      if (!this.#wasm.trap) {
        try {
          this.#engine.free();
        } catch {
          // a trapped engine cannot be freed; its memory goes with the discarded instance
        }
      }
      await this.#adapters.close();
    })();
    return this.#disposing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  // The engine borrows itself for the length of a call: overlapping calls would fail with
  // "recursive use of an object", so they queue.
  #run<T>(method: string, operation: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(() => this.#guarded(method, operation));
    this.#queue = result.catch(() => {});
    return result;
  }

  #guarded<T>(method: string, operation: () => Promise<T>): Promise<T> {
    if (this.#disposing) throw new SchemaEngineDisposedError(`${method}: the schema engine was disposed`, { method });
    if (this.#wasm.trap) throw this.#wasm.trap;
    return new Promise<T>((resolve, reject) => {
      const stopWatching = this.#wasm.onTrap(reject);
      const settle = (action: () => void) => {
        stopWatching();
        action();
      };
      let pending: Promise<T>;
      try {
        pending = operation();
      } catch (error) {
        settle(() => reject(this.#toError(method, error)));
        return;
      }
      pending.then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(this.#toError(method, error))),
      );
    });
  }

  #toError(method: string, error: unknown): Error {
    if (error instanceof SchemaEngineError) return error;
    if (error instanceof WebAssembly.RuntimeError) return this.#wasm.reportTrap(error);
    return toSchemaEngineError(method, error, this.#adapters);
  }
}

export async function openSchemaEngine(options: OpenSchemaEngineOptions): Promise<SchemaEngineSession> {
  const datamodels = toConstructorDatamodels(options.schemaFiles);
  const adapters = createMigrationAdapters(options);
  try {
    const wasm = await loadSchemaEngineWasm();
    const onLog = options.onLog;
    const log = (line: unknown) => {
      if (onLog && typeof line === 'string') onLog(parseLogLine(line));
    };
    const engine = await awaitUnlessTrapped(wasm, wasm.bindings.SchemaEngine.new({ datamodels }, log, adapters.factory));
    return new SchemaEngineSession(wasm, engine, adapters);
  } catch (error) {
    await adapters.close();
    const failure = error instanceof SchemaEngineError ? error : toSchemaEngineError('new', error, adapters);
    throw failure.code || failure instanceof InvalidEngineInputError ? failure : await withConnectionErrorCode(options, failure);
  }
}

// Errors raised while the engine starts lose their Prisma code (P1001 "can't reach", P1000 bad
// credentials, ...). One plain connection attempt tells which it was.
async function withConnectionErrorCode(options: OpenSchemaEngineOptions, failure: SchemaEngineError): Promise<SchemaEngineError> {
  try {
    await checkCanConnect(parseDatabaseUrl(options.databaseUrl), options.applicationName ?? DEFAULT_APPLICATION_NAME);
  } catch (connectionFailure) {
    if (connectionFailure instanceof SchemaEngineError && connectionFailure.code) return connectionFailure;
  }
  return failure;
}

function awaitUnlessTrapped<T>(wasm: SchemaEngineWasm, pending: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stopWatching = wasm.onTrap(reject);
    pending.then(
      (value) => {
        stopWatching();
        resolve(value);
      },
      (error: unknown) => {
        stopWatching();
        reject(error);
      },
    );
  });
}

function parseLogLine(raw: string): EngineLogEntry {
  const line = raw.trimEnd();
  try {
    const parsed = JSON.parse(line) as { level?: string; target?: string; fields?: { message?: string } };
    return { level: parsed.level ?? 'INFO', message: parsed.fields?.message ?? '', target: parsed.target ?? '', raw: line };
  } catch {
    return { level: 'INFO', message: line, target: '', raw: line };
  }
}
