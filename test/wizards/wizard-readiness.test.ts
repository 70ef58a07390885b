// GET /v1/data-wizards/{id}/studio-readiness (docs/api/data-wizards.md "Studio readiness"): each
// blocker code with the step, task and field it concerns, the warnings, isReady, the GraphQL field,
// the privileged tier and another team's wizard. Configurations authoring refuses (a dangling link,
// another collection's field, an unknown task type) are written to the database directly: they are
// what readiness finds when the schema changed under a wizard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { createWizard, requiredLink, updateTask, validateTask, type WizardSpec } from '../support/wizard-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let pets: CollectionFixture;

const ISSUE_KEYS = ['automationSimplyId', 'code', 'dataFieldSimplyId', 'dataWizardStepSimplyId', 'dataWizardStepTaskSimplyId', 'field', 'message'];

async function readiness(wizard: string, token = team.apiKey): Promise<any> {
  return expectOk(await server.request('GET', `/v1/data-wizards/${wizard}/studio-readiness`, { token }));
}

async function wizardOf(spec: Omit<WizardSpec, 'dataCollectionSimplyId'> & { dataCollectionSimplyId?: string }): Promise<any> {
  return createWizard(server, team.apiKey, { dataCollectionSimplyId: people.id, ...spec });
}

const codes = (issues: any[]) => issues.map((i) => i.code);

/** the internal ids of a wizard's first task and of a field */
async function rowsOf(task: string) {
  const { prisma } = server.app.services;
  return prisma.dataWizardStepTask.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: task } } });
}

async function fieldRow(simplyId: string) {
  return server.app.services.prisma.dataField.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId } } });
}

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
  people = await createCollection(server, team, {
    name: 'People',
    fields: { first_name: 'PLAIN_TEXT', photo: 'SINGLE_IMAGE', odd: 'HOLOGRAM' },
  });
  pets = await createCollection(server, team, { name: 'Pets', fields: { species: 'PLAIN_TEXT' } });
});
afterAll(() => server?.close());

