// GET /v1/data-wizards, /{id}, /{id}/schema, /{id}/run-access: shapes, paging and who may read
// (Document 1 §2.6, §4.5; docs/api/data-wizards.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { createWizard, requiredLink, updateTask, WIZARD_ID } from '../support/wizard-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let pets: CollectionFixture;
let wizard: any;
let petsWizard: any;
let otherWizard: any;
/** keys: RUN on people only; the wizard feature at view level only; EDIT (no RUN) on people */
let runKey: string;
let viewerKey: string;
let editKey: string;

const SUMMARY_KEYS = ['createdAt', 'dataCollectionSimplyId', 'description', 'firstStepId', 'id', 'name', 'stepCount', 'updatedAt'];

function get(path: string, token = team.apiKey, teamId?: string): Promise<TestResponse> {
  return server.request('GET', path, { token, teamId });
}

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
  people = await createCollection(server, team, { name: 'People', fields: { first_name: { dataType: 'PLAIN_TEXT', title: { en: 'First name' } as never }, birthday: 'DATE' } });
  pets = await createCollection(server, team, { name: 'Pets', fields: { species: 'PLAIN_TEXT' } });
  const theirs = await createCollection(server, other, { name: 'Theirs', fields: { x: 'PLAIN_TEXT' } });
  wizard = await createWizard(server, team.apiKey, {
    name: { en: 'Update person' },
    dataCollectionSimplyId: people.id,
    steps: [
      { title: 'Name', tasks: [updateTask('Enter the name', requiredLink(people.fields.first_name!))] },
      { title: 'Dates', tasks: [updateTask('Birthday', people.fields.birthday!), { type: 'DISPLAY', title: 'Done', config: { body: 'Thanks' } }] },
    ],
  });
  petsWizard = await createWizard(server, team.apiKey, { name: 'Pets', dataCollectionSimplyId: pets.id, steps: [{ title: 'Only' }] });
  otherWizard = await createWizard(server, other.apiKey, { name: 'Theirs', dataCollectionSimplyId: theirs.id, steps: [{ title: 'Only' }] });
  const runRole = await createRole(server, team, { name: 'Runner', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'RUN' }] });
  const editRole = await createRole(server, team, { name: 'Editor', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'EDIT' }] });
  runKey = (await createApiKey(server, team, { name: 'runner', teamRoleSimplyId: runRole, featurePermissions: [] })).key;
  editKey = (await createApiKey(server, team, { name: 'editor', teamRoleSimplyId: editRole, featurePermissions: [] })).key;
  viewerKey = (await createApiKey(server, team, { name: 'viewer', featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:VIEW'] })).key;
});
afterAll(() => server?.close());

describe('GET /v1/data-wizards', () => {
  it('lists the team wizards newest first with summaries and meta.pagination', async () => {
    const extra = [];
    for (const name of ['Third', 'Fourth']) extra.push(await createWizard(server, team.apiKey, { name, dataCollectionSimplyId: pets.id }));
    const res = await get('/v1/data-wizards?limit=100');
    const list = expectOk(res);
    expect(list.map((w: any) => w.id)).toEqual([extra[1].dataWizardSimplyId, extra[0].dataWizardSimplyId, petsWizard.dataWizardSimplyId, wizard.dataWizardSimplyId]);
    expect(Object.keys(list[3]).sort()).toEqual(SUMMARY_KEYS);
    expect(list[3]).toMatchObject({ id: wizard.dataWizardSimplyId, name: { en: 'Update person' }, description: null, dataCollectionSimplyId: people.id, firstStepId: wizard.steps[0].dataWizardStepSimplyId, stepCount: 2 });
    expect(res.body.meta.pagination).toEqual({ total: 4, limit: 100, offset: 0, hasMore: false });
    const page = await get('/v1/data-wizards?limit=2&offset=1');
    expect(expectOk(page).map((w: any) => w.id)).toEqual([extra[0].dataWizardSimplyId, petsWizard.dataWizardSimplyId]);
    expect(page.body.meta.pagination).toEqual({ total: 4, limit: 2, offset: 1, hasMore: true });
    // default limit 25; the other team's wizard never shows
    expect(expectOk(await get('/v1/data-wizards')).map((w: any) => w.id)).not.toContain(otherWizard.dataWizardSimplyId);
    // TEAM_ADMIN_DATA_WIZARDS at view level is enough; a team-admin user too
    expect(expectOk(await get('/v1/data-wizards', viewerKey))).toHaveLength(4);
    expect(expectOk(await get('/v1/data-wizards', team.userToken, team.teamSimplyId))).toHaveLength(4);
  });

  it('needs TEAM_ADMIN_DATA_WIZARDS (RUN on a collection is not enough) and valid paging', async () => {
    expectError(await get('/v1/data-wizards', runKey), 403, 'PERMISSION_DENIED');
    const member = await addMember(server, team);
    expectError(await get('/v1/data-wizards', member.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
    expectError(await get('/v1/data-wizards', team.userToken), 400, 'VALIDATION_ERROR');
    expectError(await get('/v1/data-wizards', 'svc_live_nope'), 401, 'UNAUTHENTICATED');
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=x']) expectError(await get(`/v1/data-wizards?${q}`), 400, 'VALIDATION_ERROR', q);
    // scoped tokens need schema:read as well as the feature
    const noSchema = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { oauthScopes: ['records:read'] } }), 201).token;
    expectError(await get('/v1/data-wizards', noSchema), 403, 'PERMISSION_DENIED');
    const withSchema = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { oauthScopes: ['schema:read'] } }), 201).token;
    expectOk(await get('/v1/data-wizards', withSchema));
  });
});

