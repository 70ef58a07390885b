// Data views over REST (/v1/data-views) and GraphQL (dataViews, dataView, dataViewRecords,
// createDataView, deleteDataView): Document 1 §2.5, §4.4; docs/api/data-views.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersionCount } from '../support/collection-fixtures.ts';
import { createCollection, createLabelCollection, createSmartCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, type TeamFixture } from '../support/fixtures.ts';
import { startServerWithTwoTeams } from '../support/record-fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { restCaller } from '../support/rest-caller.ts';

const VIEW_ID = /^view-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const VIEW_TYPES = ['LIST', 'DETAIL', 'CALENDAR', 'TABLE', 'MAP', 'PIVOT', 'CHART', 'STATS'];
const SUMMARY_KEYS = ['dataCollectionSimplyId', 'description', 'enumDataViewTypeId', 'id', 'isPublished', 'name'];
const ROW_KEYS = ['createdAt', 'dataCollectionSimplyId', 'id', 'isArchived', 'name', 'updatedAt'];

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let secrets: CollectionFixture;
let otherCollection: CollectionFixture;
/** a view on `people` and one on `secrets`, created in beforeAll */
let peopleView: string;
let secretsView: string;
let otherView: string;
/** people records, in creation order */
const peopleRecords: string[] = [];

const call = restCaller(() => server, () => team.apiKey);

async function createView(body: Record<string, unknown>, token = team.apiKey): Promise<any> {
  return expectOk(await call('POST', '/v1/data-views', body, token), 201);
}

async function mintSession(oauthScopes: string[], key = team.apiKey): Promise<string> {
  return expectOk(await call('POST', '/v1/session-tokens', { oauthScopes }, key), 201).token;
}

const versionCount = () => schemaVersionCount(server, team.teamId);

beforeAll(async () => {
  ({ server, team, other, otherCollection } = await startServerWithTwoTeams());
  people = await createCollection(server, team, {
    name: 'People',
    formula: '{first_name} {last_name}',
    fields: {
      first_name: REQUIRED_TEXT,
      last_name: 'PLAIN_TEXT',
      age: 'NUMBER',
      bio: 'FORMATTED_TEXT',
      phone: { dataType: 'PHONE_NUMBER', config: { defaultCountry: 'US' } },
    },
  });
  secrets = await createLabelCollection(server, team, 'Secrets');
  peopleView = (await createView({ dataCollectionSimplyId: people.id, name: 'Everyone', enumDataViewTypeId: 'LIST' })).id;
  secretsView = (await createView({ dataCollectionSimplyId: secrets.id, name: 'Secret list', enumDataViewTypeId: 'TABLE' })).id;
  otherView = (await createView({ dataCollectionSimplyId: otherCollection.id, name: 'Not yours', enumDataViewTypeId: 'LIST' }, other.apiKey)).id;
  for (const [first, age] of [['Ada', 36], ['Grace', 45], ['Alan', 41]] as const) {
    const created = expectOk(await call('POST', '/v1/data-records', { dataCollectionSimplyId: people.id, fields: { [people.fields.first_name!]: first, [people.fields.age!]: age } }), 201);
    peopleRecords.push(created.id);
  }
});
afterAll(() => server?.close());

