// The GraphQL face of records: every query and mutation answers with the semantics of its REST
// twin (rest-adapter/routes/records.ts), and its errors carry extensions.code (and status).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createRole, startServerWithTeam, unique, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { createPeople, readRecord } from '../support/record-fixtures.ts';
import { teamRoleId } from '../../src/modules/team-roles/team-roles.ids.ts';

const RECORD = 'id dataRecordSimplyId dataCollectionSimplyId name fields isArchived createdAt updatedAt';
const BATCH = `operation succeeded failed warnings results { index ok dataRecordSimplyId record { ${RECORD} } error { code status message details } }`;
const PAGE = `nodes { ${RECORD} } pagination { total limit offset hasMore } totalCount`;
const CONNECTION = `edges { cursor node { id name } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount`;

const Q = {
  get: `query ($id: String!, $fields: [String!]) { dataRecord(dataRecordSimplyId: $id, fields: $fields) { ${RECORD} collection { id name } fieldDefinitions { dataFieldSimplyId columnName } } }`,
  list: `query ($c: String!, $limit: Int, $offset: Int, $after: String, $sort: String, $fields: [String!]) {
    dataRecords(dataCollectionSimplyId: $c, limit: $limit, offset: $offset, after: $after, sort: $sort, fields: $fields) { ${PAGE} ${CONNECTION} } }`,
  search: `query ($input: DataRecordSearchInput!, $after: String) { searchDataRecords(input: $input, after: $after) { ${PAGE} ${CONNECTION} } }`,
  create: `mutation ($c: String!, $fields: JSON) { createDataRecord(dataCollectionSimplyId: $c, fields: $fields) { record { ${RECORD} } warnings } }`,
  update: `mutation ($id: String!, $fields: JSON) { updateDataRecord(dataRecordSimplyId: $id, fields: $fields) { record { ${RECORD} } warnings } }`,
  delete: `mutation ($id: String!) { deleteDataRecord(dataRecordSimplyId: $id) { id dataRecordSimplyId deleted } }`,
  batchCreate: `mutation ($c: String!, $records: [JSON!]!) { batchCreateDataRecords(dataCollectionSimplyId: $c, records: $records) { ${BATCH} } }`,
  batchUpdate: `mutation ($records: [DataRecordUpdateItemInput!]!) { batchUpdateDataRecords(records: $records) { ${BATCH} } }`,
  batchDelete: `mutation ($ids: [String!]!) { batchDeleteDataRecords(dataRecordSimplyIds: $ids) { ${BATCH} } }`,
  menu: `mutation ($c: String!, $formData: JSON) { createMenuDataRecord(dataCollectionSimplyId: $c, formData: $formData) { record { ${RECORD} } warnings } }`,
};

let server: TestServer;
let team: TeamFixture;
let people: CollectionFixture;
let secrets: CollectionFixture;
let f: Record<string, string>;

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  people = await createPeople(server, team, `People ${unique()}`);
  secrets = await createCollection(server, team, { name: 'Secrets', formula: '{title}', fields: { title: 'PLAIN_TEXT' } });
  f = people.fields;
});
afterAll(() => server?.close());

const gql = <T = any>(query: string, variables: Record<string, unknown> = {}, token = team.apiKey) => server.graphql<T>(query, variables, { token });

async function gqlCreate(fields: Record<string, unknown>, collection = people.id) {
  return gqlData(await gql(Q.create, { c: collection, fields })).createDataRecord as { record: any; warnings: string[] };
}

const restGet = (id: string) => readRecord(server, team.apiKey, id);

