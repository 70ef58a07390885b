// Starts one PostgreSQL for the whole run (embedded on a fresh folder, or DATABASE_URL when set),
// applies the committed migrations through the wasm schema engine, and hands the URL to the tests.
// It also migrates a template database once, from which a test file that needs a database of its
// own gets a copy in a tenth of a second (migrating one takes the better part of a second).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.ts';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';
import { createThrowawayDatabase, withClient } from '../db/helpers.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /** a migrated database nobody connects to, to copy (CREATE DATABASE … TEMPLATE) */
    templateDatabase: string;
    testDataDir: string;
  }
}

export default async function setup(project: TestProject) {
  // the test workers and every process the tests start (CLI commands, workers to kill) compile the
  // same sources and dependencies: Node's on-disk compile cache lets each do it once
  process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'svc-test-compile-cache');
  const testDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  fs.chmodSync(testDataDir, 0o755);
  let stop = async () => {};
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    // a throwaway cluster: waiting for the disk at every commit would buy the tests nothing
    const db = await startEmbeddedPostgres({ dataDir: testDataDir, settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } });
    databaseUrl = db.url;
    stop = db.stop;
  }
  const template = await createThrowawayDatabase(databaseUrl, 'svc_template');
  await applyPendingMigrations({ databaseUrl });
  await applyPendingMigrations({ databaseUrl: template.url });
  // copying needs a template without sessions: this keeps any from starting
  await withClient(databaseUrl, (client) => client.query(`ALTER DATABASE "${template.name}" WITH ALLOW_CONNECTIONS false`));
  project.provide('databaseUrl', databaseUrl);
  project.provide('templateDatabase', template.name);
  project.provide('testDataDir', testDataDir);
  return async () => {
    await template.drop();
    await stop();
    fs.rmSync(testDataDir, { recursive: true, force: true });
  };
}
