// Pitfall 1: the engine's describer reads catalog columns of PostgreSQL's internal `"char"` type
// (OID 18), which adapter-pg cannot map.
import { PrismaPg } from '@prisma/adapter-pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createMigrationAdapters } from '../../src/db/schema-engine/adapter-factory.ts';
import { openSchemaEngine } from '../../src/db/schema-engine/engine.ts';
import { MINIMAL_SCHEMA_HEADER, query, useThrowawayDatabase } from './helpers.ts';

const serverUrl = inject('databaseUrl');
const CATALOG_CHAR_QUERY = { sql: `SELECT relkind FROM pg_class WHERE relname = 'pg_class'`, args: [], argTypes: [] };

describe('"char" columns (OID 18)', () => {
  const db = useThrowawayDatabase(serverUrl, 'char');
  beforeAll(async () => {
    await query(db.url, `CREATE TABLE "Flagged" ("id" INTEGER PRIMARY KEY, "flag" "char" NOT NULL DEFAULT 'a', "label" TEXT)`);
  });

  it('are read as text through the migration adapters', async () => {
    const adapters = createMigrationAdapters({ databaseUrl: db.url });
    try {
      const adapter = await adapters.factory.connect();
      if (!adapter.ok) throw new Error(`connect failed: ${JSON.stringify(adapter.error)}`);
      const result = await adapter.value.queryRaw(CATALOG_CHAR_QUERY);
      expect(result.ok && result.value.rows).toEqual([['r']]);
    } finally {
      await adapters.close();
    }
  });

  it('still break plain adapter-pg (the workaround is needed while this passes)', async () => {
    const url = new URL(db.url);
    const plain = new PrismaPg({
      host: url.hostname,
      port: Number(url.port),
      user: url.username,
      password: decodeURIComponent(url.password),
      database: db.name,
    });
    const adapter = await plain.connect();
    try {
      await expect(adapter.queryRaw(CATALOG_CHAR_QUERY)).rejects.toMatchObject({
        cause: { kind: 'UnsupportedNativeDataType', type: 'char' },
      });
    } finally {
      await adapter.dispose();
    }
  });

  it('do not stop the engine from introspecting a database', async () => {
    const introspected = await introspect(db.url);
    expect(introspected).toMatch(/model Flagged \{/);
    expect(introspected).toMatch(/\n\s+flag\s+String\s+@default\("a"\) @db\.Char\n/);
  });

  it('do not stop the engine from describing the platform schema (enums, composite keys, indexes)', async () => {
    const introspected = await introspect(serverUrl);
    expect(introspected).toMatch(/model Team \{/);
    expect(introspected).toMatch(/enum DataAccessLevel \{/);
  });
});

/** The Prisma schema the engine reads back from a database. */
async function introspect(databaseUrl: string): Promise<string> {
  const engine = await openSchemaEngine({ databaseUrl });
  try {
    const result = await engine.call('introspect', {
      schema: { files: [{ path: 'schema.prisma', content: MINIMAL_SCHEMA_HEADER }] },
      baseDirectoryPath: '.',
      force: false,
      compositeTypeDepth: -1,
      namespaces: null,
    });
    return result.schema.files[0]?.content ?? '';
  } finally {
    await engine.dispose();
  }
}
