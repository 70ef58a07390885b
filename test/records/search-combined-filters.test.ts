// Search with combined filters over a collection of 1 200 records (findRecordPage in
// src/modules/records/records.sql.ts, keyMatches / ownActiveMatches in record-filters.sql.ts):
// the exact total and the rows of first, middle, last and past-the-end pages, in every sort order,
// against an oracle computed here from the values written and the stored sort keys; whichever way
// the page is found: from few matches (one statement), by a walk in sort order that fills it
// (dense matches), among all matches when the walk comes up short, and by the paths that read a
// membership per match (archived memberships, built-in-field conditions, SMART collections).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, createLabelCollection, createSmartCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { countSql, type SqlCounter } from '../support/sql-counter.ts';

const RECORDS = 1200;
/** records 0..599 are 'early', 600..1199 'late': the newest 600 (the first in -createdAt) are late */
const EARLY = 600;
const WORDS = ['amber', 'Birch', 'cedar', 'Dune', 'ember', 'Fjord', 'glade', 'Heath'];
const TAGS = ['red', 'green', 'blue'];

interface Item {
  i: number;
  id: string;
  era: 'early' | 'late';
  tag: string;
  n: number;
  refs: string[];
  name: string;
  deleted: boolean;
  archived: boolean;
  /** stored sort keys, read back after the writes */
  recordId: bigint;
  createdAt: number;
  updatedAt: number;
  nameSort: Buffer;
}

let server: TestServer;
let team: TeamFixture;
let items: CollectionFixture;
let late: CollectionFixture;
let targets: string[];
let sql: SqlCounter;
const all: Item[] = [];
/** createdAt of record 900: a built-in-field condition that splits the late records */
let splitAt: string;

const F = (column: string) => items.fields[column]!;

function valuesOf(i: number): Pick<Item, 'era' | 'tag' | 'n' | 'refs' | 'name'> {
  return {
    era: i < EARLY ? 'early' : 'late',
    tag: i % 97 === 0 ? 'rare' : TAGS[(i * 7) % 3]!,
    n: (i * 37) % 1000,
    // list field: none, one or two targets, so `in [T1, T2]` finds some records through two keys
    refs: [[], [targets[0]!], [targets[0]!, targets[1]!], [targets[1]!], [targets[2]!]][i % 5]!,
    name: `${WORDS[(i * 5) % WORDS.length]} ${String((i * 7919) % RECORDS).padStart(4, '0')}`,
  };
}