describe('create, read, delete', () => {
  it('stores every view type, with the detail shape and a new schema version per change', async () => {
    const f = people.fields;
    const before = await versionCount();
    const config = {
      columns: [f.first_name, f.age, f.phone],
      filters: [
        { field: f.age, operator: 'gte', value: 21 },
        { field: f.phone, operator: 'eq', value: '(415) 555-2671' },
        { field: 'calculatedName', operator: 'contains', value: 'Ad' },
      ],
      sortOrder: [
        { field: f.age, direction: 'desc' },
        { field: 'createdAt', direction: 'asc' },
      ],
    };
    const ids: string[] = [];
    for (const type of VIEW_TYPES) {
      const created = await createView({
        dataCollectionSimplyId: people.id,
        name: { en: `${type} view`, fr: `Vue ${type}` },
        description: `  A ${type} view  `,
        enumDataViewTypeId: type,
        isPublished: type === 'MAP',
        config,
      });
      expect(created.id).toMatch(VIEW_ID);
      expect(Object.keys(created).sort()).toEqual([...SUMMARY_KEYS, 'config'].sort());
      expect(created).toMatchObject({
        name: { en: `${type} view`, fr: `Vue ${type}` },
        description: `A ${type} view`,
        dataCollectionSimplyId: people.id,
        enumDataViewTypeId: type,
        isPublished: type === 'MAP',
      });
      // filters are stored as given (not in their normalized key form)
      expect(created.config).toEqual(config);
      expect(expectOk(await call('GET', `/v1/data-views/${created.id}`))).toEqual(created);
      ids.push(created.id);
    }
    expect(await versionCount()).toBe(before + VIEW_TYPES.length);
    const latest = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });
    expect(latest.summary).toContain('view created');
    expect(latest.summary).toContain(ids.at(-1));
    expect(latest).toMatchObject({ actorKind: 'API_KEY', actorId: team.apiKeySimplyId });
    expect((latest.snapshot as any).views.map((v: any) => v.dataViewSimplyId)).toEqual(expect.arrayContaining(ids));

    // list: newest first, filtered by collection, summary shape (no config)
    const list = await call('GET', `/v1/data-views?dataCollectionSimplyId=${people.id}&limit=100`);
    const views = expectOk(list);
    expect(views.map((v: any) => v.id)).toEqual([...ids].reverse().concat(peopleView));
    expect(Object.keys(views[0]).sort()).toEqual(SUMMARY_KEYS);
    expect(list.body.meta.pagination).toEqual({ total: VIEW_TYPES.length + 1, limit: 100, offset: 0, hasMore: false });
    const page = await call('GET', `/v1/data-views?dataCollectionSimplyId=${people.id}&limit=3&offset=3`);
    expect(expectOk(page).map((v: any) => v.id)).toEqual([...ids].reverse().slice(3, 6));
    expect(page.body.meta.pagination).toEqual({ total: VIEW_TYPES.length + 1, limit: 3, offset: 3, hasMore: true });

    // delete: 200 { id, deleted }, a version, then 404
    const versions = await versionCount();
    expect(expectOk(await call('DELETE', `/v1/data-views/${ids[0]}`))).toEqual({ id: ids[0], deleted: true });
    expect(await versionCount()).toBe(versions + 1);
    const deleted = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });
    expect(deleted.summary).toBe(`view deleted: LIST view (${ids[0]})`);
    expectError(await call('GET', `/v1/data-views/${ids[0]}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/v1/data-views/${ids[0]}`), 404, 'NOT_FOUND');
    expect(await versionCount()).toBe(versions + 1);
    for (const id of ids.slice(1)) expectOk(await call('DELETE', `/v1/data-views/${id}`));
  });

  it('defaults: no description, not published, an empty config', async () => {
    const created = await createView({ dataCollectionSimplyId: secrets.id, name: 'Plain', enumDataViewTypeId: 'STATS', description: '' });
    expect(created).toMatchObject({ description: null, isPublished: false, config: { columns: [], filters: [], sortOrder: [] } });
    const nullConfig = await createView({ dataCollectionSimplyId: secrets.id, name: 'Null config', enumDataViewTypeId: 'CHART', config: null, description: null });
    expect(nullConfig.config).toEqual({ columns: [], filters: [], sortOrder: [] });
  });

  it('a SMART collection view takes the fields of its source collection', async () => {
    const smart = await createSmartCollection(server, team, 'Adults', people, [{ field: people.fields.age, operator: 'gte', value: 18 }]);
    const created = await createView({
      dataCollectionSimplyId: smart.id,
      name: 'Adults by age',
      enumDataViewTypeId: 'TABLE',
      config: { columns: [people.fields.first_name, people.fields.age], sortOrder: [{ field: people.fields.age, direction: 'asc' }] },
    });
    expect(created.dataCollectionSimplyId).toBe(smart.id);
    expectError(
      await call('POST', '/v1/data-views', { dataCollectionSimplyId: smart.id, name: 'x', enumDataViewTypeId: 'LIST', config: { columns: [secrets.fields.label] } }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('validation', () => {
  const f = () => people.fields;
  const base = () => ({ dataCollectionSimplyId: people.id, name: 'Bad', enumDataViewTypeId: 'LIST' });

  it('refuses a bad config, naming every problem', async () => {
    const cases: [unknown, string[]][] = [
      ['columns', ['config']],
      [[], ['config']],
      [{ columns: [], extra: 1 }, ['config.extra']],
      [{ columns: 'x' }, ['config.columns']],
      [{ columns: [secrets.fields.label, 'nope', 7] }, ['config.columns[0]', 'config.columns[1]', 'config.columns[2]']],
      [{ columns: [f().age, f().age] }, ['config.columns[1]']],
      [{ columns: Array.from({ length: 201 }, () => f().age) }, ['config.columns']],
      [{ filters: {} }, ['config.filters']],
      [{ filters: [{ field: f().age, operator: 'startsWith', value: '1' }] }, ['config.filters[0].operator']],
      [{ filters: [{ field: f().age, operator: 'eq', value: 'ten' }] }, ['config.filters[0].value']],
      [{ filters: [{ field: secrets.fields.label, operator: 'eq', value: 'x' }] }, ['config.filters[0].field']],
      [{ filters: Array.from({ length: 26 }, () => ({ field: f().age, operator: 'eq', value: 1 })) }, ['config.filters']],
      [{ sortOrder: [{ field: f().age, direction: 'up' }] }, ['config.sortOrder[0].direction']],
      [{ sortOrder: [{ field: f().bio, direction: 'asc' }] }, ['config.sortOrder[0].field']],
      [{ sortOrder: [{ field: 'isArchived', direction: 'asc' }] }, ['config.sortOrder[0].field']],
      [{ sortOrder: [{ field: f().age, direction: 'asc', nulls: 'last' }] }, ['config.sortOrder[0].nulls']],
      [{ sortOrder: [{ field: f().age, direction: 'asc' }, { field: f().age, direction: 'desc' }] }, ['config.sortOrder[1].field']],
      [{ sortOrder: Array.from({ length: 11 }, () => ({ field: 'createdAt', direction: 'asc' })) }, ['config.sortOrder']],
      [{ sortOrder: ['createdAt'] }, ['config.sortOrder[0]']],
      [
        { columns: ['nope'], filters: [{ field: 'nope', operator: 'eq', value: 1 }], sortOrder: [{ field: 'nope', direction: 'asc' }] },
        ['config.columns[0]', 'config.filters[0].field', 'config.sortOrder[0].field'],
      ],
    ];
    const versions = await versionCount();
    for (const [config, fields] of cases) {
      const error = expectError(await call('POST', '/v1/data-views', { ...base(), config }), 400, 'VALIDATION_ERROR', JSON.stringify(config).slice(0, 80));
      expect(error.details?.map((d) => d.field), JSON.stringify(error)).toEqual(fields);
    }
    expect(await versionCount()).toBe(versions);
  });

  it('refuses a bad body: type, name, description, unknown keys, collection ids', async () => {
    const bad = async (body: Record<string, unknown>, field?: string) => {
      const error = expectError(await call('POST', '/v1/data-views', body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      if (field) expect(error.details?.map((d) => d.field)).toContain(field);
    };
    await bad({ ...base(), enumDataViewTypeId: 'KANBAN' }, 'enumDataViewTypeId');
    await bad({ ...base(), enumDataViewTypeId: 'list' }, 'enumDataViewTypeId');
    await bad({ ...base(), name: '' });
    await bad({ ...base(), name: { 'not a tag': 'x' } });
    await bad({ ...base(), description: 'x'.repeat(2001) }, 'description');
    await bad({ ...base(), dataCollectionSimplyId: '12' }, 'dataCollectionSimplyId');
    await bad({ ...base(), dataCollectionSimplyId: 'view-AAAA-BBBB-CCCC' }, 'dataCollectionSimplyId');
    await bad({ ...base(), surprise: true });
    await bad({ name: 'x', enumDataViewTypeId: 'LIST' });
    expectError(await call('POST', '/v1/data-views'), 400, 'VALIDATION_ERROR');
    // a well-formed collection id of another team (or none) is 404
    expectError(await call('POST', '/v1/data-views', { ...base(), dataCollectionSimplyId: otherCollection.id }), 404, 'NOT_FOUND');
    expectError(await call('POST', '/v1/data-views', { ...base(), dataCollectionSimplyId: 'AAAA-BBBB-CCCC' }), 404, 'NOT_FOUND');
  });

  it('malformed and numeric view ids are 400; another team’s view is 404', async () => {
    /** the routes that take a view id */
    const routesOf = (id: string) =>
      [
        ['GET', `/v1/data-views/${id}`],
        ['GET', `/v1/data-views/${id}/records`],
        ['DELETE', `/v1/data-views/${id}`],
      ] as const;
    for (const id of ['123', 'view-1234', 'AAAA-BBBB-CCCC', 'role-AAAA-BBBB-CCCC']) {
      for (const [method, path] of routesOf(id)) expectError(await call(method, path), 400, 'VALIDATION_ERROR', `${method} ${path}`);
    }
    for (const [method, path] of routesOf(otherView)) expectError(await call(method, path), 404, 'NOT_FOUND', `${method} ${path}`);
    expect(expectOk(await call('GET', `/v1/data-views/${otherView}`, undefined, other.apiKey)).id).toBe(otherView);
    expectError(await call('GET', '/v1/data-views?dataCollectionSimplyId=12'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/data-views?dataCollectionSimplyId=${otherCollection.id}`), 404, 'NOT_FOUND');
  });

  it('paging limits: limit 0 and 101, offset -1, non-integers are 400', async () => {
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=ten']) {
      expectError(await call('GET', `/v1/data-views?${q}`), 400, 'VALIDATION_ERROR', q);
      expectError(await call('GET', `/v1/data-views/${peopleView}/records?${q}`), 400, 'VALIDATION_ERROR', q);
    }
    expectGqlError(await server.graphql(`{ dataViews(limit: 101) { nodes { id } } }`, {}, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    expectGqlError(await server.graphql(`query($id: String!) { dataViewRecords(dataViewSimplyId: $id, limit: 0) { nodes { id } } }`, { id: peopleView }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
  });
});

describe('records of a view', () => {
  it('record summaries of the collection, newest first, no field values; the saved filter and sort are not applied', async () => {
    const f = people.fields;
    const filtered = await createView({
      dataCollectionSimplyId: people.id,
      name: 'Over 40, oldest first',
      enumDataViewTypeId: 'LIST',
      config: { filters: [{ field: f.age, operator: 'gt', value: 40 }], sortOrder: [{ field: f.age, direction: 'desc' }] },
    });
    for (const id of [peopleView, filtered.id]) {
      const res = await call('GET', `/v1/data-views/${id}/records`);
      const rows = expectOk(res);
      expect(rows.map((r: any) => r.id)).toEqual([...peopleRecords].reverse());
      expect(res.body.meta.pagination).toEqual({ total: 3, limit: 25, offset: 0, hasMore: false });
      for (const row of rows) expect(Object.keys(row).sort()).toEqual(ROW_KEYS);
      expect(rows[2]).toMatchObject({ id: peopleRecords[0], dataCollectionSimplyId: people.id, name: 'Ada', isArchived: false });
    }
    const page = await call('GET', `/v1/data-views/${peopleView}/records?limit=2&offset=1`);
    expect(expectOk(page).map((r: any) => r.id)).toEqual([peopleRecords[1], peopleRecords[0]]);
    expect(page.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    const first = await call('GET', `/v1/data-views/${peopleView}/records?limit=1`);
    expect(first.body.meta.pagination).toEqual({ total: 3, limit: 1, offset: 0, hasMore: true });
    // a deleted record leaves the view
    const gone = expectOk(await call('POST', '/v1/data-records', { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: 'Temp' } }), 201).id;
    expect(expectOk(await call('GET', `/v1/data-views/${peopleView}/records`)).map((r: any) => r.id)[0]).toBe(gone);
    expectOk(await call('DELETE', `/v1/data-records/${gone}`));
    expect(expectOk(await call('GET', `/v1/data-views/${peopleView}/records`)).map((r: any) => r.id)).toEqual([...peopleRecords].reverse());
    expectOk(await call('DELETE', `/v1/data-views/${filtered.id}`));
  });
});

describe('permissions', () => {
  let readPeople: string;
  let noRole: string;

  beforeAll(async () => {
    const role = await createRole(server, team, { name: 'People reader', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
    readPeople = (await createApiKey(server, team, { name: 'people reader', teamRoleSimplyId: role, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
    noRole = (await createApiKey(server, team, { name: 'no role', featurePermissions: ['TEAM_SETTINGS'] })).key;
  });

  it('a read-only role sees only views of collections it can read; others are 403', async () => {
    const ids = expectOk(await call('GET', '/v1/data-views?limit=100', undefined, readPeople)).map((v: any) => v.id);
    expect(ids).toContain(peopleView);
    expect(ids).not.toContain(secretsView);
    expect(expectOk(await call('GET', `/v1/data-views/${peopleView}`, undefined, readPeople)).id).toBe(peopleView);
    expect(expectOk(await call('GET', `/v1/data-views/${peopleView}/records`, undefined, readPeople))).toHaveLength(3);
    expectError(await call('GET', `/v1/data-views/${secretsView}`, undefined, readPeople), 403, 'PERMISSION_DENIED');
    expectError(await call('GET', `/v1/data-views/${secretsView}/records`, undefined, readPeople), 403, 'PERMISSION_DENIED');
    expectError(await call('GET', `/v1/data-views?dataCollectionSimplyId=${secrets.id}`, undefined, readPeople), 403, 'PERMISSION_DENIED');
    // reading is not administering
    expectError(await call('POST', '/v1/data-views', { dataCollectionSimplyId: people.id, name: 'x', enumDataViewTypeId: 'LIST' }, readPeople), 403, 'PERMISSION_DENIED');
    expectError(await call('DELETE', `/v1/data-views/${peopleView}`, undefined, readPeople), 403, 'PERMISSION_DENIED');
  });

  it('no team role: an empty list, 403 on a view and its records', async () => {
    const res = await call('GET', '/v1/data-views', undefined, noRole);
    expect(expectOk(res)).toEqual([]);
    expect(res.body.meta.pagination).toEqual({ total: 0, limit: 25, offset: 0, hasMore: false });
    expectError(await call('GET', `/v1/data-views/${peopleView}`, undefined, noRole), 403, 'PERMISSION_DENIED');
    expectError(await call('GET', `/v1/data-views/${peopleView}/records`, undefined, noRole), 403, 'PERMISSION_DENIED');
  });

  it('session tokens: views need schema:read, view records need records:read; create/delete are refused', async () => {
    const recordsOnly = await mintSession(['records:read']);
    const schemaOnly = await mintSession(['schema:read']);
    const both = await mintSession(['schema:read', 'records:read']);
    expectError(await call('GET', '/v1/data-views', undefined, recordsOnly), 403, 'PERMISSION_DENIED');
    expectError(await call('GET', `/v1/data-views/${peopleView}`, undefined, recordsOnly), 403, 'PERMISSION_DENIED');
    expect(expectOk(await call('GET', `/v1/data-views/${peopleView}/records`, undefined, recordsOnly))).toHaveLength(3);
    expectOk(await call('GET', '/v1/data-views', undefined, schemaOnly));
    expectOk(await call('GET', `/v1/data-views/${peopleView}`, undefined, schemaOnly));
    expectError(await call('GET', `/v1/data-views/${peopleView}/records`, undefined, schemaOnly), 403, 'PERMISSION_DENIED');
    // privileged tier: never scoped tokens, whatever their features
    expectError(await call('POST', '/v1/data-views', { dataCollectionSimplyId: people.id, name: 'x', enumDataViewTypeId: 'LIST' }, both), 403, 'PERMISSION_DENIED');
    expectError(await call('DELETE', `/v1/data-views/${peopleView}`, undefined, both), 403, 'PERMISSION_DENIED');
  });

  it('create/delete: TEAM_SETTINGS edit (no role needed) or a team admin; view level and plain members are refused', async () => {
    const body = { dataCollectionSimplyId: secrets.id, name: 'By settings admin', enumDataViewTypeId: 'CALENDAR' };
    const byKey = await createView(body, noRole);
    expectOk(await call('DELETE', `/v1/data-views/${byKey.id}`, undefined, noRole));

    const admin = await addMember(server, team, { isTeamAdmin: true });
    const byAdmin = expectOk(await call('POST', '/v1/data-views', body, admin.token, team.teamSimplyId), 201);
    const version = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });
    expect(version).toMatchObject({ actorKind: 'USER', actorId: admin.userSimplyId });
    expectOk(await call('DELETE', `/v1/data-views/${byAdmin.id}`, undefined, admin.token, team.teamSimplyId));

    const viewer = await createApiKey(server, team, { name: 'settings viewer', featurePermissions: ['TEAM_SETTINGS:VIEW'] });
    expectError(await call('POST', '/v1/data-views', body, viewer.key), 403, 'PERMISSION_DENIED');
    // full data access, but not the TEAM_SETTINGS feature
    const editor = await createRole(server, team, { name: 'Data editor', dataFullAccess: 'EDIT', featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'VIEW' }] });
    const member = await addMember(server, team, { teamRoleSimplyId: editor });
    expectError(await call('POST', '/v1/data-views', body, member.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
    expectError(await call('DELETE', `/v1/data-views/${peopleView}`, undefined, member.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
  });
});

describe('GraphQL', () => {
  it('dataViews, dataView, dataViewRecords, createDataView, deleteDataView', async () => {
    const token = team.apiKey;
    const created = gqlData(
      await server.graphql(
        `mutation($input: DataViewInput!) { createDataView(input: $input) { id dataViewSimplyId name enumDataViewTypeId isPublished dataCollectionSimplyId config { columns filters sortOrder { field direction } } createdAt } }`,
        { input: { dataCollectionSimplyId: people.id, name: 'GraphQL view', enumDataViewTypeId: 'PIVOT', config: { columns: [people.fields.age], sortOrder: [{ field: 'calculatedName', direction: 'asc' }] } } },
        { token },
      ),
    ).createDataView;
    expect(created).toMatchObject({
      dataViewSimplyId: created.id,
      name: 'GraphQL view',
      enumDataViewTypeId: 'PIVOT',
      isPublished: false,
      dataCollectionSimplyId: people.id,
      config: { columns: [people.fields.age], filters: [], sortOrder: [{ field: 'calculatedName', direction: 'asc' }] },
    });
    const read = gqlData(
      await server.graphql(
        `query($id: String!, $c: String) { dataView(dataViewSimplyId: $id) { id name } dataViews(dataCollectionSimplyId: $c, limit: 1) { nodes { id } pagination { total hasMore } } dataViewRecords(dataViewSimplyId: $id, limit: 2) { nodes { id name } pagination { total hasMore } } }`,
        { id: created.id, c: people.id },
        { token },
      ),
    );
    expect(read.dataView).toEqual({ id: created.id, name: 'GraphQL view' });
    expect(read.dataViews.nodes).toEqual([{ id: created.id }]);
    expect(read.dataViews.pagination.hasMore).toBe(true);
    expect(read.dataViewRecords.nodes.map((r: any) => r.id)).toEqual([peopleRecords[2], peopleRecords[1]]);
    expect(read.dataViewRecords.pagination).toEqual({ total: 3, hasMore: true });
    expectGqlError(
      await server.graphql(`mutation($input: DataViewInput!) { createDataView(input: $input) { id } }`, { input: { dataCollectionSimplyId: people.id, name: 'x', enumDataViewTypeId: 'LIST', config: { columns: ['nope'] } } }, { token }),
      'VALIDATION_ERROR',
      400,
    );
    expectGqlError(await server.graphql(`query($id: String!) { dataView(dataViewSimplyId: $id) { id } }`, { id: otherView }, { token }), 'NOT_FOUND', 404);
    expect(gqlData(await server.graphql(`mutation($id: String!) { deleteDataView(dataViewSimplyId: $id) }`, { id: created.id }, { token })).deleteDataView).toBe(true);
    expectGqlError(await server.graphql(`mutation($id: String!) { deleteDataView(dataViewSimplyId: $id) }`, { id: created.id }, { token }), 'NOT_FOUND', 404);
  });
});
