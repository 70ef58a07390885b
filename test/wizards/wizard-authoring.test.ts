// Privileged wizard authoring over GraphQL (create/update/delete wizards, steps, tasks and field
// links): validation, the step/task order invariants, a schema version per change, the portable
// export, and who may author (docs/api/data-wizards.md "Authoring").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { CREATE_WIZARD, createWizard, requiredLink, STEP, STEP_ID, TASK, TASK_ID, updateTask, validateTask, WIZARD, WIZARD_ID } from '../support/wizard-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let pets: CollectionFixture;
let smart: CollectionFixture;
let otherPeople: CollectionFixture;

const versionCount = () => server.app.services.prisma.teamSchemaVersion.count({ where: { teamId: team.teamId } });
const latestVersion = () => server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });

function gql(query: string, variables: Record<string, unknown>, token = team.apiKey) {
  return server.graphql(query, variables, { token });
}

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
  people = await createCollection(server, team, { name: 'People', fields: { first_name: { dataType: 'PLAIN_TEXT', title: 'First name' }, age: 'NUMBER', email: 'EMAIL_ADDRESS', consent: 'BOOLEAN' } });
  pets = await createCollection(server, team, { name: 'Pets', fields: { species: 'PLAIN_TEXT' } });
  smart = await createCollection(server, team, { name: 'Adults', type: 'SMART', parentId: people.internalId, filterCriteria: [], fields: [] });
  otherPeople = await createCollection(server, other, { name: 'Theirs', fields: { first_name: 'PLAIN_TEXT' } });
});
afterAll(() => server?.close());

