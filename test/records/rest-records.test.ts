// Every REST record route (Document 1 §2.3, §4.2, §7, §8): list (paging, sort, projection),
// get (projection, expand), create (warnings, required fields, null), PATCH/PUT (merge, clear,
// name formula), soft delete, and the create menu.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, createSmartCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { restCaller } from '../support/rest-caller.ts';
import { createRecord, startServerWithTwoTeams } from '../support/record-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
/** list/sort/get reads: five records created one by one, never changed except one PATCH (sort by updatedAt) */
let listed: CollectionFixture;
/** writes */
let people: CollectionFixture;
let otherCollection: CollectionFixture;
let otherRecordId: string;
/** ids of `listed` in creation order; names */
const listedIds: string[] = [];
const NAMES = ['Mango', 'apple', 'Cherry', 'banana', 'Date'];

const RECORD_KEYS = ['createdAt', 'dataCollectionSimplyId', 'dataRecordSimplyId', 'fields', 'id', 'isArchived', 'name', 'updatedAt'];

const call = restCaller(() => server, () => team.apiKey);

const create = (collection: CollectionFixture, fields: Record<string, unknown>, token = team.apiKey) => createRecord(server, token, collection.id, fields);

const list = (query: string) => call('GET', `/v1/data-records?dataCollectionSimplyId=${listed.id}${query}`);
const names = (res: TestResponse) => (expectOk(res) as any[]).map((r) => r.name);

beforeAll(async () => {
  ({ server, team, other, otherCollection, otherRecordId } = await startServerWithTwoTeams({ name: 'not yours' }));
  listed = await createCollection(server, team, {
    name: 'Fruit',
    formula: '{label}',
    fields: {
      label: REQUIRED_TEXT,
      weight: 'NUMBER',
      color: 'PLAIN_TEXT',
    },
  });
  people = await createCollection(server, team, {
    name: 'People',
    formula: '{first_name} {last_name} ({age})',
    fields: {
      first_name: REQUIRED_TEXT,
      last_name: 'PLAIN_TEXT',
      age: 'NUMBER',
      email: 'EMAIL_ADDRESS',
    },
  });
  // one by one, so createdAt orders them
  for (const [i, label] of NAMES.entries()) {
    listedIds.push((await create(listed, { [listed.fields.label!]: label, [listed.fields.weight!]: (i + 1) * 10, [listed.fields.color!]: `c${i}` })).id);
  }
});
afterAll(() => server?.close());

