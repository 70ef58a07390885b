// Record totals come from the per-collection counters ("DataRecordCountDelta", kept by triggers on
// the memberships; src/modules/records/record-counts.sql.ts). Whatever the writes (concurrent
// creates and deletes over REST and GraphQL, archive changes, SMART membership changes, raw SQL,
// rolled-back transactions) and whenever the counters are folded, they equal a recount of the
// memberships, and so do the list's total and the collection's recordCount. `svc counts` finds a
// corrupted counter and repairs it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closeServices, createServices } from '../../src/main/services.ts';
import { loadConfig } from '../../src/main/config.ts';
import { createLogger } from '../../src/app/logger.ts';
import { newSimplyId } from '../../src/app/ids.ts';
import { inTransaction } from '../../src/app/transaction.ts';
import { applyPendingMigrations, DEFAULT_MIGRATIONS_DIR } from '../../src/db/schema-engine/migrations.ts';
import { loadTeamSchema } from '../../src/kernel/schema/team-schema.ts';
import { checkCounts, FOLD_THRESHOLD, foldAllCounts, foldCounts, readCounts } from '../../src/kernel/records/record-counts.sql.ts';
import { FOLD_RECORD_COUNTS } from '../../src/kernel/records/records.jobs.ts';
import { insertRecords } from '../../src/kernel/records/records.sql.ts';
import { createThrowawayDatabase, migrationsFolder, query, removeFolder, type ThrowawayDatabase } from '../db/helpers.ts';
import { type CollectionFixture, createCollection, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { expectOk, gqlData } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import type { TestServer } from '../support/server.ts';
import { runSvc } from '../support/svc-cli.ts';
import { untilWith } from '../support/until.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 100 });

// A database of the file's own, and no job workers on the server: nothing folds behind the
// tests' backs (they fold themselves, or start a worker), and `svc counts` sees only this file's data.
let db: ThrowawayDatabase;
let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  db = await createMigratedDatabase('counts');
  ({ server, team } = await startServerWithTeam({ databaseUrl: db.url, env: { RATE_LIMIT_PER_MINUTE: 100_000 } }));
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

const pool = () => server.app.services.pool;

interface Totals {
  active: number;
  archived: number;
}

async function recount(c: CollectionFixture): Promise<Totals> {
  const { rows } = await pool().query(
    `SELECT count(*) FILTER (WHERE state = 'ACTIVE')::int AS active, count(*) FILTER (WHERE state = 'ARCHIVED')::int AS archived
       FROM "DataRecordMembership" WHERE "teamId" = $1 AND "collectionId" = $2`,
    [team.teamId, c.internalId],
  );
  return rows[0];
}

async function counters(c: CollectionFixture): Promise<Totals & { deltaRows: number }> {
  const counts = (await readCounts(pool(), team.teamId, [c.internalId])).get(String(c.internalId));
  return { active: counts?.active ?? 0, archived: counts?.archived ?? 0, deltaRows: counts?.deltaRows ?? 0 };
}

/**
 * The counters equal a recount (and `expected` when given), the list total and the search total
 * of archived records equal them, so does the collection's recordCount, and the consistency check
 * finds nothing in the team.
 */
async function expectExact(c: CollectionFixture, expected?: Totals): Promise<Totals> {
  const counted = await recount(c);
  if (expected) expect(counted).toEqual(expected);
  const { active, archived } = await counters(c);
  expect({ active, archived }).toEqual(counted);
  const list = await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${c.id}&limit=1`, { token: team.apiKey });
  expectOk(list);
  expect(list.body.meta.pagination.total).toBe(counted.active);
  const archivedPage = await server.request('POST', '/v1/data-records/search', {
    token: team.apiKey,
    body: { dataCollectionSimplyId: c.id, limit: 1, filters: [{ field: 'isArchived', operator: 'eq', value: true }] },
  });
  expectOk(archivedPage);
  expect(archivedPage.body.meta.pagination.total).toBe(counted.archived);
  expect(expectOk(await server.request('GET', `/v1/data-collections/${c.id}`, { token: team.apiKey })).recordCount).toBe(counted.active);
  expect((await checkCounts(pool(), { teamId: team.teamId })).mismatches).toEqual([]);
  return counted;
}

// --- writes through both faces -------------------------------------------------------------

async function createRest(c: CollectionFixture, name: string): Promise<string> {
  return expectOk(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: c.id, fields: { [c.fields.name!]: name } } }), 201).id;
}

async function createGraphql(c: CollectionFixture, name: string): Promise<string> {
  const data = gqlData(
    await server.graphql(`mutation ($c: String!, $f: JSON) { createDataRecord(dataCollectionSimplyId: $c, fields: $f) { record { id } } }`, { c: c.id, f: { [c.fields.name!]: name } }, { token: team.apiKey }),
  );
  return data.createDataRecord.record.id;
}

async function batchCreateRest(c: CollectionFixture, names: string[]): Promise<string[]> {
  const data = expectOk(await server.request('POST', '/v1/data-records/batch', { token: team.apiKey, body: { dataCollectionSimplyId: c.id, records: names.map((n) => ({ fields: { [c.fields.name!]: n } })) } }));
  expect(data.failed).toBe(0);
  return data.results.map((r: any) => r.record.id);
}

async function batchCreateGraphql(c: CollectionFixture, names: string[]): Promise<string[]> {
  const data = gqlData(
    await server.graphql(
      `mutation ($c: String!, $r: [JSON!]!) { batchCreateDataRecords(dataCollectionSimplyId: $c, records: $r) { failed results { record { id } } } }`,
      { c: c.id, r: names.map((n) => ({ fields: { [c.fields.name!]: n } })) },
      { token: team.apiKey },
    ),
  ).batchCreateDataRecords;
  expect(data.failed).toBe(0);
  return data.results.map((r: any) => r.record.id);
}

async function deleteRest(id: string): Promise<void> {
  expectOk(await server.request('DELETE', `/v1/data-records/${id}`, { token: team.apiKey }));
}

async function deleteGraphql(id: string): Promise<void> {
  gqlData(await server.graphql(`mutation ($id: String!) { deleteDataRecord(dataRecordSimplyId: $id) { dataRecordSimplyId } }`, { id }, { token: team.apiKey }));
}

async function batchDeleteRest(ids: string[]): Promise<void> {
  expect(expectOk(await server.request('DELETE', '/v1/data-records/batch', { token: team.apiKey, body: { dataRecordSimplyIds: ids } })).failed).toBe(0);
}

async function batchDeleteGraphql(ids: string[]): Promise<void> {
  const data = gqlData(await server.graphql(`mutation ($ids: [String!]!) { batchDeleteDataRecords(dataRecordSimplyIds: $ids) { failed } }`, { ids }, { token: team.apiKey }));
  expect(data.batchDeleteDataRecords.failed).toBe(0);
}

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

function people(name: string): Promise<CollectionFixture> {
  return createCollection(server, team, { name, formula: '{name}', fields: { name: REQUIRED_TEXT, score: 'NUMBER' } });
}

/** Memberships of the records (in their own collection) move to `state`, as privileged tooling or a data migration would. */
async function setState(c: CollectionFixture, ids: string[], state: 'ACTIVE' | 'ARCHIVED'): Promise<void> {
  await pool().query(
    `UPDATE "DataRecordMembership" m SET state = $4::"MembershipState"
       FROM "DataRecord" r WHERE r."teamId" = m."teamId" AND r.id = m."recordId"
        AND m."teamId" = $1 AND m."collectionId" = $2 AND r."simplyId" = ANY($3::text[])`,
    [team.teamId, c.internalId, ids, state],
  );
}

describe('record totals from the counters', () => {
  it('stay exact through 200 single creates, batch creates and deletes fired at once over REST and GraphQL', async () => {
    const c = await people('Concurrent');
    const seeded = [...(await batchCreateRest(c, names('seed', 100))), ...(await batchCreateGraphql(c, names('seed b', 20)))];
    await expectExact(c, { active: 120, archived: 0 });

    await Promise.all([
      ...names('single', 200).map((n, i) => (i % 2 ? createRest(c, n) : createGraphql(c, n))),
      batchCreateRest(c, names('batch a', 50)),
      batchCreateGraphql(c, names('batch b', 50)),
      batchCreateRest(c, names('batch c', 100)),
      batchCreateGraphql(c, names('batch d', 30)),
      ...seeded.slice(0, 60).map((id, i) => (i % 2 ? deleteRest(id) : deleteGraphql(id))),
      batchDeleteRest(seeded.slice(60, 80)),
      batchDeleteGraphql(seeded.slice(80, 100)),
    ]);
    await expectExact(c, { active: 120 + 200 + 230 - 100, archived: 0 });
    // one delta row per write statement at most (a SMART-free collection: one per create or delete)
    expect((await counters(c)).deltaRows).toBeGreaterThan(1);
  });

  it('a page reports the total in the same statement, also when it is empty, and for archived records', async () => {
    const c = await people('Pages');
    const empty = await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${c.id}`, { token: team.apiKey });
    expect(expectOk(empty)).toEqual([]);
    expect(empty.body.meta.pagination).toMatchObject({ total: 0, hasMore: false });

    const ids = await batchCreateRest(c, names('page', 30));
    await setState(c, ids.slice(0, 4), 'ARCHIVED');
    for (const [offset, rows] of [[0, 10], [20, 6], [26, 0], [500, 0]] as const) {
      const page = await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${c.id}&limit=10&offset=${offset}&sort=calculatedName`, { token: team.apiKey });
      expect(expectOk(page), `offset ${offset}`).toHaveLength(rows);
      expect(page.body.meta.pagination).toMatchObject({ total: 26, offset, hasMore: offset + rows < 26 });
    }
    // newest first by default, in index order: the rows come back sorted
    const newest = expectOk(await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${c.id}&limit=26&sort=-calculatedName`, { token: team.apiKey }));
    expect(newest.map((r: any) => r.name)).toEqual(names('page', 30).slice(4).sort().reverse());
    const archived = await server.request('POST', '/v1/data-records/search', {
      token: team.apiKey,
      body: { dataCollectionSimplyId: c.id, limit: 3, filters: [{ field: 'isArchived', operator: 'eq', value: true }] },
    });
    expect(expectOk(archived)).toHaveLength(3);
    expect(archived.body.meta.pagination.total).toBe(4);
    // GraphQL's list reads the same counter
    const gql = gqlData(await server.graphql(`query ($c: String!) { dataRecords(dataCollectionSimplyId: $c, limit: 1, offset: 99) { nodes { id } pagination { total } } }`, { c: c.id }, { token: team.apiKey }));
    expect(gql.dataRecords).toEqual({ nodes: [], pagination: { total: 26 } });
  });

  it('count ACTIVE and ARCHIVED apart through archive, unarchive and deleting archived records', async () => {
    const c = await people('Archive');
    const ids = await batchCreateGraphql(c, names('arch', 40));
    await setState(c, ids.slice(0, 15), 'ARCHIVED');
    await expectExact(c, { active: 25, archived: 15 });
    await setState(c, ids.slice(0, 5), 'ACTIVE');
    await expectExact(c, { active: 30, archived: 10 });
    // soft delete takes archived and active memberships out of both counts
    await Promise.all([batchDeleteRest(ids.slice(5, 8)), deleteGraphql(ids[20]!), deleteRest(ids[21]!)]);
    await expectExact(c, { active: 28, archived: 7 });
    // a statement touching memberships without changing states adds no delta row
    const before = (await counters(c)).deltaRows;
    await pool().query(`UPDATE "DataRecordMembership" SET "recordUpdatedAt" = now() WHERE "teamId" = $1 AND "collectionId" = $2`, [team.teamId, c.internalId]);
    expect((await counters(c)).deltaRows).toBe(before);
  });

  it('count raw SQL writes, and nothing of a rolled-back transaction', async () => {
    const c = await people('Raw');
    await batchCreateRest(c, names('raw', 10));
    const schema = await loadTeamSchema(pool(), team.teamId);
    const collection = schema.collectionsBySimplyId.get(c.id)!;
    const fresh = (n: number) => Array.from({ length: n }, (_, i) => ({ simplyId: newSimplyId(), values: { [c.fields.name!]: `tx ${i}` }, calculatedName: `tx ${i}` }));
    await expect(
      inTransaction(pool(), async (tx) => {
        await insertRecords(tx, team.teamId, collection, collection.ownFields, fresh(7));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expectExact(c, { active: 10, archived: 0 });
    await inTransaction(pool(), (tx) => insertRecords(tx, team.teamId, collection, collection.ownFields, fresh(5)));
    await expectExact(c, { active: 15, archived: 0 });
    // a plain DELETE of memberships (what dropping a collection's rows would do) is counted too
    await pool().query(`DELETE FROM "DataRecordMembership" WHERE "teamId" = $1 AND "collectionId" = $2`, [team.teamId, c.internalId]);
    await expectExact(c, { active: 0, archived: 0 });
  });

  it('writers into one collection do not wait for each other (no counter row to lock)', async () => {
    const c = await people('No hot row');
    const schema = await loadTeamSchema(pool(), team.teamId);
    const collection = schema.collectionsBySimplyId.get(c.id)!;
    const record = (name: string) => [{ simplyId: newSimplyId(), values: { [c.fields.name!]: name }, calculatedName: name }];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstWrote!: () => void;
    const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
    // the first transaction writes, then stays open until the second has committed
    const first = inTransaction(pool(), async (tx) => {
      await insertRecords(tx, team.teamId, collection, collection.ownFields, record('first'));
      firstWrote();
      await held;
    });
    await wrote;
    const second = inTransaction(pool(), (tx) => insertRecords(tx, team.teamId, collection, collection.ownFields, record('second')));
    const outcome = await Promise.race([second.then(() => 'committed'), new Promise((resolve) => setTimeout(() => resolve('blocked'), 3000))]);
    release();
    await first;
    expect(outcome).toBe('committed');
    await expectExact(c, { active: 2, archived: 0 });
  });

  it('SMART collections: the totals follow record writes, criteria changes, resync and archive/restore', async () => {
    const source = await people('Donors');
    const score = source.fields.score!;
    const call = async (method: string, url: string, body?: unknown) => expectOk(await server.request(method, url, { token: team.apiKey, body }), method === 'POST' && url === '/v1/data-collections' ? 201 : 200);
    const made = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        expectOk(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: source.id, fields: { [source.fields.name!]: `d${i}`, [score]: i } } }), 201).id as string,
      ),
    );
    const created = await call('POST', '/v1/data-collections', { name: 'Big donors', type: 'SMART', parentDataCollectionSimplyId: source.id, filterCriteria: [{ field: score, operator: 'gte', value: 10 }] });
    const smart: CollectionFixture = { id: created.id, internalId: (await server.app.services.prisma.dataCollection.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: created.id } })).id, fields: source.fields };
    expect(created.recordCount).toBe(10);
    await expectExact(smart, { active: 10, archived: 0 });

    // record writes move records in and out, concurrently
    await Promise.all([
      ...made.slice(0, 5).map((id) => server.request('PATCH', `/v1/data-records/${id}`, { token: team.apiKey, body: { fields: { [score]: 50 } } })),
      ...made.slice(10, 13).map((id) => server.request('PATCH', `/v1/data-records/${id}`, { token: team.apiKey, body: { fields: { [score]: 1 } } })),
      server.request('DELETE', `/v1/data-records/${made[19]}`, { token: team.apiKey }),
      batchCreateRest(source, names('late', 4)),
    ]);
    await expectExact(smart, { active: 10 + 5 - 3 - 1, archived: 0 });
    await expectExact(source, { active: 23, archived: 0 });

    // new criteria resync at once; no criteria: every live record of the source
    const low = await call('PATCH', `/v1/data-collections/${smart.id}`, { filterCriteria: [{ field: score, operator: 'lt', value: 5 }] });
    expect(low.recordCount).toBe((await expectExact(smart)).active);
    expect(low.recordCount).toBe(3);
    expect((await call('PATCH', `/v1/data-collections/${smart.id}`, { filterCriteria: null })).recordCount).toBe(23);
    await expectExact(smart, { active: 23, archived: 0 });
    // archived in the source: archived in the SMART collection too (it copies the state)
    await setState(source, made.slice(0, 2), 'ARCHIVED');
    expect((await call('POST', `/v1/data-collections/${smart.id}/resync-smart-membership`)).recordCount).toBe(21);
    await expectExact(smart, { active: 21, archived: 2 });
    // archived SMART collections stop following; restoring resyncs
    await call('POST', `/v1/data-collections/${smart.id}/archive`, { isArchived: true });
    await batchCreateRest(source, names('while archived', 3));
    await expectExact(smart, { active: 21, archived: 2 });
    await call('POST', `/v1/data-collections/${smart.id}/archive`, { isArchived: false });
    await expectExact(smart, { active: 24, archived: 2 });
    await expectExact(source, { active: 24, archived: 2 });
  });

  it('folding keeps the totals: one collection, the sweep, two folds at once, and folds racing with writes', async () => {
    const c = await people('Folds');
    const other = await people('Folds too');
    await Promise.all([...names('f', 30).map((n) => createRest(c, n)), ...names('o', 10).map((n) => createGraphql(other, n))]);
    const totals = await expectExact(c, { active: 30, archived: 0 });
    expect((await counters(c)).deltaRows).toBeGreaterThan(1);

    expect(await foldCounts(pool(), [{ teamId: team.teamId, collectionId: c.internalId }])).toBeGreaterThan(0);
    expect(await counters(c)).toEqual({ ...totals, deltaRows: 1 });
    await expectExact(c, totals);
    // folding a folded collection changes nothing
    expect(await foldCounts(pool(), [{ teamId: team.teamId, collectionId: c.internalId }])).toBe(0);

    // the sweep folds every collection with more than one row, and drops rows of collections that are gone
    const gone = await people('Gone');
    await batchCreateRest(gone, names('g', 3));
    await server.app.services.prisma.dataCollection.delete({ where: { id: gone.internalId } });
    server.app.services.schemas.invalidate(team.teamId);
    // a batch of one collection at a time: the sweep pages through them all
    expect((await foldAllCounts(pool(), { batch: 1 })).collections).toBeGreaterThanOrEqual(2);
    expect((await counters(other)).deltaRows).toBe(1);
    const { rows: unfolded } = await pool().query(`SELECT 1 FROM "DataRecordCountDelta" GROUP BY "teamId", "collectionId" HAVING count(*) > 1`);
    expect(unfolded).toEqual([]);
    expect((await counters(gone)).deltaRows).toBe(0);
    await expectExact(other, { active: 10, archived: 0 });

    // two folds at once, then folds running again and again while writes are in flight
    await Promise.all(names('g', 10).map((n) => createRest(c, n)));
    const one = [{ teamId: team.teamId, collectionId: c.internalId }];
    await Promise.all([foldCounts(pool(), one), foldCounts(pool(), one), foldAllCounts(pool())]);
    await expectExact(c, { active: 40, archived: 0 });
    // each took rows the others had not locked: at most one row per fold is left, and one more fold joins them
    expect((await counters(c)).deltaRows).toBeLessThanOrEqual(3);
    await foldCounts(pool(), one);
    expect((await counters(c)).deltaRows).toBe(1);

    const seeded = await batchCreateRest(c, names('racing', 40));
    let writing = true;
    const folding = (async () => {
      let folds = 0;
      while (writing) {
        await Promise.all([foldCounts(pool(), one), foldCounts(pool(), one), foldAllCounts(pool())]);
        folds++;
      }
      return folds;
    })();
    await Promise.all([
      ...names('in flight', 60).map((n, i) => (i % 2 ? createRest(c, n) : createGraphql(c, n))),
      batchCreateGraphql(c, names('in flight batch', 50)),
      ...seeded.slice(0, 20).map((id) => deleteRest(id)),
      batchDeleteGraphql(seeded.slice(20, 30)),
    ]);
    writing = false;
    expect(await folding).toBeGreaterThan(0);
    await expectExact(c, { active: 40 + 40 + 60 + 50 - 30, archived: 0 });
  });

  it('a read that sums more than FOLD_THRESHOLD rows asks for one fold job, which a worker runs', async () => {
    const c = await people('On demand');
    for (const n of names('one by one', FOLD_THRESHOLD + 6)) await createRest(c, n);
    expect((await counters(c)).deltaRows).toBeGreaterThan(FOLD_THRESHOLD);
    const key = `${team.teamId}:${c.internalId}`;
    const jobs = () => query<{ state: string }>(db.url, `SELECT state FROM pgboss.job WHERE name = $1 AND singleton_key = $2`, [FOLD_RECORD_COUNTS, key]);
    // the list and the collection's recordCount both read the counters; a burst asks once
    await Promise.all([
      ...Array.from({ length: 5 }, () => server.request('GET', `/v1/data-records?dataCollectionSimplyId=${c.id}&limit=1`, { token: team.apiKey })),
      server.request('GET', `/v1/data-collections/${c.id}`, { token: team.apiKey }),
    ]);
    const queued = await until('the fold job', async () => (await jobs()).length > 0 && jobs());
    expect(queued).toEqual([{ state: 'created' }]);

    // a worker instance on the same database folds the collection
    const dataDir = fs.mkdtempSync(path.join(inject('testDataDir'), 'counts-worker-'));
    const config = loadConfig({ NODE_ENV: 'test' }, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: 2000 });
    const worker = await createServices({ config, databaseUrl: db.url, migrate: false, logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), jobPollingIntervalSeconds: 0.5 });
    try {
      await worker.jobs.start({ work: true });
      await until('the fold job to complete', async () => (await jobs()).some((j) => j.state === 'completed'));
      expect((await counters(c)).deltaRows).toBe(1);
      await expectExact(c, { active: FOLD_THRESHOLD + 6, archived: 0 });
    } finally {
      await closeServices(worker);
    }
  });
});

