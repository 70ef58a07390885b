// Batch record writes (Document 1 §4.2 rule 5, §6, §8): POST / PATCH / DELETE /v1/data-records/batch.
// 1-100 items, per-item results in input order, partial success without rollback, and exactly one
// DATA_RECORDS_BULK_SYNCED outbox row per batch plus one DATA_RECORD_* row per record written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import { startServerWithTwoTeams } from '../support/record-fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let items: CollectionFixture;
let otherItems: CollectionFixture;
let otherRecordId: string;

const PATH = '/v1/data-records/batch';
const call = (method: string, body?: unknown, token = team.apiKey): Promise<TestResponse> => server.request(method, PATH, { token, body });
const T = () => items.fields.title!;
const N = () => items.fields.n!;

async function createMany(count: number, prefix: string): Promise<string[]> {
  const data = expectOk(await call('POST', { dataCollectionSimplyId: items.id, records: Array.from({ length: count }, (_, i) => ({ fields: { [T()]: `${prefix}${i}`, [N()]: i } })) }));
  expect(data).toMatchObject({ created: count, failed: 0 });
  return data.results.map((r: any) => r.dataRecordSimplyId);
}

/** Outbox rows of this team written after `since` (a DomainEvent id), grouped by type. */
async function eventsSince(since: bigint): Promise<Record<string, any[]>> {
  const rows = await server.app.services.prisma.domainEvent.findMany({ where: { teamId: team.teamId, id: { gt: since } }, orderBy: { id: 'asc' } });
  const out: Record<string, any[]> = {};
  for (const row of rows) (out[row.eventType] ??= []).push(row.payload);
  return out;
}

async function lastEventId(): Promise<bigint> {
  const row = await server.app.services.prisma.domainEvent.findFirst({ where: { teamId: team.teamId }, orderBy: { id: 'desc' } });
  return row?.id ?? 0n;
}

async function get(id: string): Promise<TestResponse> {
  return server.request('GET', `/v1/data-records/${id}`, { token: team.apiKey });
}

beforeAll(async () => {
  ({ server, team, other, otherCollection: otherItems, otherRecordId } = await startServerWithTwoTeams({ column: 'title' }));
  items = await createCollection(server, team, {
    name: 'Items',
    formula: '{title}',
    fields: {
      title: REQUIRED_TEXT,
      n: 'NUMBER',
    },
  });
});
afterAll(() => server?.close());