describe('GET /v1/data-records', () => {
  it('requires dataCollectionSimplyId (400 naming it)', async () => {
    const error = expectError(await call('GET', '/v1/data-records'), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([expect.objectContaining({ field: 'dataCollectionSimplyId' })]);
    expectError(await call('GET', '/v1/data-records?dataCollectionSimplyId='), 400, 'VALIDATION_ERROR');
  });

  it('rejects a malformed or numeric collection id (400), an unknown or foreign one (404)', async () => {
    expectError(await call('GET', '/v1/data-records?dataCollectionSimplyId=12345'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/data-records?dataCollectionSimplyId=${listed.internalId}`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/data-records?dataCollectionSimplyId=2345-2345-2345'), 404, 'NOT_FOUND');
    expectError(await call('GET', `/v1/data-records?dataCollectionSimplyId=${otherCollection.id}`), 404, 'NOT_FOUND');
  });

  it('limit is 1-100 (0, 101, -1 and non-integers are 400); offset is >= 0', async () => {
    for (const bad of ['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x']) {
      const error = expectError(await list(`&${bad}`), 400, 'VALIDATION_ERROR', bad);
      expect(error.details?.[0]?.field, bad).toBe(bad.split('=')[0]);
    }
    expect(expectOk(await list('&limit=1'))).toHaveLength(1);
    expect(expectOk(await list('&limit=100'))).toHaveLength(5);
  });

  it('meta.pagination: total, limit (default 25), offset (default 0), hasMore', async () => {
    const all = await list('');
    expect(expectOk(all)).toHaveLength(5);
    expect(all.body.meta.pagination).toEqual({ total: 5, limit: 25, offset: 0, hasMore: false });

    const first = await list('&limit=2');
    expect(first.body.meta.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
    const middle = await list('&limit=2&offset=2');
    expect(middle.body.meta.pagination).toEqual({ total: 5, limit: 2, offset: 2, hasMore: true });
    const last = await list('&limit=2&offset=4');
    expect(expectOk(last)).toHaveLength(1);
    expect(last.body.meta.pagination).toEqual({ total: 5, limit: 2, offset: 4, hasMore: false });
    const exact = await list('&limit=5');
    expect(exact.body.meta.pagination).toEqual({ total: 5, limit: 5, offset: 0, hasMore: false });
    const beyond = await list('&limit=2&offset=10');
    expect(expectOk(beyond)).toEqual([]);
    expect(beyond.body.meta.pagination).toEqual({ total: 5, limit: 2, offset: 10, hasMore: false });

    // the pages tile the whole list without overlap
    const paged = [...names(first), ...names(middle), ...names(last)];
    expect(paged).toEqual(names(all));
  });

  it('every record has the documented shape; fields are keyed by field simplyId', async () => {
    const [record] = expectOk(await list('&limit=1'));
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
    expect(record.id).toBe(record.dataRecordSimplyId);
    expect(record.id).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect(record.dataCollectionSimplyId).toBe(listed.id);
    expect(record.isArchived).toBe(false);
    expect(Object.keys(record.fields).sort()).toEqual(Object.values(listed.fields).sort());
    expect(new Date(record.createdAt).toISOString()).toBe(record.createdAt);
  });

  it('sort: default -createdAt; createdAt, updatedAt, calculatedName with "-" for descending; unknown keys fall back to createdAt', async () => {
    expect(names(await list(''))).toEqual([...NAMES].reverse());
    expect(names(await list('&sort=-createdAt'))).toEqual([...NAMES].reverse());
    expect(names(await list('&sort=createdAt'))).toEqual(NAMES);
    // display names compare case-insensitively
    const alphabetical = ['apple', 'banana', 'Cherry', 'Date', 'Mango'];
    expect(names(await list('&sort=calculatedName'))).toEqual(alphabetical);
    expect(names(await list('&sort=-calculatedName'))).toEqual([...alphabetical].reverse());
    expect(names(await list('&sort=bogus'))).toEqual(NAMES);
    expect(names(await list('&sort=-bogus'))).toEqual([...NAMES].reverse());
    expect(names(await list('&sort=name'))).toEqual(NAMES);
    // paging follows the sort
    expect(names(await list('&sort=calculatedName&limit=2&offset=1'))).toEqual(['banana', 'Cherry']);

    // touch the first-created record: it becomes the most recently updated
    expectOk(await call('PATCH', `/v1/data-records/${listedIds[0]}`, { fields: { [listed.fields.weight!]: 11 } }));
    const byUpdated = names(await list('&sort=-updatedAt'));
    expect(byUpdated[0]).toBe('Mango');
    expect(names(await list('&sort=updatedAt')).at(-1)).toBe('Mango');
    // updatedAt ascending keeps the untouched ones in creation order
    expect(names(await list('&sort=updatedAt')).slice(0, 4)).toEqual(NAMES.slice(1));
    // createdAt is unaffected by the update
    expect(names(await list('&sort=createdAt'))).toEqual(NAMES);
  });

  it('fields= limits each record to the listed field simplyIds; unknown ids are ignored', async () => {
    const { weight, color, label } = listed.fields;
    const one = expectOk(await list(`&fields=${weight}`));
    for (const r of one) expect(Object.keys(r.fields)).toEqual([weight]);
    const two = expectOk(await list(`&fields=${weight},${color}&sort=createdAt`));
    expect(two[1].fields).toEqual({ [weight!]: 20, [color!]: 'c1' });
    expect(two[1].name).toBe('apple');
    const unknown = expectOk(await list(`&fields=fld-2345-2345-2345`));
    for (const r of unknown) expect(r.fields).toEqual({});
    const withLabel = expectOk(await list(`&fields=${label},fld-2345-2345-2345&limit=1&sort=createdAt`));
    expect(withLabel[0].fields).toEqual({ [label!]: 'Mango' });
  });
});

describe('GET /v1/data-records/{id}', () => {
  it('returns the record with every readable field', async () => {
    const record = expectOk(await call('GET', `/v1/data-records/${listedIds[1]}`));
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
    expect(record).toMatchObject({ id: listedIds[1], dataRecordSimplyId: listedIds[1], dataCollectionSimplyId: listed.id, name: 'apple', isArchived: false });
    expect(record.fields).toEqual({ [listed.fields.label!]: 'apple', [listed.fields.weight!]: 20, [listed.fields.color!]: 'c1' });
  });

  it('fields= projects; expand=collection,fieldDefinitions goes under meta.expanded, unsupported values ignored', async () => {
    const { weight, color } = listed.fields;
    const res = await call('GET', `/v1/data-records/${listedIds[2]}?fields=${weight},${color}&expand=collection,fieldDefinitions,owner,bogus`);
    const data = expectOk(res);
    expect(data.fields).toEqual({ [weight!]: 30, [color!]: 'c2' });
    expect(data).not.toHaveProperty('collection');
    expect(data).not.toHaveProperty('fieldDefinitions');
    expect(Object.keys(res.body.meta.expanded).sort()).toEqual(['collection', 'fieldDefinitions']);
    expect(res.body.meta.expanded.collection).toMatchObject({ id: listed.id, type: 'STANDARD', dataRecordCalculatedNameFormula: '{label}' });
    // the definitions of the fields shown
    const defs = res.body.meta.expanded.fieldDefinitions;
    expect(defs.map((d: any) => d.dataFieldSimplyId).sort()).toEqual([weight, color].sort());
    expect(defs.find((d: any) => d.dataFieldSimplyId === weight)).toMatchObject({ columnName: 'weight', dataType: 'NUMBER', isRequired: false });

    const onlyCollection = await call('GET', `/v1/data-records/${listedIds[2]}?expand=collection`);
    expectOk(onlyCollection);
    expect(Object.keys(onlyCollection.body.meta.expanded)).toEqual(['collection']);
    const onlyDefs = await call('GET', `/v1/data-records/${listedIds[2]}?expand=fieldDefinitions`);
    expect(onlyDefs.body.meta.expanded.fieldDefinitions).toHaveLength(3);
    expect(Object.keys(onlyDefs.body.meta.expanded)).toEqual(['fieldDefinitions']);

    const unsupported = await call('GET', `/v1/data-records/${listedIds[2]}?expand=owner,bogus`);
    expectOk(unsupported);
    expect(unsupported.body.meta).not.toHaveProperty('expanded');
    const none = await call('GET', `/v1/data-records/${listedIds[2]}`);
    expect(none.body.meta).not.toHaveProperty('expanded');
  });

  it('a numeric or malformed id is 400; an unknown id 404; another team\'s record 404 (both ways)', async () => {
    for (const bad of ['12345', '1', 'abcd-efgh', '2345-2345-234O']) {
      expectError(await call('GET', `/v1/data-records/${bad}`), 400, 'VALIDATION_ERROR', bad);
    }
    expectError(await call('GET', '/v1/data-records/2345-2345-2345'), 404, 'NOT_FOUND');
    expectError(await call('GET', `/v1/data-records/${otherRecordId}`), 404, 'NOT_FOUND');
    expectError(await call('GET', `/v1/data-records/${listedIds[0]}`, undefined, other.apiKey), 404, 'NOT_FOUND');
    // the owning team sees it
    expect(expectOk(await call('GET', `/v1/data-records/${otherRecordId}`, undefined, other.apiKey)).name).toBe('not yours');
  });
});

describe('POST /v1/data-records', () => {
  it('201 with the created record and its computed name', async () => {
    const f = people.fields;
    const res = await call('POST', '/v1/data-records', { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: 'Ada', [f.last_name!]: 'Lovelace', [f.age!]: 36 } });
    const data = expectOk(res, 201);
    expect(Object.keys(data).sort()).toEqual(RECORD_KEYS);
    expect(data).toMatchObject({ dataCollectionSimplyId: people.id, name: 'Ada Lovelace (36)', isArchived: false });
    // a field without a value is left out of `fields`
    expect(data.fields).toEqual({ [f.first_name!]: 'Ada', [f.last_name!]: 'Lovelace', [f.age!]: 36 });
    expect(data.createdAt).toBe(data.updatedAt);
    expect(res.body.meta).not.toHaveProperty('warnings');
    // readable right away
    expect(expectOk(await call('GET', `/v1/data-records/${data.id}`))).toEqual(data);
  });

  it('unknown field keys (labels, column names, random ids) are skipped and listed in meta.warnings', async () => {
    const f = people.fields;
    const res = await call('POST', '/v1/data-records', {
      dataCollectionSimplyId: people.id,
      fields: { [f.first_name!]: 'Grace', last_name: 'Hopper', 'fld-2345-2345-2345': 1, [listed.fields.label!]: 'x' },
    });
    const data = expectOk(res, 201);
    expect(data.fields).toEqual({ [f.first_name!]: 'Grace' });
    expect(data.name).toBe('Grace ()');
    const warnings: string[] = res.body.meta.warnings;
    expect(warnings).toHaveLength(3);
    for (const key of ['last_name', 'fld-2345-2345-2345', listed.fields.label!]) {
      expect(warnings.some((w) => w.includes(`fields.${key}`)), key).toBe(true);
    }
  });

  it('a missing (or empty) required field is 400 naming fields.<dataFieldSimplyId>', async () => {
    const f = people.fields;
    for (const value of [undefined, null, '', '   ']) {
      const fields = value === undefined ? { [f.last_name!]: 'Nobody' } : { [f.first_name!]: value, [f.last_name!]: 'Nobody' };
      const error = expectError(await call('POST', '/v1/data-records', { dataCollectionSimplyId: people.id, fields }), 400, 'VALIDATION_ERROR', String(value));
      expect(error.details).toEqual([{ field: `fields.${f.first_name}`, message: expect.stringContaining('required') }]);
    }
    // nothing was written
    const all = expectOk(await call('GET', `/v1/data-records?dataCollectionSimplyId=${people.id}&limit=100`));
    expect(all.some((r: any) => r.fields[f.last_name!] === 'Nobody')).toBe(false);
  });

  it('null (and a blank string) on create leaves the field empty: it reads like a field never written or cleared later', async () => {
    const f = people.fields;
    const data = await create(people, { [f.first_name!]: 'Blank', [f.last_name!]: null, [f.age!]: '', [f.email!]: '  ' });
    expect(data.fields).toEqual({ [f.first_name!]: 'Blank' });
    expect(data.name).toBe('Blank ()');
    expect(expectOk(await call('GET', `/v1/data-records/${data.id}`)).fields).toEqual({ [f.first_name!]: 'Blank' });
    // the same state reached through an update reads the same
    const later = await create(people, { [f.first_name!]: 'Blank', [f.last_name!]: 'X', [f.age!]: 1, [f.email!]: 'x@example.com' });
    const cleared = expectOk(await call('PATCH', `/v1/data-records/${later.id}`, { fields: { [f.last_name!]: null, [f.age!]: '', [f.email!]: null } }));
    expect(cleared.fields).toEqual(data.fields);
    expect(cleared.name).toBe(data.name);
    // no stored nulls: the event payload shows the same
    const events = await server.app.services.prisma.domainEvent.findMany({ where: { teamId: team.teamId, eventType: 'DATA_RECORD_CREATED' } });
    expect((events.find((e: any) => e.payload.data.id === data.id) as any).payload.data.fields).toEqual({ [f.first_name!]: 'Blank' });
    // and an empty field is empty to search
    const empty = expectOk(
      await call('POST', '/v1/data-records/search', { dataCollectionSimplyId: people.id, filters: [{ field: f.age, operator: 'eq', value: null }, { field: 'calculatedName', operator: 'eq', value: 'blank ()' }] }),
    );
    expect(empty.map((r: any) => r.id).sort()).toEqual([data.id, later.id].sort());
  });

  it('body validation: dataCollectionSimplyId required, fields must be an object, body must be JSON', async () => {
    expectError(await call('POST', '/v1/data-records', { fields: {} }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/data-records', { dataCollectionSimplyId: people.id, fields: [] }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/data-records', { dataCollectionSimplyId: people.id, fields: 'x' }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/data-records', { dataCollectionSimplyId: String(people.internalId), fields: {} }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/data-records', { dataCollectionSimplyId: '2345-2345-2345', fields: { x: 1 } }), 404, 'NOT_FOUND');
    expectError(await call('POST', '/v1/data-records', { dataCollectionSimplyId: otherCollection.id, fields: {} }), 404, 'NOT_FOUND');
    const raw = await server.request('POST', '/v1/data-records', { token: team.apiKey, rawBody: '{not json', headers: { 'content-type': 'application/json' } });
    expectError(raw, 400, 'VALIDATION_ERROR');
  });

  it('the request shapes keep their messages: one detail per problem, naming the field', async () => {
    const shape = (res: TestResponse) => {
      const error = expectError(res, 400, 'VALIDATION_ERROR');
      return { message: error.message, details: error.details };
    };
    expect(shape(await call('GET', '/v1/data-records'))).toEqual({ message: 'dataCollectionSimplyId is required', details: [{ field: 'dataCollectionSimplyId', message: 'is required' }] });
    expect(shape(await call('POST', '/v1/data-records', { fields: {} }))).toEqual({ message: 'dataCollectionSimplyId is required', details: [{ field: 'dataCollectionSimplyId', message: 'is required' }] });
    expect(shape(await call('POST', '/v1/data-records/search', { dataCollectionSimplyId: '' }))).toEqual({ message: 'dataCollectionSimplyId is required', details: [{ field: 'dataCollectionSimplyId', message: 'is required' }] });
    expect(shape(await call('POST', '/v1/data-records', { dataCollectionSimplyId: people.id, fields: [] })).details).toEqual([{ field: 'fields', message: 'must be an object' }]);
    expect(shape(await call('PATCH', '/v1/data-records/batch', { records: {} }))).toEqual({ message: 'records must be an array', details: [{ field: 'records', message: 'must be an array' }] });
    expect(shape(await call('DELETE', '/v1/data-records/batch', { dataRecordSimplyIds: 'x' }))).toEqual({ message: 'dataRecordSimplyIds must be an array', details: [{ field: 'dataRecordSimplyIds', message: 'must be an array' }] });
    expect(shape(await call('POST', '/v1/data-records', [])).message).toBe('The request body must be a JSON object');
    expect(shape(await call('POST', '/v1/data-records')).message).toBe('This route needs a JSON body');
    expect(shape(await call('GET', `/v1/data-records?dataCollectionSimplyId=${people.id}&limit=x`))).toEqual({ message: 'limit must be an integer', details: [{ field: 'limit', message: 'must be an integer' }] });
  });

  it('invalid values are 400 naming each field', async () => {
    const f = people.fields;
    const error = expectError(
      await call('POST', '/v1/data-records', { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: 'X', [f.age!]: 'old', [f.email!]: 'nope' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details?.map((d) => d.field).sort()).toEqual([`fields.${f.age}`, `fields.${f.email}`].sort());
  });
});

describe('PATCH and PUT /v1/data-records/{id}', () => {
  let id: string;
  let before: any;

  beforeAll(async () => {
    const f = people.fields;
    before = await create(people, { [f.first_name!]: 'Alan', [f.last_name!]: 'Turing', [f.age!]: 41, [f.email!]: 'alan@example.com' });
    id = before.id;
  });

  it('PATCH writes only the supplied fields and recomputes the name', async () => {
    const f = people.fields;
    const res = await call('PATCH', `/v1/data-records/${id}`, { fields: { [f.age!]: 42 } });
    const data = expectOk(res);
    expect(data.fields).toEqual({ ...before.fields, [f.age!]: 42 });
    expect(data.name).toBe('Alan Turing (42)');
    expect(data.createdAt).toBe(before.createdAt);
    expect(new Date(data.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());
    expect(res.body.meta).not.toHaveProperty('warnings');
    expect(expectOk(await call('GET', `/v1/data-records/${id}`))).toEqual(data);
  });

  it('PUT merges the same way: omitted fields are left unchanged', async () => {
    const f = people.fields;
    const data = expectOk(await call('PUT', `/v1/data-records/${id}`, { fields: { [f.first_name!]: 'Alan M.' } }));
    expect(data.fields).toEqual({ [f.first_name!]: 'Alan M.', [f.last_name!]: 'Turing', [f.age!]: 42, [f.email!]: 'alan@example.com' });
    expect(data.name).toBe('Alan M. Turing (42)');
    // an empty fields object changes nothing
    const same = expectOk(await call('PUT', `/v1/data-records/${id}`, { fields: {} }));
    expect(same.fields).toEqual(data.fields);
    expect(same.updatedAt).toBe(data.updatedAt);
  });

  it('null (or a blank string) clears a field, through PATCH and PUT', async () => {
    const f = people.fields;
    const cleared = expectOk(await call('PATCH', `/v1/data-records/${id}`, { fields: { [f.last_name!]: null } }));
    expect(cleared.fields).not.toHaveProperty(f.last_name!);
    expect(cleared.fields[f.first_name!]).toBe('Alan M.');
    expect(cleared.name).toBe('Alan M. (42)');
    const put = expectOk(await call('PUT', `/v1/data-records/${id}`, { fields: { [f.age!]: '', [f.email!]: null } }));
    expect(put.fields).toEqual({ [f.first_name!]: 'Alan M.' });
    expect(put.name).toBe('Alan M. ()');
    expect(expectOk(await call('GET', `/v1/data-records/${id}`)).fields).toEqual(put.fields);
  });

  it('clearing a required field is 400 naming it (PATCH and PUT); the record is unchanged', async () => {
    const f = people.fields;
    const current = expectOk(await call('GET', `/v1/data-records/${id}`));
    for (const method of ['PATCH', 'PUT']) {
      for (const value of [null, '']) {
        const error = expectError(await call(method, `/v1/data-records/${id}`, { fields: { [f.first_name!]: value, [f.age!]: 1 } }), 400, 'VALIDATION_ERROR', method);
        expect(error.details).toEqual([{ field: `fields.${f.first_name}`, message: expect.stringContaining('cannot be cleared') }]);
      }
    }
    expect(expectOk(await call('GET', `/v1/data-records/${id}`))).toEqual(current);
  });

  it('unknown keys are skipped with warnings; invalid values 400; unknown, foreign and malformed ids', async () => {
    const f = people.fields;
    const res = await call('PATCH', `/v1/data-records/${id}`, { fields: { [f.last_name!]: 'Turing', nope: 1 } });
    expect(expectOk(res).fields[f.last_name!]).toBe('Turing');
    expect(res.body.meta.warnings).toEqual([expect.stringContaining('fields.nope')]);

    const bad = expectError(await call('PATCH', `/v1/data-records/${id}`, { fields: { [f.age!]: 1.5 } }), 400, 'VALIDATION_ERROR');
    expect(bad.details).toEqual([{ field: `fields.${f.age}`, message: expect.any(String) }]);
    expectError(await call('PATCH', `/v1/data-records/${id}`, { fields: [] }), 400, 'VALIDATION_ERROR');

    for (const method of ['PATCH', 'PUT']) {
      expectError(await call(method, '/v1/data-records/2345-2345-2345', { fields: {} }), 404, 'NOT_FOUND', method);
      expectError(await call(method, `/v1/data-records/${otherRecordId}`, { fields: {} }), 404, 'NOT_FOUND', method);
      expectError(await call(method, '/v1/data-records/12345', { fields: {} }), 400, 'VALIDATION_ERROR', method);
    }
    // the foreign record is untouched
    expect(expectOk(await call('GET', `/v1/data-records/${otherRecordId}`, undefined, other.apiKey)).name).toBe('not yours');
  });

  it('concurrent updates of different fields of one record are all kept (no lost update)', async () => {
    const f = people.fields;
    const target = await create(people, { [f.first_name!]: 'Con' });
    const writes: Record<string, unknown>[] = [{ [f.last_name!]: 'Current' }, { [f.age!]: 99 }, { [f.email!]: 'con@example.com' }, { [f.first_name!]: 'Conny' }];
    const results = await Promise.all(writes.map((fields) => call('PATCH', `/v1/data-records/${target.id}`, { fields })));
    for (const res of results) expectOk(res);
    const final = expectOk(await call('GET', `/v1/data-records/${target.id}`));
    expect(final.fields).toEqual({ [f.first_name!]: 'Conny', [f.last_name!]: 'Current', [f.age!]: 99, [f.email!]: 'con@example.com' });
    expect(final.name).toBe('Conny Current (99)');
  });

  it('name and other read-only properties in the body are not written', async () => {
    const f = people.fields;
    const res = await call('PATCH', `/v1/data-records/${id}`, { fields: { [f.age!]: 50 }, name: 'Hacked', isArchived: true, createdAt: '2000-01-01T00:00:00Z' });
    const data = expectOk(res);
    expect(data.name).toBe('Alan M. Turing (50)');
    expect(data.isArchived).toBe(false);
    expect(data.createdAt).toBe(before.createdAt);
  });
});

describe('DELETE /v1/data-records/{id}', () => {
  it('soft deletes: gone from list, get, search and batch update; a second delete is 404; the row stays', async () => {
    const f = people.fields;
    const victim = await create(people, { [f.first_name!]: 'Zed', [f.last_name!]: 'Doomed' });
    const survivor = await create(people, { [f.first_name!]: 'Zed', [f.last_name!]: 'Survivor' });
    const searchZed = () => call('POST', '/v1/data-records/search', { dataCollectionSimplyId: people.id, query: 'zed' });
    expect(expectOk(await searchZed())).toHaveLength(2);

    const res = await call('DELETE', `/v1/data-records/${victim.id}`);
    expect(expectOk(res)).toMatchObject({ id: victim.id, deleted: true });

    expectError(await call('GET', `/v1/data-records/${victim.id}`), 404, 'NOT_FOUND');
    const listing = expectOk(await call('GET', `/v1/data-records?dataCollectionSimplyId=${people.id}&limit=100`));
    expect(listing.map((r: any) => r.id)).not.toContain(victim.id);
    expect(listing.map((r: any) => r.id)).toContain(survivor.id);
    const searched = await searchZed();
    expect(expectOk(searched).map((r: any) => r.id)).toEqual([survivor.id]);
    expect(searched.body.meta.pagination.total).toBe(1);

    const batch = expectOk(await call('PATCH', '/v1/data-records/batch', { records: [{ dataRecordSimplyId: victim.id, fields: { [f.age!]: 1 } }] }));
    expect(batch).toMatchObject({ updated: 0, failed: 1 });
    expect(batch.results[0]).toMatchObject({ index: 0, ok: false, dataRecordSimplyId: victim.id, error: { code: 'NOT_FOUND', status: 404 } });
    expectError(await call('PATCH', `/v1/data-records/${victim.id}`, { fields: { [f.age!]: 1 } }), 404, 'NOT_FOUND');

    expectError(await call('DELETE', `/v1/data-records/${victim.id}`), 404, 'NOT_FOUND');

    const row = await server.app.services.prisma.dataRecord.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: victim.id } });
    expect(row.deletedAt).toBeInstanceOf(Date);
    const event = await server.app.services.prisma.domainEvent.findMany({ where: { teamId: team.teamId, eventType: 'DATA_RECORD_DELETED' } });
    expect(event.filter((e: any) => e.payload.data.id === victim.id)).toHaveLength(1);
  });

  it('unknown, foreign and malformed ids', async () => {
    expectError(await call('DELETE', '/v1/data-records/2345-2345-2345'), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/v1/data-records/${otherRecordId}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', '/v1/data-records/12345'), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call('GET', `/v1/data-records/${otherRecordId}`, undefined, other.apiKey)).id).toBe(otherRecordId);
  });
});

describe('POST /v1/create-menu/data-records', () => {
  it('formData keyed by columnName or field simplyId; blank inputs mean no value; 201', async () => {
    const f = people.fields;
    const res = await call('POST', '/v1/create-menu/data-records', {
      dataCollectionSimplyId: people.id,
      formData: { first_name: 'Menu', [f.last_name!]: 'Made', age: '33', email: '' },
    });
    const data = expectOk(res, 201);
    expect(data.fields).toEqual({ [f.first_name!]: 'Menu', [f.last_name!]: 'Made', [f.age!]: 33 });
    expect(data.name).toBe('Menu Made (33)');
    expect(res.body.meta).not.toHaveProperty('warnings');
    expect(expectOk(await call('GET', `/v1/data-records/${data.id}`)).fields).toEqual(data.fields);
    // it is a normal create: one DATA_RECORD_CREATED event
    const events = await server.app.services.prisma.domainEvent.findMany({ where: { teamId: team.teamId, eventType: 'DATA_RECORD_CREATED' } });
    expect(events.filter((e: any) => e.payload.data.id === data.id)).toHaveLength(1);
  });

  it('unknown keys warn; required and invalid values are 400 naming fields.<simplyId>; collections are checked', async () => {
    const f = people.fields;
    const res = await call('POST', '/v1/create-menu/data-records', { dataCollectionSimplyId: people.id, formData: { first_name: 'Menu2', shoe_size: '44' } });
    expectOk(res, 201);
    expect(res.body.meta.warnings).toEqual([expect.stringContaining('shoe_size')]);

    const missing = expectError(await call('POST', '/v1/create-menu/data-records', { dataCollectionSimplyId: people.id, formData: { first_name: '', last_name: 'X' } }), 400, 'VALIDATION_ERROR');
    expect(missing.details).toEqual([{ field: `fields.${f.first_name}`, message: expect.stringContaining('required') }]);
    const invalid = expectError(await call('POST', '/v1/create-menu/data-records', { dataCollectionSimplyId: people.id, formData: { first_name: 'A', age: 'ten' } }), 400, 'VALIDATION_ERROR');
    expect(invalid.details).toEqual([{ field: `fields.${f.age}`, message: expect.any(String) }]);

    expectError(await call('POST', '/v1/create-menu/data-records', { formData: { first_name: 'A' } }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/create-menu/data-records', { dataCollectionSimplyId: people.id, formData: ['x'] }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/create-menu/data-records', { dataCollectionSimplyId: otherCollection.id, formData: { label: 'A' } }), 404, 'NOT_FOUND');
  });
});

describe('SMART collections', () => {
  it('list and search follow the criteria as records change; creating in a SMART collection is 400', async () => {
    const tasks = await createCollection(server, team, {
      name: 'Tasks',
      formula: '{title}',
      fields: {
        title: REQUIRED_TEXT,
        priority: 'NUMBER',
      },
    });
    const urgent = await createSmartCollection(server, team, 'Urgent', tasks, [{ field: tasks.fields.priority, operator: 'gte', value: 5 }]);
    const { title, priority } = tasks.fields;
    const a = await create(tasks, { [title!]: 'A', [priority!]: 9 });
    const b = await create(tasks, { [title!]: 'B', [priority!]: 1 });
    const members = async () => (expectOk(await call('GET', `/v1/data-records?dataCollectionSimplyId=${urgent.id}&sort=calculatedName`)) as any[]).map((r) => r.name);

    const [first] = expectOk(await call('GET', `/v1/data-records?dataCollectionSimplyId=${urgent.id}`));
    expect(first).toMatchObject({ id: a.id, dataCollectionSimplyId: tasks.id, fields: { [title!]: 'A', [priority!]: 9 } });
    expect(await members()).toEqual(['A']);

    expectOk(await call('PATCH', `/v1/data-records/${b.id}`, { fields: { [priority!]: 7 } }));
    expect(await members()).toEqual(['A', 'B']);
    expectOk(await call('PATCH', `/v1/data-records/${a.id}`, { fields: { [priority!]: null } }));
    expect(await members()).toEqual(['B']);
    const searched = expectOk(await call('POST', '/v1/data-records/search', { dataCollectionSimplyId: urgent.id, filters: [{ field: priority, operator: 'eq', value: 7 }] }));
    expect(searched.map((r: any) => r.id)).toEqual([b.id]);

    const error = expectError(await call('POST', '/v1/data-records', { dataCollectionSimplyId: urgent.id, fields: { [title!]: 'C', [priority!]: 9 } }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([expect.objectContaining({ field: 'dataCollectionSimplyId' })]);

    expectOk(await call('DELETE', `/v1/data-records/${b.id}`));
    expect(await members()).toEqual([]);
    // the source still lists A
    const source = expectOk(await call('GET', `/v1/data-records?dataCollectionSimplyId=${tasks.id}`));
    expect(source.map((r: any) => r.id)).toEqual([a.id]);
  });
});
