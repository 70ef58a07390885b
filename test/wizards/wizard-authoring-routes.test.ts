// Wizard authoring over REST (docs/api/data-wizards.md "Authoring"): POST/PATCH/DELETE
// /v1/data-wizards, /v1/data-wizard-steps and /v1/data-wizard-step-tasks, GET of a step and a
// task; the schema and execute see every edit at once; 400s name the field; another team's ids
// are 404; the privileged tier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { createRecord, readRecord } from '../support/record-fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { createWizard, STEP_ID, TASK_ID, WIZARD_ID } from '../support/wizard-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let pets: CollectionFixture;
let otherWizard: any;

const STEP_KEYS = ['dataWizardSimplyId', 'dataWizardStepSimplyId', 'id', 'position', 'tasks', 'title'];
const TASK_KEYS = ['config', 'dataWizardSimplyId', 'dataWizardStepSimplyId', 'dataWizardStepTaskSimplyId', 'fields', 'id', 'position', 'title', 'type'];

function call(method: string, path: string, body?: unknown, token = team.apiKey, teamId?: string): Promise<TestResponse> {
  return server.request(method, path, { token, teamId, body });
}

const versionCount = () => server.app.services.prisma.teamSchemaVersion.count({ where: { teamId: team.teamId } });

/** a wizard on People with one empty step, through REST */
async function restWizard(name = 'Wizard'): Promise<any> {
  return expectOk(await call('POST', '/v1/data-wizards', { name, dataCollectionSimplyId: people.id, steps: [{ title: 'First' }] }), 201);
}

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
  people = await createCollection(server, team, { name: 'People', fields: { first_name: { dataType: 'PLAIN_TEXT', title: 'First name' }, city: 'PLAIN_TEXT', age: 'NUMBER' } });
  pets = await createCollection(server, team, { name: 'Pets', fields: { species: 'PLAIN_TEXT' } });
  const theirs = await createCollection(server, other, { name: 'Theirs', fields: { x: 'PLAIN_TEXT' } });
  otherWizard = await createWizard(server, other.apiKey, { name: 'Theirs', dataCollectionSimplyId: theirs.id, steps: [{ title: 'Only', tasks: [{ type: 'DISPLAY', title: 'Hello' }] }] });
});
afterAll(() => server?.close());

describe('wizards', () => {
  it('POST creates with steps, tasks and links (201, the detail); PATCH changes; DELETE removes', async () => {
    const before = await versionCount();
    const created = expectOk(
      await call('POST', '/v1/data-wizards', {
        name: { en: 'Onboarding', fr: 'Accueil' },
        description: '  Front desk  ',
        dataCollectionSimplyId: people.id,
        steps: [{ title: 'Name', tasks: [{ type: 'UPDATE_DATA_RECORD', title: 'Name', fields: [{ dataFieldSimplyId: people.fields.first_name!, isRequired: true }] }] }],
      }),
      201,
    );
    expect(created.id).toMatch(WIZARD_ID);
    expect(created).toMatchObject({ name: { en: 'Onboarding', fr: 'Accueil' }, description: 'Front desk', dataCollectionSimplyId: people.id, stepCount: 1 });
    expect(created.steps[0].tasks[0].fields).toEqual([{ dataFieldSimplyId: people.fields.first_name, columnName: 'first_name', dataType: 'PLAIN_TEXT', name: 'First name', isRequired: true }]);
    expect(await versionCount()).toBe(before + 1);

    const updated = expectOk(await call('PATCH', `/v1/data-wizards/${created.id}`, { name: 'Welcome', description: null }));
    expect(updated).toMatchObject({ id: created.id, name: 'Welcome', description: null, stepCount: 1 });
    expect(expectOk(await call('GET', `/v1/data-wizards/${created.id}`)).name).toBe('Welcome');

    expect(expectOk(await call('DELETE', `/v1/data-wizards/${created.id}`))).toEqual({ id: created.id, deleted: true });
    expectError(await call('GET', `/v1/data-wizards/${created.id}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/v1/data-wizards/${created.id}`), 404, 'NOT_FOUND');
  });

  it('names the field of a bad body (400)', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/v1/data-wizards', { name: 'x', dataCollectionSimplyId: people.id, colour: 'red' }, 'colour'],
      ['POST', '/v1/data-wizards', { dataCollectionSimplyId: people.id }, 'name'],
      ['POST', '/v1/data-wizards', { name: 5, dataCollectionSimplyId: people.id }, 'name'],
      ['POST', '/v1/data-wizards', { name: 'x', dataCollectionSimplyId: 'nope' }, 'dataCollectionSimplyId'],
      ['POST', '/v1/data-wizards', { name: 'x', dataCollectionSimplyId: people.id, steps: [{ title: 'a', tasks: [{ type: 'NOPE', title: 't' }] }] }, 'steps.0.tasks.0.type'],
      ['POST', '/v1/data-wizards', { name: 'x', dataCollectionSimplyId: people.id, steps: [{ title: 'a', tasks: [{ type: 'DISPLAY', title: 't', fields: [{ dataFieldSimplyId: pets.fields.species }] }] }] }, 'steps.0.tasks.0.fields.0.dataFieldSimplyId'],
      ['PATCH', `/v1/data-wizards/${otherWizard.dataWizardSimplyId}`, { name: '' }, 'name'],
    ];
    for (const [method, path, body, field] of cases) {
      const error = expectError(await call(method, path, body), 400, 'VALIDATION_ERROR', `${method} ${path} ${JSON.stringify(body)}`);
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    expectError(await call('POST', '/v1/data-wizards', [1, 2]), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/data-wizards'), 400, 'VALIDATION_ERROR');
    expectError(await call('PATCH', '/v1/data-wizards/123', { name: 'x' }), 400, 'VALIDATION_ERROR');
  });
});

