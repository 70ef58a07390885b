// Team schema routes (Document 1 §4.3; docs/api/team-schema.md): export, versions, compare,
// changed, over REST and GraphQL, with what each caller may see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, createLabelCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { createKeyHidingField } from '../support/data-permission-fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';

let server: TestServer;
let team: TeamFixture;
let people: CollectionFixture;
let secrets: CollectionFixture;
/** views created by the version history test: v1 (deleted again), v2 */
let v1: string;
let v2: string;

function get(path: string, token = team.apiKey): Promise<TestResponse> {
  return server.request('GET', path, { token });
}

const compare = async (from: number, to: number, token = team.apiKey) => expectOk(await get(`/v1/team-schema/versions/compare?from=${from}&to=${to}`, token));
const ids = (list: { id: string }[]) => list.map((x) => x.id);

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  people = await createCollection(server, team, {
    name: 'People',
    fields: {
      first_name: 'PLAIN_TEXT',
      ssn: 'PLAIN_TEXT',
    },
  });
  secrets = await createLabelCollection(server, team, 'Secrets');
});
afterAll(() => server?.close());

describe('before any recorded change', () => {
  it('export is version 0 with the current collections; no versions; nothing changed', async () => {
    const exported = expectOk(await get('/v1/team-schema/export'));
    expect(Object.keys(exported).sort()).toEqual(['automations', 'collections', 'formatVersion', 'version', 'views', 'wizards']);
    expect(exported).toMatchObject({ version: 0, formatVersion: 1, views: [], wizards: [], automations: [] });
    expect(exported.collections.map((c: any) => c.dataCollectionSimplyId)).toEqual([people.id, secrets.id]);
    expect(exported.collections[0]).toMatchObject({ name: 'People', type: 'STANDARD', parentDataCollectionSimplyId: null, isArchived: false });
    expect(exported.collections[0].fields.map((f: any) => f.dataFieldSimplyId)).toEqual([people.fields.first_name, people.fields.ssn]);
    expect(JSON.stringify(exported)).not.toMatch(/"id":/);

    const versions = await get('/v1/team-schema/versions');
    expect(expectOk(versions)).toEqual([]);
    expect(versions.body.meta.pagination).toEqual({ total: 0, limit: 25, offset: 0, hasMore: false });
    expect(expectOk(await get('/v1/team-schema/changed?sinceVersion=0'))).toEqual({ changed: false, currentVersion: 0, changedAt: null, versionsSince: 0 });
    expect(expectOk(await get('/v1/team-schema/changed?since=2000-01-01T00:00:00Z'))).toEqual({ changed: false, currentVersion: 0, changedAt: null, versionsSince: 0 });
    expect((await compare(0, 0)).hasChanges).toBe(false);
    expectError(await get('/v1/team-schema/versions/compare?from=0&to=1'), 404, 'NOT_FOUND');
  });
});

