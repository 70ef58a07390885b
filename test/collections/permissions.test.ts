// Who may read and administer collections (docs/api/data-collections.md "Permissions"): data
// roles narrow reads (collections and fields), the create menu explains what the caller may
// create, schema administration needs a team admin or TEAM_SETTINGS edit and never a scoped
// token; other teams' ids are 404, malformed and numeric ids 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { teamRoleId } from '../../src/modules/team-roles/team-roles.ids.ts';
import { postCollection } from '../support/collection-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;

/** readable by the roles below */
let open: any;
/** not granted to the roles below */
let closed: any;
/** another team's */
let foreign: any;
/** columnName → field id of `open` */
let f: Record<string, string>;

/** key: EDIT on `open`, `hidden` NONE, `fixed` (required) READ; no feature permissions */
let editorKey: string;
/** key: READ on `open`, TEAM_SETTINGS edit */
let settingsKey: string;
/** key: READ on `open`, TEAM_SETTINGS view only */
let settingsViewKey: string;
/** key without a team role */
let noRoleKey: string;

/** A role with field rules, written straight to the database: POST /v1/team-roles with
 *  fieldPermissions answers 500 today (team-roles.service.ts passes teamId inside the nested create). */
async function roleWithFieldRules(name: string, collection: string, fieldRules: { dataFieldSimplyId: string; level: 'NONE' | 'READ' | 'EDIT' }[]): Promise<string> {
  const role = await server.app.services.prisma.teamRole.create({
    data: {
      teamId: team.teamId,
      simplyId: teamRoleId.create(),
      name,
      dataPermissions: { create: [{ dataCollectionSimplyId: collection, level: 'EDIT' }] },
      fieldPermissions: { create: fieldRules },
    },
  });
  return role.simplyId;
}

function call(method: string, path: string, token: string, body?: unknown, teamId?: string): Promise<TestResponse> {
  return server.request(method, path, { token, body, teamId });
}

const ids = (res: TestResponse) => (expectOk(res) as any[]).map((c) => c.id);

