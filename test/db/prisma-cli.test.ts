// The standard Prisma CLI, offline, on the shim (PRISMA_SCHEMA_ENGINE_BINARY): deploy, status,
// migrate dev, diff, db push and generate on a scratch copy of the project and a throwaway
// database, so the repository's prisma/migrations never receives a stray migration.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseUrlFor, query, shadowDatabases, tableNames } from './helpers.ts';

const serverUrl = inject('databaseUrl');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRISMA = path.join(ROOT, 'node_modules', 'prisma', 'build', 'index.js');
const execFileAsync = promisify(execFile);

describe('the Prisma CLI on the schema-engine shim', { timeout: 120_000 }, () => {
  const databaseName = `cli_${randomBytes(5).toString('hex')}`;
  const databaseUrl = databaseUrlFor(serverUrl, databaseName);
  let project: string;

  const prisma = async (...args: string[]) => {
    const { stdout } = await execFileAsync(process.execPath, [PRISMA, ...args], {
      cwd: project,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PRISMA_SCHEMA_ENGINE_BINARY: path.join(ROOT, 'scripts', 'prisma-schema-engine'),
        CHECKPOINT_DISABLE: '1',
        PRISMA_HIDE_UPDATE_MESSAGE: '1',
      },
    });
    return stdout;
  };

  beforeAll(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-prisma-cli-'));
    fs.cpSync(path.join(ROOT, 'prisma'), path.join(project, 'prisma'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'prisma.config.ts'), path.join(project, 'prisma.config.ts'));
    // generators write into the scratch copy, not into src/generated (the prisma/schema folder came with prisma/)
    const platform = path.join(project, 'prisma', 'schema', 'platform.prisma');
    fs.writeFileSync(platform, fs.readFileSync(platform, 'utf8').replaceAll('../../src/generated/', '../../generated/'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  });
  afterAll(async () => {
    fs.rmSync(project, { recursive: true, force: true });
    await query(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  });

  it('migrate deploy creates the database and applies the committed migrations', async () => {
    const output = await prisma('migrate', 'deploy');
    expect(output).toMatch(/All migrations have been successfully applied/);
    expect(await tableNames(databaseUrl)).toContain('_prisma_migrations');
  });

  it('migrate status reports the database up to date', async () => {
    expect(await prisma('migrate', 'status')).toMatch(/Database schema is up to date!/);
  });

  it('migrate dev --name creates and applies a migration for a schema change', async () => {
    fs.writeFileSync(path.join(project, 'prisma', 'schema', 'cli-widget.prisma'), '\nmodel CliWidget {\n  id    BigInt @id @default(autoincrement())\n  label String\n}\n');

    const output = await prisma('migrate', 'dev', '--name', 'add cli widget');

    expect(output).toMatch(/have been created and applied/);
    const created = fs.readdirSync(path.join(project, 'prisma', 'migrations')).filter((name) => name.endsWith('_add_cli_widget'));
    expect(created).toHaveLength(1);
    const sql = fs.readFileSync(path.join(project, 'prisma', 'migrations', created[0]!, 'migration.sql'), 'utf8');
    expect(sql).toMatch(/CREATE TABLE "CliWidget"/);
    expect(await tableNames(databaseUrl)).toContain('CliWidget');
  });

  it('migrate diff --from-migrations --to-schema --script finds nothing left to migrate', async () => {
    const output = await prisma('migrate', 'diff', '--from-migrations', 'prisma/migrations', '--to-schema', 'prisma/schema', '--script');
    expect(output).toMatch(/-- This is an empty migration\./);
  });

  it('db push reports the database in sync', async () => {
    expect(await prisma('db', 'push')).toMatch(/already in sync/);
  });

  it('generate writes the client', async () => {
    await prisma('generate');
    expect(fs.existsSync(path.join(project, 'generated', 'prisma', 'client.ts'))).toBe(true);
  });

  it('left no shadow database behind', async () => {
    // other test files may be diffing right now: only ours must be gone, and theirs go soon
    await expect.poll(() => shadowDatabases(serverUrl), { timeout: 10_000 }).toEqual([]);
  });
});