describe('GET …/studio-readiness', () => {
  it('a ready wizard: isReady, no blockers, and the warning that nothing follows a run', async () => {
    const w = await wizardOf({ name: 'Ready', steps: [{ title: 'Name', tasks: [updateTask('Name', people.fields.first_name!)] }] });
    const r = await readiness(w.dataWizardSimplyId);
    expect(r).toEqual({
      dataWizardSimplyId: w.dataWizardSimplyId,
      isReady: true,
      blockers: [],
      warnings: [{ code: 'NO_SUCCESS_OUTCOME', message: expect.any(String), field: null, dataWizardStepSimplyId: null, dataWizardStepTaskSimplyId: null, dataFieldSimplyId: null, automationSimplyId: null }],
    });
  });

  it('NO_STEPS, STEP_HAS_NO_TASKS and TASK_HAS_NO_FIELDS name the step and the task', async () => {
    expect(codes((await readiness((await wizardOf({ name: 'Empty' })).dataWizardSimplyId)).blockers)).toEqual(['NO_STEPS']);
    const w = await wizardOf({
      name: 'Hollow',
      steps: [
        { title: 'Nothing' },
        { title: 'Tasks', tasks: [{ type: 'UPDATE_DATA_RECORD', title: 'No fields' }, { type: 'VALIDATE_DATA_RECORD', title: 'No checks' }, { type: 'DISPLAY', title: 'Fine without fields' }] },
      ],
    });
    const [empty, tasks] = w.steps;
    const r = await readiness(w.dataWizardSimplyId);
    expect(r.isReady).toBe(false);
    expect(r.blockers).toEqual([
      expect.objectContaining({ code: 'STEP_HAS_NO_TASKS', field: 'steps[0].tasks', dataWizardStepSimplyId: empty.dataWizardStepSimplyId, dataWizardStepTaskSimplyId: null }),
      expect.objectContaining({ code: 'TASK_HAS_NO_FIELDS', field: 'steps[1].tasks[0].fields', dataWizardStepSimplyId: tasks.dataWizardStepSimplyId, dataWizardStepTaskSimplyId: tasks.tasks[0].dataWizardStepTaskSimplyId }),
      expect.objectContaining({ code: 'TASK_HAS_NO_FIELDS', field: 'steps[1].tasks[1].fields', dataWizardStepTaskSimplyId: tasks.tasks[1].dataWizardStepTaskSimplyId }),
    ]);
    for (const issue of [...r.blockers, ...r.warnings]) expect(Object.keys(issue).sort()).toEqual(ISSUE_KEYS);
    expect(codes(r.warnings)).toContain('NOTHING_COLLECTED');
  });

  it('FIELD_MISSING, FIELD_NOT_IN_COLLECTION and FIELD_TYPE_UNSUPPORTED for links the schema no longer backs', async () => {
    const w = await wizardOf({ name: 'Drifted', steps: [{ title: 'One', tasks: [updateTask('Name', people.fields.first_name!)] }] });
    const task = w.steps[0].tasks[0];
    const row = await rowsOf(task.dataWizardStepTaskSimplyId);
    const { prisma } = server.app.services;
    const species = await fieldRow(pets.fields.species!);
    const odd = await fieldRow(people.fields.odd!);
    await prisma.dataWizardTaskField.createMany({
      data: [
        { teamId: team.teamId, taskId: row.id, fieldId: 987_654_321n, rank: 1 },
        { teamId: team.teamId, taskId: row.id, fieldId: species.id, rank: 2 },
        { teamId: team.teamId, taskId: row.id, fieldId: odd.id, rank: 3 },
      ],
    });
    const r = await readiness(w.dataWizardSimplyId);
    const where = { dataWizardStepSimplyId: w.steps[0].dataWizardStepSimplyId, dataWizardStepTaskSimplyId: task.dataWizardStepTaskSimplyId };
    expect(r.blockers).toEqual([
      expect.objectContaining({ code: 'FIELD_MISSING', field: 'steps[0].tasks[0].fields[1]', dataFieldSimplyId: null, ...where }),
      expect.objectContaining({ code: 'FIELD_NOT_IN_COLLECTION', field: 'steps[0].tasks[0].fields[2]', dataFieldSimplyId: pets.fields.species, ...where }),
      expect.objectContaining({ code: 'FIELD_TYPE_UNSUPPORTED', field: 'steps[0].tasks[0].fields[3]', dataFieldSimplyId: people.fields.odd, ...where }),
    ]);
  });

  it('TASK_TYPE_UNSUPPORTED and REQUIRED_FIELD_NOT_COLLECTED', async () => {
    const w = await wizardOf({
      name: 'Odd tasks',
      steps: [{ title: 'One', tasks: [updateTask('Name', people.fields.first_name!), validateTask('Check', requiredLink(people.fields.first_name!))] }],
    });
    const [update, check] = w.steps[0].tasks;
    await server.app.services.prisma.dataWizardStepTask.update({ where: { id: (await rowsOf(update.dataWizardStepTaskSimplyId)).id }, data: { type: 'SIGNATURE' } });
    const r = await readiness(w.dataWizardSimplyId);
    expect(r.blockers).toEqual([
      expect.objectContaining({ code: 'TASK_TYPE_UNSUPPORTED', field: 'steps[0].tasks[0].type', dataWizardStepTaskSimplyId: update.dataWizardStepTaskSimplyId }),
      expect.objectContaining({ code: 'REQUIRED_FIELD_NOT_COLLECTED', field: 'steps[0].tasks[1].fields[0].isRequired', dataWizardStepTaskSimplyId: check.dataWizardStepTaskSimplyId, dataFieldSimplyId: people.fields.first_name }),
    ]);
  });

  it('COLLECTION_ARCHIVED and COLLECTION_MISSING', async () => {
    const archived = await createCollection(server, team, { name: 'Soon archived', fields: { x: 'PLAIN_TEXT' } });
    const w = await wizardOf({ name: 'On archived', dataCollectionSimplyId: archived.id, steps: [{ title: 'One', tasks: [updateTask('x', archived.fields.x!)] }] });
    expectOk(await server.request('POST', `/v1/data-collections/${archived.id}/archive`, { token: team.apiKey, body: { isArchived: true } }));
    expect((await readiness(w.dataWizardSimplyId)).blockers).toEqual([expect.objectContaining({ code: 'COLLECTION_ARCHIVED', field: 'dataCollectionSimplyId' })]);

    const gone = await wizardOf({ name: 'Orphan', steps: [{ title: 'One', tasks: [updateTask('Name', people.fields.first_name!)] }] });
    await server.app.services.prisma.dataWizard.update({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: gone.dataWizardSimplyId } }, data: { collectionId: null } });
    const r = await readiness(gone.dataWizardSimplyId);
    expect(codes(r.blockers)).toEqual(['COLLECTION_MISSING', 'FIELD_NOT_IN_COLLECTION']);
  });

  it('warnings: outcomes disabled or missing, a field the external form cannot collect', async () => {
    const w = await wizardOf({ name: 'With photo', steps: [{ title: 'One', tasks: [updateTask('Photo', requiredLink(people.fields.photo!))] }] });
    const automation = async (isEnabled: boolean, triggerType = 'WIZARD_COMPLETED') =>
      expectOk(await server.request('POST', '/v1/automations', { token: team.apiKey, body: { name: `outcome ${Math.random()}`, triggerType, triggerConfig: { dataWizardSimplyId: w.dataWizardSimplyId }, isEnabled } }), 201).id;
    const disabled = await automation(false);
    const disabledError = await automation(false, 'WIZARD_COMPLETION_FAILED');
    let r = await readiness(w.dataWizardSimplyId);
    expect(r.isReady).toBe(true);
    expect(r.warnings).toEqual([
      expect.objectContaining({ code: 'EXTERNAL_FORM_FIELD_UNSUPPORTED', dataFieldSimplyId: people.fields.photo, field: 'steps[0].tasks[0].fields[0]', message: expect.stringContaining('always fail') }),
      expect.objectContaining({ code: 'NO_SUCCESS_OUTCOME', message: expect.stringContaining('disabled') }),
      expect.objectContaining({ code: 'OUTCOME_DISABLED', automationSimplyId: disabled }),
      expect.objectContaining({ code: 'OUTCOME_DISABLED', automationSimplyId: disabledError }),
    ]);
    await automation(true);
    r = await readiness(w.dataWizardSimplyId);
    expect(codes(r.warnings)).toEqual(['EXTERNAL_FORM_FIELD_UNSUPPORTED', 'OUTCOME_DISABLED', 'OUTCOME_DISABLED']);
  });

  it('GraphQL dataWizardStudioReadiness; the privileged tier; 404 for another team', async () => {
    const w = await wizardOf({ name: 'Via GraphQL' });
    const data = gqlData(await server.graphql(`query ($id: String!) { dataWizardStudioReadiness(dataWizardSimplyId: $id) { isReady blockers { code field } } }`, { id: w.dataWizardSimplyId }, { token: team.apiKey }));
    expect(data.dataWizardStudioReadiness).toEqual({ isReady: false, blockers: [{ code: 'NO_STEPS', field: 'steps' }] });

    const path = `/v1/data-wizards/${w.dataWizardSimplyId}/studio-readiness`;
    const viewer = (await createApiKey(server, team, { name: 'viewer', featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:VIEW'] })).key;
    const plain = (await createApiKey(server, team, { name: 'no wizard feature', featurePermissions: [] })).key;
    const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { expiresInMinutes: 5, oauthScopes: ['schema:read'] } }), 201).token;
    expectOk(await server.request('GET', path, { token: viewer }));
    expectOk(await server.request('GET', path, { token: team.userToken, teamId: team.teamSimplyId }));
    expectError(await server.request('GET', path, { token: plain }), 403, 'PERMISSION_DENIED');
    expectError(await server.request('GET', path, { token: session }), 403, 'PERMISSION_DENIED');
    expectError(await server.request('GET', path, { token: other.apiKey }), 404, 'NOT_FOUND');
    expectError(await server.request('GET', '/v1/data-wizards/wiz-ZZZZ-ZZZZ-ZZZZ/studio-readiness', { token: team.apiKey }), 404, 'NOT_FOUND');
    expectError(await server.request('GET', '/v1/data-wizards/7/studio-readiness', { token: team.apiKey }), 400, 'VALIDATION_ERROR');
  });
});
