// Starts one PostgreSQL for the whole run (embedded on a fresh folder, or DATABASE_URL when set),
// applies the committed migrations through the wasm schema engine, and hands the URL to the tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.ts';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    testDataDir: string;
  }
}

export default async function setup(project: TestProject) {
  const testDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  fs.chmodSync(testDataDir, 0o755);
  let stop = async () => {};
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const db = await startEmbeddedPostgres({ dataDir: testDataDir });
    databaseUrl = db.url;
    stop = db.stop;
  }
  await applyPendingMigrations({ databaseUrl });
  project.provide('databaseUrl', databaseUrl);
  project.provide('testDataDir', testDataDir);
  return async () => {
    await stop();
    fs.rmSync(testDataDir, { recursive: true, force: true });
  };
}