describe('version history', () => {
  beforeAll(async () => {
    const { prisma } = server.app.services;
    // version 1: a view
    v1 = expectOk(await server.request('POST', '/v1/data-views', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, name: 'All people', enumDataViewTypeId: 'LIST' } }), 201).id;
    // changes made outside schemaWrite show up in the next version's snapshot
    await prisma.dataCollection.update({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: people.id } }, data: { name: { en: 'Persons' } } });
    await prisma.dataField.update({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: people.fields.first_name! } }, data: { title: 'Given name', isRequired: true } });
    server.app.services.schemas.invalidate(team.teamId);
    // version 2: another view; version 3: the first view deleted
    v2 = expectOk(
      await server.request('POST', '/v1/data-views', {
        token: team.apiKey,
        body: { dataCollectionSimplyId: secrets.id, name: 'Secret table', enumDataViewTypeId: 'TABLE', config: { columns: [secrets.fields.label] } },
      }),
      201,
    ).id;
    expectOk(await server.request('DELETE', `/v1/data-views/${v1}`, { token: team.apiKey }));
  });

  it('export: the current version and document', async () => {
    const exported = expectOk(await get('/v1/team-schema/export'));
    expect(exported.version).toBe(3);
    expect(exported.collections[0]).toMatchObject({ dataCollectionSimplyId: people.id, name: { en: 'Persons' } });
    expect(exported.views).toEqual([
      {
        dataViewSimplyId: v2,
        dataCollectionSimplyId: secrets.id,
        name: 'Secret table',
        description: null,
        enumDataViewTypeId: 'TABLE',
        isPublished: false,
        // the whole configuration, its field links with their ids included (docs/api/data-views.md)
        config: {
          columns: [secrets.fields.label],
          filters: [],
          sortOrder: [],
          grouping: [],
          calendar: null,
          map: null,
          displayFieldLinks: [{ id: expect.stringMatching(/^vfl-/), dataFieldSimplyId: secrets.fields.label, label: null, aggregation: null }],
          filterFieldLinks: [],
          calendarDateInfoFieldLinks: [],
        },
      },
    ]);
  });

  it('versions: newest first, paged, without snapshots', async () => {
    const res = await get('/v1/team-schema/versions');
    const versions = expectOk(res);
    expect(versions.map((v: any) => v.version)).toEqual([3, 2, 1]);
    for (const v of versions) expect(Object.keys(v).sort()).toEqual(['actorId', 'actorKind', 'createdAt', 'summary', 'version']);
    expect(versions[0]).toMatchObject({ summary: `view deleted: All people (${v1})`, actorKind: 'API_KEY', actorId: team.apiKeySimplyId });
    expect(versions[2].summary).toContain(`view created: All people (${v1})`);
    expect(new Date(versions[0].createdAt).getTime()).toBeGreaterThanOrEqual(new Date(versions[2].createdAt).getTime());
    const page = await get('/v1/team-schema/versions?limit=2&offset=1');
    expect(expectOk(page).map((v: any) => v.version)).toEqual([2, 1]);
    expect(page.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    const first = await get('/v1/team-schema/versions?limit=1');
    expect(first.body.meta.pagination).toEqual({ total: 3, limit: 1, offset: 0, hasMore: true });
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=x']) expectError(await get(`/v1/team-schema/versions?${q}`), 400, 'VALIDATION_ERROR', q);
  });

  it('compare: added, removed and changed per collection, field and view', async () => {
    const initial = await compare(0, 1);
    expect(initial).toMatchObject({ from: 0, to: 1, hasChanges: true });
    expect(ids(initial.collections.added)).toEqual([people.id, secrets.id]);
    expect(ids(initial.fields.added)).toEqual([people.fields.first_name, people.fields.ssn, secrets.fields.label]);
    expect(initial.views.added).toEqual([{ id: v1, dataCollectionSimplyId: people.id, changedProperties: [], before: null, after: expect.objectContaining({ name: 'All people', enumDataViewTypeId: 'LIST' }) }]);
    expect(initial.collections.removed).toEqual([]);

    const second = await compare(1, 2);
    expect(second.collections).toEqual({
      added: [],
      removed: [],
      changed: [{ id: people.id, dataCollectionSimplyId: people.id, changedProperties: ['name'], before: { name: 'People' }, after: { name: { en: 'Persons' } } }],
    });
    expect(second.fields.changed).toEqual([
      {
        id: people.fields.first_name,
        dataCollectionSimplyId: people.id,
        changedProperties: ['title', 'isRequired'],
        before: { title: 'first_name', isRequired: false },
        after: { title: 'Given name', isRequired: true },
      },
    ]);
    expect(ids(second.views.added)).toEqual([v2]);

    const third = await compare(2, 3);
    expect(third.views).toEqual({ added: [], removed: [expect.objectContaining({ id: v1, after: null })], changed: [] });
    expect(third.collections).toEqual({ added: [], removed: [], changed: [] });

    // either direction; the same version twice is no change
    const back = await compare(3, 1);
    expect(ids(back.views.added)).toEqual([v1]);
    expect(ids(back.views.removed)).toEqual([v2]);
    expect((await compare(2, 2)).hasChanges).toBe(false);
    expect(await compare(3, 0)).toMatchObject({ hasChanges: true, views: { removed: [expect.objectContaining({ id: v2 })] } });
  });

  it('compare: missing versions are 404, bad parameters 400 naming them', async () => {
    expectError(await get('/v1/team-schema/versions/compare?from=1&to=4'), 404, 'NOT_FOUND');
    expectError(await get('/v1/team-schema/versions/compare?from=99&to=1'), 404, 'NOT_FOUND');
    const cases: [string, string[]][] = [
      ['from=1', ['to']],
      ['', ['from', 'to']],
      ['from=-1&to=1', ['from']],
      ['from=1&to=-2', ['to']],
      ['from=one&to=1', ['from']],
      ['from=1.5&to=1', ['from']],
    ];
    for (const [q, fields] of cases) {
      const error = expectError(await get(`/v1/team-schema/versions/compare?${q}`), 400, 'VALIDATION_ERROR', q);
      expect(error.details?.map((d) => d.field)).toEqual(fields);
    }
  });

  it('changed: since a version or a time; exactly one of them', async () => {
    const latest = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });
    const first = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId, version: 1 } });
    const changedAt = latest.createdAt.toISOString();
    expect(expectOk(await get('/v1/team-schema/changed?sinceVersion=1'))).toEqual({ changed: true, currentVersion: 3, changedAt, versionsSince: 2 });
    expect(expectOk(await get('/v1/team-schema/changed?sinceVersion=0'))).toMatchObject({ changed: true, versionsSince: 3 });
    expect(expectOk(await get('/v1/team-schema/changed?sinceVersion=3'))).toEqual({ changed: false, currentVersion: 3, changedAt, versionsSince: 0 });
    expect(expectOk(await get(`/v1/team-schema/changed?since=${encodeURIComponent(first.createdAt.toISOString())}`))).toMatchObject({ changed: true, versionsSince: 2 });
    expect(expectOk(await get(`/v1/team-schema/changed?since=${encodeURIComponent(changedAt)}`))).toMatchObject({ changed: false, versionsSince: 0, currentVersion: 3 });
    expect(expectOk(await get('/v1/team-schema/changed?since=2000-01-01'))).toMatchObject({ changed: true, versionsSince: 3 });
    expect(expectOk(await get(`/v1/team-schema/changed?since=${encodeURIComponent('2000-01-01T00:00:00+02:00')}`))).toMatchObject({ versionsSince: 3 });
    expect(expectOk(await get('/v1/team-schema/changed?since=2999-01-01T00:00:00Z'))).toMatchObject({ changed: false, versionsSince: 0 });
    const cases: [string, string[]][] = [
      ['', ['sinceVersion', 'since']],
      ['sinceVersion=1&since=2000-01-01', ['sinceVersion', 'since']],
      ['sinceVersion=4', ['sinceVersion']],
      ['sinceVersion=-1', ['sinceVersion']],
      ['sinceVersion=latest', ['sinceVersion']],
      ['since=yesterday', ['since']],
      ['since=2026-01-01T10:00:00', ['since']],
      ['since=2026-02-30', ['since']],
    ];
    for (const [q, fields] of cases) {
      const error = expectError(await get(`/v1/team-schema/changed?${q}`), 400, 'VALIDATION_ERROR', q);
      expect(error.details?.map((d) => d.field)).toEqual(fields);
    }
  });
});