describe('create', () => {
  it('stores steps, tasks and field links in order, sets the first step, records a version and exports the wizard', async () => {
    const f = people.fields;
    const before = await versionCount();
    const wizard = await createWizard(server, team.apiKey, {
      name: { en: 'Onboarding', fr: 'Accueil' },
      description: '  Welcome flow  ',
      dataCollectionSimplyId: people.id,
      steps: [
        {
          title: 'Basics',
          tasks: [
            { type: 'DISPLAY', title: 'Intro', config: { body: { en: 'Hello' } } },
            updateTask('Name and age', requiredLink(f.first_name!), f.age!),
          ],
        },
        { title: 'Check', tasks: [validateTask('Has a name', f.first_name!)] },
      ],
    });
    expect(wizard.dataWizardSimplyId).toMatch(WIZARD_ID);
    expect(wizard).toMatchObject({ name: { en: 'Onboarding', fr: 'Accueil' }, description: 'Welcome flow', dataCollectionSimplyId: people.id, stepCount: 2 });
    const [basics, check] = wizard.steps;
    expect(basics.dataWizardStepSimplyId).toMatch(STEP_ID);
    expect(wizard.firstStepId).toBe(basics.dataWizardStepSimplyId);
    expect(wizard.firstDataWizardStepSimplyId).toBe(basics.dataWizardStepSimplyId);
    expect(wizard.steps.map((s: any) => [s.title, s.position])).toEqual([['Basics', 0], ['Check', 1]]);
    expect(basics.tasks.map((t: any) => t.type)).toEqual(['DISPLAY', 'UPDATE_DATA_RECORD']);
    expect(basics.tasks[0]).toMatchObject({ config: { body: { en: 'Hello' } }, fields: [] });
    expect(basics.tasks[1].dataWizardStepTaskSimplyId).toMatch(TASK_ID);
    expect(basics.tasks[1].config).toEqual({});
    expect(basics.tasks[1].fields).toEqual([
      { dataFieldSimplyId: f.first_name, columnName: 'first_name', dataType: 'PLAIN_TEXT', name: 'First name', isRequired: true },
      { dataFieldSimplyId: f.age, columnName: 'age', dataType: 'NUMBER', name: 'age', isRequired: false },
    ]);
    expect(check.tasks[0]).toMatchObject({ type: 'VALIDATE_DATA_RECORD', fields: [{ dataFieldSimplyId: f.first_name, isRequired: false }] });

    expect(await versionCount()).toBe(before + 1);
    const version = await latestVersion();
    expect(version.summary).toBe(`wizard created: Onboarding (${wizard.dataWizardSimplyId}) on collection ${people.id}`);
    expect(version).toMatchObject({ actorKind: 'API_KEY', actorId: team.apiKeySimplyId });
    const exported = (version.snapshot as any).wizards.find((w: any) => w.dataWizardSimplyId === wizard.dataWizardSimplyId);
    expect(exported).toEqual({
      dataWizardSimplyId: wizard.dataWizardSimplyId,
      dataCollectionSimplyId: people.id,
      name: { en: 'Onboarding', fr: 'Accueil' },
      description: 'Welcome flow',
      firstStepId: basics.dataWizardStepSimplyId,
      steps: [
        {
          dataWizardStepSimplyId: basics.dataWizardStepSimplyId,
          title: 'Basics',
          tasks: [
            { dataWizardStepTaskSimplyId: basics.tasks[0].dataWizardStepTaskSimplyId, type: 'DISPLAY', title: 'Intro', config: { body: { en: 'Hello' } }, fields: [] },
            {
              dataWizardStepTaskSimplyId: basics.tasks[1].dataWizardStepTaskSimplyId,
              type: 'UPDATE_DATA_RECORD',
              title: 'Name and age',
              config: {},
              fields: [{ dataFieldSimplyId: f.first_name, isRequired: true }, { dataFieldSimplyId: f.age, isRequired: false }],
            },
          ],
        },
        {
          dataWizardStepSimplyId: check.dataWizardStepSimplyId,
          title: 'Check',
          tasks: [{ dataWizardStepTaskSimplyId: check.tasks[0].dataWizardStepTaskSimplyId, type: 'VALIDATE_DATA_RECORD', title: 'Has a name', config: {}, fields: [{ dataFieldSimplyId: f.first_name, isRequired: false }] }],
        },
      ],
    });
    // the export route serves the same document
    const doc = expectOk(await server.request('GET', '/v1/team-schema/export', { token: team.apiKey }));
    expect(doc.wizards.find((w: any) => w.dataWizardSimplyId === wizard.dataWizardSimplyId)).toEqual(exported);
  });

  it('a wizard without steps has no first step', async () => {
    const wizard = await createWizard(server, team.apiKey, { name: 'Empty', dataCollectionSimplyId: pets.id });
    expect(wizard).toMatchObject({ steps: [], stepCount: 0, firstStepId: null, description: null });
  });

  it('refuses bad bodies with 400 naming the field, and records no version', async () => {
    const f = people.fields;
    const before = await versionCount();
    // the LocalizedText scalar refuses an empty name while parsing the variables (HTTP 400)
    const empty = await gql(CREATE_WIZARD, { input: { name: '', dataCollectionSimplyId: people.id } });
    expectGqlError(empty, 'VALIDATION_ERROR', 400, 400);
    expect(empty.errors![0]!.message).toContain('input.name');
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '   ', dataCollectionSimplyId: people.id }, 'name'],
      [{ name: 'x', dataCollectionSimplyId: '12' }, 'dataCollectionSimplyId'],
      [{ name: 'x', dataCollectionSimplyId: people.id, description: 'd'.repeat(2001) }, 'description'],
      [{ name: 'x', dataCollectionSimplyId: smart.id }, 'dataCollectionSimplyId'],
      [{ name: 'x', dataCollectionSimplyId: people.id, steps: [{ title: 's', tasks: [{ type: 'SEND_EMAIL', title: 't' }] }] }, 'steps.0.tasks.0.type'],
      [{ name: 'x', dataCollectionSimplyId: people.id, steps: [{ title: 's', tasks: [{ type: 'UPDATE_DATA_RECORD', title: 't', fields: [{ dataFieldSimplyId: pets.fields.species }] }] }] }, 'steps.0.tasks.0.fields.0.dataFieldSimplyId'],
      [{ name: 'x', dataCollectionSimplyId: people.id, steps: [{ title: 's', tasks: [{ type: 'UPDATE_DATA_RECORD', title: 't', fields: [{ dataFieldSimplyId: otherPeople.fields.first_name }] }] }] }, 'steps.0.tasks.0.fields.0.dataFieldSimplyId'],
      [{ name: 'x', dataCollectionSimplyId: people.id, steps: [{ title: 's', tasks: [{ type: 'UPDATE_DATA_RECORD', title: 't', fields: [{ dataFieldSimplyId: f.age }, { dataFieldSimplyId: f.age }] }] }] }, 'steps.0.tasks.0.fields.1.dataFieldSimplyId'],
      [{ name: 'x', dataCollectionSimplyId: people.id, steps: [{ title: 's', tasks: [{ type: 'UPDATE_DATA_RECORD', title: 't', fields: [{ dataFieldSimplyId: '42' }] }] }] }, 'steps.0.tasks.0.fields.0.dataFieldSimplyId'],
      [{ name: 'x', dataCollectionSimplyId: people.id, steps: [{ title: 's', tasks: [{ type: 'UPDATE_DATA_RECORD', title: 't', config: { body: 'x' } }] }] }, 'steps.0.tasks.0.config.body'],
      [{ name: 'x', dataCollectionSimplyId: people.id, steps: [{ title: 's', tasks: [{ type: 'DISPLAY', title: 't', config: { colour: 'red' } }] }] }, 'steps.0.tasks.0.config.colour'],
      [{ name: 'x', dataCollectionSimplyId: people.id, steps: Array.from({ length: 51 }, () => ({ title: 's' })) }, 'steps'],
    ];
    for (const [input, field] of cases) {
      const res = await gql(CREATE_WIZARD, { input });
      expectGqlError(res, 'VALIDATION_ERROR', 400);
      const details = res.errors![0]!.extensions!.details as { field: string }[];
      expect(details.map((d) => d.field), JSON.stringify(input).slice(0, 200)).toContain(field);
    }
    // a collection of another team is not found
    expectGqlError(await gql(CREATE_WIZARD, { input: { name: 'x', dataCollectionSimplyId: otherPeople.id } }), 'NOT_FOUND', 404);
    expect(await versionCount()).toBe(before);
  });
});

