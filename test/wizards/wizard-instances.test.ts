// A wizard's runs over REST and GraphQL (docs/api/data-wizards.md "Runs"): GET
// /v1/data-wizards/{id}/instances (newest first, paged, by status and record) and
// /instances/{instanceId} (formData, errorDetails, actor, times); fields the reader's role hides are
// left out of formData and their error messages withheld; the privileged tier; another team's ids 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { createWizard, INSTANCE_ID, requiredLink, updateTask } from '../support/wizard-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let wizard: string;
let otherWizard: string;
let theirRun: string;
let runKey: string;
let runKeyId: string;
let records: string[];
/** the runs, oldest first: ok on r0, failed on r0 (note too long), ok on r1 */
const runs: string[] = [];

const SUMMARY_KEYS = ['actorId', 'actorKind', 'completedAt', 'dataRecordSimplyId', 'dataWizardInstanceSimplyId', 'dataWizardSimplyId', 'id', 'startedAt', 'status'];

function get(path: string, token = team.apiKey, teamId?: string): Promise<TestResponse> {
  return server.request('GET', path, { token, teamId });
}

async function execute(record: string, formData: Record<string, unknown>): Promise<any> {
  return expectOk(await server.request('POST', `/v1/data-wizards/${wizard}/execute`, { token: runKey, body: { dataRecordSimplyId: record, formData } }));
}

/** a key with the wizard feature at view level and a role reading People except `note` */
async function keyHidingNote(): Promise<string> {
  const role = await createRole(server, team, { name: 'Reads people but not notes', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
  const { prisma } = server.app.services;
  const roleRow = await prisma.teamRole.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: role } } });
  await prisma.teamRoleFieldPermission.create({ data: { teamId: team.teamId, teamRoleId: roleRow.id, dataFieldSimplyId: people.fields.note!, level: 'NONE' } });
  return (await createApiKey(server, team, { name: 'note-blind wizard viewer', teamRoleSimplyId: role, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:VIEW'] })).key;
}

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
  people = await createCollection(server, team, {
    name: 'People',
    fields: { first_name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS', note: { dataType: 'PLAIN_TEXT', config: { maxLength: 5 } } },
  });
  wizard = (await createWizard(server, team.apiKey, {
    name: 'Update person',
    dataCollectionSimplyId: people.id,
    steps: [{ title: 'All', tasks: [updateTask('Person', requiredLink(people.fields.first_name!), people.fields.email!, people.fields.note!)] }],
  })).dataWizardSimplyId;
  const runRole = await createRole(server, team, { name: 'Runner', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] });
  ({ key: runKey, id: runKeyId } = await createApiKey(server, team, { name: 'runner', teamRoleSimplyId: runRole, featurePermissions: [] }));
  records = [(await createRecord(server, team.apiKey, people.id, {})).id, (await createRecord(server, team.apiKey, people.id, {})).id];
  runs.push((await execute(records[0]!, { [people.fields.first_name!]: 'Ada', [people.fields.note!]: 'hi' })).dataWizardInstanceSimplyId);
  const failed = await execute(records[0]!, { [people.fields.first_name!]: 'Ada', [people.fields.note!]: 'far too long' });
  expect(failed.success).toBe(false);
  runs.push(failed.dataWizardInstanceSimplyId);
  runs.push((await execute(records[1]!, { [people.fields.first_name!]: 'Grace', [people.fields.email!]: 'grace@example.com' })).dataWizardInstanceSimplyId);

  const theirs = await createCollection(server, other, { name: 'Theirs', fields: { x: 'PLAIN_TEXT' } });
  otherWizard = (await createWizard(server, other.apiKey, { name: 'Theirs', dataCollectionSimplyId: theirs.id, steps: [{ title: 'Only', tasks: [updateTask('x', theirs.fields.x!)] }] })).dataWizardSimplyId;
  const theirRole = await createRole(server, other, { name: 'Runner', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] });
  const theirKey = (await createApiKey(server, other, { name: 'runner', teamRoleSimplyId: theirRole, featurePermissions: [] })).key;
  const theirRecord = (await createRecord(server, other.apiKey, theirs.id, {})).id;
  theirRun = expectOk(await server.request('POST', `/v1/data-wizards/${otherWizard}/execute`, { token: theirKey, body: { dataRecordSimplyId: theirRecord } })).dataWizardInstanceSimplyId;
});
afterAll(() => server?.close());