describe('permissions', () => {
  it('a read-only role sees the collections it can read, without hidden fields, in export and compare', async () => {
    const reader = await createKeyHidingField(server, team, people, 'ssn', { role: 'People reader', key: 'reader' });
    const exported = expectOk(await get('/v1/team-schema/export', reader));
    expect(exported.version).toBe(3);
    expect(exported.collections.map((c: any) => c.dataCollectionSimplyId)).toEqual([people.id]);
    expect(exported.collections[0].fields.map((f: any) => f.dataFieldSimplyId)).toEqual([people.fields.first_name]);
    expect(exported.views).toEqual([]);
    const initial = await compare(0, 1, reader);
    expect(ids(initial.collections.added)).toEqual([people.id]);
    expect(ids(initial.fields.added)).toEqual([people.fields.first_name]);
    expect(ids(initial.views.added)).toEqual([v1]);
    const second = await compare(1, 2, reader);
    expect(second.views.added).toEqual([]);
    // version metadata is not narrowed
    expect(expectOk(await get('/v1/team-schema/versions', reader))).toHaveLength(3);
    expect(expectOk(await get('/v1/team-schema/changed?sinceVersion=0', reader))).toMatchObject({ changed: true, currentVersion: 3 });
  });

  it('no team role: an export without collections; full data access: everything', async () => {
    const noRole = (await createApiKey(server, team, { name: 'no role' })).key;
    const exported = expectOk(await get('/v1/team-schema/export', noRole));
    expect(exported).toMatchObject({ version: 3, collections: [], views: [] });
    expect((await compare(0, 3, noRole)).hasChanges).toBe(false);
    const full = await createRole(server, team, { name: 'Full reader', dataFullAccess: 'READ' });
    const fullKey = (await createApiKey(server, team, { name: 'full reader', teamRoleSimplyId: full })).key;
    expect(expectOk(await get('/v1/team-schema/export', fullKey)).collections).toHaveLength(2);
  });

  it('session tokens need schema:read', async () => {
    const mint = async (oauthScopes: string[]) => expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { oauthScopes } }), 201).token;
    const recordsOnly = await mint(['records:read']);
    const schemaRead = await mint(['schema:read']);
    for (const path of ['/v1/team-schema/export', '/v1/team-schema/versions', '/v1/team-schema/versions/compare?from=0&to=1', '/v1/team-schema/changed?sinceVersion=0']) {
      expectError(await get(path, recordsOnly), 403, 'PERMISSION_DENIED', path);
      expectOk(await get(path, schemaRead));
    }
  });

  it("another team's versions are not visible", async () => {
    const other = await createTeam(server);
    expect(expectOk(await get('/v1/team-schema/export', other.apiKey)).version).toBe(0);
    expect(expectOk(await get('/v1/team-schema/versions', other.apiKey))).toEqual([]);
    expectError(await get('/v1/team-schema/versions/compare?from=0&to=1', other.apiKey), 404, 'NOT_FOUND');
    expect(expectOk(await get('/v1/team-schema/changed?sinceVersion=0', other.apiKey)).currentVersion).toBe(0);
  });
});

