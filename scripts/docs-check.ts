// npm run docs:check — starts the platform on an embedded PostgreSQL (a fresh temp folder, as the
// tests and the bench do; DATABASE_URL when set), opens /docs in the machine's Chromium, waits for
// the API reference to list the routes, checks that every request stayed on the server's origin,
// and saves a screenshot (its path is printed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDocsPage, DOCS_EXPECTED_TEXTS } from '../rest-adapter/docs-browser-check.ts';
import { loadConfig } from '../src/main/config.ts';
import { createLogger } from '../src/app/logger.ts';
import { startApp } from '../src/main/server.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { applyPendingMigrations } from '../src/db/schema-engine/migrations.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const screenshot = process.argv[2] ?? path.join(root, '.data', 'docs-screenshot.png');

const cleanups: (() => Promise<void>)[] = [];
let failed = false;
try {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-docs-check-'));
  // as root the embedded cluster runs as the postgres user, which must traverse this folder
  fs.chmodSync(dataDir, 0o755);
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const db = await startEmbeddedPostgres({ dataDir });
    databaseUrl = db.url;
    cleanups.push(() => db.stop());
  }
  await applyPendingMigrations({ databaseUrl });
  const config = loadConfig(process.env, {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: 0,
    LOG_LEVEL: 'silent',
    TRUST_PROXY: false,
    JOBS_IN_SERVER: false,
    SHUTDOWN_TIMEOUT_MS: 2_000,
  });
  const app = await startApp({ config, databaseUrl, migrate: false, runJobs: false, logger: createLogger('silent') });
  cleanups.push(() => app.close());
  console.log(`platform on ${app.baseUrl}; loading ${app.baseUrl}/docs in Chromium…`);
  const result = await checkDocsPage({ baseUrl: app.baseUrl, expectTexts: DOCS_EXPECTED_TEXTS, screenshot });
  console.log(`rendered: ${result.found.map((t) => JSON.stringify(t)).join(', ')}`);
  console.log(`requests: ${result.requests.length}, all to ${new URL(app.baseUrl).origin}: ${result.foreignRequests.length === 0 ? 'yes' : 'NO'}`);
  for (const url of result.foreignRequests) console.log(`  foreign request: ${url}`);
  for (const problem of result.problems) console.log(`  ${problem}`);
  console.log(`screenshot: ${result.screenshot}`);
  failed = result.foreignRequests.length > 0 || result.problems.length > 0;
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  for (const step of cleanups.reverse()) {
    try {
      await step();
    } catch (error) {
      console.error(`cleanup: ${String(error)}`);
    }
  }
}
console.log(failed ? 'docs:check FAILED' : 'docs:check ok');
process.exit(failed ? 1 : 0);