describe('the migration', () => {
  it('backfills the counters from the memberships that exist when it runs', async () => {
    const counts = fs.readdirSync(DEFAULT_MIGRATIONS_DIR).find((n) => n.endsWith('_record_count_deltas'))!;
    const before = Object.fromEntries(
      fs
        .readdirSync(DEFAULT_MIGRATIONS_DIR, { withFileTypes: true })
        .filter((e) => e.isDirectory() && e.name < counts)
        .map((e) => [e.name, fs.readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, e.name, 'migration.sql'), 'utf8')]),
    );
    const folder = migrationsFolder(before);
    const scratch = await createThrowawayDatabase(inject('databaseUrl'), 'counts_backfill');
    try {
      await applyPendingMigrations({ databaseUrl: scratch.url, migrationsDir: folder });
      await query(
        scratch.url,
        `INSERT INTO "Team" (id, "simplyId", name, "updatedAt") VALUES (1, 'tm-AAAA-AAAA-AAAA', 'T', now());
         INSERT INTO "DataCollection" (id, "simplyId", "teamId", name, "updatedAt") VALUES (10, 'AAAA-AAAA-AAAA', 1, '"A"', now()), (11, 'BBBB-BBBB-BBBB', 1, '"B"', now());
         INSERT INTO "DataRecordMembership" ("teamId", "collectionId", "recordId", state, "recordCreatedAt", "recordUpdatedAt", "nameSort")
         SELECT 1, c, r, s::"MembershipState", now(), now(), '\\x'::bytea
           FROM (VALUES (10, 1, 'ACTIVE'), (10, 2, 'ACTIVE'), (10, 3, 'ARCHIVED'), (10, 4, 'DELETED'), (11, 5, 'DELETED'), (99, 6, 'ACTIVE')) AS v(c, r, s)`,
      );
      await applyPendingMigrations({ databaseUrl: scratch.url });
      const rows = await query(scratch.url, `SELECT "teamId"::int, "collectionId"::int, active::int, archived::int FROM "DataRecordCountDelta" ORDER BY "collectionId"`);
      // collection 11 has nothing to count; 99 does not exist
      expect(rows).toEqual([{ teamId: 1, collectionId: 10, active: 2, archived: 1 }]);
      await query(scratch.url, `UPDATE "DataRecordMembership" SET state = 'ACTIVE' WHERE "recordId" IN (3, 4, 5)`);
      const totals = await query(scratch.url, `SELECT "collectionId"::int, sum(active)::int AS active, sum(archived)::int AS archived FROM "DataRecordCountDelta" GROUP BY 1 ORDER BY 1`);
      expect(totals).toEqual([
        { collectionId: 10, active: 4, archived: 0 },
        { collectionId: 11, active: 1, archived: 0 },
      ]);
    } finally {
      await scratch.drop();
      removeFolder(folder);
    }
  });
});

