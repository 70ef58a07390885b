// `node scripts/seed-records.ts [--records 100000] [--team <teamSimplyId>] [--batch 2000]`:
// seeds one collection of N records ("Seed people": names, email, status, amount, age, joined,
// active; display name "{first_name} {last_name}") for load tests and query plans at size.
//
// The records go through the same code as API writes: values are encoded from API input by
// encodeRecordFields, names come from calculateName, ids from newSimplyId, and rows (record,
// membership with its sort-key copies, filter keys) from insertRecords, ~2000 per transaction,
// two transactions in flight. What the seed skips is what API writes add around the records: the
// audit log, the outbox events and the change NOTIFY. It ends with VACUUM (ANALYZE) of the record
// tables, so the planner has statistics and index-only scans see an all-visible heap.
//
// Standalone it uses DATABASE_URL, or the embedded cluster in DATA_DIR (default .data, shared with
// a running server), applies pending migrations, and without --team bootstraps a new team and
// prints its API key. scripts/bench.ts imports `seedRecords`.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import type { Prisma } from '../src/db/prisma.ts';
import { calculateName } from '../src/kernel/records/calculated-name.ts';
import { insertRecords, type NewRecord } from '../src/kernel/records/records.sql.ts';
import { SCHEMA_CHANNEL } from '../src/kernel/schema/schema-cache.ts';
import { loadTeamSchema } from '../src/kernel/schema/team-schema.ts';
import { encodeRecordFields } from '../src/kernel/values/index.ts';
import { newSimplyId } from '../src/app/ids.ts';
import { inTransaction } from '../src/app/transaction.ts';
import { dataFieldId } from '../src/kernel/schema/collections.ids.ts';

export const SEED_STATUSES = ['active', 'inactive', 'pending', 'churned', 'trial'] as const;

/** The seeded collection's fields: columnName → dataType (and config). */
export const SEED_FIELDS = [
  { columnName: 'first_name', dataType: 'PLAIN_TEXT', isRequired: true },
  { columnName: 'last_name', dataType: 'PLAIN_TEXT' },
  { columnName: 'email', dataType: 'EMAIL_ADDRESS' },
  { columnName: 'status', dataType: 'PLAIN_TEXT' },
  { columnName: 'amount', dataType: 'MONEY', config: { currency: 'EUR' } },
  { columnName: 'age', dataType: 'NUMBER' },
  { columnName: 'joined', dataType: 'DATE' },
  { columnName: 'active', dataType: 'BOOLEAN' },
] as const;

export type SeedColumn = (typeof SEED_FIELDS)[number]['columnName'];

export interface SeedOptions {
  /** records per transaction (default 2000) */
  batchSize?: number;
  /** transactions in flight at once (default 2: one encodes in JS while PostgreSQL writes the other) */
  concurrency?: number;
  /** PRNG seed for the values (default 1): the same seed gives the same values, not the same ids */
  seed?: number;
  /** progress lines */
  log?: (line: string) => void;
}

export interface SeedResult {
  collectionId: bigint;
  collectionSimplyId: string;
  /** columnName → field simplyId */
  fields: Record<SeedColumn, string>;
  records: number;
  /** seconds spent inserting, and on VACUUM (ANALYZE) */
  insertSeconds: number;
  analyzeSeconds: number;
}

const FIRST_NAMES = (
  'Ada Alan Alice Amelia Anna Arthur Ava Ben Bianca Carl Carmen Chen Chloe Clara Daniel David Diana Elena Eli Emma Erik Eva Felix Fiona ' +
  'Frank Grace Hana Hugo Ida Igor Iris Isaac Ivan Jack Jane Jonas Jose Julia Kai Karin Kenji Lara Leo Lena Liam Lina Luca Lucy Maya Max ' +
  'Mia Mila Nadia Nina Noah Nora Olga Omar Oscar Paul Pia Priya Quinn Rafael Rosa Ruth Sam Sara Sofia Tara Theo Tom Uma Vera Victor Wei ' +
  'Yara Yusuf Zoe Zara Ahmed Björn Chloé Dóra Émile Jürgen Łukasz Renée Søren Zoë'
).split(' ');
const LAST_NAMES = (
  'Adams Andersen Baker Bauer Becker Brown Campbell Chen Clark Costa Davis Dubois Evans Fischer Fontaine Garcia Gomez Green Hall Hansen ' +
  'Hoffmann Ito Jansen Johnson Jones Kim Klein Kowalski Lambert Larsen Lee Lopez Martin Meyer Miller Moreau Müller Nakamura Nguyen ' +
  'Nielsen Novak Olsen Park Patel Peters Petrov Rossi Santos Schmidt Schneider Silva Smith Suzuki Tanaka Taylor Thomas Wagner Walker ' +
  'Weber White Wilson Wright Yamamoto Young Zimmermann Ødegaard Çelik Świątek'
).split(' ');