describe('GET /v1/data-wizards/{id} and /schema', () => {
  it('detail: configuration with ordered steps, firstStepId and every task field', async () => {
    const detail = expectOk(await get(`/v1/data-wizards/${wizard.dataWizardSimplyId}`));
    expect(Object.keys(detail).sort()).toEqual([...SUMMARY_KEYS, 'firstDataWizardStepSimplyId', 'steps'].sort());
    const [name, dates] = wizard.steps;
    expect(detail.firstStepId).toBe(name.dataWizardStepSimplyId);
    expect(detail.firstDataWizardStepSimplyId).toBe(name.dataWizardStepSimplyId);
    expect(detail.steps).toEqual([
      {
        dataWizardStepSimplyId: name.dataWizardStepSimplyId,
        title: 'Name',
        position: 0,
        tasks: [
          {
            dataWizardStepTaskSimplyId: name.tasks[0].dataWizardStepTaskSimplyId,
            position: 0,
            type: 'UPDATE_DATA_RECORD',
            title: 'Enter the name',
            config: {},
            fields: [{ dataFieldSimplyId: people.fields.first_name, columnName: 'first_name', dataType: 'PLAIN_TEXT', name: { en: 'First name' }, isRequired: true }],
          },
        ],
      },
      {
        dataWizardStepSimplyId: dates.dataWizardStepSimplyId,
        title: 'Dates',
        position: 1,
        tasks: [
          {
            dataWizardStepTaskSimplyId: dates.tasks[0].dataWizardStepTaskSimplyId,
            position: 0,
            type: 'UPDATE_DATA_RECORD',
            title: 'Birthday',
            config: {},
            fields: [{ dataFieldSimplyId: people.fields.birthday, columnName: 'birthday', dataType: 'DATE', name: 'birthday', isRequired: false }],
          },
          { dataWizardStepTaskSimplyId: dates.tasks[1].dataWizardStepTaskSimplyId, position: 1, type: 'DISPLAY', title: 'Done', config: { body: 'Thanks' }, fields: [] },
        ],
      },
    ]);
  });

  it('schema: exactly the shape of Document 1 §2.6', async () => {
    const schema = expectOk(await get(`/v1/data-wizards/${wizard.dataWizardSimplyId}/schema`));
    expect(Object.keys(schema).sort()).toEqual(['dataWizardSimplyId', 'name', 'steps']);
    expect(schema.dataWizardSimplyId).toMatch(WIZARD_ID);
    expect(schema.name).toEqual({ en: 'Update person' });
    for (const step of schema.steps) {
      expect(Object.keys(step).sort()).toEqual(['dataWizardStepSimplyId', 'tasks', 'title']);
      for (const task of step.tasks) {
        expect(Object.keys(task).sort()).toEqual(['dataWizardStepTaskSimplyId', 'fields', 'title', 'type']);
        for (const field of task.fields) expect(Object.keys(field).sort()).toEqual(['columnName', 'dataFieldSimplyId', 'dataType', 'isRequired', 'name']);
      }
    }
    expect(schema.steps[0].tasks[0].fields[0]).toEqual({ dataFieldSimplyId: people.fields.first_name, columnName: 'first_name', dataType: 'PLAIN_TEXT', name: { en: 'First name' }, isRequired: true });
    expect(schema.steps.map((s: any) => s.tasks.map((t: any) => t.type))).toEqual([['UPDATE_DATA_RECORD'], ['UPDATE_DATA_RECORD', 'DISPLAY']]);
  });

  it('readable with TEAM_ADMIN_DATA_WIZARDS or RUN on the collection; others 403; another team or a bad id 404 / 400', async () => {
    for (const path of [`/v1/data-wizards/${wizard.dataWizardSimplyId}`, `/v1/data-wizards/${wizard.dataWizardSimplyId}/schema`]) {
      expectOk(await get(path, viewerKey));
      expectOk(await get(path, runKey));
      // EDIT without RUN is not enough, nor is full data access (the bootstrap key has the feature, so use a member)
      expectError(await get(path, editKey), 403, 'PERMISSION_DENIED', path);
      expectError(await get(path, other.apiKey), 404, 'NOT_FOUND', path);
    }
    // RUN on people does not open a wizard on pets
    expectError(await get(`/v1/data-wizards/${petsWizard.dataWizardSimplyId}`, runKey), 403, 'PERMISSION_DENIED');
    expectError(await get(`/v1/data-wizards/${otherWizard.dataWizardSimplyId}/schema`), 404, 'NOT_FOUND');
    for (const bad of ['42', 'wiz-nope', 'AB23-CD45-EF67']) {
      expectError(await get(`/v1/data-wizards/${bad}`), 400, 'VALIDATION_ERROR', bad);
      expectError(await get(`/v1/data-wizards/${bad}/schema`), 400, 'VALIDATION_ERROR', bad);
    }
  });
});