describe('single-record mutations and dataRecord', () => {
  it('createDataRecord stores and answers like POST /v1/data-records, unknown keys as warnings', async () => {
    const fields = { [f.first_name!]: 'Ada', [f.last_name!]: 'Lovelace', [f.age!]: 36, [f.balance!]: '12.5', nope: 1, 'ZZZZ-ZZZZ-ZZZZ': 'x' };
    const viaGraphql = await gqlCreate(fields);
    const viaRest = await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields } });
    const restData = expectOk(viaRest, 201);

    expect(viaGraphql.warnings).toEqual(['fields.nope is not a field of this collection and was skipped', 'fields.ZZZZ-ZZZZ-ZZZZ is not a field of this collection and was skipped']);
    expect(viaRest.body.meta.warnings).toEqual(viaGraphql.warnings);
    const strip = (r: any) => ({ ...r, id: undefined, dataRecordSimplyId: undefined, createdAt: undefined, updatedAt: undefined });
    expect(strip(viaGraphql.record)).toEqual(strip(restData));
    expect(viaGraphql.record).toMatchObject({
      id: viaGraphql.record.dataRecordSimplyId,
      dataCollectionSimplyId: people.id,
      name: 'Ada Lovelace',
      fields: { [f.first_name!]: 'Ada', [f.last_name!]: 'Lovelace', [f.age!]: 36, [f.balance!]: '12.50' },
      isArchived: false,
    });

    // what GraphQL created, REST reads back identically, and vice versa
    expect(await restGet(viaGraphql.record.id)).toEqual(viaGraphql.record);
    const got = gqlData(await gql(Q.get, { id: restData.id })).dataRecord;
    const { collection, fieldDefinitions, ...record } = got;
    expect(record).toEqual(restData);
    expect(collection.id).toBe(people.id);
    expect(fieldDefinitions.map((d: any) => d.columnName)).toEqual(['first_name', 'last_name', 'age', 'balance']);
  });

  it('a create without warnings answers warnings: []', async () => {
    expect((await gqlCreate({ [f.first_name!]: 'Plain' })).warnings).toEqual([]);
  });

  it('dataRecord projects `fields` like ?fields=', async () => {
    const { record } = await gqlCreate({ [f.first_name!]: 'Grace', [f.age!]: 85 });
    const got = gqlData(await gql(Q.get, { id: record.id, fields: [f.age] })).dataRecord;
    expect(got.fields).toEqual({ [f.age!]: 85 });
    expect(got.fieldDefinitions.map((d: any) => d.dataFieldSimplyId)).toEqual([f.age]);
    const rest = expectOk(await server.request('GET', `/v1/data-records/${record.id}?fields=${f.age}`, { token: team.apiKey }));
    expect(rest.fields).toEqual(got.fields);
  });

  it('updateDataRecord merges: only supplied fields change, null clears, the name is recomputed', async () => {
    const { record } = await gqlCreate({ [f.first_name!]: 'Alan', [f.last_name!]: 'Turing', [f.age!]: 41 });
    const updated = gqlData(await gql(Q.update, { id: record.id, fields: { [f.age!]: 42, [f.last_name!]: null, bogus: true } })).updateDataRecord;
    expect(updated.warnings).toEqual(['fields.bogus is not a field of this collection and was skipped']);
    expect(updated.record.fields).toEqual({ [f.first_name!]: 'Alan', [f.age!]: 42 });
    expect(updated.record.name).toBe('Alan');
    expect(new Date(updated.record.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(record.updatedAt).getTime());
    expect(await restGet(record.id)).toEqual(updated.record);

    // REST PATCH and PUT merge the same way on the same record
    const patched = expectOk(await server.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.last_name!]: 'Turing' } } }));
    expect(patched.fields).toEqual({ [f.first_name!]: 'Alan', [f.last_name!]: 'Turing', [f.age!]: 42 });
    const put = expectOk(await server.request('PUT', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.age!]: 43 } } }));
    expect(put.fields).toEqual({ [f.first_name!]: 'Alan', [f.last_name!]: 'Turing', [f.age!]: 43 });
    const again = gqlData(await gql(Q.update, { id: record.id, fields: {} })).updateDataRecord;
    expect(again.record).toEqual(put);
  });

  it('deleteDataRecord soft-deletes: gone from dataRecord, dataRecords, search and REST', async () => {
    const { record } = await gqlCreate({ [f.first_name!]: `Doomed ${unique()}` });
    const deleted = gqlData(await gql(Q.delete, { id: record.id })).deleteDataRecord;
    expect(deleted).toEqual({ id: record.id, dataRecordSimplyId: record.id, deleted: true });
    expectGqlError(await gql(Q.get, { id: record.id }), 'NOT_FOUND', 404);
    expectError(await server.request('GET', `/v1/data-records/${record.id}`, { token: team.apiKey }), 404, 'NOT_FOUND');
    const list = gqlData(await gql(Q.list, { c: people.id, limit: 100 })).dataRecords;
    expect(list.nodes.map((n: any) => n.id)).not.toContain(record.id);
    const search = gqlData(await gql(Q.search, { input: { dataCollectionSimplyId: people.id, query: record.name } })).searchDataRecords;
    expect(search.nodes).toEqual([]);
    // deleting twice, updating a deleted record: NOT_FOUND on both faces
    expectGqlError(await gql(Q.delete, { id: record.id }), 'NOT_FOUND', 404);
    expectError(await server.request('DELETE', `/v1/data-records/${record.id}`, { token: team.apiKey }), 404, 'NOT_FOUND');
    expectGqlError(await gql(Q.update, { id: record.id, fields: { [f.age!]: 1 } }), 'NOT_FOUND', 404);
  });

  it('createMenuDataRecord takes formData keyed by columnName or field simplyId', async () => {
    const result = gqlData(await gql(Q.menu, { c: people.id, formData: { first_name: 'Menu', [f.last_name!]: 'Made', age: 7, what: 1 } })).createMenuDataRecord;
    expect(result.record.fields).toEqual({ [f.first_name!]: 'Menu', [f.last_name!]: 'Made', [f.age!]: 7 });
    expect(result.record.name).toBe('Menu Made');
    expect(result.warnings).toEqual(['fields.what is not a field of this collection and was skipped']);
    const rest = await server.request('POST', '/v1/create-menu/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, formData: { first_name: 'Menu2' } } });
    expect(expectOk(rest, 201).fields).toEqual({ [f.first_name!]: 'Menu2' });
    expectGqlError(await gql(Q.menu, { c: people.id, formData: ['x'] }), 'VALIDATION_ERROR', 400);
  });
});

