// A record's audit log (GET /v1/audit-log/records/DataRecord/{recordSimplyId}, GraphQL
// dataRecordAuditLog; docs/api/audit-log.md): entries written by real record writes over REST and
// GraphQL, who/when/before/after, field narrowing, deleted records, permissions and paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, createLabelCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData, UUID } from '../support/expect-envelope.ts';
import { addMember, createApiKey, type TeamFixture } from '../support/fixtures.ts';
import { startServerWithTwoTeams } from '../support/record-fixtures.ts';
import { createKeyHidingField } from '../support/data-permission-fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';

const ENTRY_KEYS = ['action', 'actor', 'changes', 'createdAt', 'id', 'requestId', 'source'];
const AUDIT_ID = /^aud-[A-Za-z0-9_-]{22}$/;

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let secrets: CollectionFixture;
let member: { userSimplyId: string; token: string };
/** a record written by: REST create (API key), REST PATCH, GraphQL update (user), REST delete */
let recordId: string;
const requestIds: string[] = [];
let secretRecordId: string;
let otherRecordId: string;

const path = (id: string, query = '') => `/v1/audit-log/records/DataRecord/${id}${query}`;

function get(p: string, token = team.apiKey): Promise<TestResponse> {
  return server.request('GET', p, { token });
}

beforeAll(async () => {
  ({ server, team, other, otherRecordId } = await startServerWithTwoTeams());
  people = await createCollection(server, team, {
    name: 'People',
    formula: '{first_name}',
    fields: {
      first_name: REQUIRED_TEXT,
      age: 'NUMBER',
      balance: { dataType: 'MONEY', config: { currency: 'EUR' } },
      ssn: 'PLAIN_TEXT',
    },
  });
  secrets = await createLabelCollection(server, team, 'Secrets');
  const f = people.fields;
  member = await addMember(server, team, { teamRoleSimplyId: team.teamRoleSimplyId });

  const created = await server.request('POST', '/v1/data-records', {
    token: team.apiKey,
    body: { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: 'Ada', [f.age!]: 36, [f.ssn!]: '123-45-6789' } },
  });
  recordId = expectOk(created, 201).id;
  requestIds.push(created.headers.get('x-request-id')!);
  const patched = await server.request('PATCH', `/v1/data-records/${recordId}`, { token: team.apiKey, body: { fields: { [f.age!]: 37, [f.balance!]: '12.5', [f.ssn!]: null } } });
  expectOk(patched);
  requestIds.push(patched.headers.get('x-request-id')!);
  const viaGraphql = await server.request('POST', '/graphql', {
    token: member.token,
    teamId: team.teamSimplyId,
    body: { query: `mutation($id: String!, $fields: JSON) { updateDataRecord(dataRecordSimplyId: $id, fields: $fields) { record { name } } }`, variables: { id: recordId, fields: { [f.first_name!]: 'Augusta' } } },
  });
  expect(viaGraphql.body.errors).toBeUndefined();
  requestIds.push(viaGraphql.headers.get('x-request-id')!);
  const deleted = await server.request('DELETE', `/v1/data-records/${recordId}`, { token: team.apiKey });
  expectOk(deleted);
  requestIds.push(deleted.headers.get('x-request-id')!);

  secretRecordId = expectOk(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: secrets.id, fields: { [secrets.fields.label!]: 'x' } } }), 201).id;
});
afterAll(() => server?.close());