function fieldsOf(v: Pick<Item, 'era' | 'tag' | 'n' | 'refs' | 'name'>): Record<string, unknown> {
  return { [F('label')]: v.name, [F('era')]: v.era, [F('tag')]: v.tag, [F('n')]: v.n, ...(v.refs.length ? { [F('refs')]: v.refs } : {}) };
}

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  const targetCollection = await createLabelCollection(server, team, 'Targets');
  const created = expectOk(
    await server.request('POST', '/v1/data-records/batch', {
      token: team.apiKey,
      body: { dataCollectionSimplyId: targetCollection.id, records: ['T1', 'T2', 'T3'].map((label) => ({ fields: { [targetCollection.fields.label!]: label } })) },
    }),
  );
  targets = created.results.map((r: any) => r.dataRecordSimplyId);
  items = await createCollection(server, team, {
    name: 'Items',
    formula: '{label}',
    fields: { label: 'PLAIN_TEXT', era: 'PLAIN_TEXT', tag: 'PLAIN_TEXT', n: 'NUMBER', refs: 'MULTI_DATA_RECORD' },
  });
  // before the records, so their writes keep its memberships
  late = await createSmartCollection(server, team, 'Late items', items, [{ field: items.fields.era, operator: 'eq', value: 'late' }]);
  for (let from = 0; from < RECORDS; from += 100) {
    const batch = Array.from({ length: 100 }, (_, j) => valuesOf(from + j));
    const result = expectOk(
      await server.request('POST', '/v1/data-records/batch', { token: team.apiKey, body: { dataCollectionSimplyId: items.id, records: batch.map((v) => ({ fields: fieldsOf(v) })) } }),
    );
    expect(result.failed).toBe(0);
    result.results.forEach((r: any, j: number) => {
      all.push({ i: from + j, id: r.dataRecordSimplyId, ...batch[j]!, deleted: false, archived: false, recordId: 0n, createdAt: 0, updatedAt: 0, nameSort: Buffer.alloc(0) });
    });
  }
  // edits move records in updatedAt order (and change what n matches)
  for (const i of [3, 250, 640, 1111]) {
    const item = all[i]!;
    item.n = 995;
    expectOk(await server.request('PATCH', `/v1/data-records/${item.id}`, { token: team.apiKey, body: { fields: { [F('n')]: item.n } } }));
  }
  // deleted (every membership) and archived (the home membership, as privileged tooling does)
  for (const i of [0, 5, 601, 1150]) {
    all[i]!.deleted = true;
    expect((await server.request('DELETE', `/v1/data-records/${all[i]!.id}`, { token: team.apiKey })).status).toBe(200);
  }
  for (const i of [10, 20, 97]) all[i]!.archived = true;
  const { pool } = server.app.services;
  await pool.query(
    `UPDATE "DataRecordMembership" m SET state = 'ARCHIVED' FROM "DataRecord" r
      WHERE r."teamId" = m."teamId" AND r.id = m."recordId" AND m."collectionId" = r."collectionId" AND r."simplyId" = ANY($1::text[])`,
    [[10, 20, 97].map((i) => all[i]!.id)],
  );
  const { rows } = await pool.query(
    `SELECT r."simplyId", m."recordId", m."recordCreatedAt", m."recordUpdatedAt", m."nameSort"
       FROM "DataRecordMembership" m JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"
      WHERE m."teamId" = $1 AND m."collectionId" = $2`,
    [team.teamId, items.internalId],
  );
  const byId = new Map(all.map((item) => [item.id, item]));
  for (const row of rows) {
    const item = byId.get(row.simplyId)!;
    item.recordId = BigInt(row.recordId);
    item.createdAt = row.recordCreatedAt.getTime();
    item.updatedAt = row.recordUpdatedAt.getTime();
    item.nameSort = row.nameSort;
  }
  splitAt = new Date(all[900]!.createdAt).toISOString();
  // statistics as autovacuum would have them for a collection this size: without them every
  // estimate for the new fields is one row, and the plans (not the answers) are those of a
  // collection of a handful of records
  for (const table of ['DataRecord', 'DataRecordMembership', 'DataRecordKey']) await pool.query(`ANALYZE "${table}"`);
  sql = countSql(pool);
}, 120_000);
afterAll(() => server?.close());

type SortKey = 'createdAt' | 'updatedAt' | 'calculatedName';
/** the API's sort parameter → the oracle's comparison: the keys in turn, then the record id in the first key's direction */
function comparator(sort: string): (a: Item, b: Item) => number {
  const specs = sort.split(',').map((part) => ({ key: part.replace(/^-/, '') as SortKey, sign: part.startsWith('-') ? -1 : 1 }));
  const value = (item: Item, key: SortKey) => (key === 'createdAt' ? item.createdAt : key === 'updatedAt' ? item.updatedAt : item.nameSort);
  return (a, b) => {
    for (const { key, sign } of specs) {
      const x = value(a, key);
      const y = value(b, key);
      const c = Buffer.isBuffer(x) ? Buffer.compare(x, y as Buffer) : (x as number) - (y as number);
      if (c !== 0) return sign * c;
    }
    return specs[0]!.sign * (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0);
  };
}

interface Case {
  label: string;
  filters: unknown[];
  query?: string;
  /** search this collection instead of Items */
  collection?: () => CollectionFixture;
  /** the records it must find (live ones only unless it searches archived memberships) */
  matches: (item: Item) => boolean;
  archived?: boolean;
}