describe('errors carry extensions.code and status, as REST carries error.code', () => {
  it('VALIDATION_ERROR: missing required field, bad value, malformed ids; details name the field', async () => {
    const missing = await gql(Q.create, { c: people.id, fields: { [f.age!]: 3 } });
    expectGqlError(missing, 'VALIDATION_ERROR', 400);
    expect(JSON.stringify(missing.errors![0]!.extensions!.details)).toContain(f.first_name);
    const rest = expectError(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [f.age!]: 3 } } }), 400, 'VALIDATION_ERROR');
    expect(rest.details).toEqual(missing.errors![0]!.extensions!.details);

    const bad = await gql(Q.create, { c: people.id, fields: { [f.first_name!]: 'X', [f.age!]: 'old' } });
    expectGqlError(bad, 'VALIDATION_ERROR', 400);
    expect(JSON.stringify(bad.errors![0]!.extensions!.details)).toContain(f.age);

    const { record } = await gqlCreate({ [f.first_name!]: 'Valid' });
    const badUpdate = await gql(Q.update, { id: record.id, fields: { [f.age!]: 'NaN' } });
    expectGqlError(badUpdate, 'VALIDATION_ERROR', 400);
    expect((await restGet(record.id)).fields).toEqual({ [f.first_name!]: 'Valid' });
    expectGqlError(await gql(Q.update, { id: record.id, fields: { [f.first_name!]: null } }), 'VALIDATION_ERROR', 400);

    expectGqlError(await gql(Q.get, { id: 'not-an-id' }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(Q.update, { id: 'nope', fields: {} }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(Q.delete, { id: 'nope' }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(Q.list, { c: 'nope' }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(Q.list, { c: people.id, limit: 0 }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(Q.list, { c: people.id, limit: 101 }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(Q.create, { c: people.id, fields: [1, 2] }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(Q.batchCreate, { c: people.id, records: [] }), 'VALIDATION_ERROR', 400);
  });

  it('NOT_FOUND: unknown record, unknown collection', async () => {
    expectGqlError(await gql(Q.get, { id: 'ZZZZ-ZZZZ-ZZZZ' }), 'NOT_FOUND', 404);
    expectGqlError(await gql(Q.list, { c: 'ZZZZ-ZZZZ-ZZZZ' }), 'NOT_FOUND', 404);
    expectGqlError(await gql(Q.create, { c: 'ZZZZ-ZZZZ-ZZZZ', fields: {} }), 'NOT_FOUND', 404);
    expectGqlError(await gql(Q.search, { input: { dataCollectionSimplyId: 'ZZZZ-ZZZZ-ZZZZ' } }), 'NOT_FOUND', 404);
  });

  it('PERMISSION_DENIED: a read-only role cannot write, a role without the collection cannot read it', async () => {
    const roleId = await createRole(server, team, { name: `People readers ${unique()}`, dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
    const reader = (await createApiKey(server, team, { name: 'reader', teamRoleSimplyId: roleId })).key;
    const secret = (await gqlCreate({ [secrets.fields.title!]: 'hidden' }, secrets.id)).record;
    const { record } = await gqlCreate({ [f.first_name!]: 'Readable' });

    // reads of the granted collection work
    expect(gqlData(await gql(Q.get, { id: record.id }, reader)).dataRecord.name).toBe('Readable');
    expect(gqlData(await gql(Q.list, { c: people.id, limit: 1 }, reader)).dataRecords.nodes).toHaveLength(1);
    // writes do not
    expectGqlError(await gql(Q.create, { c: people.id, fields: { [f.first_name!]: 'No' } }, reader), 'PERMISSION_DENIED', 403);
    expectGqlError(await gql(Q.update, { id: record.id, fields: { [f.age!]: 1 } }, reader), 'PERMISSION_DENIED', 403);
    expectGqlError(await gql(Q.delete, { id: record.id }, reader), 'PERMISSION_DENIED', 403);
    expectGqlError(await gql(Q.menu, { c: people.id, formData: { first_name: 'No' } }, reader), 'PERMISSION_DENIED', 403);
    expectGqlError(await gql(Q.batchCreate, { c: people.id, records: [{ fields: { [f.first_name!]: 'No' } }] }, reader), 'PERMISSION_DENIED', 403);
    const batchUpdate = gqlData(await gql(Q.batchUpdate, { records: [{ dataRecordSimplyId: record.id, fields: { [f.age!]: 1 } }] }, reader)).batchUpdateDataRecords;
    expect(batchUpdate.results[0].error.code).toBe('PERMISSION_DENIED');
    expect(batchUpdate.results[0].error.status).toBe(403);
    expectError(await server.request('PATCH', `/v1/data-records/${record.id}`, { token: reader, body: { fields: { [f.age!]: 1 } } }), 403, 'PERMISSION_DENIED');
    // another collection is not readable at all
    expectGqlError(await gql(Q.get, { id: secret.id }, reader), 'PERMISSION_DENIED', 403);
    expectGqlError(await gql(Q.list, { c: secrets.id }, reader), 'PERMISSION_DENIED', 403);
    expectGqlError(await gql(Q.search, { input: { dataCollectionSimplyId: secrets.id } }, reader), 'PERMISSION_DENIED', 403);
    expectError(await server.request('GET', `/v1/data-records/${secret.id}`, { token: reader }), 403, 'PERMISSION_DENIED');
    // nothing was written
    expect((await restGet(record.id)).fields).toEqual({ [f.first_name!]: 'Readable' });

    // a key without any team role cannot touch records at all
    const roleless = (await createApiKey(server, team, { name: 'no role' })).key;
    expectGqlError(await gql(Q.get, { id: record.id }, roleless), 'PERMISSION_DENIED', 403);
  });

  it('a field the role hides is neither shown nor writable', async () => {
    // written straight to the database: POST /v1/team-roles with fieldPermissions answers 500
    // today (team-roles.service.ts passes teamId inside the nested fieldPermissions create)
    const role = await server.app.services.prisma.teamRole.create({
      data: {
        teamId: team.teamId,
        simplyId: teamRoleId.create(),
        name: `Narrow ${unique()}`,
        dataPermissions: { create: [{ dataCollectionSimplyId: people.id, level: 'EDIT' }] },
        fieldPermissions: { create: [{ dataFieldSimplyId: f.balance!, level: 'NONE' }, { dataFieldSimplyId: f.age!, level: 'READ' }] },
      },
    });
    const roleId = role.simplyId;
    const narrow = (await createApiKey(server, team, { name: 'narrow', teamRoleSimplyId: roleId })).key;
    const { record } = await gqlCreate({ [f.first_name!]: 'Rich', [f.age!]: 50, [f.balance!]: '1000' });
    const got = gqlData(await gql(Q.get, { id: record.id }, narrow)).dataRecord;
    expect(got.fields).toEqual({ [f.first_name!]: 'Rich', [f.age!]: 50 });
    expect(got.fieldDefinitions.map((d: any) => d.columnName)).toEqual(['first_name', 'last_name', 'age']);
    expectGqlError(await gql(Q.update, { id: record.id, fields: { [f.age!]: 51 } }, narrow), 'PERMISSION_DENIED', 403);
    expect(gqlData(await gql(Q.update, { id: record.id, fields: { [f.last_name!]: 'Person' } }, narrow)).updateDataRecord.record.fields).toEqual({
      [f.first_name!]: 'Rich',
      [f.last_name!]: 'Person',
      [f.age!]: 50,
    });
    expect((await restGet(record.id)).fields[f.balance!]).toBe('1000.00');
  });
});

describe('batch mutations', () => {
  it('batchCreateDataRecords: per-item results in input order; a bad item fails alone; same as POST /batch', async () => {
    const records = [{ fields: { [f.first_name!]: 'B1', x: 1 } }, { fields: { [f.age!]: 'x' } }, { fields: { [f.first_name!]: 'B3', [f.age!]: 3 } }];
    const result = gqlData(await gql(Q.batchCreate, { c: people.id, records })).batchCreateDataRecords;
    expect(result).toMatchObject({ operation: 'CREATE', succeeded: 2, failed: 1, warnings: ['records[0].fields.x is not a field of this collection and was skipped'] });
    expect(result.results.map((r: any) => [r.index, r.ok])).toEqual([[0, true], [1, false], [2, true]]);
    expect(result.results[0].record.name).toBe('B1');
    expect(result.results[0].dataRecordSimplyId).toBe(result.results[0].record.id);
    expect(result.results[1]).toMatchObject({ dataRecordSimplyId: null, record: null, error: { code: 'VALIDATION_ERROR', status: 400 } });
    expect(JSON.stringify(result.results[1].error.details)).toContain('records[1].fields');
    expect(result.results[2].record.fields).toEqual({ [f.first_name!]: 'B3', [f.age!]: 3 });
    expect(await restGet(result.results[2].record.id)).toEqual(result.results[2].record);

    const rest = await server.request('POST', '/v1/data-records/batch', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, records } });
    const data = expectOk(rest);
    expect(data.created).toBe(2);
    expect(data.failed).toBe(1);
    expect(rest.body.meta.warnings).toEqual(result.warnings);
    expect(data.results.map((r: any) => [r.index, r.ok, r.error?.code ?? null])).toEqual([[0, true, null], [1, false, 'VALIDATION_ERROR'], [2, true, null]]);
    expect(data.results[1].error.details).toEqual(result.results[1].error.details);
  });

  it('batchUpdateDataRecords merges per item; unknown, malformed and duplicate ids fail alone', async () => {
    const [a, b] = [(await gqlCreate({ [f.first_name!]: 'U1', [f.age!]: 1 })).record, (await gqlCreate({ [f.first_name!]: 'U2', [f.last_name!]: 'Two' })).record];
    const result = gqlData(
      await gql(Q.batchUpdate, {
        records: [
          { dataRecordSimplyId: a.id, fields: { [f.age!]: 2 } },
          { dataRecordSimplyId: 'ZZZZ-ZZZZ-ZZZZ', fields: { [f.age!]: 2 } },
          { dataRecordSimplyId: b.id, fields: { [f.last_name!]: null, y: 0 } },
          { dataRecordSimplyId: 'bad', fields: {} },
          { dataRecordSimplyId: a.id, fields: { [f.age!]: 3 } },
          { dataRecordSimplyId: b.id, fields: { [f.age!]: 'not a number' } },
        ],
      }),
    ).batchUpdateDataRecords;
    expect(result).toMatchObject({ operation: 'UPDATE', succeeded: 2, failed: 4, warnings: ['records[2].fields.y is not a field of this collection and was skipped'] });
    expect(result.results.map((r: any) => [r.index, r.ok, r.error?.code ?? null, r.dataRecordSimplyId])).toEqual([
      [0, true, null, a.id],
      [1, false, 'NOT_FOUND', 'ZZZZ-ZZZZ-ZZZZ'],
      [2, true, null, b.id],
      [3, false, 'VALIDATION_ERROR', 'bad'],
      [4, false, 'VALIDATION_ERROR', a.id],
      [5, false, 'VALIDATION_ERROR', b.id],
    ]);
    expect((await restGet(a.id)).fields).toEqual({ [f.first_name!]: 'U1', [f.age!]: 2 });
    expect((await restGet(b.id)).fields).toEqual({ [f.first_name!]: 'U2' });

    const rest = expectOk(await server.request('PATCH', '/v1/data-records/batch', { token: team.apiKey, body: { records: [{ dataRecordSimplyId: a.id, fields: { [f.age!]: 9 } }, { dataRecordSimplyId: 'ZZZZ-ZZZZ-ZZZZ', fields: {} }] } }));
    expect(rest).toMatchObject({ updated: 1, failed: 1 });
    expect(rest.results[0].record.fields[f.age!]).toBe(9);
    expect(rest.results[1].error.code).toBe('NOT_FOUND');
  });

  it('batchDeleteDataRecords deletes what it can and reports the rest', async () => {
    const [a, b] = [(await gqlCreate({ [f.first_name!]: 'D1' })).record, (await gqlCreate({ [f.first_name!]: 'D2' })).record];
    const result = gqlData(await gql(Q.batchDelete, { ids: [a.id, 'ZZZZ-ZZZZ-ZZZZ', a.id, 'x', b.id] })).batchDeleteDataRecords;
    expect(result).toMatchObject({ operation: 'DELETE', succeeded: 2, failed: 3, warnings: [] });
    expect(result.results.map((r: any) => [r.index, r.ok, r.error?.code ?? null])).toEqual([
      [0, true, null],
      [1, false, 'NOT_FOUND'],
      [2, false, 'NOT_FOUND'],
      [3, false, 'VALIDATION_ERROR'],
      [4, true, null],
    ]);
    for (const id of [a.id, b.id]) expectGqlError(await gql(Q.get, { id }), 'NOT_FOUND', 404);
    const rest = expectOk(await server.request('DELETE', '/v1/data-records/batch', { token: team.apiKey, body: { dataRecordSimplyIds: [a.id] } }));
    expect(rest).toMatchObject({ deleted: 0, failed: 1 });
    expect(rest.results[0].error.code).toBe('NOT_FOUND');
  });
});

describe('lists, search and connection paging', () => {
  let coll: CollectionFixture;
  const ids: string[] = [];
  beforeAll(async () => {
    coll = await createCollection(server, team, {
      name: 'Paged',
      formula: '{label}',
      fields: {
        label: 'PLAIN_TEXT',
        n: 'NUMBER',
      },
    });
    const created = gqlData(
      await gql(Q.batchCreate, { c: coll.id, records: Array.from({ length: 7 }, (_, i) => ({ fields: { [coll.fields.label!]: `item ${i}`, [coll.fields.n!]: i } })) }),
    ).batchCreateDataRecords;
    expect(created.succeeded).toBe(7);
    ids.push(...created.results.map((r: any) => r.record.id));
  });

  it('dataRecords: nodes + pagination are exactly GET /v1/data-records', async () => {
    const page = gqlData(await gql(Q.list, { c: coll.id, limit: 3, offset: 2, sort: 'calculatedName' })).dataRecords;
    const rest = await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${coll.id}&limit=3&offset=2&sort=calculatedName`, { token: team.apiKey });
    expect(page.nodes).toEqual(expectOk(rest));
    expect(page.pagination).toEqual(rest.body.meta.pagination);
    expect(page.pagination).toEqual({ total: 7, limit: 3, offset: 2, hasMore: true });
    expect(page.totalCount).toBe(7);
    expect(page.nodes.map((n: any) => n.name)).toEqual(['item 2', 'item 3', 'item 4']);
    // projection
    const projected = gqlData(await gql(Q.list, { c: coll.id, limit: 1, sort: 'calculatedName', fields: [coll.fields.n] })).dataRecords;
    expect(projected.nodes[0].fields).toEqual({ [coll.fields.n!]: 0 });
  });

  it('edges/pageInfo: endCursor then `after` walks every record once, in order', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page: any = gqlData(await gql(Q.list, { c: coll.id, limit: 3, after, sort: 'calculatedName' })).dataRecords;
      pages++;
      expect(page.edges.map((e: any) => e.node.id)).toEqual(page.nodes.map((n: any) => n.id));
      expect(page.pageInfo.startCursor).toBe(page.edges[0].cursor);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1).cursor);
      expect(page.pageInfo.hasPreviousPage).toBe(seen.length > 0);
      seen.push(...page.edges.map((e: any) => e.node.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(ids); // created in order "item 0".."item 6", sorted by name
    // every edge cursor continues right after its own node
    const first = gqlData(await gql(Q.list, { c: coll.id, limit: 7, sort: 'calculatedName' })).dataRecords;
    const fromThird = gqlData(await gql(Q.list, { c: coll.id, limit: 2, after: first.edges[2].cursor, sort: 'calculatedName' })).dataRecords;
    expect(fromThird.nodes.map((n: any) => n.name)).toEqual(['item 3', 'item 4']);
    // past the end: an empty page without cursors
    const past = gqlData(await gql(Q.list, { c: coll.id, after: first.pageInfo.endCursor })).dataRecords;
    expect(past.edges).toEqual([]);
    expect(past.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null });
  });

  it('an invalid cursor is a VALIDATION_ERROR naming `after`', async () => {
    for (const after of ['garbage', Buffer.from('offset:-1').toString('base64url'), Buffer.from('cursor:3').toString('base64url'), '']) {
      const response = await gql(Q.list, { c: coll.id, after });
      if (after === '') {
        // an empty `after` means "from the start"
        expect(gqlData(response).dataRecords.nodes).toHaveLength(7);
        continue;
      }
      expectGqlError(response, 'VALIDATION_ERROR', 400);
      expect(response.errors![0]!.extensions!.details).toEqual([{ field: 'after', message: 'invalid cursor' }]);
    }
    expectGqlError(await gql(Q.search, { input: { dataCollectionSimplyId: coll.id }, after: 'garbage' }), 'VALIDATION_ERROR', 400);
  });

  it('searchDataRecords: query + filters AND-ed, same as POST /v1/data-records/search, and pages with `after`', async () => {
    const input = { dataCollectionSimplyId: coll.id, query: 'ITEM', filters: [{ field: coll.fields.n, operator: 'gte', value: 2 }], sort: 'calculatedName', limit: 2 };
    const page = gqlData(await gql(Q.search, { input })).searchDataRecords;
    const rest = await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: input });
    expect(page.nodes).toEqual(expectOk(rest));
    expect(page.pagination).toEqual(rest.body.meta.pagination);
    expect(page.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
    expect(page.nodes.map((n: any) => n.name)).toEqual(['item 2', 'item 3']);
    const next = gqlData(await gql(Q.search, { input, after: page.pageInfo.endCursor })).searchDataRecords;
    expect(next.nodes.map((n: any) => n.name)).toEqual(['item 4', 'item 5']);
    expect(next.pageInfo.hasPreviousPage).toBe(true);

    const narrowed = gqlData(
      await gql(Q.search, { input: { dataCollectionSimplyId: coll.id, filters: [{ field: coll.fields.n, operator: 'lt', value: 2 }, { field: 'calculatedName', operator: 'startsWith', value: 'item' }] } }),
    ).searchDataRecords;
    expect(narrowed.nodes.map((n: any) => n.name).sort()).toEqual(['item 0', 'item 1']);
    expect(gqlData(await gql(Q.search, { input: { dataCollectionSimplyId: coll.id, query: 'item 6' } })).searchDataRecords.nodes.map((n: any) => n.id)).toEqual([ids[6]]);

    // bad filters and an over-long query are VALIDATION_ERRORs on both faces
    const badFilter = { dataCollectionSimplyId: coll.id, filters: [{ field: coll.fields.n, operator: 'near', value: 1 }] };
    expectGqlError(await gql(Q.search, { input: badFilter }), 'VALIDATION_ERROR', 400);
    expectError(await server.request('POST', '/v1/data-records/search', { token: team.apiKey, body: badFilter }), 400, 'VALIDATION_ERROR');
    expectGqlError(await gql(Q.search, { input: { dataCollectionSimplyId: coll.id, filters: [{ field: 'ZZZZ-ZZZZ-ZZZZ', operator: 'eq', value: 1 }] } }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(Q.search, { input: { dataCollectionSimplyId: coll.id, query: 'x'.repeat(129) } }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(Q.search, { input: { dataCollectionSimplyId: coll.id, offset: 5001 } }), 'VALIDATION_ERROR', 400);
  });
});