async function mintSession(body: Record<string, unknown> = {}, token = team.apiKey): Promise<string> {
  return expectOk(await call('POST', '/v1/session-tokens', token, body), 201).token;
}

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
  const create = (body: unknown, token = team.apiKey) => postCollection(server, token, body);
  open = await create({
    name: 'Open',
    fields: [
      { title: 'Name', dataType: 'PLAIN_TEXT' },
      { title: 'Hidden', dataType: 'PLAIN_TEXT' },
      { title: 'Fixed', dataType: 'PLAIN_TEXT', isRequired: true },
      { title: 'Notes', dataType: 'FORMATTED_TEXT' },
    ],
  });
  closed = await create({ name: 'Closed', fields: [{ title: 'Secret', dataType: 'PLAIN_TEXT' }] });
  foreign = await create({ name: 'Foreign', fields: [{ title: 'Theirs', dataType: 'PLAIN_TEXT' }] }, other.apiKey);
  f = Object.fromEntries(open.fields.map((x: any) => [x.columnName, x.id]));
  const editors = await roleWithFieldRules('Editors', open.id, [
    { dataFieldSimplyId: f.hidden!, level: 'NONE' },
    { dataFieldSimplyId: f.fixed!, level: 'READ' },
  ]);
  const readers = await createRole(server, team, { name: 'Readers', dataPermissions: [{ dataCollectionSimplyId: open.id, level: 'READ' }] });
  editorKey = (await createApiKey(server, team, { name: 'editor', teamRoleSimplyId: editors })).key;
  settingsKey = (await createApiKey(server, team, { name: 'settings', teamRoleSimplyId: readers, featurePermissions: ['TEAM_SETTINGS'] })).key;
  settingsViewKey = (await createApiKey(server, team, { name: 'settings view', teamRoleSimplyId: readers, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
  noRoleKey = (await createApiKey(server, team, { name: 'no role', teamRoleSimplyId: null, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
});
afterAll(() => server.close());

describe('reads follow the data role', () => {
  it('admins (the full-access key, the team-admin user) see every collection and field', async () => {
    expect(ids(await call('GET', '/v1/data-collections', team.apiKey))).toEqual([open.id, closed.id]);
    expect(ids(await call('GET', '/v1/data-collections', team.userToken, undefined, team.teamSimplyId))).toEqual([open.id, closed.id]);
    expect(expectOk(await call('GET', `/v1/data-collections/${open.id}`, team.userToken, undefined, team.teamSimplyId)).fieldCount).toBe(4);
  });

  it('a role sees only the collections it can read, and in them only the fields it can read', async () => {
    const list = await call('GET', '/v1/data-collections', editorKey);
    expect(ids(list)).toEqual([open.id]);
    expect(list.body.meta.pagination.total).toBe(1);
    const summary = expectOk(list)[0];
    expect(summary.fieldCount).toBe(3);

    const detail = expectOk(await call('GET', `/v1/data-collections/${open.id}`, editorKey));
    expect(detail.fieldCount).toBe(3);
    expect(detail.fields.map((x: any) => x.id)).toEqual([f.name, f.fixed, f.notes]);
    expect(expectOk(await call('GET', `/v1/data-collections/${open.id}/fields`, editorKey)).map((x: any) => x.id)).toEqual([f.name, f.fixed, f.notes]);
    expectOk(await call('GET', `/v1/data-collections/${open.id}/fields/${f.fixed}`, editorKey));
    // a hidden field is not found, like a missing one
    expectError(await call('GET', `/v1/data-collections/${open.id}/fields/${f.hidden}`, editorKey), 404, 'NOT_FOUND');
    // a collection of the team the role cannot read: 403
    for (const path of [`/v1/data-collections/${closed.id}`, `/v1/data-collections/${closed.id}/fields`, `/v1/data-collections/${closed.id}/fields/${closed.fields[0].id}`, `/v1/create-menu/data-collections/${closed.id}`]) {
      expectError(await call('GET', path, editorKey), 403, 'PERMISSION_DENIED', path);
    }
    const gql = gqlData(await server.graphql(`{ dataCollections { nodes { id fieldCount fields { id } } pagination { total } } }`, {}, { token: editorKey }));
    expect(gql.dataCollections).toEqual({ nodes: [{ id: open.id, fieldCount: 3, fields: [{ id: f.name }, { id: f.fixed }, { id: f.notes }] }], pagination: { total: 1 } });
    expectGqlError(await server.graphql(`query($id: String!) { dataCollection(dataCollectionSimplyId: $id) { id } }`, { id: closed.id }, { token: editorKey }), 'PERMISSION_DENIED', 403);

    // a member user with a read role sees the same
    const reader = await addMember(server, team, { teamRoleSimplyId: (await server.app.services.prisma.teamRole.findFirstOrThrow({ where: { teamId: team.teamId, name: 'Readers' } })).simplyId });
    expect(ids(await call('GET', '/v1/data-collections', reader.token, undefined, team.teamSimplyId))).toEqual([open.id]);
  });

  it('a credential without a team role sees an empty list and no collection', async () => {
    const list = await call('GET', '/v1/data-collections', noRoleKey);
    expect(expectOk(list)).toEqual([]);
    expect(list.body.meta.pagination).toEqual({ total: 0, limit: 25, offset: 0, hasMore: false });
    expectError(await call('GET', `/v1/data-collections/${open.id}`, noRoleKey), 403, 'PERMISSION_DENIED');
    const member = await addMember(server, team);
    expect(expectOk(await call('GET', '/v1/data-collections', member.token, undefined, team.teamSimplyId))).toEqual([]);
  });

  it('scoped tokens need schema:read (the create menu: records:read)', async () => {
    const full = await mintSession();
    expect(ids(await call('GET', '/v1/data-collections', full))).toEqual([open.id, closed.id]);
    expectOk(await call('GET', `/v1/create-menu/data-collections/${open.id}`, full));
    const recordsOnly = await mintSession({ oauthScopes: ['records:read'] });
    const denied = expectError(await call('GET', '/v1/data-collections', recordsOnly), 403, 'PERMISSION_DENIED');
    expect(denied.message).toMatch(/schema:read/);
    expectError(await call('GET', `/v1/data-collections/${open.id}/fields`, recordsOnly), 403, 'PERMISSION_DENIED');
    expectOk(await call('GET', `/v1/create-menu/data-collections/${open.id}`, recordsOnly));
    const schemaOnly = await mintSession({ oauthScopes: ['schema:read'] });
    expectOk(await call('GET', `/v1/data-collections/${open.id}`, schemaOnly));
    expect(expectError(await call('GET', `/v1/create-menu/data-collections/${open.id}`, schemaOnly), 403, 'PERMISSION_DENIED').message).toMatch(/records:read/);
  });
});

describe('create menu', () => {
  const menu = async (id: string, token: string) => expectOk(await call('GET', `/v1/create-menu/data-collections/${id}`, token));

  it('admins: every field, canCreate', async () => {
    const m = await menu(open.id, team.apiKey);
    expect(Object.keys(m).sort()).toEqual(['blockingFields', 'canCreate', 'collection', 'fields', 'reasons']);
    expect(m.collection).toMatchObject({ id: open.id, name: 'Open', fieldCount: 4, recordCount: 0 });
    expect(m.collection).not.toHaveProperty('fields');
    expect(m.fields.map((x: any) => x.id)).toEqual([f.name, f.hidden, f.fixed, f.notes]);
    expect(m).toMatchObject({ canCreate: true, reasons: [], blockingFields: [] });
  });

  it('a required field the role cannot edit blocks creation', async () => {
    const m = await menu(open.id, editorKey);
    expect(m.fields.map((x: any) => x.id)).toEqual([f.name, f.notes]);
    expect(m.canCreate).toBe(false);
    expect(m.reasons).toEqual(['REQUIRED_FIELDS_READ_ONLY']);
    expect(m.blockingFields).toEqual([{ dataFieldSimplyId: f.fixed, title: 'Fixed', access: 'READ' }]);
    // a hidden required field is named by id only
    const hiddenRole = await roleWithFieldRules('Hide fixed', open.id, [{ dataFieldSimplyId: f.fixed!, level: 'NONE' }]);
    const key = (await createApiKey(server, team, { name: 'hide fixed', teamRoleSimplyId: hiddenRole })).key;
    expect((await menu(open.id, key)).blockingFields).toEqual([{ dataFieldSimplyId: f.fixed, title: null, access: 'NONE' }]);
    // GraphQL
    const gql = gqlData(await server.graphql(`query($id: String!) { createMenuDataCollection(dataCollectionSimplyId: $id) { canCreate reasons fields { columnName } blockingFields { access } } }`, { id: open.id }, { token: editorKey }));
    expect(gql.createMenuDataCollection).toEqual({ canCreate: false, reasons: ['REQUIRED_FIELDS_READ_ONLY'], fields: [{ columnName: 'name' }, { columnName: 'notes' }], blockingFields: [{ access: 'READ' }] });
  });

  it('read-only roles, tokens without records:write, SMART and archived collections, no fields', async () => {
    const read = await menu(open.id, settingsKey);
    expect(read).toMatchObject({ canCreate: false, fields: [], reasons: ['NO_EDIT_PERMISSION', 'NO_EDITABLE_FIELDS', 'REQUIRED_FIELDS_READ_ONLY'] });
    const readOnlyToken = await mintSession();
    expect((await menu(open.id, readOnlyToken)).reasons).toEqual(['MISSING_RECORDS_WRITE_SCOPE']);
    const writer = await mintSession({ oauthScopes: ['records:read', 'records:write'] });
    expect((await menu(open.id, writer)).canCreate).toBe(true);

    const smart = expectOk(await call('POST', '/v1/data-collections', team.apiKey, { name: 'Smart', type: 'SMART', parentDataCollectionSimplyId: open.id }), 201);
    expect((await menu(smart.id, team.apiKey)).reasons).toEqual(['SMART_COLLECTION']);
    const empty = expectOk(await call('POST', '/v1/data-collections', team.apiKey, { name: 'Empty' }), 201);
    expect((await menu(empty.id, team.apiKey)).reasons).toEqual(['NO_EDITABLE_FIELDS']);
    expectOk(await call('POST', `/v1/data-collections/${empty.id}/archive`, team.apiKey, { isArchived: true }));
    expect((await menu(empty.id, team.apiKey)).reasons).toEqual(['COLLECTION_ARCHIVED', 'NO_EDITABLE_FIELDS']);
  });
});

describe('schema administration is privileged', () => {
  const writes = (id: string, field: string): [string, string, unknown][] => [
    ['POST', '/v1/data-collections', { name: 'Nope' }],
    ['POST', `/v1/data-collections/${id}/rename`, { name: 'Nope' }],
    ['PATCH', `/v1/data-collections/${id}`, { archetype: 'CASE' }],
    ['POST', `/v1/data-collections/${id}/archive`, { isArchived: true }],
    ['POST', `/v1/data-collections/${id}/fields`, { title: 'Nope', dataType: 'BOOLEAN' }],
    ['PATCH', `/v1/data-collections/${id}/fields/${field}`, { title: 'Nope' }],
    ['PUT', `/v1/data-collections/${id}/fields/reorder`, { orderedFieldSimplyIds: [field] }],
    ['DELETE', `/v1/data-collections/${id}/fields/${field}`, undefined],
    ['POST', `/v1/data-collections/${id}/recalculate-record-names`, undefined],
    ['POST', `/v1/data-collections/${id}/resync-smart-membership`, undefined],
  ];

  it('session tokens, keys without TEAM_SETTINGS edit, and plain members get 403; nothing changes', async () => {
    const before = await server.app.services.prisma.teamSchemaVersion.count({ where: { teamId: team.teamId } });
    const session = await mintSession({ oauthScopes: ['schema:read', 'records:read', 'records:write'] });
    const member = await addMember(server, team);
    for (const [method, path, body] of writes(open.id, f.notes!)) {
      for (const [label, token, teamId] of [
        ['session token', session, undefined],
        ['editor key', editorKey, undefined],
        ['TEAM_SETTINGS view key', settingsViewKey, undefined],
        ['member', member.token, team.teamSimplyId],
      ] as const) {
        expectError(await call(method, path, token, body, teamId), 403, 'PERMISSION_DENIED', `${label} ${method} ${path}`);
      }
      expectError(await server.request(method, path, { body }), 401, 'UNAUTHENTICATED');
    }
    expectGqlError(await server.graphql(`mutation { createDataCollection(input: { name: "x" }) { id } }`, {}, { token: session }), 'PERMISSION_DENIED', 403);
    expect(await server.app.services.prisma.teamSchemaVersion.count({ where: { teamId: team.teamId } })).toBe(before);
  });

  it('TEAM_SETTINGS edit (any data role) and team admins may; responses show the whole definition', async () => {
    const created = expectOk(await call('POST', '/v1/data-collections', settingsKey, { name: 'By settings', fields: [{ title: 'A', dataType: 'PLAIN_TEXT' }] }), 201);
    expect(created.fieldCount).toBe(1);
    // the settings key's role cannot read the new collection's records, so reads answer 403
    expectError(await call('GET', `/v1/data-collections/${created.id}`, settingsKey), 403, 'PERMISSION_DENIED');
    // admin responses are not narrowed by the data role
    const renamed = expectOk(await call('POST', `/v1/data-collections/${open.id}/rename`, settingsKey, { name: 'Open' }));
    expect(renamed.fields.map((x: any) => x.id)).toEqual([f.name, f.hidden, f.fixed, f.notes]);
    const admin = await addMember(server, team, { isTeamAdmin: true });
    expectOk(await call('POST', '/v1/data-collections', admin.token, { name: 'By admin' }, team.teamSimplyId), 201);
    const versions = await server.app.services.prisma.teamSchemaVersion.findMany({ where: { teamId: team.teamId }, orderBy: { version: 'desc' }, take: 3 });
    expect(versions.map((v) => v.actorKind)).toEqual(['USER', 'API_KEY', 'API_KEY']);
  });
});

describe('identifiers', () => {
  it("another team's collection or field is 404 on every route, and is not changed", async () => {
    const field = foreign.fields[0].id;
    const reads = [`/v1/data-collections/${foreign.id}`, `/v1/data-collections/${foreign.id}/fields`, `/v1/data-collections/${foreign.id}/fields/${field}`, `/v1/create-menu/data-collections/${foreign.id}`];
    for (const path of reads) expectError(await call('GET', path, team.apiKey), 404, 'NOT_FOUND', path);
    const writes: [string, string, unknown][] = [
      ['POST', `/v1/data-collections/${foreign.id}/rename`, { name: 'Taken' }],
      ['PATCH', `/v1/data-collections/${foreign.id}`, { archetype: 'CASE' }],
      ['POST', `/v1/data-collections/${foreign.id}/archive`, { isArchived: true }],
      ['POST', `/v1/data-collections/${foreign.id}/fields`, { title: 'x', dataType: 'BOOLEAN' }],
      ['PATCH', `/v1/data-collections/${foreign.id}/fields/${field}`, { title: 'x' }],
      ['PUT', `/v1/data-collections/${foreign.id}/fields/reorder`, { orderedFieldSimplyIds: [field] }],
      ['DELETE', `/v1/data-collections/${foreign.id}/fields/${field}`, undefined],
      ['POST', `/v1/data-collections/${foreign.id}/recalculate-record-names`, undefined],
      // their field under our collection
      ['PATCH', `/v1/data-collections/${open.id}/fields/${field}`, { title: 'x' }],
      ['DELETE', `/v1/data-collections/${open.id}/fields/${field}`, undefined],
    ];
    for (const [method, path, body] of writes) expectError(await call(method, path, team.apiKey, body), 404, 'NOT_FOUND', `${method} ${path}`);
    expectGqlError(await server.graphql(`query($id: String!) { dataCollection(dataCollectionSimplyId: $id) { id } }`, { id: foreign.id }, { token: team.apiKey }), 'NOT_FOUND', 404);
    const still = expectOk(await call('GET', `/v1/data-collections/${foreign.id}`, other.apiKey));
    expect(still).toMatchObject({ name: 'Foreign', archetype: null, isArchived: false, fieldCount: 1 });
    // a user selecting another team they are not a member of
    expectError(await call('GET', '/v1/data-collections', team.userToken, undefined, other.teamSimplyId), 403, 'PERMISSION_DENIED');
    expectError(await call('GET', '/v1/data-collections', team.userToken), 400, 'VALIDATION_ERROR');
  });

  it('malformed and numeric ids are 400 naming the parameter', async () => {
    for (const bad of ['1', '42', 'abcd-efgh-jkmn', 'ABCD-EFGH', 'fld-ABCD-EFGH-JKMN']) {
      for (const [method, path, body] of [
        ['GET', `/v1/data-collections/${bad}`, undefined],
        ['GET', `/v1/data-collections/${bad}/fields`, undefined],
        ['GET', `/v1/create-menu/data-collections/${bad}`, undefined],
        ['POST', `/v1/data-collections/${bad}/rename`, { name: 'x' }],
        ['POST', `/v1/data-collections/${bad}/fields`, { title: 'x', dataType: 'BOOLEAN' }],
        ['DELETE', `/v1/data-collections/${bad}/fields/${f.name}`, undefined],
      ] as const) {
        const error = expectError(await call(method, path, team.apiKey, body), 400, 'VALIDATION_ERROR', `${method} ${path}`);
        expect(error.details?.[0]?.field).toBe('dataCollectionSimplyId');
      }
    }
    for (const bad of ['1', 'fld-1', 'ABCD-EFGH-JKMN', 'fld-abcd-efgh-jkmn']) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const error = expectError(await call(method, `/v1/data-collections/${open.id}/fields/${bad}`, team.apiKey, method === 'PATCH' ? { title: 'x' } : undefined), 400, 'VALIDATION_ERROR', `${method} ${bad}`);
        expect(error.details?.[0]?.field).toBe('dataFieldSimplyId');
      }
    }
    expectGqlError(await server.graphql(`{ dataCollection(dataCollectionSimplyId: "12") { id } }`, {}, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    // a body where none is taken
    expectError(await call('DELETE', `/v1/data-collections/${open.id}/fields/fld-2222-3333-4444`, team.apiKey, { x: 1 }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', `/v1/data-collections/${open.id}/recalculate-record-names`, team.apiKey, { x: 1 }), 400, 'VALIDATION_ERROR');
  });
});
