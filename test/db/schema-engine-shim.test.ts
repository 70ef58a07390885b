// scripts/prisma-schema-engine speaks the Prisma 7.10 CLI's schema-engine protocol. These tests
// drive it the way the CLI does (see docs/prisma-offline.md); prisma-cli.test.ts runs the CLI itself.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { readMigrationsFolder } from '../../src/db/schema-engine/migrations-folder.ts';
import { DEFAULT_MIGRATIONS_DIR } from '../../src/db/schema-engine/migrations.ts';
import { databaseUrlFor, query } from './helpers.ts';

const serverUrl = inject('databaseUrl');
const SHIM = fileURLToPath(new URL('../../scripts/prisma-schema-engine', import.meta.url));
const run = promisify(execFile);
const NO_FILTERS = { externalTables: [], externalEnums: [] };

interface RpcMessage {
  id?: number | string | null;
  method?: string;
  params?: { content?: string };
  result?: unknown;
  error?: { code: number; message: string; data?: { is_panic?: boolean; message?: string; error_code?: string } };
}

/** A shim process in JSON-RPC mode, answering `print` requests like the CLI does. */
function startShim(datasourceUrl: string) {
  const child: ChildProcessWithoutNullStreams = spawn(SHIM, ['--datasource', JSON.stringify({ url: datasourceUrl })]);
  const printed: string[] = [];
  const stderr: string[] = [];
  const waiting = new Map<number, (message: RpcMessage) => void>();
  readline.createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as RpcMessage;
    if (message.method === 'print') {
      printed.push(message.params?.content ?? '');
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} })}\n`);
    } else if (typeof message.id === 'number') {
      waiting.get(message.id)?.(message);
    }
  });
  let nextId = 1;
  return {
    printed,
    stderr,
    request(method: string, params?: unknown): Promise<RpcMessage> {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    },
    async close(): Promise<{ code: number | null; ms: number }> {
      const started = Date.now();
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.stdin.end();
      return { code: await exited, ms: Date.now() - started };
    },
  };
}

describe('the schema-engine shim', () => {
  it('--version prints the engine hash the Prisma CLI expects', async () => {
    const { enginesVersion } = createRequire(import.meta.url)('@prisma/engines-version') as { enginesVersion: string };
    const { stdout } = await run(SHIM, ['--version']);
    expect(stdout.trim()).toBe(`schema-engine-cli ${enginesVersion}`);
  });

  it('answers JSON-RPC requests with the wasm engine, printing diffs through `print`', async () => {
    const shim = startShim(serverUrl);
    try {
      const version = await shim.request('getDatabaseVersion');
      expect(version.result).toMatch(/^PostgreSQL/);

      const status = await shim.request('diagnoseMigrationHistory', {
        migrationsList: await readMigrationsFolder(DEFAULT_MIGRATIONS_DIR),
        optInToShadowDatabase: false,
        filters: NO_FILTERS,
      });
      expect(status.result).toEqual({ editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true, history: null });

      const schema = 'datasource db {\n  provider = "postgresql"\n}\n\nmodel Shim {\n  id Int @id\n}\n';
      const diff = await shim.request('diff', {
        from: { tag: 'empty' },
        to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: schema }] },
        script: true,
        exitCode: null,
        filters: NO_FILTERS,
      });
      expect(diff.result).toEqual({ exitCode: 0, stdout: null });
      expect(shim.printed.join('')).toMatch(/CREATE TABLE "Shim"/);

      const unknown = await shim.request('noSuchMethod', {});
      expect(unknown.error?.code).toBe(-32601);

      const invalid = await shim.request('applyMigrations', { filters: NO_FILTERS });
      expect(invalid.error?.data).toMatchObject({ is_panic: false, message: expect.stringMatching(/migrationsList/) });
    } finally {
      const { code, ms } = await shim.close();
      expect(code).toBe(0);
      expect(ms).toBeLessThan(2000);
    }
    // the CLI parses every stderr line as JSON
    for (const line of shim.stderr) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it('answers `cli can-connect-to-database` / `create-database` with exit codes and P-codes', async () => {
    const name = `shim_${randomBytes(5).toString('hex')}`;
    const datasource = JSON.stringify({ url: databaseUrlFor(serverUrl, name) });

    const missing = await run(SHIM, ['--datasource', datasource, 'cli', 'can-connect-to-database']).catch((error: unknown) => error);
    expect(missing).toMatchObject({ code: 1 });
    // the CLI skips the first line and reads the rest as JSON
    const lines = (missing as { stderr: string }).stderr.trim().split('\n').slice(1).map((line) => JSON.parse(line));
    expect(lines).toContainEqual(expect.objectContaining({ level: 'ERROR', target: 'schema_engine::logger', fields: expect.objectContaining({ error_code: 'P1003' }) }));

    try {
      await run(SHIM, ['--datasource', datasource, 'cli', 'create-database']);
      await run(SHIM, ['--datasource', datasource, 'cli', 'can-connect-to-database']);
    } finally {
      await query(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});