describe('POST /v1/data-records/batch (create)', () => {
  it('100 items: created 100, results in input order, one BULK_SYNCED + 100 DATA_RECORD_CREATED rows', async () => {
    const since = await lastEventId();
    const res = await call('POST', { dataCollectionSimplyId: items.id, records: Array.from({ length: 100 }, (_, i) => ({ fields: { [T()]: `hundred ${i}`, [N()]: i } })) });
    const data = expectOk(res);
    expect(Object.keys(data).sort()).toEqual(['created', 'failed', 'results']);
    expect(data).toMatchObject({ created: 100, failed: 0 });
    expect(data.results).toHaveLength(100);
    data.results.forEach((r: any, i: number) => {
      expect(r).toMatchObject({ index: i, ok: true, error: null });
      expect(r.dataRecordSimplyId).toBe(r.record.id);
      expect(r.record.fields).toEqual({ [T()]: `hundred ${i}`, [N()]: i });
      expect(r.record.name).toBe(`hundred ${i}`);
    });
    expect(new Set(data.results.map((r: any) => r.dataRecordSimplyId)).size).toBe(100);
    expect(res.body.meta).not.toHaveProperty('warnings');

    const events = await eventsSince(since);
    expect(Object.keys(events).sort()).toEqual(['DATA_RECORDS_BULK_SYNCED', 'DATA_RECORD_CREATED']);
    expect(events.DATA_RECORD_CREATED).toHaveLength(100);
    expect(events.DATA_RECORDS_BULK_SYNCED).toHaveLength(1);
    const bulk = events.DATA_RECORDS_BULK_SYNCED![0];
    expect(bulk.eventId).toMatch(/^[0-9a-z]{14}$/);
    expect(bulk.data).toMatchObject({ operation: 'CREATE', dataCollectionSimplyId: items.id, succeeded: 100, failed: 0 });
    expect([...bulk.data.dataRecordSimplyIds].sort()).toEqual(data.results.map((r: any) => r.dataRecordSimplyId).sort());
    expect(events.DATA_RECORD_CREATED!.map((e) => e.data.id).sort()).toEqual(bulk.data.dataRecordSimplyIds.sort());

    // persisted
    const list = await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${items.id}&limit=1`, { token: team.apiKey });
    expect(list.body.meta.pagination.total).toBeGreaterThanOrEqual(100);
  });

  it('101 items and 0 items are 400 (nothing written, no event); records must be an array', async () => {
    const since = await lastEventId();
    const many = expectError(await call('POST', { dataCollectionSimplyId: items.id, records: Array.from({ length: 101 }, () => ({ fields: { [T()]: 'too many' } })) }), 400, 'VALIDATION_ERROR');
    expect(many.details).toEqual([expect.objectContaining({ field: 'records' })]);
    const none = expectError(await call('POST', { dataCollectionSimplyId: items.id, records: [] }), 400, 'VALIDATION_ERROR');
    expect(none.details).toEqual([expect.objectContaining({ field: 'records' })]);
    expectError(await call('POST', { dataCollectionSimplyId: items.id, records: { fields: {} } }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', { dataCollectionSimplyId: items.id }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', { records: [{ fields: { [T()]: 'x' } }] }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST'), 400, 'VALIDATION_ERROR');
    expect(await eventsSince(since)).toEqual({});
    const search = await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: { dataCollectionSimplyId: items.id, query: 'too many' } });
    expect(expectOk(search)).toEqual([]);
  });

  it('a failing item does not roll back the others; results in input order with per-item errors naming records[i].fields', async () => {
    const since = await lastEventId();
    const res = await call('POST', {
      dataCollectionSimplyId: items.id,
      records: [
        { fields: { [T()]: 'mixed ok 0' } },
        { fields: { [T()]: 'mixed bad 1', [N()]: 'x' } },
        { fields: { [T()]: 'mixed ok 2', unknown_key: 1 } },
        { fields: { [N()]: 3 } },
        { fields: 'not an object' },
        { fields: { [T()]: 'mixed ok 5', [N()]: 5 } },
      ],
    });
    const data = expectOk(res);
    expect(data).toMatchObject({ created: 3, failed: 3 });
    expect(data.results.map((r: any) => [r.index, r.ok])).toEqual([
      [0, true],
      [1, false],
      [2, true],
      [3, false],
      [4, false],
      [5, true],
    ]);
    expect(data.results[1]).toMatchObject({ dataRecordSimplyId: null, record: null, error: { code: 'VALIDATION_ERROR', status: 400 } });
    expect(data.results[1].error.details).toEqual([{ field: `records[1].fields.${N()}`, message: expect.any(String) }]);
    expect(data.results[3].error.details).toEqual([{ field: `records[3].fields.${T()}`, message: expect.stringContaining('required') }]);
    expect(data.results[4].error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect(data.results[5].record.fields).toEqual({ [T()]: 'mixed ok 5', [N()]: 5 });
    expect(res.body.meta.warnings).toEqual([expect.stringContaining('records[2].fields.unknown_key')]);

    const found = expectOk(await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: { dataCollectionSimplyId: items.id, query: 'mixed' } }));
    expect(found.map((r: any) => r.name).sort()).toEqual(['mixed ok 0', 'mixed ok 2', 'mixed ok 5']);

    const events = await eventsSince(since);
    expect(events.DATA_RECORD_CREATED).toHaveLength(3);
    expect(events.DATA_RECORDS_BULK_SYNCED).toHaveLength(1);
    expect(events.DATA_RECORDS_BULK_SYNCED![0].data).toMatchObject({ operation: 'CREATE', succeeded: 3, failed: 3 });
  });

  it('a batch whose every item fails still answers 200 with one summary event and no record events', async () => {
    const since = await lastEventId();
    const data = expectOk(await call('POST', { dataCollectionSimplyId: items.id, records: [{ fields: {} }, { fields: { [N()]: 1.5 } }] }));
    expect(data).toMatchObject({ created: 0, failed: 2 });
    expect(data.results.map((r: any) => r.index)).toEqual([0, 1]);
    const events = await eventsSince(since);
    expect(Object.keys(events)).toEqual(['DATA_RECORDS_BULK_SYNCED']);
    expect(events.DATA_RECORDS_BULK_SYNCED![0].data).toMatchObject({ succeeded: 0, failed: 2, dataRecordSimplyIds: [] });
  });

  it('a single create fires no summary event', async () => {
    const since = await lastEventId();
    expectOk(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: items.id, fields: { [T()]: 'single' } } }), 201);
    const events = await eventsSince(since);
    expect(Object.keys(events)).toEqual(['DATA_RECORD_CREATED']);
    expect(events.DATA_RECORD_CREATED).toHaveLength(1);
  });

  it('another team\'s collection is 404; a malformed collection id 400', async () => {
    expectError(await call('POST', { dataCollectionSimplyId: otherItems.id, records: [{ fields: {} }] }), 404, 'NOT_FOUND');
    expectError(await call('POST', { dataCollectionSimplyId: '12345', records: [{ fields: {} }] }), 400, 'VALIDATION_ERROR');
  });
});

describe('PATCH /v1/data-records/batch (update)', () => {
  it('100 items OK: updated 100, one BULK_SYNCED + 100 DATA_RECORD_UPDATED; 101 and 0 are 400', async () => {
    const ids = await createMany(100, 'upd ');
    const since = await lastEventId();
    const res = await call('PATCH', { records: ids.map((id, i) => ({ dataRecordSimplyId: id, fields: { [N()]: 1000 + i } })) });
    const data = expectOk(res);
    expect(Object.keys(data).sort()).toEqual(['failed', 'results', 'updated']);
    expect(data).toMatchObject({ updated: 100, failed: 0 });
    data.results.forEach((r: any, i: number) => {
      expect(r).toMatchObject({ index: i, ok: true, dataRecordSimplyId: ids[i], error: null });
      expect(r.record.fields).toEqual({ [T()]: `upd ${i}`, [N()]: 1000 + i });
    });
    const events = await eventsSince(since);
    expect(events.DATA_RECORD_UPDATED).toHaveLength(100);
    expect(events.DATA_RECORDS_BULK_SYNCED).toHaveLength(1);
    expect(events.DATA_RECORDS_BULK_SYNCED![0].data).toMatchObject({ operation: 'UPDATE', succeeded: 100, failed: 0 });
    expect(events.DATA_RECORD_UPDATED![0].data).toMatchObject({ changedFieldSimplyIds: [N()], previousFields: { [N()]: 0 } });

    const since2 = await lastEventId();
    const many = expectError(await call('PATCH', { records: [...ids, ids[0]].map((id) => ({ dataRecordSimplyId: id, fields: { [N()]: -1 } })) }), 400, 'VALIDATION_ERROR');
    expect(many.details).toEqual([expect.objectContaining({ field: 'records' })]);
    expectError(await call('PATCH', { records: [] }), 400, 'VALIDATION_ERROR');
    expectError(await call('PATCH', {}), 400, 'VALIDATION_ERROR');
    expect(await eventsSince(since2)).toEqual({});
    expect(expectOk(await get(ids[0]!)).fields[N()]).toBe(1000);
  });

  it('mixed batch: unknown, foreign, malformed and duplicate ids and invalid values fail per item; the rest are written', async () => {
    const [a, b, c] = await createMany(3, 'mix ');
    const since = await lastEventId();
    const res = await call('PATCH', {
      records: [
        { dataRecordSimplyId: a, fields: { [N()]: 1 } },
        { dataRecordSimplyId: '2345-2345-2345', fields: { [N()]: 2 } },
        { dataRecordSimplyId: 'abc', fields: { [N()]: 3 } },
        { dataRecordSimplyId: '12345', fields: { [N()]: 4 } },
        { dataRecordSimplyId: a, fields: { [N()]: 5 } },
        { dataRecordSimplyId: b, fields: { [N()]: 'six' } },
        { dataRecordSimplyId: otherRecordId, fields: { [otherItems.fields.title!]: 'hijacked' } },
        { dataRecordSimplyId: c, fields: { [T()]: null } },
        { dataRecordSimplyId: c, fields: { [N()]: 8, nope: true } },
      ],
    });
    const data = expectOk(res);
    expect(data).toMatchObject({ updated: 1, failed: 8 });
    expect(data.results.map((r: any) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const [r0, r1, r2, r3, r4, r5, r6, r7, r8] = data.results;
    expect(r0).toMatchObject({ ok: true, dataRecordSimplyId: a, record: { fields: { [N()]: 1 } } });
    expect(r1).toMatchObject({ ok: false, dataRecordSimplyId: '2345-2345-2345', record: null, error: { code: 'NOT_FOUND', status: 404 } });
    expect(r2).toMatchObject({ ok: false, dataRecordSimplyId: 'abc', error: { code: 'VALIDATION_ERROR', status: 400, details: [{ field: 'records[2].dataRecordSimplyId' }] } });
    expect(r3).toMatchObject({ ok: false, dataRecordSimplyId: '12345', error: { code: 'VALIDATION_ERROR', status: 400, details: [{ field: 'records[3].dataRecordSimplyId' }] } });
    // a record listed twice fails the second time
    expect(r4).toMatchObject({ ok: false, dataRecordSimplyId: a, error: { code: 'VALIDATION_ERROR', status: 400, details: [{ field: 'records[4].dataRecordSimplyId' }] } });
    expect(r5).toMatchObject({ ok: false, dataRecordSimplyId: b, error: { code: 'VALIDATION_ERROR', details: [{ field: `records[5].fields.${N()}` }] } });
    expect(r6).toMatchObject({ ok: false, dataRecordSimplyId: otherRecordId, error: { code: 'NOT_FOUND', status: 404 } });
    expect(r7).toMatchObject({ ok: false, dataRecordSimplyId: c, error: { code: 'VALIDATION_ERROR', details: [{ field: `records[7].fields.${T()}`, message: expect.stringContaining('cannot be cleared') }] } });
    // listed twice: the second item fails, even though the first failed too (docs/api/data-records.md)
    expect(r8).toMatchObject({ ok: false, dataRecordSimplyId: c, error: { code: 'VALIDATION_ERROR', details: [{ field: 'records[8].dataRecordSimplyId', message: 'duplicate record' }] } });

    expect(expectOk(await get(a!)).fields[N()]).toBe(1);
    expect(expectOk(await get(b!)).fields[N()]).toBe(1);
    expect(expectOk(await get(c!)).fields).toEqual({ [T()]: 'mix 2', [N()]: 2 });
    expect(expectOk(await server.request('GET', `/v1/data-records/${otherRecordId}`, { token: other.apiKey })).name).toBe('theirs');

    const events = await eventsSince(since);
    expect(events.DATA_RECORD_UPDATED!.map((e) => e.data.id)).toEqual([a]);
    expect(events.DATA_RECORDS_BULK_SYNCED).toHaveLength(1);
    expect(events.DATA_RECORDS_BULK_SYNCED![0].data).toMatchObject({ operation: 'UPDATE', succeeded: 1, failed: 8, dataRecordSimplyIds: [a] });
    expect(Object.keys(events).sort()).toEqual(['DATA_RECORDS_BULK_SYNCED', 'DATA_RECORD_UPDATED']);
  });

  it('one batch may update records of several collections: one summary event without a collection', async () => {
    const notes = await createCollection(server, team, { name: 'Notes', fields: { text: 'PLAIN_TEXT' } });
    const note = expectOk(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: notes.id, fields: { [notes.fields.text!]: 'n' } } }), 201).id;
    const [item] = await createMany(1, 'multi ');
    const since = await lastEventId();
    const data = expectOk(
      await call('PATCH', {
        records: [
          { dataRecordSimplyId: item, fields: { [N()]: 42 } },
          { dataRecordSimplyId: note, fields: { [notes.fields.text!]: 'note 2' } },
          // listed twice
          { dataRecordSimplyId: note, fields: { [notes.fields.text!]: 'note 3' } },
        ],
      }),
    );
    expect(data).toMatchObject({ updated: 2, failed: 1 });
    expect(data.results[1].record).toMatchObject({ dataCollectionSimplyId: notes.id, fields: { [notes.fields.text!]: 'note 2' } });
    expect(data.results[2]).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR', details: [{ field: 'records[2].dataRecordSimplyId', message: 'duplicate record' }] } });
    const events = await eventsSince(since);
    expect(events.DATA_RECORD_UPDATED!.map((e) => e.data.dataCollectionSimplyId).sort()).toEqual([items.id, notes.id].sort());
    expect(events.DATA_RECORDS_BULK_SYNCED).toHaveLength(1);
    expect(events.DATA_RECORDS_BULK_SYNCED![0].data).toMatchObject({ operation: 'UPDATE', dataCollectionSimplyId: null, succeeded: 2, failed: 1 });
  });

  it('a merge per item: omitted fields are unchanged, the name is recomputed', async () => {
    const [a] = await createMany(1, 'merge ');
    const res = await call('PATCH', { records: [{ dataRecordSimplyId: a, fields: { [T()]: 'merged', nope: true } }] });
    const data = expectOk(res);
    expect(data.results[0].record).toMatchObject({ name: 'merged', fields: { [T()]: 'merged', [N()]: 0 } });
    expect(res.body.meta.warnings).toEqual([expect.stringContaining('records[0].fields.nope')]);
  });

  it('an item that changes nothing succeeds but writes no record event (documented); the summary still counts it', async () => {
    const [a, b] = await createMany(2, 'noop ');
    const since = await lastEventId();
    const data = expectOk(await call('PATCH', { records: [{ dataRecordSimplyId: a, fields: { [N()]: 0 } }, { dataRecordSimplyId: b, fields: { [N()]: 7 } }] }));
    expect(data).toMatchObject({ updated: 2, failed: 0 });
    expect(data.results[0].record.updatedAt).toBe(expectOk(await get(a!)).createdAt);
    const events = await eventsSince(since);
    expect(events.DATA_RECORD_UPDATED!.map((e) => e.data.id)).toEqual([b]);
    expect(events.DATA_RECORDS_BULK_SYNCED).toHaveLength(1);
    expect(events.DATA_RECORDS_BULK_SYNCED![0].data).toMatchObject({ operation: 'UPDATE', succeeded: 2, failed: 0 });
  });

  it('an item without fields, or a non-string id, fails the request as a whole (400, nothing written)', async () => {
    const [a] = await createMany(1, 'shape ');
    const since = await lastEventId();
    expect((await call('PATCH', { records: [{ dataRecordSimplyId: a, fields: { [N()]: 9 } }, { dataRecordSimplyId: a }] })).status).toBe(400);
    expect((await call('PATCH', { records: [{ dataRecordSimplyId: a, fields: { [N()]: 9 } }, { dataRecordSimplyId: 42, fields: {} }] })).status).toBe(400);
    expect((await call('PATCH', { records: [{ dataRecordSimplyId: a, fields: { [N()]: 9 } }, 'x'] })).status).toBe(400);
    expect(expectOk(await get(a!)).fields[N()]).toBe(0);
    expect(await eventsSince(since)).toEqual({});
  });
});

describe('DELETE /v1/data-records/batch', () => {
  it('100 items OK: deleted 100, one BULK_SYNCED + 100 DATA_RECORD_DELETED; 101 and 0 are 400', async () => {
    const ids = await createMany(100, 'del ');
    const since0 = await lastEventId();
    expectError(await call('DELETE', { dataRecordSimplyIds: [...ids, ids[0]] }), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', { dataRecordSimplyIds: [] }), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', { dataRecordSimplyIds: ids[0] }), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', {}), 400, 'VALIDATION_ERROR');
    expect(await eventsSince(since0)).toEqual({});

    const since = await lastEventId();
    const data = expectOk(await call('DELETE', { dataRecordSimplyIds: ids }));
    expect(Object.keys(data).sort()).toEqual(['deleted', 'failed', 'results']);
    expect(data).toMatchObject({ deleted: 100, failed: 0 });
    data.results.forEach((r: any, i: number) => expect(r).toMatchObject({ index: i, ok: true, dataRecordSimplyId: ids[i], error: null }));
    const events = await eventsSince(since);
    expect(events.DATA_RECORD_DELETED).toHaveLength(100);
    expect(events.DATA_RECORDS_BULK_SYNCED).toHaveLength(1);
    expect(events.DATA_RECORDS_BULK_SYNCED![0].data).toMatchObject({ operation: 'DELETE', succeeded: 100, failed: 0 });
    for (const id of ids.slice(0, 3)) expectError(await get(id), 404, 'NOT_FOUND');
    const found = expectOk(await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: { dataCollectionSimplyId: items.id, query: 'del ' } }));
    expect(found).toEqual([]);
  });

  it('mixed: malformed, unknown, foreign, repeated and already deleted ids fail per item; the rest are deleted', async () => {
    const [a, b, gone] = await createMany(3, 'dmix ');
    expectOk(await server.request('DELETE', `/v1/data-records/${gone}`, { token: team.apiKey }));
    const since = await lastEventId();
    const data = expectOk(await call('DELETE', { dataRecordSimplyIds: [a, 'nope', '2345-2345-2345', otherRecordId, a, gone, b, '7'] }));
    expect(data).toMatchObject({ deleted: 2, failed: 6 });
    expect(data.results.map((r: any) => [r.index, r.ok, r.error?.status ?? null])).toEqual([
      [0, true, null],
      [1, false, 400],
      [2, false, 404],
      [3, false, 404],
      [4, false, 404],
      [5, false, 404],
      [6, true, null],
      [7, false, 400],
    ]);
    expect(data.results[1]).toMatchObject({ dataRecordSimplyId: 'nope', error: { code: 'VALIDATION_ERROR', details: [{ field: 'dataRecordSimplyIds[1]' }] } });
    expect(data.results[3]).toMatchObject({ dataRecordSimplyId: otherRecordId, error: { code: 'NOT_FOUND' } });
    expectError(await get(a!), 404, 'NOT_FOUND');
    expectError(await get(b!), 404, 'NOT_FOUND');
    expect(expectOk(await server.request('GET', `/v1/data-records/${otherRecordId}`, { token: other.apiKey })).id).toBe(otherRecordId);

    const events = await eventsSince(since);
    expect(events.DATA_RECORD_DELETED!.map((e) => e.data.id).sort()).toEqual([a, b].sort());
    expect(events.DATA_RECORDS_BULK_SYNCED).toHaveLength(1);
    expect(events.DATA_RECORDS_BULK_SYNCED![0].data).toMatchObject({ operation: 'DELETE', succeeded: 2, failed: 6 });

    // deleting them again: every item 404, still one summary event
    const since2 = await lastEventId();
    const again = expectOk(await call('DELETE', { dataRecordSimplyIds: [a, b] }));
    expect(again).toMatchObject({ deleted: 0, failed: 2 });
    expect(again.results.map((r: any) => r.error.code)).toEqual(['NOT_FOUND', 'NOT_FOUND']);
    const events2 = await eventsSince(since2);
    expect(Object.keys(events2)).toEqual(['DATA_RECORDS_BULK_SYNCED']);
  });

  it('a deleted record fails a later batch update with 404 per item', async () => {
    const [a, b] = await createMany(2, 'after ');
    expectOk(await call('DELETE', { dataRecordSimplyIds: [a] }));
    const data = expectOk(await call('PATCH', { records: [{ dataRecordSimplyId: a, fields: { [N()]: 1 } }, { dataRecordSimplyId: b, fields: { [N()]: 1 } }] }));
    expect(data).toMatchObject({ updated: 1, failed: 1 });
    expect(data.results[0]).toMatchObject({ index: 0, ok: false, error: { code: 'NOT_FOUND', status: 404 } });
    expect(data.results[1]).toMatchObject({ index: 1, ok: true });
  });
});