describe('steps', () => {
  it('POST adds a step (201) where position says, the first step follows; GET, PATCH and DELETE work on it', async () => {
    const wizard = await restWizard();
    const firstId = wizard.steps[0].dataWizardStepSimplyId;
    const before = await versionCount();
    const added = expectOk(
      await call('POST', '/v1/data-wizard-steps', {
        dataWizardSimplyId: wizard.id,
        title: { en: 'Address' },
        position: 0,
        tasks: [{ type: 'UPDATE_DATA_RECORD', title: 'City', fields: [{ dataFieldSimplyId: people.fields.city! }] }],
      }),
      201,
    );
    expect(Object.keys(added).sort()).toEqual(STEP_KEYS);
    expect(added.id).toMatch(STEP_ID);
    expect(added).toMatchObject({ dataWizardStepSimplyId: added.id, dataWizardSimplyId: wizard.id, title: { en: 'Address' }, position: 0 });
    expect(added.tasks[0]).toMatchObject({ type: 'UPDATE_DATA_RECORD', position: 0, dataWizardStepSimplyId: added.id, dataWizardSimplyId: wizard.id });
    expect(await versionCount()).toBe(before + 1);
    let detail = expectOk(await call('GET', `/v1/data-wizards/${wizard.id}`));
    expect(detail.firstStepId).toBe(added.id);
    expect(detail.steps.map((s: any) => s.dataWizardStepSimplyId)).toEqual([added.id, firstId]);

    expect(expectOk(await call('GET', `/v1/data-wizard-steps/${added.id}`))).toEqual(added);

    // move it last, rename it
    const moved = expectOk(await call('PATCH', `/v1/data-wizard-steps/${added.id}`, { title: 'Where', position: 9 }));
    expect(moved).toMatchObject({ title: 'Where', position: 1 });
    detail = expectOk(await call('GET', `/v1/data-wizards/${wizard.id}`));
    expect(detail.firstStepId).toBe(firstId);
    expect(detail.steps.map((s: any) => [s.dataWizardStepSimplyId, s.position])).toEqual([[firstId, 0], [added.id, 1]]);

    expect(expectOk(await call('DELETE', `/v1/data-wizard-steps/${firstId}`))).toEqual({ id: firstId, deleted: true });
    detail = expectOk(await call('GET', `/v1/data-wizards/${wizard.id}`));
    expect(detail).toMatchObject({ firstStepId: added.id, stepCount: 1 });
    expectError(await call('GET', `/v1/data-wizard-steps/${firstId}`), 404, 'NOT_FOUND');
    expectError(await call('PATCH', `/v1/data-wizard-steps/${firstId}`, { title: 'x' }), 404, 'NOT_FOUND');
  });

  it('names the field of a bad body (400) and refuses other methods (405)', async () => {
    const wizard = await restWizard();
    const step = wizard.steps[0].dataWizardStepSimplyId;
    const cases: [string, string, unknown, string][] = [
      ['POST', '/v1/data-wizard-steps', { title: 'x' }, 'dataWizardSimplyId'],
      ['POST', '/v1/data-wizard-steps', { dataWizardSimplyId: 'wiz-1', title: 'x' }, 'dataWizardSimplyId'],
      ['POST', '/v1/data-wizard-steps', { dataWizardSimplyId: wizard.id }, 'title'],
      ['POST', '/v1/data-wizard-steps', { dataWizardSimplyId: wizard.id, title: 'x', position: -1 }, 'position'],
      ['POST', '/v1/data-wizard-steps', { dataWizardSimplyId: wizard.id, title: 'x', position: 1.5 }, 'position'],
      ['POST', '/v1/data-wizard-steps', { dataWizardSimplyId: wizard.id, title: 'x', extra: true }, 'extra'],
      ['POST', '/v1/data-wizard-steps', { dataWizardSimplyId: wizard.id, title: 'x', tasks: [{ type: 'DISPLAY', title: 't', config: { colour: 1 } }] }, 'tasks.0.config.colour'],
      ['POST', '/v1/data-wizard-steps', { dataWizardSimplyId: wizard.id, title: 'x', tasks: [{ type: 'DISPLAY', title: 't', fields: [{ dataFieldSimplyId: 'fld-AB23-CD45-EF67' }] }] }, 'tasks.0.fields.0.dataFieldSimplyId'],
      ['PATCH', `/v1/data-wizard-steps/${step}`, { title: '   ' }, 'title'],
      ['PATCH', `/v1/data-wizard-steps/${step}`, { position: 'first' }, 'position'],
      ['PATCH', `/v1/data-wizard-steps/${step}`, { tasks: [] }, 'tasks'],
    ];
    for (const [method, path, body, field] of cases) {
      const error = expectError(await call(method, path, body), 400, 'VALIDATION_ERROR', `${method} ${path} ${JSON.stringify(body)}`);
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    // nothing to change
    expectError(await call('PATCH', `/v1/data-wizard-steps/${step}`, {}), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/data-wizard-steps/wst-1'), 400, 'VALIDATION_ERROR');
    const notAllowed = await call('GET', '/v1/data-wizard-steps');
    expectError(notAllowed, 405, 'METHOD_NOT_ALLOWED');
    expect(notAllowed.headers.get('allow')).toBe('POST');
  });
});

describe('tasks', () => {
  it('POST adds a task (201); GET; PATCH changes type, config, links (replaced) and place; DELETE', async () => {
    const wizard = await restWizard();
    const step = wizard.steps[0].dataWizardStepSimplyId;
    const first = expectOk(await call('POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: step, type: 'DISPLAY', title: 'Intro', config: { body: 'Hello' } }), 201);
    const second = expectOk(
      await call('POST', '/v1/data-wizard-step-tasks', {
        dataWizardStepSimplyId: step,
        type: 'UPDATE_DATA_RECORD',
        title: 'Name',
        position: 0,
        fields: [{ dataFieldSimplyId: people.fields.first_name!, isRequired: true }, { dataFieldSimplyId: people.fields.age! }],
      }),
      201,
    );
    expect(Object.keys(second).sort()).toEqual(TASK_KEYS);
    expect(second.id).toMatch(TASK_ID);
    expect(second).toMatchObject({ dataWizardStepSimplyId: step, dataWizardSimplyId: wizard.id, position: 0, config: {} });
    expect(second.fields.map((f: any) => [f.dataFieldSimplyId, f.isRequired])).toEqual([[people.fields.first_name, true], [people.fields.age, false]]);
    expect(expectOk(await call('GET', `/v1/data-wizard-step-tasks/${first.id}`))).toMatchObject({ id: first.id, position: 1, type: 'DISPLAY', config: { body: 'Hello' } });

    const changed = expectOk(
      await call('PATCH', `/v1/data-wizard-step-tasks/${second.id}`, { title: 'Name and city', fields: [{ dataFieldSimplyId: people.fields.city! }, { dataFieldSimplyId: people.fields.first_name!, isRequired: true }], position: 5 }),
    );
    expect(changed).toMatchObject({ title: 'Name and city', position: 1, type: 'UPDATE_DATA_RECORD' });
    expect(changed.fields.map((f: any) => [f.dataFieldSimplyId, f.isRequired])).toEqual([[people.fields.city, false], [people.fields.first_name, true]]);
    expect(expectOk(await call('GET', `/v1/data-wizard-steps/${step}`)).tasks.map((t: any) => t.id)).toEqual([first.id, second.id]);

    // a type change re-checks the stored config: DISPLAY's body is no setting of VALIDATE_DATA_RECORD
    const refused = expectError(await call('PATCH', `/v1/data-wizard-step-tasks/${first.id}`, { type: 'VALIDATE_DATA_RECORD' }), 400, 'VALIDATION_ERROR');
    expect(refused.details?.[0]?.field).toBe('config.body');
    expect(expectOk(await call('PATCH', `/v1/data-wizard-step-tasks/${first.id}`, { type: 'VALIDATE_DATA_RECORD', config: null })).config).toEqual({});

    expect(expectOk(await call('DELETE', `/v1/data-wizard-step-tasks/${first.id}`))).toEqual({ id: first.id, deleted: true });
    expect(expectOk(await call('GET', `/v1/data-wizard-steps/${step}`)).tasks.map((t: any) => [t.id, t.position])).toEqual([[second.id, 0]]);
    expectError(await call('GET', `/v1/data-wizard-step-tasks/${first.id}`), 404, 'NOT_FOUND');
  });

  it('names the field of a bad body (400)', async () => {
    const wizard = await restWizard();
    const step = wizard.steps[0].dataWizardStepSimplyId;
    const task = expectOk(await call('POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: step, type: 'DISPLAY', title: 'Intro' }), 201).id;
    const cases: [string, string, unknown, string][] = [
      ['POST', '/v1/data-wizard-step-tasks', { type: 'DISPLAY', title: 'x' }, 'dataWizardStepSimplyId'],
      ['POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: step, title: 'x' }, 'type'],
      ['POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: step, type: 'FORM', title: 'x' }, 'type'],
      ['POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: step, type: 'DISPLAY', title: 'x', fields: [{ dataFieldSimplyId: pets.fields.species }] }, 'fields.0.dataFieldSimplyId'],
      ['POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: step, type: 'DISPLAY', title: 'x', fields: [{ dataFieldSimplyId: people.fields.city }, { dataFieldSimplyId: people.fields.city }] }, 'fields.1.dataFieldSimplyId'],
      ['POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: step, type: 'DISPLAY', title: 'x', fields: [{ dataFieldSimplyId: people.fields.city, required: true }] }, 'fields.0.required'],
      ['PATCH', `/v1/data-wizard-step-tasks/${task}`, { fields: 'all' }, 'fields'],
      ['PATCH', `/v1/data-wizard-step-tasks/${task}`, { fields: [{ dataFieldSimplyId: pets.fields.species }] }, 'fields.0.dataFieldSimplyId'],
      ['PATCH', `/v1/data-wizard-step-tasks/${task}`, { position: -3 }, 'position'],
      ['PATCH', `/v1/data-wizard-step-tasks/${task}`, { config: { body: 7 } }, 'config.body'],
    ];
    for (const [method, path, body, field] of cases) {
      const error = expectError(await call(method, path, body), 400, 'VALIDATION_ERROR', `${method} ${path} ${JSON.stringify(body)}`);
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    // a refused change changed nothing
    expect(expectOk(await call('GET', `/v1/data-wizard-step-tasks/${task}`))).toMatchObject({ type: 'DISPLAY', fields: [], position: 0 });
  });
});

describe('schema and execute see every edit at once', () => {
  it('added, changed, moved and deleted steps and tasks', async () => {
    const wizard = await restWizard('Live');
    const first = wizard.steps[0].dataWizardStepSimplyId;
    const schemaOf = async () => expectOk(await call('GET', `/v1/data-wizards/${wizard.id}/schema`));
    // as the team admin (RUN is its own grant; admins pass it)
    const run = (formData: Record<string, unknown>, record: string) => call('POST', `/v1/data-wizards/${wizard.id}/execute`, { dataRecordSimplyId: record, formData }, team.userToken, team.teamSimplyId);
    const record = (await createRecord(server, team.apiKey, people.id, { [people.fields.first_name!]: 'Ada' })).id;

    // a task collecting the city, required
    const task = expectOk(
      await call('POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: first, type: 'UPDATE_DATA_RECORD', title: 'City', fields: [{ dataFieldSimplyId: people.fields.city!, isRequired: true }] }),
      201,
    );
    expect((await schemaOf()).steps).toEqual([
      {
        dataWizardStepSimplyId: first,
        title: 'First',
        tasks: [{ dataWizardStepTaskSimplyId: task.id, type: 'UPDATE_DATA_RECORD', title: 'City', fields: [{ dataFieldSimplyId: people.fields.city, columnName: 'city', dataType: 'PLAIN_TEXT', name: 'city', isRequired: true }] }],
      },
    ]);
    let result = expectOk(await run({}, record));
    expect(result.success).toBe(false);
    expect(result.errors[0]).toMatchObject({ dataWizardStepTaskSimplyId: task.id, dataFieldSimplyId: people.fields.city });
    result = expectOk(await run({ [people.fields.city!]: 'Paris' }, record));
    expect(result.success).toBe(true);
    expect((await readRecord(server, team.apiKey, record)).fields[people.fields.city!]).toBe('Paris');

    // a new first step collecting the age
    const ageStep = expectOk(
      await call('POST', '/v1/data-wizard-steps', { dataWizardSimplyId: wizard.id, title: 'Age', position: 0, tasks: [{ type: 'UPDATE_DATA_RECORD', title: 'Age', fields: [{ dataFieldSimplyId: people.fields.age! }] }] }),
      201,
    );
    expect((await schemaOf()).steps.map((s: any) => s.dataWizardStepSimplyId)).toEqual([ageStep.id, first]);
    expect(expectOk(await call('GET', `/v1/data-wizards/${wizard.id}/run-access`, undefined, team.userToken, team.teamSimplyId))).toMatchObject({ firstDataWizardStepSimplyId: ageStep.id, stepCount: 2 });
    result = expectOk(await run({ [people.fields.age!]: 36, [people.fields.city!]: 'Lyon' }, record));
    expect(result.success).toBe(true);
    expect((await readRecord(server, team.apiKey, record)).fields).toMatchObject({ [people.fields.age!]: 36, [people.fields.city!]: 'Lyon' });

    // the city task now collects the name instead: the city is an unknown formData key
    expectOk(await call('PATCH', `/v1/data-wizard-step-tasks/${task.id}`, { fields: [{ dataFieldSimplyId: people.fields.first_name! }] }));
    expect((await schemaOf()).steps[1].tasks[0].fields.map((f: any) => f.dataFieldSimplyId)).toEqual([people.fields.first_name]);
    const unknown = expectError(await run({ [people.fields.city!]: 'Nice' }, record), 400, 'VALIDATION_ERROR');
    expect(unknown.details?.[0]?.field).toBe(`formData.${people.fields.city}`);
    expect(expectOk(await run({ [people.fields.first_name!]: 'Grace' }, record)).success).toBe(true);

    // the age step goes: its field is no longer collected
    expectOk(await call('DELETE', `/v1/data-wizard-steps/${ageStep.id}`));
    expect((await schemaOf()).steps.map((s: any) => s.dataWizardStepSimplyId)).toEqual([first]);
    expectError(await run({ [people.fields.age!]: 40 }, record), 400, 'VALIDATION_ERROR');

    // the last task goes: the step collects nothing, the run still completes
    expectOk(await call('DELETE', `/v1/data-wizard-step-tasks/${task.id}`));
    expect((await schemaOf()).steps).toEqual([{ dataWizardStepSimplyId: first, title: 'First', tasks: [] }]);
    expect(expectOk(await run({}, record)).success).toBe(true);
  });
});

describe('who may author', () => {
  it("another team's wizard, step and task are 404 on every route", async () => {
    const theirStep = otherWizard.steps[0].dataWizardStepSimplyId;
    const theirTask = otherWizard.steps[0].tasks[0].dataWizardStepTaskSimplyId;
    const cases: [string, string, unknown?][] = [
      ['PATCH', `/v1/data-wizards/${otherWizard.dataWizardSimplyId}`, { name: 'Mine' }],
      ['DELETE', `/v1/data-wizards/${otherWizard.dataWizardSimplyId}`],
      ['POST', '/v1/data-wizard-steps', { dataWizardSimplyId: otherWizard.dataWizardSimplyId, title: 'Mine' }],
      ['GET', `/v1/data-wizard-steps/${theirStep}`],
      ['PATCH', `/v1/data-wizard-steps/${theirStep}`, { title: 'Mine' }],
      ['DELETE', `/v1/data-wizard-steps/${theirStep}`],
      ['POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: theirStep, type: 'DISPLAY', title: 'Mine' }],
      ['GET', `/v1/data-wizard-step-tasks/${theirTask}`],
      ['PATCH', `/v1/data-wizard-step-tasks/${theirTask}`, { title: 'Mine' }],
      ['DELETE', `/v1/data-wizard-step-tasks/${theirTask}`],
    ];
    for (const [method, path, body] of cases) {
      expectError(await call(method, path, body), 404, 'NOT_FOUND', `${method} ${path}`);
      expectError(await call(method, path, body, team.userToken, team.teamSimplyId), 404, 'NOT_FOUND', `${method} ${path} (user)`);
    }
    // a collection of another team
    expectError(await call('POST', '/v1/data-wizards', { name: 'x', dataCollectionSimplyId: otherWizard.dataCollectionSimplyId }), 404, 'NOT_FOUND');
    // theirs is untouched
    const theirs = expectOk(await call('GET', `/v1/data-wizards/${otherWizard.dataWizardSimplyId}`, undefined, other.apiKey));
    expect(theirs).toMatchObject({ name: 'Theirs', stepCount: 1 });
    expect(theirs.steps[0].tasks).toHaveLength(1);
  });

  it('needs TEAM_ADMIN_DATA_WIZARDS (view to read a step or task, edit to change); scoped tokens are refused', async () => {
    const wizard = await restWizard();
    const step = wizard.steps[0].dataWizardStepSimplyId;
    const task = expectOk(await call('POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: step, type: 'DISPLAY', title: 'Intro' }), 201).id;
    const viewer = (await createApiKey(server, team, { name: 'viewer', featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:VIEW'] })).key;
    const none = (await createApiKey(server, team, { name: 'none', featurePermissions: [] })).key;
    const session = expectOk(await call('POST', '/v1/session-tokens', { expiresInMinutes: 5, oauthScopes: ['schema:read'] }), 201).token;
    const member = await addMember(server, team);
    const writes: [string, string, unknown?][] = [
      ['POST', '/v1/data-wizards', { name: 'x', dataCollectionSimplyId: people.id }],
      ['PATCH', `/v1/data-wizards/${wizard.id}`, { name: 'x' }],
      ['DELETE', `/v1/data-wizards/${wizard.id}`],
      ['POST', '/v1/data-wizard-steps', { dataWizardSimplyId: wizard.id, title: 'x' }],
      ['PATCH', `/v1/data-wizard-steps/${step}`, { title: 'x' }],
      ['DELETE', `/v1/data-wizard-steps/${step}`],
      ['POST', '/v1/data-wizard-step-tasks', { dataWizardStepSimplyId: step, type: 'DISPLAY', title: 'x' }],
      ['PATCH', `/v1/data-wizard-step-tasks/${task}`, { title: 'x' }],
      ['DELETE', `/v1/data-wizard-step-tasks/${task}`],
    ];
    const reads: [string, string][] = [['GET', `/v1/data-wizard-steps/${step}`], ['GET', `/v1/data-wizard-step-tasks/${task}`]];
    for (const [method, path, body] of writes) {
      expectError(await call(method, path, body, viewer), 403, 'PERMISSION_DENIED', `viewer ${method} ${path}`);
      expectError(await call(method, path, body, none), 403, 'PERMISSION_DENIED', `none ${method} ${path}`);
      expectError(await call(method, path, body, session), 403, 'PERMISSION_DENIED', `session ${method} ${path}`);
      expectError(await call(method, path, body, member.token, team.teamSimplyId), 403, 'PERMISSION_DENIED', `member ${method} ${path}`);
      expectError(await call(method, path, body, ''), 401, 'UNAUTHENTICATED', `anonymous ${method} ${path}`);
      // the tier before the input: a bad body is still a 403
      expectError(await call(method, path, { bad: true }, viewer), 403, 'PERMISSION_DENIED', `viewer, bad body ${method} ${path}`);
    }
    for (const [method, path] of reads) {
      expectOk(await call(method, path, undefined, viewer));
      expectError(await call(method, path, undefined, none), 403, 'PERMISSION_DENIED');
      expectError(await call(method, path, undefined, session), 403, 'PERMISSION_DENIED');
      expectOk(await call(method, path, undefined, team.userToken, team.teamSimplyId));
    }
    // nothing of the refused writes happened
    expect(expectOk(await call('GET', `/v1/data-wizards/${wizard.id}`))).toMatchObject({ name: 'Wizard', stepCount: 1 });
  });
});