describe('GET /v1/data-wizards/{id}/run-access', () => {
  it('signed-in users with RUN get the first step and the step count', async () => {
    const path = `/v1/data-wizards/${wizard.dataWizardSimplyId}/run-access`;
    expect(expectOk(await get(path, team.userToken, team.teamSimplyId))).toEqual({
      dataWizardSimplyId: wizard.dataWizardSimplyId,
      firstDataWizardStepSimplyId: wizard.steps[0].dataWizardStepSimplyId,
      stepCount: 2,
    });
    const runRole = await createRole(server, team, { name: 'Member runner', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'RUN' }] });
    const runner = await addMember(server, team, { teamRoleSimplyId: runRole });
    expect(expectOk(await get(path, runner.token, team.teamSimplyId)).stepCount).toBe(2);
    // a member without RUN on the wizard's collection
    const editRole = await createRole(server, team, { name: 'Member editor', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'EDIT' }] });
    const editor = await addMember(server, team, { teamRoleSimplyId: editRole });
    expectError(await get(path, editor.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
    expectError(await get(`/v1/data-wizards/${petsWizard.dataWizardSimplyId}/run-access`, runner.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
    expectError(await get(`/v1/data-wizards/${otherWizard.dataWizardSimplyId}/run-access`, runner.token, team.teamSimplyId), 404, 'NOT_FOUND');
    expectError(await get(path, runner.token), 400, 'VALIDATION_ERROR');
  });

  it('API keys and session tokens are refused with 403 IDP_REQUIRED, whatever their permissions', async () => {
    const path = `/v1/data-wizards/${wizard.dataWizardSimplyId}/run-access`;
    expectError(await get(path), 403, 'IDP_REQUIRED');
    expectError(await get(path, runKey), 403, 'IDP_REQUIRED');
    const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { oauthScopes: ['schema:read', 'wizards:run'] } }), 201).token;
    expectError(await get(path, session), 403, 'IDP_REQUIRED');
    expectError(await get(path, 'svc_live_nope'), 401, 'UNAUTHENTICATED');
  });

  it('a wizard without steps has no first step', async () => {
    const empty = await createWizard(server, team.apiKey, { name: 'Empty', dataCollectionSimplyId: people.id });
    expect(expectOk(await get(`/v1/data-wizards/${empty.dataWizardSimplyId}/run-access`, team.userToken, team.teamSimplyId))).toEqual({
      dataWizardSimplyId: empty.dataWizardSimplyId,
      firstDataWizardStepSimplyId: null,
      stepCount: 0,
    });
  });
});

describe('a linked field removed from the collection', () => {
  it('drops out of the wizard configuration, the schema and the export; formData naming it is refused', async () => {
    const temp = await createCollection(server, team, { name: 'Temp', fields: { keep: 'PLAIN_TEXT', drop: 'PLAIN_TEXT' } });
    const w = await createWizard(server, team.apiKey, { name: 'Temp wizard', dataCollectionSimplyId: temp.id, steps: [{ title: 'S', tasks: [updateTask('T', temp.fields.keep!, temp.fields.drop!)] }] });
    expectOk(await server.request('DELETE', `/v1/data-collections/${temp.id}/fields/${temp.fields.drop}`, { token: team.apiKey }));
    const schema = expectOk(await get(`/v1/data-wizards/${w.dataWizardSimplyId}/schema`));
    expect(schema.steps[0].tasks[0].fields.map((f: any) => f.dataFieldSimplyId)).toEqual([temp.fields.keep]);
    const doc = expectOk(await get('/v1/team-schema/export'));
    expect(doc.wizards.find((x: any) => x.dataWizardSimplyId === w.dataWizardSimplyId).steps[0].tasks[0].fields).toEqual([{ dataFieldSimplyId: temp.fields.keep, isRequired: false }]);
    const record = (await createRecord(server, team.apiKey, temp.id, {})).id;
    const error = expectError(
      await server.request('POST', `/v1/data-wizards/${w.dataWizardSimplyId}/execute`, { token: team.userToken, teamId: team.teamSimplyId, body: { dataRecordSimplyId: record, formData: { [temp.fields.drop!]: 'x' } } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details).toEqual([{ field: `formData.${temp.fields.drop}`, message: 'is not a field that an UPDATE_DATA_RECORD task of this run collects' }]);
  });
});