const CASES: Case[] = [
  {
    label: 'few matches: tag eq rare AND n gte 300',
    filters: [{ field: 'tag', operator: 'eq', value: 'rare' }, { field: 'n', operator: 'gte', value: 300 }],
    matches: (x) => x.tag === 'rare' && x.n >= 300,
  },
  {
    label: 'dense matches from the newest: era eq late AND n gte 100',
    filters: [{ field: 'era', operator: 'eq', value: 'late' }, { field: 'n', operator: 'gte', value: 100 }],
    matches: (x) => x.era === 'late' && x.n >= 100,
  },
  {
    label: 'many matches, none among the newest: era eq early AND n gte 100',
    filters: [{ field: 'era', operator: 'eq', value: 'early' }, { field: 'n', operator: 'gte', value: 100 }],
    matches: (x) => x.era === 'early' && x.n >= 100,
  },
  {
    label: 'three fields: tag eq green AND n lt 500 AND era eq early',
    filters: [{ field: 'tag', operator: 'eq', value: 'green' }, { field: 'n', operator: 'lt', value: 500 }, { field: 'era', operator: 'eq', value: 'early' }],
    matches: (x) => x.tag === 'green' && x.n < 500 && x.era === 'early',
  },
  {
    label: 'one field twice (a range): n gt 100 AND n lt 300',
    filters: [{ field: 'n', operator: 'gt', value: 100 }, { field: 'n', operator: 'lt', value: 300 }],
    matches: (x) => x.n > 100 && x.n < 300,
  },
  {
    label: 'eq and in on one field: tag in [red, rare] AND tag eq rare',
    filters: [{ field: 'tag', operator: 'in', value: ['red', 'rare'] }, { field: 'tag', operator: 'eq', value: 'rare' }],
    matches: (x) => x.tag === 'rare',
  },
  {
    label: 'a list field alone, one record through two keys: refs in [T1, T2]',
    filters: [{ field: 'refs', operator: 'in', value: () => [targets[0], targets[1]] }],
    matches: (x) => x.refs.includes(targets[0]!) || x.refs.includes(targets[1]!),
  },
  {
    label: 'a list field and a text field: refs contains T2 AND tag eq red',
    filters: [{ field: 'refs', operator: 'contains', value: () => targets[1] }, { field: 'tag', operator: 'eq', value: 'red' }],
    matches: (x) => x.refs.includes(targets[1]!) && x.tag === 'red',
  },
  {
    label: 'negations only: tag ne red AND refs eq null',
    filters: [{ field: 'tag', operator: 'ne', value: 'red' }, { field: 'refs', operator: 'eq', value: null }],
    matches: (x) => x.tag !== 'red' && x.refs.length === 0,
  },
  {
    label: 'a match and a negation: era eq early AND tag ne blue AND refs ne null',
    filters: [{ field: 'era', operator: 'eq', value: 'early' }, { field: 'tag', operator: 'ne', value: 'blue' }, { field: 'refs', operator: 'ne', value: null }],
    matches: (x) => x.era === 'early' && x.tag !== 'blue' && x.refs.length > 0,
  },
  {
    label: 'a built-in field: era eq late AND createdAt lt (record 900)',
    filters: [{ field: 'era', operator: 'eq', value: 'late' }, { field: 'createdAt', operator: 'lt', value: () => splitAt }],
    matches: (x) => x.era === 'late' && x.createdAt < Date.parse(splitAt),
  },
  {
    label: 'the keyword query and a filter: "ember" AND n lt 600',
    filters: [{ field: 'n', operator: 'lt', value: 600 }],
    query: 'ember',
    matches: (x) => x.name.toLowerCase().includes('ember') && x.n < 600,
  },
  {
    label: 'archived memberships: isArchived eq true AND era eq early',
    filters: [{ field: 'isArchived', operator: 'eq', value: true }, { field: 'era', operator: 'eq', value: 'early' }],
    archived: true,
    matches: (x) => x.era === 'early',
  },
  {
    label: 'a SMART collection (era eq late): n gte 500 AND tag ne green',
    collection: () => late,
    filters: [{ field: 'n', operator: 'gte', value: 500 }, { field: 'tag', operator: 'ne', value: 'green' }],
    // archived records are all early: the SMART members are the live late records
    matches: (x) => x.era === 'late' && x.n >= 500 && x.tag !== 'green',
  },
];