describe('GraphQL', () => {
  it('teamSchemaExport, teamSchemaVersions, compareTeamSchemaVersions, teamSchemaChanged', async () => {
    const data = gqlData(
      await server.graphql(
        `{ teamSchemaExport { version collections views }
           teamSchemaVersions(limit: 1) { nodes { version summary actorKind actorId createdAt } pagination { total hasMore } }
           compareTeamSchemaVersions(from: 2, to: 3) { from to hasChanges views { removed { id dataCollectionSimplyId before } } }
           teamSchemaChanged(sinceVersion: 2) { changed currentVersion versionsSince changedAt } }`,
        {},
        { token: team.apiKey },
      ),
    );
    expect(data.teamSchemaExport.version).toBe(3);
    expect(data.teamSchemaVersions).toMatchObject({ nodes: [{ version: 3, actorKind: 'API_KEY' }], pagination: { total: 3, hasMore: true } });
    expect(data.compareTeamSchemaVersions).toMatchObject({ from: 2, to: 3, hasChanges: true, views: { removed: [{ id: v1, dataCollectionSimplyId: people.id }] } });
    expect(data.teamSchemaChanged).toMatchObject({ changed: true, currentVersion: 3, versionsSince: 1 });
    expectGqlError(await server.graphql(`{ teamSchemaChanged { changed } }`, {}, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    expectGqlError(await server.graphql(`{ compareTeamSchemaVersions(from: 0, to: 9) { hasChanges } }`, {}, { token: team.apiKey }), 'NOT_FOUND', 404);
    const user = gqlData(await server.graphql(`{ teamSchemaExport { version } }`, {}, { token: team.userToken, teamId: team.teamSimplyId }));
    expect(user.teamSchemaExport.version).toBe(3);
    expectGqlError(await server.graphql(`{ teamSchemaExport { version } }`, {}, { token: team.userToken }), 'VALIDATION_ERROR', 400);
  });
});