describe('steps, tasks and field links', () => {
  const STEP_MUTATIONS = {
    create: `mutation ($id: String!, $input: DataWizardStepInput!, $position: Int) { createDataWizardStep(dataWizardSimplyId: $id, input: $input, position: $position) { ${STEP} } }`,
    update: `mutation ($id: String!, $input: DataWizardStepUpdateInput!) { updateDataWizardStep(dataWizardStepSimplyId: $id, input: $input) { ${STEP} } }`,
    remove: `mutation ($id: String!) { deleteDataWizardStep(dataWizardStepSimplyId: $id) }`,
    reorder: `mutation ($id: String!, $ids: [String!]!) { reorderDataWizardSteps(dataWizardSimplyId: $id, orderedStepSimplyIds: $ids) { ${WIZARD} } }`,
    first: `mutation ($id: String!) { setFirstDataWizardStep(dataWizardStepSimplyId: $id) { ${WIZARD} } }`,
  };
  const TASK_MUTATIONS = {
    create: `mutation ($id: String!, $input: DataWizardStepTaskInput!, $position: Int) { createDataWizardStepTask(dataWizardStepSimplyId: $id, input: $input, position: $position) { ${TASK} } }`,
    update: `mutation ($id: String!, $input: DataWizardStepTaskUpdateInput!) { updateDataWizardStepTask(dataWizardStepTaskSimplyId: $id, input: $input) { ${TASK} } }`,
    remove: `mutation ($id: String!) { deleteDataWizardStepTask(dataWizardStepTaskSimplyId: $id) }`,
    reorder: `mutation ($id: String!, $ids: [String!]!) { reorderDataWizardStepTasks(dataWizardStepSimplyId: $id, orderedTaskSimplyIds: $ids) { ${STEP} } }`,
    setFields: `mutation ($id: String!, $fields: [DataWizardTaskFieldInput!]!) { setDataWizardStepTaskFields(dataWizardStepTaskSimplyId: $id, fields: $fields) { ${TASK} } }`,
    addField: `mutation ($id: String!, $input: DataWizardTaskFieldInput!) { addDataWizardStepTaskField(dataWizardStepTaskSimplyId: $id, input: $input) { ${TASK} } }`,
    removeField: `mutation ($id: String!, $field: String!) { removeDataWizardStepTaskField(dataWizardStepTaskSimplyId: $id, dataFieldSimplyId: $field) { ${TASK} } }`,
  };
  const GET = `query ($id: String!) { dataWizard(dataWizardSimplyId: $id) { ${WIZARD} } }`;

  it('keeps steps in order with the first step first, through add, reorder, set-first and delete; one version each', async () => {
    const wizard = await createWizard(server, team.apiKey, { name: 'Steps', dataCollectionSimplyId: people.id, steps: [{ title: 'A' }, { title: 'B' }] });
    const id = wizard.dataWizardSimplyId;
    const [a, b] = wizard.steps.map((s: any) => s.dataWizardStepSimplyId);
    const titles = async () => gqlData(await gql(GET, { id })).dataWizard;
    let versions = await versionCount();

    const c = gqlData(await gql(STEP_MUTATIONS.create, { id, input: { title: 'C' } })).createDataWizardStep;
    expect(c).toMatchObject({ title: 'C', position: 2, tasks: [] });
    const z = gqlData(await gql(STEP_MUTATIONS.create, { id, input: { title: 'Z', tasks: [{ type: 'DISPLAY', title: 'hi' }] }, position: 0 })).createDataWizardStep;
    expect(z.position).toBe(0);
    let current = await titles();
    expect(current.steps.map((s: any) => s.title)).toEqual(['Z', 'A', 'B', 'C']);
    expect(current.firstStepId).toBe(z.dataWizardStepSimplyId);
    expect(await versionCount()).toBe((versions += 2));

    current = gqlData(await gql(STEP_MUTATIONS.reorder, { id, ids: [c.dataWizardStepSimplyId, b] })).reorderDataWizardSteps;
    expect(current.steps.map((s: any) => s.title)).toEqual(['C', 'B', 'Z', 'A']);
    expect(current.firstStepId).toBe(c.dataWizardStepSimplyId);
    current = gqlData(await gql(STEP_MUTATIONS.first, { id: a })).setFirstDataWizardStep;
    expect(current.steps.map((s: any) => s.title)).toEqual(['A', 'C', 'B', 'Z']);
    expect(current.steps.map((s: any) => s.position)).toEqual([0, 1, 2, 3]);
    expect(current.firstStepId).toBe(a);
    expect(gqlData(await gql(STEP_MUTATIONS.update, { id: a, input: { title: { en: 'Alpha' } } })).updateDataWizardStep.title).toEqual({ en: 'Alpha' });
    expect(gqlData(await gql(STEP_MUTATIONS.remove, { id: a })).deleteDataWizardStep).toBe(true);
    current = await titles();
    expect(current.steps.map((s: any) => s.title)).toEqual(['C', 'B', 'Z']);
    expect(current.firstStepId).toBe(c.dataWizardStepSimplyId);
    expect(await versionCount()).toBe(versions + 4);
    expect((await latestVersion()).summary).toBe(`wizard step deleted: ${a}`);

    // bad orders and unknown steps
    expectGqlError(await gql(STEP_MUTATIONS.reorder, { id, ids: [b, b] }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(STEP_MUTATIONS.reorder, { id, ids: [a] }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(STEP_MUTATIONS.reorder, { id, ids: ['42'] }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(STEP_MUTATIONS.update, { id: a, input: { title: 'x' } }), 'NOT_FOUND', 404);
    expectGqlError(await gql(STEP_MUTATIONS.create, { id, input: { title: 'x' }, position: -1 }), 'VALIDATION_ERROR', 400);
  });

  it('tasks: add at a position, update type and config, reorder, delete; field links: replace, add or update, remove', async () => {
    const f = people.fields;
    const wizard = await createWizard(server, team.apiKey, { name: 'Tasks', dataCollectionSimplyId: people.id, steps: [{ title: 'Only', tasks: [updateTask('First', f.age!)] }] });
    const step = wizard.steps[0].dataWizardStepSimplyId;
    const first = wizard.steps[0].tasks[0].dataWizardStepTaskSimplyId;
    const versions = await versionCount();

    const shown = gqlData(await gql(TASK_MUTATIONS.create, { id: step, input: { type: 'DISPLAY', title: 'Shown', config: { body: 'Read me' } }, position: 0 })).createDataWizardStepTask;
    expect(shown).toMatchObject({ type: 'DISPLAY', title: 'Shown', config: { body: 'Read me' }, fields: [] });
    const order = async () => (gqlData(await gql(`query ($id: String!) { dataWizard(dataWizardSimplyId: $id) { steps { tasks { title } } } }`, { id: wizard.dataWizardSimplyId })).dataWizard.steps[0].tasks as any[]).map((t) => t.title);
    expect(await order()).toEqual(['Shown', 'First']);

    // a type change re-checks the stored settings: DISPLAY's body is not an UPDATE setting
    expectGqlError(await gql(TASK_MUTATIONS.update, { id: shown.dataWizardStepTaskSimplyId, input: { type: 'UPDATE_DATA_RECORD' } }), 'VALIDATION_ERROR', 400);
    const changed = gqlData(await gql(TASK_MUTATIONS.update, { id: shown.dataWizardStepTaskSimplyId, input: { type: 'VALIDATE_DATA_RECORD', config: null, title: 'Checked' } })).updateDataWizardStepTask;
    expect(changed).toMatchObject({ type: 'VALIDATE_DATA_RECORD', title: 'Checked', config: {} });

    const reordered = gqlData(await gql(TASK_MUTATIONS.reorder, { id: step, ids: [first] })).reorderDataWizardStepTasks;
    expect(reordered.tasks.map((t: any) => t.title)).toEqual(['First', 'Checked']);

    let task = gqlData(await gql(TASK_MUTATIONS.setFields, { id: first, fields: [{ dataFieldSimplyId: f.email, isRequired: true }, { dataFieldSimplyId: f.first_name }] })).setDataWizardStepTaskFields;
    expect(task.fields.map((x: any) => [x.dataFieldSimplyId, x.isRequired])).toEqual([[f.email, true], [f.first_name, false]]);
    task = gqlData(await gql(TASK_MUTATIONS.addField, { id: first, input: { dataFieldSimplyId: f.consent } })).addDataWizardStepTaskField;
    task = gqlData(await gql(TASK_MUTATIONS.addField, { id: first, input: { dataFieldSimplyId: f.first_name, isRequired: true } })).addDataWizardStepTaskField;
    expect(task.fields.map((x: any) => [x.dataFieldSimplyId, x.isRequired])).toEqual([[f.email, true], [f.first_name, true], [f.consent, false]]);
    task = gqlData(await gql(TASK_MUTATIONS.removeField, { id: first, field: f.email })).removeDataWizardStepTaskField;
    expect(task.fields.map((x: any) => x.dataFieldSimplyId)).toEqual([f.first_name, f.consent]);
    expectGqlError(await gql(TASK_MUTATIONS.removeField, { id: first, field: f.email }), 'NOT_FOUND', 404);
    expectGqlError(await gql(TASK_MUTATIONS.addField, { id: first, input: { dataFieldSimplyId: pets.fields.species } }), 'VALIDATION_ERROR', 400);
    expectGqlError(await gql(TASK_MUTATIONS.setFields, { id: first, fields: [{ dataFieldSimplyId: f.age }, { dataFieldSimplyId: f.age }] }), 'VALIDATION_ERROR', 400);

    expect(gqlData(await gql(TASK_MUTATIONS.remove, { id: shown.dataWizardStepTaskSimplyId })).deleteDataWizardStepTask).toBe(true);
    expect(await order()).toEqual(['First']);
    expectGqlError(await gql(TASK_MUTATIONS.remove, { id: shown.dataWizardStepTaskSimplyId }), 'NOT_FOUND', 404);
    // create, update, reorder, 3 link changes, delete
    expect(await versionCount()).toBe(versions + 8);
  });

  it('update and delete a wizard; deleted wizards and other teams are 404', async () => {
    const UPDATE = `mutation ($id: String!, $input: DataWizardUpdateInput!) { updateDataWizard(dataWizardSimplyId: $id, input: $input) { ${WIZARD} } }`;
    const DELETE = `mutation ($id: String!) { deleteDataWizard(dataWizardSimplyId: $id) }`;
    const wizard = await createWizard(server, team.apiKey, { name: 'Old', description: 'keep', dataCollectionSimplyId: people.id, steps: [{ title: 'S' }] });
    const id = wizard.dataWizardSimplyId;
    expect(gqlData(await gql(UPDATE, { id, input: { name: 'New' } })).updateDataWizard).toMatchObject({ name: 'New', description: 'keep' });
    expect(gqlData(await gql(UPDATE, { id, input: { description: null } })).updateDataWizard).toMatchObject({ name: 'New', description: null });
    expectGqlError(await gql(UPDATE, { id, input: { name: ' ' } }), 'VALIDATION_ERROR', 400);
    // nothing to change is a 400, not an empty schema version
    expectGqlError(await gql(UPDATE, { id, input: {} }), 'VALIDATION_ERROR', 400);
    // another team cannot see it
    expectGqlError(await gql(UPDATE, { id, input: { name: 'Mine' } }, other.apiKey), 'NOT_FOUND', 404);
    expectGqlError(await gql(DELETE, { id }, other.apiKey), 'NOT_FOUND', 404);

    const versions = await versionCount();
    const row = await server.app.services.prisma.dataWizard.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: id } } });
    expect(await server.app.services.prisma.dataWizardStep.count({ where: { teamId: team.teamId, wizardId: row.id } })).toBe(1);
    expect(gqlData(await gql(DELETE, { id })).deleteDataWizard).toBe(true);
    expect(await versionCount()).toBe(versions + 1);
    expect((await latestVersion()).summary).toBe(`wizard deleted: ${id}`);
    // steps (and their tasks and links) go with the wizard
    expect(await server.app.services.prisma.dataWizardStep.count({ where: { teamId: team.teamId, wizardId: row.id } })).toBe(0);
    expectGqlError(await gql(DELETE, { id }), 'NOT_FOUND', 404);
    expectGqlError(await gql(UPDATE, { id: '17', input: { name: 'x' } }), 'VALIDATION_ERROR', 400);
  });
});