/** mulberry32: a small, fast, seedable PRNG (values only; ids stay random). */
export function seedRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;
const JOINED_FROM = Date.UTC(2015, 0, 1);
const JOINED_DAYS = Math.round((Date.UTC(2025, 11, 31) - JOINED_FROM) / DAY_MS) + 1;

/**
 * API-shaped `fields` input for record number `i` (0-based), keyed by field simplyId:
 * status uniform over SEED_STATUSES (20 % each), amount uniform 0.00-999.99, age 18-90,
 * joined 2015-01-01..2025-12-31, active 70 % true, email unique per record.
 */
export function seedInput(random: () => number, i: number, fields: Record<SeedColumn, string>): Record<string, unknown> {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const first = pick(FIRST_NAMES);
  const last = pick(LAST_NAMES);
  const cents = Math.floor(random() * 100_000);
  const ascii = (s: string) => s.normalize('NFKD').replace(/[^A-Za-z]/g, '').toLowerCase() || 'x';
  return {
    [fields.first_name]: first,
    [fields.last_name]: last,
    [fields.email]: `${ascii(first)}.${ascii(last)}.${i}@example.test`,
    [fields.status]: pick(SEED_STATUSES),
    [fields.amount]: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    [fields.age]: 18 + Math.floor(random() * 73),
    [fields.joined]: new Date(JOINED_FROM + Math.floor(random() * JOINED_DAYS) * DAY_MS).toISOString().slice(0, 10),
    [fields.active]: random() < 0.7,
  };
}

/** Creates the "Seed people" collection with SEED_FIELDS (straight to the database, as the test
 *  fixtures do) and NOTIFYs running servers to drop the team's cached schema. */
export async function createSeedCollection(prisma: Prisma, teamId: bigint, name = 'Seed people'): Promise<{ id: bigint; simplyId: string; fields: Record<SeedColumn, string> }> {
  return prisma.$transaction(async (tx) => {
    const collection = await tx.dataCollection.create({
      data: { teamId, simplyId: newSimplyId(), name, singularName: 'Person', pluralName: 'People', type: 'STANDARD', calculatedNameFormula: '{first_name} {last_name}' },
    });
    const fields = {} as Record<SeedColumn, string>;
    let sortOrder = 0;
    for (const spec of SEED_FIELDS) {
      const field = await tx.dataField.create({
        data: {
          teamId,
          collectionId: collection.id,
          simplyId: dataFieldId.create(),
          title: spec.columnName.replace('_', ' ').replace(/^./, (c) => c.toUpperCase()),
          columnName: spec.columnName,
          dataType: spec.dataType,
          isRequired: 'isRequired' in spec ? spec.isRequired : false,
          config: ('config' in spec ? spec.config : {}) as never,
          sortOrder: sortOrder++,
        },
      });
      fields[spec.columnName] = field.simplyId;
    }
    await tx.$executeRaw`SELECT pg_notify(${SCHEMA_CHANNEL}, ${String(teamId)})`;
    return { id: collection.id, simplyId: collection.simplyId, fields };
  });
}

/**
 * Creates a "Seed people" collection in the team and writes `n` records into it, then
 * VACUUM (ANALYZE)s the record tables. The pool should allow `concurrency` connections.
 */