describe('GET /v1/data-wizards/{id}/instances', () => {
  it('lists the runs newest first with summaries and meta.pagination', async () => {
    const res = await get(`/v1/data-wizards/${wizard}/instances`);
    const list = expectOk(res);
    expect(list.map((r: any) => r.id)).toEqual([...runs].reverse());
    expect(res.body.meta.pagination).toEqual({ total: 3, limit: 25, offset: 0, hasMore: false });
    for (const item of list) expect(Object.keys(item).sort()).toEqual(SUMMARY_KEYS);
    expect(list[2]).toMatchObject({ id: runs[0], dataWizardInstanceSimplyId: runs[0], dataWizardSimplyId: wizard, dataRecordSimplyId: records[0], status: 'COMPLETED', actorKind: 'API_KEY', actorId: runKeyId });
    expect(list[1]).toMatchObject({ status: 'FAILED', dataRecordSimplyId: records[0] });
    expect(list[0].id).toMatch(INSTANCE_ID);
    expect(new Date(list[0].completedAt).getTime()).toBeGreaterThanOrEqual(new Date(list[0].startedAt).getTime());

    const page = await get(`/v1/data-wizards/${wizard}/instances?limit=1&offset=1`);
    expect(expectOk(page).map((r: any) => r.id)).toEqual([runs[1]]);
    expect(page.body.meta.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
  });

  it('narrows by status and by record', async () => {
    const byStatus = async (status: string) => expectOk(await get(`/v1/data-wizards/${wizard}/instances?status=${status}`)).map((r: any) => r.id);
    expect(await byStatus('COMPLETED')).toEqual([runs[2], runs[0]]);
    expect(await byStatus('FAILED')).toEqual([runs[1]]);
    expect(await byStatus('RUNNING')).toEqual([]);
    const byRecord = await get(`/v1/data-wizards/${wizard}/instances?dataRecordSimplyId=${records[0]}`);
    expect(expectOk(byRecord).map((r: any) => r.id)).toEqual([runs[1], runs[0]]);
    expect(byRecord.body.meta.pagination.total).toBe(2);
    const both = await get(`/v1/data-wizards/${wizard}/instances?dataRecordSimplyId=${records[0]}&status=COMPLETED`);
    expect(expectOk(both).map((r: any) => r.id)).toEqual([runs[0]]);
    // a record no run touched, or none at all: nothing
    expect(expectOk(await get(`/v1/data-wizards/${wizard}/instances?dataRecordSimplyId=ZZZZ-ZZZZ-ZZZZ`))).toEqual([]);
  });

  it('refuses bad filters and paging with 400 naming them', async () => {
    for (const [q, field] of [['status=DONE', 'status'], ['status=completed', 'status'], ['dataRecordSimplyId=12', 'dataRecordSimplyId'], ['limit=0', 'limit'], ['limit=101', 'limit'], ['offset=-1', 'offset'], ['limit=x', 'limit']] as const) {
      const error = expectError(await get(`/v1/data-wizards/${wizard}/instances?${q}`), 400, 'VALIDATION_ERROR', q);
      expect(error.details?.map((d) => d.field), q).toContain(field);
    }
    expectError(await get('/v1/data-wizards/12/instances'), 400, 'VALIDATION_ERROR');
  });
});

describe('GET /v1/data-wizards/{id}/instances/{instanceId}', () => {
  it('reads a completed run and a failed one', async () => {
    const ok = expectOk(await get(`/v1/data-wizards/${wizard}/instances/${runs[0]}`));
    expect(Object.keys(ok).sort()).toEqual([...SUMMARY_KEYS, 'errorDetails', 'formData'].sort());
    expect(ok).toMatchObject({ status: 'COMPLETED', formData: { [people.fields.first_name!]: 'Ada', [people.fields.note!]: 'hi' }, errorDetails: null });
    const failed = expectOk(await get(`/v1/data-wizards/${wizard}/instances/${runs[1]}`));
    expect(failed.status).toBe('FAILED');
    expect(failed.formData).toEqual({ [people.fields.first_name!]: 'Ada', [people.fields.note!]: 'far too long' });
    expect(failed.errorDetails).toEqual([expect.objectContaining({ dataFieldSimplyId: people.fields.note, field: `formData.${people.fields.note}`, message: expect.any(String) })]);
    expect(failed.completedAt).not.toBeNull();
  });

  it("leaves out what the reader's role hides; a key without a role sees no values", async () => {
    const blind = await keyHidingNote();
    const failed = expectOk(await get(`/v1/data-wizards/${wizard}/instances/${runs[1]}`, blind));
    expect(failed.formData).toEqual({ [people.fields.first_name!]: 'Ada' });
    expect(failed.errorDetails).toEqual([expect.objectContaining({ dataFieldSimplyId: people.fields.note, message: 'concerns a field your role cannot read' })]);
    expect(JSON.stringify(failed)).not.toContain('far too long');
    const noRole = (await createApiKey(server, team, { name: 'wizard viewer without a role', featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:VIEW'] })).key;
    expect(expectOk(await get(`/v1/data-wizards/${wizard}/instances/${runs[0]}`, noRole)).formData).toEqual({});
    // the team's admin user reads every field
    expect(expectOk(await get(`/v1/data-wizards/${wizard}/instances/${runs[1]}`, team.userToken, team.teamSimplyId)).formData).toHaveProperty(people.fields.note!);
  });

  it("404s another wizard's run, another team's, and one that does not exist; 400 for a malformed id", async () => {
    const second = (await createWizard(server, team.apiKey, { name: 'Second', dataCollectionSimplyId: people.id, steps: [{ title: 'x' }] })).dataWizardSimplyId;
    expectError(await get(`/v1/data-wizards/${second}/instances/${runs[0]}`), 404, 'NOT_FOUND');
    expectError(await get(`/v1/data-wizards/${wizard}/instances/${theirRun}`), 404, 'NOT_FOUND');
    expectError(await get(`/v1/data-wizards/${otherWizard}/instances/${theirRun}`), 404, 'NOT_FOUND');
    expectError(await get(`/v1/data-wizards/${otherWizard}/instances`), 404, 'NOT_FOUND');
    expectError(await get(`/v1/data-wizards/${wizard}/instances/wri-ZZZZ-ZZZZ-ZZZZ`), 404, 'NOT_FOUND');
    expectError(await get(`/v1/data-wizards/${wizard}/instances/42`), 400, 'VALIDATION_ERROR');
    expect(expectOk(await get(`/v1/data-wizards/${second}/instances`))).toEqual([]);
  });
});

describe('the privileged tier', () => {
  it('needs TEAM_ADMIN_DATA_WIZARDS (view) or a team admin; scoped tokens are refused', async () => {
    const paths = [`/v1/data-wizards/${wizard}/instances`, `/v1/data-wizards/${wizard}/instances/${runs[0]}`];
    const viewer = (await createApiKey(server, team, { name: 'viewer', featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:VIEW'] })).key;
    const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { expiresInMinutes: 5, oauthScopes: ['schema:read', 'records:read'] } }), 201).token;
    const oauth = await oauthToken(server, team, 'schema:read records:read admin:read');
    const member = await addMember(server, team);
    for (const path of paths) {
      expectOk(await get(path, viewer));
      expectOk(await get(path, team.userToken, team.teamSimplyId));
      expectError(await get(path, runKey), 403, 'PERMISSION_DENIED', `run key ${path}`);
      expectError(await get(path, member.token, team.teamSimplyId), 403, 'PERMISSION_DENIED', `member ${path}`);
      expectError(await get(path, session), 403, 'PERMISSION_DENIED', `session ${path}`);
      expect((await get(path, oauth)).status, `oauth ${path}`).toBe(403);
      expectError(await get(path, 'svc_live_nope'), 401, 'UNAUTHENTICATED');
    }
  });

  it('GraphQL: dataWizardInstances and dataWizardInstance', async () => {
    const query = `query ($w: String!, $i: String!) {
      dataWizardInstances(dataWizardSimplyId: $w, status: "COMPLETED", limit: 1) { nodes { dataWizardInstanceSimplyId status } pagination { total hasMore } }
      dataWizardInstance(dataWizardSimplyId: $w, dataWizardInstanceSimplyId: $i) { status formData actorKind errorDetails { dataFieldSimplyId message } }
    }`;
    const data = gqlData(await server.graphql(query, { w: wizard, i: runs[1] }, { token: team.apiKey }));
    expect(data.dataWizardInstances).toEqual({ nodes: [{ dataWizardInstanceSimplyId: runs[2], status: 'COMPLETED' }], pagination: { total: 2, hasMore: true } });
    expect(data.dataWizardInstance).toMatchObject({ status: 'FAILED', actorKind: 'API_KEY', errorDetails: [{ dataFieldSimplyId: people.fields.note }] });
    expectGqlError(await server.graphql(query, { w: wizard, i: runs[1] }, { token: runKey }), 'PERMISSION_DENIED', 403);
  });
});