describe('who may author', () => {
  it('needs TEAM_ADMIN_DATA_WIZARDS at edit level (or team admin), and never a session token', async () => {
    const input = { name: 'Perm', dataCollectionSimplyId: people.id };
    const viewer = await createApiKey(server, team, { name: 'viewer', featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:VIEW'] });
    const none = await createApiKey(server, team, { name: 'none', featurePermissions: [] });
    const editor = await createApiKey(server, team, { name: 'editor', featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS'] });
    expectGqlError(await gql(CREATE_WIZARD, { input }, viewer.key), 'PERMISSION_DENIED', 403);
    expectGqlError(await gql(CREATE_WIZARD, { input }, none.key), 'PERMISSION_DENIED', 403);
    const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { oauthScopes: ['schema:read'] } }), 201).token;
    expectGqlError(await gql(CREATE_WIZARD, { input }, session), 'PERMISSION_DENIED', 403);
    expectGqlError(await gql(CREATE_WIZARD, { input }, 'svc_live_nope'), 'UNAUTHENTICATED', 401, 401);
    // no data permission is needed to author (the feature is enough)
    expect((await createWizard(server, editor.key, input)).dataWizardSimplyId).toMatch(WIZARD_ID);
    // a team-admin user, with the team selected
    const byAdmin = await server.graphql(CREATE_WIZARD, { input }, { token: team.userToken, teamId: team.teamSimplyId });
    expect(gqlData(byAdmin).createDataWizard.dataWizardSimplyId).toMatch(WIZARD_ID);
    // a role granting the feature works for members' keys the same way
    const role = await createRole(server, team, { name: 'Wizard authors', featurePermissions: [{ name: 'TEAM_ADMIN_DATA_WIZARDS', level: 'EDIT' }] });
    const roleKey = await createApiKey(server, team, { name: 'author', teamRoleSimplyId: role, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS'] });
    expect((await createWizard(server, roleKey.key, input)).dataWizardSimplyId).toMatch(WIZARD_ID);
  });
});
