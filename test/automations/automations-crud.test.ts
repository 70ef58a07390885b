// The ten routes of Document 1 §4.6 over REST (and the same fields over GraphQL): shapes, defaults,
// paging, action ranks and reorder, schema versions and export, who may call them, and the
// validation of every part of an automation (docs/api/automations.md). Nothing here runs an
// automation (no worker): runs are covered by the other files of this folder.
import { beforeAll, describe, expect, it } from 'vitest';
import { newSimplyId, userId } from '../../src/app/ids.ts';
import { automationActionId, automationId } from '../../src/modules/automations/automations.ids.ts';
import { dataWizardId, dataWizardStepId } from '../../src/modules/wizards/wizards.ids.ts';
import { createCollection, type CollectionFixture, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { automationApi, updateFields } from '../support/automation-fixtures.ts';
import { createWizard, updateTask } from '../support/wizard-fixtures.ts';

const ID = '[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}';
const AUTOMATION_ID = new RegExp(`^aut-${ID}$`);
const ACTION_ID = new RegExp(`^act-${ID}$`);
const SUMMARY_KEYS = ['createdAt', 'dataCollectionSimplyId', 'description', 'filterConditions', 'id', 'isEnabled', 'lastRunAt', 'maxRecordsPerExecution', 'name', 'triggerConfig', 'triggerType', 'updatedAt'];
/** what an automation has where its author said nothing */
const DEFAULTS = { description: null, isEnabled: true, triggerConfig: {}, filterConditions: null, maxRecordsPerExecution: 100 };
const ACTION_KEYS = ['actionConfig', 'actionType', 'automationActionSimplyId', 'continueOnError', 'createdAt', 'executionRank', 'id', 'onFailureActions', 'retryConfig', 'updatedAt'];

const { server, teams: [team, other] } = useServer({ teams: 2 });
let people: CollectionFixture;
let pets: CollectionFixture;
let f: Record<string, string>;

beforeAll(async () => {
  const fee = { dataType: 'MONEY', config: { currency: 'EUR' } };
  people = await createCollection(server, team, { name: 'People', formula: '{first_name}', fields: { first_name: REQUIRED_TEXT, age: 'NUMBER', email: 'EMAIL_ADDRESS', fee, status: 'PLAIN_TEXT' } });
  pets = await createCollection(server, team, { name: 'Pets', formula: '{species}', fields: { species: REQUIRED_TEXT } });
  f = people.fields;
});

const { call, createAutomation: create } = automationApi(() => server, () => team.apiKey);

const setStatus = (value: string) => updateFields({ [f.status!]: value });

const versionCount = () => server.app.services.prisma.teamSchemaVersion.count({ where: { teamId: team.teamId } });

describe('create, read, update, delete', () => {
  it('creates an automation with its initial actions in order, with the documented defaults', async () => {
    const before = await versionCount();
    const automation = await create({
      name: '  New people  ',
      triggerType: 'RECORD_CREATED',
      dataCollectionSimplyId: people.id,
      actions: [setStatus('second'), { ...setStatus('first'), executionRank: 1, continueOnError: true, retryConfig: { maxAttempts: 3 } }],
    });
    expect(Object.keys(automation).sort()).toEqual([...SUMMARY_KEYS, 'actions'].sort());
    expect(automation).toMatchObject({ ...DEFAULTS, name: 'New people', dataCollectionSimplyId: people.id, triggerType: 'RECORD_CREATED', lastRunAt: null });
    expect(automation.id).toMatch(AUTOMATION_ID);
    expect(automation.actions.map((a: any) => [a.executionRank, a.actionConfig.fields[f.status!]])).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
    const [first, second] = automation.actions;
    expect(Object.keys(first).sort()).toEqual(ACTION_KEYS);
    expect(first.id).toMatch(ACTION_ID);
    expect(first).toMatchObject({ automationActionSimplyId: first.id, continueOnError: true, retryConfig: { maxAttempts: 3, delaySeconds: 0 }, onFailureActions: null });
    expect(second).toMatchObject({ continueOnError: false, retryConfig: null });
    expect(await versionCount()).toBe(before + 1);
    expect(expectOk(await call('GET', `/v1/automations/${automation.id}`))).toEqual(automation);
  });

  it('lists summaries newest first with paging, optionally of one collection', async () => {
    const onPets = await create({ name: 'Pets changed', triggerType: 'RECORD_UPDATED', dataCollectionSimplyId: pets.id });
    const scheduled = await create({ name: 'Every morning', triggerType: 'SCHEDULE', triggerConfig: { cron: '0 6 * * 1-5', timezone: 'Europe/Berlin' } });
    const res = await call('GET', '/v1/automations?limit=2');
    const page = expectOk(res);
    expect(page.map((a: any) => a.id)).toEqual([scheduled.id, onPets.id]);
    expect(Object.keys(page[0]).sort()).toEqual(SUMMARY_KEYS);
    expect(res.body.meta.pagination).toMatchObject({ limit: 2, offset: 0, hasMore: true });
    expect(res.body.meta.pagination.total).toBeGreaterThanOrEqual(3);
    expect(expectOk(await call('GET', `/v1/automations?dataCollectionSimplyId=${pets.id}`)).map((a: any) => a.id)).toEqual([onPets.id]);
    expect(scheduled).toMatchObject({ dataCollectionSimplyId: null, triggerConfig: { cron: '0 6 * * 1-5', timezone: 'Europe/Berlin' } });
    expectError(await call('GET', '/v1/automations?limit=0'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/automations?limit=101'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/automations?dataCollectionSimplyId=nope'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/automations?dataCollectionSimplyId=${newSimplyId()}`), 404, 'NOT_FOUND');
  });

  it('PUT changes only what is given, re-checks what depends on a change, and records a version', async () => {
    const automation = await create({ name: 'Adults', triggerType: 'RECORD_UPDATED', dataCollectionSimplyId: people.id, filterConditions: [{ field: f.age, operator: 'gte', value: 18 }], actions: [setStatus('adult')] });
    expect(automation.filterConditions).toEqual([{ field: f.age, operator: 'gte', value: 18 }]);
    const before = await versionCount();
    const off = expectOk(await call('PUT', `/v1/automations/${automation.id}`, { isEnabled: false, description: 'Marks adults', maxRecordsPerExecution: 1000 }));
    expect(off).toMatchObject({ isEnabled: false, description: 'Marks adults', maxRecordsPerExecution: 1000, name: 'Adults', filterConditions: automation.filterConditions });
    expect(off.actions).toHaveLength(1);
    expect(await versionCount()).toBe(before + 1);
    const cleared = expectOk(await call('PUT', `/v1/automations/${automation.id}`, { filterConditions: null, description: null }));
    expect(cleared).toMatchObject({ filterConditions: null, description: null });
    // a new trigger type starts from its own settings
    const watching = expectOk(await call('PUT', `/v1/automations/${automation.id}`, { triggerType: 'FIELD_VALUE_CHANGED', triggerConfig: { dataFieldSimplyIds: [f.age] } }));
    expect(watching).toMatchObject({ triggerType: 'FIELD_VALUE_CHANGED', triggerConfig: { dataFieldSimplyIds: [f.age] } });
    expectError(await call('PUT', `/v1/automations/${automation.id}`, { triggerType: 'SCHEDULE' }), 400, 'VALIDATION_ERROR');
    // moving to another collection re-checks the actions against its fields
    const moved = expectError(await call('PUT', `/v1/automations/${automation.id}`, { dataCollectionSimplyId: pets.id, triggerType: 'RECORD_CREATED' }), 400, 'VALIDATION_ERROR');
    expect(moved.details).toContainEqual({ field: `actions[0].actionConfig.fields.${f.status}`, message: 'is not a field of the collection' });
    expectError(await call('PUT', `/v1/automations/${automation.id}`, {}), 400, 'VALIDATION_ERROR');
    expectError(await call('PUT', `/v1/automations/${automation.id}`, { name: '' }), 400, 'VALIDATION_ERROR');
    expectError(await call('PUT', `/v1/automations/${automation.id}`, { isEnabled: 'yes' }), 400, 'VALIDATION_ERROR');
  });

  it('DELETE removes the automation and its actions; the export and versions follow', async () => {
    const automation = await create({ name: 'Short-lived', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id, actions: [setStatus('x')] });
    const exported = expectOk(await call('GET', '/v1/team-schema/export'));
    const mine = exported.automations.find((a: any) => a.automationSimplyId === automation.id);
    expect(mine).toEqual({
      ...DEFAULTS,
      automationSimplyId: automation.id,
      name: 'Short-lived',
      dataCollectionSimplyId: people.id,
      triggerType: 'RECORD_CREATED',
      actions: [{ automationActionSimplyId: automation.actions[0].id, actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [f.status!]: 'x' } }, executionRank: 1, continueOnError: false, retryConfig: null, onFailureActions: null }],
    });
    expect(expectOk(await call('DELETE', `/v1/automations/${automation.id}`))).toEqual({ id: automation.id, deleted: true });
    expectError(await call('GET', `/v1/automations/${automation.id}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/v1/automations/${automation.id}`), 404, 'NOT_FOUND');
    expect(await server.app.services.prisma.automationAction.count({ where: { simplyId: automation.actions[0].id } })).toBe(0);
    const after = expectOk(await call('GET', '/v1/team-schema/export'));
    expect(after.automations.some((a: any) => a.automationSimplyId === automation.id)).toBe(false);
    const version = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });
    expect(version.summary).toContain(automation.id);
  });

  it('the execution log route pages an empty log and checks its parameters', async () => {
    const automation = await create({ name: 'Quiet', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id });
    const res = await call('GET', `/v1/automations/${automation.id}/executions`);
    expect(expectOk(res)).toEqual([]);
    expect(res.body.meta.pagination).toEqual({ total: 0, limit: 25, offset: 0, hasMore: false });
    expectError(await call('GET', `/v1/automations/${automation.id}/executions?limit=101`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/automations/${automation.id}/executions?status=DONE`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/automations/${automationId.create()}/executions`), 404, 'NOT_FOUND');
    expectError(await call('GET', '/v1/automations/123/executions'), 400, 'VALIDATION_ERROR');
  });
});

describe('actions: add, change, remove, reorder', () => {
  it('keeps ranks 1..n: a new action goes last or where asked, a moved one shifts the others, a removed one closes the gap', async () => {
    const automation = await create({ name: 'Ranks', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id, actions: [setStatus('a'), setStatus('b')] });
    const base = `/v1/automations/${automation.id}/actions`;
    const c = expectOk(await call('POST', base, setStatus('c')), 201);
    expect(c).toMatchObject({ executionRank: 3, actionType: 'UPDATE_FIELDS' });
    const zero = expectOk(await call('POST', base, { ...setStatus('zero'), executionRank: 1 }), 201);
    expect(zero.executionRank).toBe(1);
    const order = async () => expectOk(await call('GET', `/v1/automations/${automation.id}`)).actions.map((a: any) => `${a.executionRank}:${a.actionConfig.fields[f.status!]}`);
    expect(await order()).toEqual(['1:zero', '2:a', '3:b', '4:c']);

    const moved = expectOk(await call('PUT', `${base}/${zero.id}`, { executionRank: 3, actionConfig: { fields: { [f.status!]: 'moved' } }, continueOnError: true }));
    expect(moved).toMatchObject({ executionRank: 3, continueOnError: true, actionConfig: { fields: { [f.status!]: 'moved' } } });
    expect(await order()).toEqual(['1:a', '2:b', '3:moved', '4:c']);
    // a new type needs its own settings
    expectError(await call('PUT', `${base}/${zero.id}`, { actionType: 'SEND_EMAIL' }), 400, 'VALIDATION_ERROR');
    const mail = expectOk(await call('PUT', `${base}/${zero.id}`, { actionType: 'SEND_EMAIL', actionConfig: { toFieldSimplyId: f.email, subject: 'Hi {{first_name}}', text: 'Hello' }, retryConfig: { maxAttempts: 2, delaySeconds: 5 } }));
    expect(mail).toMatchObject({ actionType: 'SEND_EMAIL', retryConfig: { maxAttempts: 2, delaySeconds: 5 } });
    expect(expectOk(await call('PUT', `${base}/${zero.id}`, { retryConfig: null })).retryConfig).toBeNull();

    expect(expectOk(await call('DELETE', `${base}/${c.id}`))).toEqual({ id: c.id, deleted: true });
    expectError(await call('DELETE', `${base}/${c.id}`), 404, 'NOT_FOUND');
    const detail = expectOk(await call('GET', `/v1/automations/${automation.id}`));
    expect(detail.actions.map((a: any) => a.executionRank)).toEqual([1, 2, 3]);

    const reversed = detail.actions.map((a: any) => a.id).reverse();
    const reordered = expectOk(await call('PUT', `${base}/reorder`, { orderedActionSimplyIds: reversed }));
    expect(reordered.actions.map((a: any) => a.id)).toEqual(reversed);
    expect(reordered.actions.map((a: any) => a.executionRank)).toEqual([1, 2, 3]);

    const missing = expectError(await call('PUT', `${base}/reorder`, { orderedActionSimplyIds: reversed.slice(1) }), 400, 'VALIDATION_ERROR');
    expect(missing.details?.[0]?.field).toBe('orderedActionSimplyIds');
    const twice = expectError(await call('PUT', `${base}/reorder`, { orderedActionSimplyIds: [reversed[0], ...reversed] }), 400, 'VALIDATION_ERROR');
    expect(twice.details?.map((d) => d.field)).toContain('orderedActionSimplyIds[1]');
    const foreign = expectError(await call('PUT', `${base}/reorder`, { orderedActionSimplyIds: [...reversed.slice(1), automationActionId.create()] }), 400, 'VALIDATION_ERROR');
    expect(foreign.details?.map((d) => d.field)).toContain('orderedActionSimplyIds[2]');
    expectError(await call('PUT', `${base}/reorder`, { orderedActionSimplyIds: 'all' }), 400, 'VALIDATION_ERROR');
    // an action of another automation is not found under this one
    const elsewhere = await create({ name: 'Elsewhere', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id, actions: [setStatus('e')] });
    expectError(await call('PUT', `${base}/${elsewhere.actions[0].id}`, { continueOnError: true }), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `${base}/${elsewhere.actions[0].id}`), 404, 'NOT_FOUND');
  });

  it('the same operations over GraphQL', async () => {
    const data = gqlData(
      await server.graphql(
        `mutation ($input: AutomationInput!) { createAutomation(input: $input) { automationSimplyId triggerType actions { automationActionSimplyId executionRank } } }`,
        { input: { name: 'Over GraphQL', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id, actions: [setStatus('g')] } },
        { token: team.apiKey },
      ),
    );
    const id = data.createAutomation.automationSimplyId;
    expect(data.createAutomation).toMatchObject({ triggerType: 'RECORD_CREATED', actions: [{ executionRank: 1 }] });
    const list = gqlData(await server.graphql(`{ automations(limit: 100) { nodes { automationSimplyId actions { actionType } } pagination { total } } }`, {}, { token: team.apiKey }));
    expect(list.automations.nodes.find((n: any) => n.automationSimplyId === id).actions).toEqual([{ actionType: 'UPDATE_FIELDS' }]);
    const added = gqlData(
      await server.graphql(
        `mutation ($id: String!, $input: AutomationActionInput!) { createAutomationAction(automationSimplyId: $id, input: $input) { executionRank } }`,
        { id, input: setStatus('h') },
        { token: team.apiKey },
      ),
    );
    expect(added.createAutomationAction.executionRank).toBe(2);
    const gql = (query: string, variables: Record<string, unknown>, token = team.apiKey) => server.graphql(query, variables, { token });
    const actions = gqlData(await gql(`query ($id: String!) { automation(automationSimplyId: $id) { actions { automationActionSimplyId executionRank } } }`, { id })).automation.actions;
    const [first, second] = actions.map((a: { automationActionSimplyId: string }) => a.automationActionSimplyId);
    expect(gqlData(await gql(`mutation ($id: String!, $input: AutomationUpdateInput!) { updateAutomation(automationSimplyId: $id, input: $input) { isEnabled name } }`, { id, input: { isEnabled: false } })).updateAutomation).toEqual({
      isEnabled: false,
      name: 'Over GraphQL',
    });
    expect(
      gqlData(await gql(`mutation ($id: String!, $a: String!, $input: AutomationActionUpdateInput!) { updateAutomationAction(automationSimplyId: $id, automationActionSimplyId: $a, input: $input) { continueOnError } }`, { id, a: first, input: { continueOnError: true } }))
        .updateAutomationAction,
    ).toEqual({ continueOnError: true });
    const reordered = gqlData(await gql(`mutation ($id: String!, $o: [String!]!) { reorderAutomationActions(automationSimplyId: $id, orderedActionSimplyIds: $o) { actions { automationActionSimplyId executionRank } } }`, { id, o: [second, first] })).reorderAutomationActions;
    expect(reordered.actions).toEqual([{ automationActionSimplyId: second, executionRank: 1 }, { automationActionSimplyId: first, executionRank: 2 }]);
    expect(gqlData(await gql(`query ($id: String!) { automationExecutions(automationSimplyId: $id) { nodes { id } pagination { total } } }`, { id })).automationExecutions).toEqual({ nodes: [], pagination: { total: 0 } });
    // the REST face sees what GraphQL wrote
    expect(expectOk(await call('GET', `/v1/automations/${id}`)).actions.map((a: { id: string }) => a.id)).toEqual([second, first]);
    // the documented errors, and another team's ids are not found
    expectGqlError(await gql(`mutation ($id: String!, $input: AutomationUpdateInput!) { updateAutomation(automationSimplyId: $id, input: $input) { id } }`, { id, input: { maxRecordsPerExecution: 0 } }), 'VALIDATION_ERROR', 400);
    for (const [query, variables] of [
      [`query ($id: String!) { automation(automationSimplyId: $id) { id } }`, { id }],
      [`query ($id: String!) { automationExecutions(automationSimplyId: $id) { nodes { id } } }`, { id }],
      [`mutation ($id: String!, $a: String!) { deleteAutomationAction(automationSimplyId: $id, automationActionSimplyId: $a) }`, { id, a: first }],
      [`mutation ($id: String!) { deleteAutomation(automationSimplyId: $id) }`, { id }],
    ] as const) {
      expectGqlError(await gql(query, variables, other.apiKey), 'NOT_FOUND', 404);
    }
    expect(gqlData(await gql(`mutation ($id: String!, $a: String!) { deleteAutomationAction(automationSimplyId: $id, automationActionSimplyId: $a) }`, { id, a: first })).deleteAutomationAction).toBe(true);
    const removed = gqlData(await server.graphql(`mutation ($id: String!) { deleteAutomation(automationSimplyId: $id) }`, { id }, { token: team.apiKey }));
    expect(removed.deleteAutomation).toBe(true);
    expectGqlError(await gql(`query ($id: String!) { automation(automationSimplyId: $id) { id } }`, { id }), 'NOT_FOUND', 404);
  });
});

describe('who may call', () => {
  let plainKey: string;
  let viewKey: string;
  let editKey: string;
  let automationId: string;

  beforeAll(async () => {
    plainKey = (await createApiKey(server, team, { name: 'no automations', featurePermissions: ['TEAM_SETTINGS'] })).key;
    viewKey = (await createApiKey(server, team, { name: 'automation viewer', featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:VIEW'] })).key;
    editKey = (await createApiKey(server, team, { name: 'automation editor', featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS'] })).key;
    automationId = (await create({ name: 'Guarded', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id, actions: [setStatus('g')] })).id;
  });

  const routes = (id: string, actionId: string): [string, string, unknown][] => [
    ['GET', '/v1/automations', undefined],
    ['GET', `/v1/automations/${id}`, undefined],
    ['GET', `/v1/automations/${id}/executions`, undefined],
    ['POST', '/v1/automations', { name: 'x', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id }],
    ['PUT', `/v1/automations/${id}`, { isEnabled: false }],
    ['DELETE', `/v1/automations/${id}`, undefined],
    ['POST', `/v1/automations/${id}/actions`, setStatus('y')],
    ['PUT', `/v1/automations/${id}/actions/${actionId}`, { continueOnError: true }],
    ['DELETE', `/v1/automations/${id}/actions/${actionId}`, undefined],
    ['PUT', `/v1/automations/${id}/actions/reorder`, { orderedActionSimplyIds: [actionId] }],
  ];

  it('without TEAM_ADMIN_DATA_WIZARDS every route is 403; with VIEW the reads pass and the writes are 403; anonymous is 401', async () => {
    const actionId = expectOk(await call('GET', `/v1/automations/${automationId}`)).actions[0].id;
    for (const [method, path, body] of routes(automationId, actionId)) {
      expectError(await call(method, path, body, plainKey), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      const asViewer = await call(method, path, body, viewKey);
      if (method === 'GET') expectOk(asViewer);
      else expectError(asViewer, 403, 'PERMISSION_DENIED', `${method} ${path}`);
      expectError(await server.request(method, path, { body }), 401, 'UNAUTHENTICATED', `${method} ${path}`);
    }
    // edit level writes (no team role needed)
    expectOk(await call('PUT', `/v1/automations/${automationId}`, { description: 'edited by key' }, editKey));
  });

  it('session tokens are refused even when minted from a key that may administer automations', async () => {
    const token = expectOk(await call('POST', '/v1/session-tokens', { oauthScopes: ['schema:read', 'records:read', 'records:write', 'admin:read'] }), 201).token;
    const actionId = expectOk(await call('GET', `/v1/automations/${automationId}`)).actions[0].id;
    for (const [method, path, body] of routes(automationId, actionId)) {
      expectError(await call(method, path, body, token), 403, 'PERMISSION_DENIED', `${method} ${path}`);
    }
  });

  it('another team’s automations and actions are not found', async () => {
    const actionId = expectOk(await call('GET', `/v1/automations/${automationId}`)).actions[0].id;
    for (const [method, path, body] of routes(automationId, actionId)) {
      if (path === '/v1/automations') continue;
      expectError(await call(method, path, body, other.apiKey), 404, 'NOT_FOUND', `${method} ${path}`);
    }
    expect(expectOk(await call('GET', '/v1/automations', undefined, other.apiKey))).toEqual([]);
    // nor can another team's collection be used
    expectError(await call('POST', '/v1/automations', { name: 'x', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id }, other.apiKey), 404, 'NOT_FOUND');
  });

  it('signed-in users: a team admin or a member whose role grants TEAM_ADMIN_DATA_WIZARDS; other members are 403', async () => {
    const admin = await addMember(server, team, { isTeamAdmin: true });
    expectOk(await call('GET', `/v1/automations/${automationId}`, undefined, admin.token, team.teamSimplyId));
    const role = await createRole(server, team, { name: 'Automation admins', featurePermissions: [{ name: 'TEAM_ADMIN_DATA_WIZARDS', level: 'EDIT' }] });
    const granted = await addMember(server, team, { teamRoleSimplyId: role });
    expectOk(await call('PUT', `/v1/automations/${automationId}`, { name: 'Guarded by role' }, granted.token, team.teamSimplyId));
    const plain = await addMember(server, team);
    expectError(await call('GET', `/v1/automations/${automationId}`, undefined, plain.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
  });

  it('SEND_EMAIL to fixed addresses also needs OUTGOING_MESSAGES_SEND; a recipient field does not', async () => {
    // the authors reach the collection (see the next test); what differs is the mail permission
    const editorRole = await createRole(server, team, { name: 'People editors', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'EDIT' }] });
    const editKey = (await createApiKey(server, team, { name: 'automation editor on people', teamRoleSimplyId: editorRole, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS'] })).key;
    const fixed = { actionType: 'SEND_EMAIL', actionConfig: { to: ['boss@example.test'], subject: 'New person', text: '{{first_name}} joined' } };
    const fromRecord = { actionType: 'SEND_EMAIL', actionConfig: { toFieldSimplyId: f.email, subject: 'Welcome', text: 'Hello {{first_name}}' } };
    const body = { name: 'Mailer', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id };
    expectError(await call('POST', '/v1/automations', { ...body, actions: [fixed] }, editKey), 403, 'PERMISSION_DENIED');
    const ok = expectOk(await call('POST', '/v1/automations', { ...body, actions: [fromRecord] }, editKey), 201);
    expectError(await call('POST', `/v1/automations/${ok.id}/actions`, fixed, editKey), 403, 'PERMISSION_DENIED');
    expectError(await call('PUT', `/v1/automations/${ok.id}/actions/${ok.actions[0].id}`, { actionConfig: fixed.actionConfig }, editKey), 403, 'PERMISSION_DENIED');
    // also as a follow-up of a failed action
    expectError(await call('POST', `/v1/automations/${ok.id}/actions`, { ...setStatus('x'), onFailureActions: [fixed] }, editKey), 403, 'PERMISSION_DENIED');
    const mailer = (await createApiKey(server, team, { name: 'mailer', teamRoleSimplyId: editorRole, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS', 'OUTGOING_MESSAGES_SEND'] })).key;
    expectOk(await call('POST', `/v1/automations/${ok.id}/actions`, fixed, mailer), 201);
  });

  it('an author must reach what the automation touches: read its collection, edit what its actions write, RUN for a wizard step', async () => {
    const readerRole = await createRole(server, team, {
      name: 'People readers, pet editors',
      dataPermissions: [
        { dataCollectionSimplyId: people.id, level: 'READ' },
        { dataCollectionSimplyId: pets.id, level: 'EDIT' },
      ],
    });
    const narrowRole = await createRole(server, team, {
      name: 'People editors without status',
      dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'EDIT' }],
      fieldPermissions: [{ dataFieldSimplyId: f.status, level: 'READ' }],
    });
    const keyFor = async (name: string, role?: string) =>
      (await createApiKey(server, team, { name, ...(role ? { teamRoleSimplyId: role } : {}), featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS'] })).key;
    const noData = await keyFor('automations, no team role');
    const reader = await keyFor('automations, reads people', readerRole);
    const narrow = await keyFor('automations, people without status', narrowRole);
    const body = { name: 'Reach', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id };
    const createPet = { actionType: 'CREATE_RECORD', actionConfig: { dataCollectionSimplyId: pets.id, fields: { [pets.fields.species!]: 'cat' } } };
    const notify = { actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: team.userSimplyId, title: 'New: {{first_name}}' } };

    // no read on the collection: nothing, not even an automation without actions
    const denied = expectError(await call('POST', '/v1/automations', body, noData), 403, 'PERMISSION_DENIED');
    expect(denied.message).toMatch(/read access/);
    // reading people is enough to notify about them and to create pets it may edit ...
    const ok = expectOk(await call('POST', '/v1/automations', { ...body, actions: [notify, createPet] }, reader), 201);
    // ... not to write people, directly or as a follow-up
    expectError(await call('POST', `/v1/automations/${ok.id}/actions`, setStatus('x'), reader), 403, 'PERMISSION_DENIED');
    expectError(await call('POST', `/v1/automations/${ok.id}/actions`, { ...notify, onFailureActions: [setStatus('x')] }, reader), 403, 'PERMISSION_DENIED');
    expectError(await call('PUT', `/v1/automations/${ok.id}/actions/${ok.actions[0].id}`, { actionType: 'UPDATE_FIELDS', actionConfig: setStatus('x').actionConfig }, reader), 403, 'PERMISSION_DENIED');
    // edit on the collection, but a field its role may only read
    const narrowed = expectError(await call('POST', '/v1/automations', { ...body, actions: [setStatus('x')] }, narrow), 403, 'PERMISSION_DENIED');
    expect(narrowed.message).toContain(f.status!);
    expectOk(await call('POST', '/v1/automations', { ...body, actions: [updateFields({ [f.age!]: 1 })] }, narrow), 201);
    // moving an automation to a collection its author cannot read is refused too
    const petsOnly = await createRole(server, team, { name: 'Pet editors', dataPermissions: [{ dataCollectionSimplyId: pets.id, level: 'EDIT' }] });
    const petKeeper = await keyFor('automations, pets only', petsOnly);
    const onPets = expectOk(await call('POST', '/v1/automations', { name: 'Pets', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: pets.id }, petKeeper), 201);
    expectError(await call('PUT', `/v1/automations/${onPets.id}`, { dataCollectionSimplyId: people.id }, petKeeper), 403, 'PERMISSION_DENIED');
    // a wizard step writes the record: RUN (or EDIT) on the collection
    const wizard = (await createWizard(server, team.apiKey, { name: 'Reach', dataCollectionSimplyId: people.id, steps: [{ title: 'One', tasks: [updateTask('Age', f.age!)] }] })).dataWizardSimplyId;
    const runStep = { actionType: 'RUN_WIZARD_STEP', actionConfig: { dataWizardSimplyId: wizard } };
    expectError(await call('POST', `/v1/automations/${ok.id}/actions`, runStep, reader), 403, 'PERMISSION_DENIED');
    expectOk(await call('POST', '/v1/automations', { ...body, actions: [runStep] }, narrow), 201);
  });
});

describe('validation', () => {
  let wizardId: string;
  let memberId: string;
  beforeAll(async () => {
    wizardId = (await createWizard(server, team.apiKey, { name: 'Check', dataCollectionSimplyId: people.id, steps: [{ title: 'One', tasks: [updateTask('Age', people.fields.age!)] }] })).dataWizardSimplyId;
    memberId = (await addMember(server, team)).userSimplyId;
  });

  const base = () => ({ name: 'Invalid', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id });
  const withAction = (action: Record<string, unknown>) => ({ ...base(), actions: [action] });

  const cases: [string, () => Record<string, unknown>, string | (() => string)][] = [
    ['missing name', () => ({ triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id }), 'name'],
    ['unknown trigger type', () => ({ ...base(), triggerType: 'RECORD_DELETED' }), 'triggerType'],
    ['unknown key', () => ({ ...base(), color: 'red' }), ''],
    ['record trigger without collection', () => ({ name: 'x', triggerType: 'RECORD_UPDATED' }), 'dataCollectionSimplyId'],
    ['malformed collection', () => ({ ...base(), dataCollectionSimplyId: '42' }), 'dataCollectionSimplyId'],
    ['maxRecordsPerExecution 0', () => ({ ...base(), maxRecordsPerExecution: 0 }), 'maxRecordsPerExecution'],
    ['maxRecordsPerExecution 1001', () => ({ ...base(), maxRecordsPerExecution: 1001 }), 'maxRecordsPerExecution'],
    ['settings on a trigger that takes none', () => ({ ...base(), triggerConfig: { cron: '* * * * *' } }), 'triggerConfig.cron'],
    ['watched field of another collection', () => ({ ...base(), triggerType: 'FIELD_VALUE_CHANGED', triggerConfig: { dataFieldSimplyIds: [pets.fields.species] } }), 'triggerConfig.dataFieldSimplyIds[0]'],
    ['no watched fields', () => ({ ...base(), triggerType: 'FIELD_VALUE_CHANGED', triggerConfig: { dataFieldSimplyIds: [] } }), 'triggerConfig.dataFieldSimplyIds'],
    ['cron out of range', () => ({ name: 'x', triggerType: 'SCHEDULE', triggerConfig: { cron: '61 * * * *' } }), 'triggerConfig.cron'],
    ['cron with seconds', () => ({ name: 'x', triggerType: 'SCHEDULE', triggerConfig: { cron: '*/10 * * * * *' } }), 'triggerConfig.cron'],
    ['cron missing', () => ({ name: 'x', triggerType: 'SCHEDULE' }), 'triggerConfig.cron'],
    ['unknown time zone', () => ({ name: 'x', triggerType: 'SCHEDULE', triggerConfig: { cron: '0 6 * * *', timezone: 'Mars/Olympus' } }), 'triggerConfig.timezone'],
    ['wizard trigger without wizard', () => ({ name: 'x', triggerType: 'WIZARD_COMPLETED' }), 'triggerConfig.dataWizardSimplyId'],
    ['unknown wizard', () => ({ name: 'x', triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: dataWizardId.create() } }), 'triggerConfig.dataWizardSimplyId'],
    ['wizard of another collection', () => ({ name: 'x', triggerType: 'WIZARD_COMPLETED', dataCollectionSimplyId: pets.id, triggerConfig: { dataWizardSimplyId: wizardId } }), 'dataCollectionSimplyId'],
    ['filter on an unknown field', () => ({ ...base(), filterConditions: [{ field: pets.fields.species, operator: 'eq', value: 'cat' }] }), 'filterConditions[0].field'],
    ['filter operator not for the type', () => ({ ...base(), filterConditions: [{ field: people.fields.age, operator: 'startsWith', value: '1' }] }), 'filterConditions[0].operator'],
    ['filter value of the wrong type', () => ({ ...base(), filterConditions: [{ field: people.fields.age, operator: 'gt', value: 'old' }] }), 'filterConditions[0].value'],
    ['filters without a collection', () => ({ name: 'x', triggerType: 'SCHEDULE', triggerConfig: { cron: '0 6 * * *' }, filterConditions: [{ field: 'calculatedName', operator: 'eq', value: 'a' }] }), 'filterConditions'],
    ['unknown action type', () => withAction({ actionType: 'SEND_SMS', actionConfig: {} }), 'actions[0].actionType'],
    ['UPDATE_FIELDS wrong value type', () => withAction(updateFields({ [people.fields.age!]: 'old' })), () => `actions[0].actionConfig.fields.${people.fields.age}`],
    ['UPDATE_FIELDS unknown field', () => withAction(updateFields({ [pets.fields.species!]: 'cat' })), () => `actions[0].actionConfig.fields.${pets.fields.species}`],
    ['UPDATE_FIELDS clears a required field', () => withAction(updateFields({ [people.fields.first_name!]: null })), () => `actions[0].actionConfig.fields.${people.fields.first_name}`],
    ['UPDATE_FIELDS nothing to write', () => withAction({ actionType: 'UPDATE_FIELDS', actionConfig: { fields: {} } }), 'actions[0].actionConfig.fields'],
    ['UPDATE_FIELDS without a collection', () => ({ name: 'x', triggerType: 'SCHEDULE', triggerConfig: { cron: '0 6 * * *' }, actions: [updateFields({ a: 1 })] }), 'actions[0].actionConfig'],
    ['CREATE_RECORD missing required value', () => withAction({ actionType: 'CREATE_RECORD', actionConfig: { dataCollectionSimplyId: pets.id, fields: {} } }), () => `actions[0].actionConfig.fields.${pets.fields.species}`],
    ['CREATE_RECORD unknown collection', () => withAction({ actionType: 'CREATE_RECORD', actionConfig: { dataCollectionSimplyId: newSimplyId(), fields: {} } }), 'actions[0].actionConfig.dataCollectionSimplyId'],
    ['SEND_EMAIL bad address', () => withAction({ actionType: 'SEND_EMAIL', actionConfig: { to: ['not-an-address'], subject: 's', text: 't' } }), 'actions[0].actionConfig.to[0]'],
    ['SEND_EMAIL no recipients', () => withAction({ actionType: 'SEND_EMAIL', actionConfig: { subject: 's', text: 't' } }), 'actions[0].actionConfig.to'],
    ['SEND_EMAIL recipient field not an email', () => withAction({ actionType: 'SEND_EMAIL', actionConfig: { toFieldSimplyId: people.fields.age, subject: 's', text: 't' } }), 'actions[0].actionConfig.toFieldSimplyId'],
    ['SEND_EMAIL unknown merge tag', () => withAction({ actionType: 'SEND_EMAIL', actionConfig: { toFieldSimplyId: people.fields.email, subject: 'Hi {{nickname}}', text: 't' } }), 'actions[0].actionConfig.subject'],
    ['SEND_EMAIL empty subject', () => withAction({ actionType: 'SEND_EMAIL', actionConfig: { toFieldSimplyId: people.fields.email, subject: ' ', text: 't' } }), 'actions[0].actionConfig.subject'],
    ['SEND_USER_NOTIFICATION not a member', () => withAction({ actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: userId.create(), title: 't' } }), 'actions[0].actionConfig.userSimplyId'],
    ['SEND_USER_NOTIFICATION two recipients', () => withAction({ actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: memberId, toUserFieldSimplyId: people.fields.email, title: 't' } }), 'actions[0].actionConfig.userSimplyId'],
    ['CHARGE_PAYMENT no currency', () => withAction({ actionType: 'CHARGE_PAYMENT', actionConfig: { amount: 10 } }), 'actions[0].actionConfig.currency'],
    ['CHARGE_PAYMENT unknown currency', () => withAction({ actionType: 'CHARGE_PAYMENT', actionConfig: { amount: 10, currency: 'XYZ' } }), 'actions[0].actionConfig.currency'],
    ['CHARGE_PAYMENT too many decimals', () => withAction({ actionType: 'CHARGE_PAYMENT', actionConfig: { amount: '10.005', currency: 'EUR' } }), 'actions[0].actionConfig.amount'],
    ['CHARGE_PAYMENT negative', () => withAction({ actionType: 'CHARGE_PAYMENT', actionConfig: { amount: -5, currency: 'EUR' } }), 'actions[0].actionConfig.amount'],
    ['CHARGE_PAYMENT amount field of the wrong type', () => withAction({ actionType: 'CHARGE_PAYMENT', actionConfig: { amountFieldSimplyId: people.fields.status, currency: 'EUR' } }), 'actions[0].actionConfig.amountFieldSimplyId'],
    ['RUN_WIZARD_STEP unknown wizard', () => withAction({ actionType: 'RUN_WIZARD_STEP', actionConfig: { dataWizardSimplyId: dataWizardId.create() } }), 'actions[0].actionConfig.dataWizardSimplyId'],
    ['RUN_WIZARD_STEP step of no such wizard', () => withAction({ actionType: 'RUN_WIZARD_STEP', actionConfig: { dataWizardSimplyId: wizardId, dataWizardStepSimplyId: dataWizardStepId.create() } }), 'actions[0].actionConfig.dataWizardStepSimplyId'],
    ['RUN_WIZARD_STEP bad formData value', () => withAction({ actionType: 'RUN_WIZARD_STEP', actionConfig: { dataWizardSimplyId: wizardId, formData: { [people.fields.age!]: 'old' } } }), () => `actions[0].actionConfig.formData.${people.fields.age}`],
    ['retry attempts above 5', () => withAction({ ...setStatus('x'), retryConfig: { maxAttempts: 6 } }), 'actions[0].retryConfig.maxAttempts'],
    ['retry delay above 60', () => withAction({ ...setStatus('x'), retryConfig: { delaySeconds: 61 } }), 'actions[0].retryConfig.delaySeconds'],
    ['too many follow-ups', () => withAction({ ...setStatus('x'), onFailureActions: Array.from({ length: 6 }, () => setStatus('y')) }), 'actions[0].onFailureActions'],
    ['invalid follow-up', () => withAction({ ...setStatus('x'), onFailureActions: [updateFields({ [people.fields.age!]: 'x' })] }), () => `actions[0].onFailureActions[0].actionConfig.fields.${people.fields.age}`],
    ['rank out of range', () => withAction({ ...setStatus('x'), executionRank: 0 }), 'actions[0].executionRank'],
  ];

  it.each(cases)('%s → 400 naming the field', async (_label, body, field) => {
    const error = expectError(await call('POST', '/v1/automations', body()), 400, 'VALIDATION_ERROR');
    const name = typeof field === 'function' ? field() : field;
    // a missing required GraphQL input field is named in the message (no details)
    if (name && !error.details) expect(error.message).toContain(`"${name}"`);
    else if (name) expect(error.details!.map((d) => d.field), JSON.stringify(error)).toContain(name);
  });

  it('reports every problem at once, and an unknown collection is 404', async () => {
    const error = expectError(
      await call('POST', '/v1/automations', {
        ...base(),
        filterConditions: [{ field: people.fields.age, operator: 'nope', value: 1 }],
        actions: [setStatus('ok'), updateFields({ [people.fields.age!]: 'x' })],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details?.map((d) => d.field)).toEqual(['filterConditions[0].operator', `actions[1].actionConfig.fields.${people.fields.age}`]);
    expectError(await call('POST', '/v1/automations', { ...base(), dataCollectionSimplyId: newSimplyId() }), 404, 'NOT_FOUND');
    // GraphQL gives the same answer
    expectGqlError(await server.graphql(`mutation ($input: AutomationInput!) { createAutomation(input: $input) { id } }`, { input: { ...base(), maxRecordsPerExecution: 0 } }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
  });
});