const SORTS = ['-createdAt', 'createdAt', 'updatedAt', '-updatedAt', 'calculatedName', '-calculatedName', 'calculatedName,-createdAt'];

function bodyOf(c: Case, extra: Record<string, unknown>): Record<string, unknown> {
  const filters = c.filters.map((f: any) => ({
    ...f,
    field: ['isArchived', 'createdAt', 'updatedAt', 'calculatedName'].includes(f.field) ? f.field : F(f.field),
    value: typeof f.value === 'function' ? f.value() : f.value,
  }));
  return { dataCollectionSimplyId: (c.collection?.() ?? items).id, filters, ...(c.query ? { query: c.query } : {}), ...extra };
}

async function search(c: Case, extra: Record<string, unknown>): Promise<{ ids: string[]; total: number }> {
  const res = await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: bodyOf(c, extra) });
  const data = expectOk(res) as any[];
  for (const r of data) expect(r.isArchived).toBe(c.archived === true);
  return { ids: data.map((r) => r.id), total: res.body.meta.pagination.total };
}

function expected(c: Case, sort: string): string[] {
  const wanted = all.filter((x) => !x.deleted && (c.archived ? x.archived : !x.archived) && c.matches(x));
  return wanted.sort(comparator(sort)).map((x) => x.id);
}

describe('search with combined filters: exact totals and pages in every sort order', () => {
  it('the cases cover what they are meant to (few, many, none among the newest)', () => {
    const sizes = Object.fromEntries(CASES.map((c) => [c.label, expected(c, '-createdAt').length]));
    expect(sizes['few matches: tag eq rare AND n gte 300']).toBeGreaterThan(0);
    expect(sizes['few matches: tag eq rare AND n gte 300']).toBeLessThan(25);
    expect(sizes['dense matches from the newest: era eq late AND n gte 100']).toBeGreaterThan(500);
    expect(sizes['many matches, none among the newest: era eq early AND n gte 100']).toBeGreaterThan(500);
    for (const c of CASES) expect(sizes[c.label], c.label).toBeGreaterThan(0);
    expect(all.filter((x) => x.refs.length === 2).length).toBeGreaterThan(0);
  });

  for (const c of CASES) {
    it(c.label, async () => {
      for (const sort of SORTS) {
        const want = expected(c, sort);
        const pages = [0, 25, Math.max(0, want.length - 10), want.length + 5];
        for (const offset of pages) {
          const got = await search(c, { sort, limit: 25, offset });
          expect(got.total, `${sort} offset ${offset}`).toBe(want.length);
          expect(got.ids, `${sort} offset ${offset}`).toEqual(want.slice(offset, offset + 25));
        }
      }
    });
  }

  it('every page of a broad search, 100 at a time, is the whole match list once', async () => {
    const c = CASES[2]!;
    const want = expected(c, 'updatedAt');
    const seen: string[] = [];
    for (let offset = 0; offset < want.length; offset += 100) {
      const got = await search(c, { sort: 'updatedAt', limit: 100, offset });
      expect(got.total).toBe(want.length);
      seen.push(...got.ids);
    }
    expect(seen).toEqual(want);
  });
});

describe('search statements: how many read the filter keys', () => {
  /** statements of one search that read DataRecordKey (the credential and schema are cached after the first call) */
  async function keyStatements(c: Case, extra: Record<string, unknown>): Promise<string[]> {
    await search(c, extra);
    const statements = await sql.measure(() => search(c, extra));
    return statements.filter((s) => s.includes('"DataRecordKey"'));
  }

  it('few matches: one statement, their count and their page', async () => {
    expect(await keyStatements(CASES[0]!, { limit: 25 })).toHaveLength(1);
  });

  it('many matches, dense among the first in sort order: the count, then a walk that fills the page', async () => {
    expect(await keyStatements(CASES[1]!, { limit: 25 })).toHaveLength(2);
  });

  it('many matches, none among the first: the count, the walk, then the page among all matches', async () => {
    expect(await keyStatements(CASES[2]!, { limit: 25 })).toHaveLength(3);
  });
});
