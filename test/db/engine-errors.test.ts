// Pitfalls 5 and 6: panics must surface as a clear error (not a TypeError from a missing panic
// registry), bad params must reject (not throw uncaught and hang), `datamodels: []` and
// `version({})` must not reach the engine.
import { describe, expect, inject, it } from 'vitest';
import { createMigrationAdapters } from '../../src/db/schema-engine/adapter-factory.ts';
import { openSchemaEngine } from '../../src/db/schema-engine/engine.ts';
import { InvalidEngineInputError, SchemaEngineError, SchemaEnginePanicError } from '../../src/db/schema-engine/errors.ts';
import { loadSchemaEngineWasm } from '../../src/db/schema-engine/load-wasm.ts';
import { MINIMAL_SCHEMA_HEADER } from './helpers.ts';

const serverUrl = inject('databaseUrl');
const NO_FILTERS = { externalTables: [], externalEnums: [] };

describe('engine panics', () => {
  it('reject with the panic message, and the next engine works', async () => {
    const engine = await openSchemaEngine({ databaseUrl: serverUrl });
    const failure = await engine.debugPanic().catch((error: unknown) => error);
    await engine.dispose();

    expect(failure).toBeInstanceOf(SchemaEnginePanicError);
    expect((failure as Error).message).toMatch(/panicked at .*debugPanic artificial panic/s);
    expect(failure).not.toBeInstanceOf(TypeError);

    const next = await openSchemaEngine({ databaseUrl: serverUrl });
    try {
      expect(await next.version()).toMatch(/^PostgreSQL \d+/);
    } finally {
      await next.dispose();
    }
  });

  it('inside the engine’s own async task are reported to the caller instead of escaping uncaught', async () => {
    // Bypasses our input checks on purpose: the raw engine deserialises params in a task of its
    // own, where the failure used to become an uncaught exception and a forever-pending promise.
    const wasm = await loadSchemaEngineWasm();
    const adapters = createMigrationAdapters({ databaseUrl: serverUrl });
    try {
      const raw = await wasm.bindings.SchemaEngine.new({ datamodels: undefined }, () => {}, adapters.factory);
      const trapped = new Promise((resolve) => wasm.onTrap(resolve));
      void raw.diff({ from: { tag: 'empty' } } as never);
      const trap = await trapped;
      expect(trap).toBeInstanceOf(SchemaEnginePanicError);
      expect((trap as Error).message).toMatch(/missing field `to`/);
    } finally {
      await adapters.close();
    }
    // a trapped instance is replaced on the next load
    expect(await loadSchemaEngineWasm()).not.toBe(wasm);
  });
});

describe('engine inputs', () => {
  it('with missing fields reject with an InvalidEngineInputError naming them', async () => {
    const engine = await openSchemaEngine({ databaseUrl: serverUrl });
    try {
      const failure = await engine.call('diff', { from: { tag: 'empty' } } as never).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(InvalidEngineInputError);
      expect((failure as Error).message).toMatch(/Invalid params for diff: .*to/);
      // the engine was never touched, so it still works
      expect(await engine.version()).toMatch(/^PostgreSQL/);
    } finally {
      await engine.dispose();
    }
  });

  it('accept an empty schema list (datamodels: [] would panic) and no schema at all', async () => {
    for (const schemaFiles of [[], undefined]) {
      const engine = await openSchemaEngine({ databaseUrl: serverUrl, schemaFiles });
      try {
        expect(await engine.version()).toMatch(/^PostgreSQL/);
      } finally {
        await engine.dispose();
      }
    }
  });

  it('accept schema files and diff them without touching the database', async () => {
    const schema = [{ path: 'schema.prisma', content: `${MINIMAL_SCHEMA_HEADER}\nmodel A {\n  id Int @id\n}\n` }];
    const engine = await openSchemaEngine({ databaseUrl: serverUrl, schemaFiles: schema });
    try {
      const result = await engine.call('diff', {
        from: { tag: 'empty' },
        to: { tag: 'schemaDatamodel', files: schema },
        script: true,
        exitCode: null,
        filters: NO_FILTERS,
      });
      expect(result.stdout).toMatch(/CREATE TABLE "A"/);
    } finally {
      await engine.dispose();
    }
  });

  it('report engine errors with their Prisma code', async () => {
    const engine = await openSchemaEngine({ databaseUrl: serverUrl });
    try {
      const failure = await engine
        .call('schemaPush', { force: false, schema: { files: [{ path: 'schema.prisma', content: 'model {' }] }, filters: NO_FILTERS })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SchemaEngineError);
      expect((failure as SchemaEngineError).code).toBe('P1012');
      expect((failure as Error).message).not.toMatch(/schema_engine_wasm::/);
    } finally {
      await engine.dispose();
    }
  });

  it('refuse a database URL that is not postgresql://', async () => {
    await expect(openSchemaEngine({ databaseUrl: 'mysql://localhost/x' })).rejects.toBeInstanceOf(InvalidEngineInputError);
    await expect(openSchemaEngine({ databaseUrl: '' })).rejects.toThrow(/DATABASE_URL/);
  });

  it('give the P1001 code for an unreachable server', async () => {
    await expect(openSchemaEngine({ databaseUrl: 'postgresql://u:p@127.0.0.1:1/x' })).rejects.toMatchObject({ code: 'P1001' });
  });
});