export async function seedRecords(pool: pg.Pool, prisma: Prisma, teamId: bigint, n: number, options: SeedOptions = {}): Promise<SeedResult> {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 2000));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 2));
  const log = options.log ?? (() => {});
  const created = await createSeedCollection(prisma, teamId);
  const schema = await loadTeamSchema(pool, teamId);
  const collection = schema.collectionsById.get(created.id);
  if (!collection) throw new Error(`collection ${created.simplyId} not found after creating it`);
  const fields = schema.fieldsOf(collection);
  const formula = schema.fieldSource(collection).calculatedNameFormula;
  const random = seedRandom(options.seed ?? 1);

  const started = process.hrtime.bigint();
  const batches = Math.ceil(n / batchSize);
  let nextBatch = 0;
  let written = 0;
  let lastReport = Date.now();
  // `concurrency` workers take batch numbers in turn; values are drawn from the one PRNG in
  // batch-preparation order, which is fixed, so a seed gives the same values whatever the timing
  const prepare = (batch: number): NewRecord[] => {
    const out: NewRecord[] = [];
    for (let i = batch * batchSize; i < Math.min(n, (batch + 1) * batchSize); i++) {
      const encoded = encodeRecordFields(fields, seedInput(random, i, created.fields), { mode: 'create' });
      if (!encoded.ok) throw new Error(`seed record ${i} does not validate: ${JSON.stringify(encoded.errors)}`);
      out.push({ simplyId: newSimplyId(), values: encoded.values, calculatedName: calculateName(formula, fields, encoded.values) });
    }
    return out;
  };
  const worker = async () => {
    for (;;) {
      const batch = nextBatch++;
      if (batch >= batches) return;
      const records = prepare(batch);
      await inTransaction(pool, (db) => insertRecords(db, teamId, collection, fields, records));
      written += records.length;
      if (Date.now() - lastReport >= 5_000) {
        lastReport = Date.now();
        log(`  ${written} / ${n} records, ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches) }, worker));
  const insertSeconds = Number(process.hrtime.bigint() - started) / 1e9;

  const analyzeStarted = process.hrtime.bigint();
  // VACUUM cannot run inside a transaction block: one statement per table, no BEGIN
  for (const table of ['DataRecord', 'DataRecordMembership', 'DataRecordKey']) await pool.query(`VACUUM (ANALYZE) "${table}"`);
  const analyzeSeconds = Number(process.hrtime.bigint() - analyzeStarted) / 1e9;
  return { collectionId: created.id, collectionSimplyId: created.simplyId, fields: created.fields, records: written, insertSeconds, analyzeSeconds };
}

// ---------------------------------------------------------------------------------------------
// CLI

/** a mistake in the command line or its arguments: the message alone, no stack */
class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  let values: { records: string; team?: string; batch: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { records: { type: 'string', default: '100000' }, team: { type: 'string' }, batch: { type: 'string', default: '2000' } },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nusage: node scripts/seed-records.ts [--records 100000] [--team <teamSimplyId>] [--batch 2000]`);
  }
  const n = Number(values.records);
  const batchSize = Number(values.batch);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--records must be a positive integer (got "${values.records}")`);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000) throw new UsageError(`--batch must be 1-50000 (got "${values.batch}")`);

  const { loadConfig } = await import('../src/main/config.ts');
  const { resolveDatabase } = await import('../src/db/database.ts');
  const { applyPendingMigrations } = await import('../src/db/schema-engine/migrations.ts');
  const { createPool, createPrisma } = await import('../src/db/prisma.ts');
  const { bootstrapTeam } = await import('../src/modules/teams/bootstrap.service.ts');
  const log = (line: string) => process.stderr.write(`${line}\n`);

  const config = loadConfig(process.env);
  const db = await resolveDatabase(config, () => {});
  log(db.embedded ? `embedded PostgreSQL in ${config.dataDir}` : 'using DATABASE_URL');
  const pool = createPool(db.url, 3, 'svc-seed-records');
  const prisma = createPrisma(pool);
  try {
    await applyPendingMigrations({ databaseUrl: db.url });
    let team: { id: bigint; simplyId: string; apiKey?: string };
    if (values.team) {
      const found = await prisma.team.findUnique({ where: { simplyId: values.team }, select: { id: true, simplyId: true } });
      if (!found) throw new UsageError(`no team ${values.team}`);
      team = found;
    } else {
      const boot = await bootstrapTeam(prisma, {
        teamName: `Seed ${new Date().toISOString()}`,
        email: `seed-${randomBytes(5).toString('hex')}@example.test`,
        password: randomBytes(18).toString('base64url'),
      });
      team = { id: boot.teamId, simplyId: boot.teamSimplyId, apiKey: boot.apiKey };
      log(`bootstrapped team ${team.simplyId}`);
    }
    log(`seeding ${n} records in batches of ${batchSize}`);
    const result = await seedRecords(pool, prisma, team.id, n, { batchSize, log });
    log(
      `seeded ${result.records} records into collection ${result.collectionSimplyId} in ${result.insertSeconds.toFixed(1)} s ` +
        `(${Math.round(result.records / result.insertSeconds)} records/s), VACUUM (ANALYZE) ${result.analyzeSeconds.toFixed(1)} s`,
    );
    process.stdout.write(
      `${JSON.stringify({
        teamSimplyId: team.simplyId,
        ...(team.apiKey ? { apiKey: team.apiKey } : {}),
        dataCollectionSimplyId: result.collectionSimplyId,
        dataCollectionId: String(result.collectionId),
        fields: result.fields,
        records: result.records,
        insertSeconds: Number(result.insertSeconds.toFixed(2)),
        analyzeSeconds: Number(result.analyzeSeconds.toFixed(2)),
      })}\n`,
    );
    return 0;
  } finally {
    await prisma.$disconnect();
    await pool.end();
    await db.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      const text = error instanceof UsageError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`seed-records: ${text}\n`);
      process.exit(1);
    },
  );
}