describe('entries', () => {
  it('who, when, through which face, before and after: newest first, for a deleted record too', async () => {
    const f = people.fields;
    const res = await get(path(recordId));
    const entries = expectOk(res);
    expect(res.body.meta.pagination).toEqual({ total: 4, limit: 25, offset: 0, hasMore: false });
    for (const e of entries) {
      expect(Object.keys(e).sort()).toEqual(ENTRY_KEYS);
      expect(e.id).toMatch(AUDIT_ID);
      expect(e.requestId).toMatch(UUID);
    }
    expect(new Set(entries.map((e: any) => e.id)).size).toBe(4);
    expect(entries.map((e: any) => e.action)).toEqual(['DELETE', 'UPDATE', 'UPDATE', 'CREATE']);
    expect(entries.map((e: any) => e.requestId)).toEqual([...requestIds].reverse());
    const [del, gql, patch, create] = entries;
    const keyActor = { kind: 'API_KEY', credentialId: team.apiKeySimplyId, userSimplyId: null };
    expect(create).toMatchObject({ source: 'REST', actor: keyActor });
    expect(create.changes).toEqual([
      { dataFieldSimplyId: f.first_name, before: null, after: 'Ada' },
      { dataFieldSimplyId: f.age, before: null, after: 36 },
      { dataFieldSimplyId: f.ssn, before: null, after: '123-45-6789' },
    ]);
    expect(patch).toMatchObject({ source: 'REST', actor: keyActor });
    expect(patch.changes).toEqual([
      { dataFieldSimplyId: f.age, before: 36, after: 37 },
      { dataFieldSimplyId: f.balance, before: null, after: '12.50' },
      { dataFieldSimplyId: f.ssn, before: '123-45-6789', after: null },
    ]);
    expect(gql).toMatchObject({ source: 'GRAPHQL', actor: { kind: 'USER', credentialId: member.userSimplyId, userSimplyId: member.userSimplyId } });
    expect(gql.changes).toEqual([{ dataFieldSimplyId: f.first_name, before: 'Ada', after: 'Augusta' }]);
    expect(del).toMatchObject({ source: 'REST', actor: keyActor, changes: [] });
    // newest first, and each write a moment after the previous one
    const times = entries.map((e: any) => new Date(e.createdAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // ids are stable
    expect(expectOk(await get(path(recordId))).map((e: any) => e.id)).toEqual(entries.map((e: any) => e.id));
  });

  it('pages with limit and offset; limit 0 and 101, offset -1 are 400', async () => {
    const all = expectOk(await get(path(recordId)));
    const page = await get(path(recordId, '?limit=2&offset=1'));
    expect(expectOk(page).map((e: any) => e.id)).toEqual(all.slice(1, 3).map((e: any) => e.id));
    expect(page.body.meta.pagination).toEqual({ total: 4, limit: 2, offset: 1, hasMore: true });
    const last = await get(path(recordId, '?limit=2&offset=2'));
    expect(last.body.meta.pagination).toEqual({ total: 4, limit: 2, offset: 2, hasMore: false });
    expect(expectOk(await get(path(recordId, '?offset=10')))).toEqual([]);
    for (const q of ['?limit=0', '?limit=101', '?offset=-1', '?limit=x']) expectError(await get(path(recordId, q)), 400, 'VALIDATION_ERROR', q);
  });

  it('changes to fields the caller may not read are left out', async () => {
    const reader = await createKeyHidingField(server, team, people, 'ssn', { role: 'People reader', key: 'people reader' });
    const entries = expectOk(await get(path(recordId), reader));
    expect(entries).toHaveLength(4);
    const fields = entries.flatMap((e: any) => e.changes.map((c: any) => c.dataFieldSimplyId));
    expect(fields).not.toContain(people.fields.ssn);
    expect(entries[2].changes.map((c: any) => c.dataFieldSimplyId)).toEqual([people.fields.age, people.fields.balance]);
    // a collection it cannot read
    expectError(await get(path(secretRecordId), reader), 403, 'PERMISSION_DENIED');
  });
});

describe('permissions and ids', () => {
  it('needs a team role and records:read', async () => {
    const noRole = (await createApiKey(server, team, { name: 'no role', featurePermissions: ['TEAM_SETTINGS'] })).key;
    expectError(await get(path(recordId), noRole), 403, 'PERMISSION_DENIED');
    const mint = async (oauthScopes: string[]) => expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { oauthScopes } }), 201).token;
    expectError(await get(path(recordId), await mint(['schema:read'])), 403, 'PERMISSION_DENIED');
    expect(expectOk(await get(path(recordId), await mint(['records:read'])))).toHaveLength(4);
    // a signed-in user selects the team
    expect(expectOk(await server.request('GET', path(recordId), { token: member.token, teamId: team.teamSimplyId }))).toHaveLength(4);
    expectError(await server.request('GET', path(recordId), { token: member.token }), 400, 'VALIDATION_ERROR');
  });

  it("another team's record and unknown records are 404; malformed and numeric ids 400", async () => {
    expectError(await get(path(otherRecordId)), 404, 'NOT_FOUND');
    expect(expectOk(await get(path(otherRecordId), other.apiKey))).toHaveLength(1);
    expectError(await get(path('AAAA-BBBB-CCCC')), 404, 'NOT_FOUND');
    for (const id of ['123', 'aaaa-bbbb-cccc', 'AAAA-BBBB', 'view-AAAA-BBBB-CCCC']) expectError(await get(path(id)), 400, 'VALIDATION_ERROR', id);
    // only DataRecord is an entity type here
    expectError(await get(`/v1/audit-log/records/DataCollection/${recordId}`), 404, 'NOT_FOUND');
  });

  it('a record with no entries (written outside the API) has an empty log', async () => {
    const { insertRecords } = await import('../../src/kernel/records/records.sql.ts');
    const { inTransaction } = await import('../../src/app/transaction.ts');
    const schema = await server.app.services.schemas.get(team.teamId);
    const collection = schema.collectionsBySimplyId.get(secrets.id)!;
    const [row] = await inTransaction(server.app.services.pool, (db) =>
      insertRecords(db, team.teamId, collection, schema.fieldsOf(collection), [{ simplyId: 'QQQQ-RRRR-SSSS', values: {}, calculatedName: 'quiet' }]),
    );
    const res = await get(path(row!.simplyId));
    expect(expectOk(res)).toEqual([]);
    expect(res.body.meta.pagination).toEqual({ total: 0, limit: 25, offset: 0, hasMore: false });
  });
});

describe('GraphQL', () => {
  it('dataRecordAuditLog', async () => {
    const data = gqlData(
      await server.graphql(
        `query($id: String!) { dataRecordAuditLog(dataRecordSimplyId: $id, limit: 2) {
           nodes { id entityType entitySimplyId action source requestId createdAt actor { kind credentialId userSimplyId } changes { dataFieldSimplyId before after } }
           pagination { total limit offset hasMore } } }`,
        { id: recordId },
        { token: team.apiKey },
      ),
    );
    expect(data.dataRecordAuditLog.pagination).toEqual({ total: 4, limit: 2, offset: 0, hasMore: true });
    expect(data.dataRecordAuditLog.nodes.map((e: any) => e.action)).toEqual(['DELETE', 'UPDATE']);
    expect(data.dataRecordAuditLog.nodes[1]).toMatchObject({ entityType: 'DataRecord', entitySimplyId: recordId, source: 'GRAPHQL', actor: { kind: 'USER' } });
    expectGqlError(await server.graphql(`{ dataRecordAuditLog(dataRecordSimplyId: "12") { nodes { id } } }`, {}, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    expectGqlError(await server.graphql(`query($id: String!) { dataRecordAuditLog(dataRecordSimplyId: $id) { nodes { id } } }`, { id: otherRecordId }, { token: team.apiKey }), 'NOT_FOUND', 404);
  });
});
