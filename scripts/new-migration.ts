// Creates prisma/migrations/<timestamp>_<name>/migration.sql from the changes in prisma/schema,
// without the Prisma CLI: the wasm engine diffs the migration history (replayed into a temporary
// shadow database) against the schema. Nothing is applied.
//
//   node scripts/new-migration.ts <name> [--draft]
//
// Uses the PostgreSQL server of DATABASE_URL for the shadow database, or, when it is unset, a
// throwaway embedded PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { createMigration, DEFAULT_MIGRATIONS_DIR } from '../src/db/schema-engine/migrations.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { draft: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
});
const name = positionals[0];
if (values.help || !name || positionals.length > 1) {
  console.error('usage: node scripts/new-migration.ts <name> [--draft]\n  --draft  write the folder even when prisma/schema has no changes');
  process.exit(values.help ? 0 : 2);
}

const database = await databaseForShadow();
try {
  const created = await createMigration({ databaseUrl: database.url, name, draft: values.draft });
  if (created) {
    console.log(`Created ${path.relative(process.cwd(), path.join(created.directory, 'migration.sql'))}`);
  } else {
    console.log(`No changes: prisma/schema matches ${path.relative(process.cwd(), DEFAULT_MIGRATIONS_DIR)}. Nothing written.`);
  }
} finally {
  await database.stop();
}

async function databaseForShadow(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-new-migration-'));
  fs.chmodSync(dataDir, 0o755); // as root the cluster runs as `postgres`, which must traverse it
  const embedded = await startEmbeddedPostgres({ dataDir });
  return {
    url: embedded.url,
    stop: async () => {
      await embedded.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
