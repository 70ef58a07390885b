// Errors the schema-engine layer throws. Callers (server start, CLI shim, tests) branch on the class
// and on `code`, the Prisma error code (P1001, P3009, ...) when the engine gave one.

export class SchemaEngineError extends Error {
  override name = 'SchemaEngineError';
  readonly code: string | undefined;
  /** the engine method that failed, e.g. `applyMigrations` */
  readonly method: string | undefined;

  constructor(message: string, options: { code?: string; method?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = options.code;
    this.method = options.method;
  }
}

/** The Rust engine panicked (a bug or an input it did not expect). The wasm instance is discarded. */
export class SchemaEnginePanicError extends SchemaEngineError {
  override name = 'SchemaEnginePanicError';
}

/** Input rejected before it reached the engine, which would otherwise panic or throw uncaught. */
export class InvalidEngineInputError extends SchemaEngineError {
  override name = 'InvalidEngineInputError';
}

/** The engine was used after `dispose()`. */
export class SchemaEngineDisposedError extends SchemaEngineError {
  override name = 'SchemaEngineDisposedError';
}

/** Another process held the migration lock for longer than we were willing to wait. */
export class MigrationLockTimeoutError extends SchemaEngineError {
  override name = 'MigrationLockTimeoutError';
}