// --- svc counts ------------------------------------------------------------------------------

async function svcCounts(args: string[]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-counts-'));
  try {
    return await runSvc(['counts', ...args], { DATABASE_URL: db.url, DATA_DIR: dataDir });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const lines = (stdout: string) => stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));

describe('svc counts', () => {
  it('reports consistency, detects a corrupted counter (exit 1) and fixes it with --fix', async () => {
    const c = await people('Checked');
    await batchCreateRest(c, names('checked', 12));
    await setState(c, (await batchCreateRest(c, names('checked archived', 3))), 'ARCHIVED');

    const clean = await svcCounts([]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toBe('');
    expect(clean.stderr).toMatch(/collections checked, 0 mismatches: consistent/);

    // drift behind the triggers' back: a lost delta and a spurious one
    await pool().query(`INSERT INTO "DataRecordCountDelta" ("teamId", "collectionId", active, archived) VALUES ($1, $2, -2, 5)`, [team.teamId, c.internalId]);
    const expected = [
      { teamSimplyId: team.teamSimplyId, collectionSimplyId: c.id, state: 'ACTIVE', counted: 12, recorded: 10 },
      { teamSimplyId: team.teamSimplyId, collectionSimplyId: c.id, state: 'ARCHIVED', counted: 3, recorded: 8 },
    ];
    const found = await svcCounts(['--team', team.teamSimplyId]);
    expect(found.code, found.stderr).toBe(1);
    expect(lines(found.stdout)).toEqual(expected.map((m) => ({ ...m, fixed: false })));
    expect(found.stderr).toMatch(/2 mismatches: NOT consistent/);
    // the list shows what the counters say until they are repaired
    const wrong = await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${c.id}&limit=1`, { token: team.apiKey });
    expect(wrong.body.meta.pagination.total).toBe(10);

    const fixed = await svcCounts(['--fix', '--team', team.teamSimplyId]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(lines(fixed.stdout)).toEqual(expected.map((m) => ({ ...m, fixed: true })));
    await expectExact(c, { active: 12, archived: 3 });

    const again = await svcCounts(['--team', team.teamSimplyId]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('an unknown team or option exits 2 without checking', async () => {
    const [unknownTeam, unknownOption] = await Promise.all([svcCounts(['--team', 'tm-ZZZZ-ZZZZ-ZZZZ']), svcCounts(['--frobnicate'])]);
    expect(unknownTeam.code).toBe(2);
    expect(unknownTeam.stderr).toContain('no team tm-ZZZZ-ZZZZ-ZZZZ');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain('usage: svc');
    expect(unknownTeam.stdout + unknownOption.stdout).toBe('');
  });
});
