// POST /v1/data-wizards/{id}/execute and the runner behind it (src/modules/wizards/wizard-runner.ts):
// record writes through the data core (audit entry, record event), the completion event with its
// stable id (WIZARD_COMPLETED / WIZARD_COMPLETION_FAILED), formData validation by field type,
// required task fields, task order, all-or-nothing failures, who may execute, and the
// RUN_WIZARD_STEP contract (one step, automationDepth on the event).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWizard } from '../../src/modules/wizards/wizard-runner.ts';
import { createCollection, type CollectionFixture, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { createRecord, readRecord } from '../support/record-fixtures.ts';
import { createWizard, INSTANCE_ID, requiredLink, updateTask, validateTask } from '../support/wizard-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let pets: CollectionFixture;
let theirs: CollectionFixture;
/** Details (UPDATE: name required, age, birthday, email, consent, friend) → Check (VALIDATE name, DISPLAY) */
let main: any;
/** Fill (UPDATE: name, status) → Gate (VALIDATE status) */
let gated: any;
/** RUN (no EDIT) on people; EDIT (no RUN) on people */
let runKey: string;
let editKey: string;

function execute(wizardId: string, body: unknown, token = runKey, teamId?: string): Promise<TestResponse> {
  return server.request('POST', `/v1/data-wizards/${wizardId}/execute`, { token, body, teamId });
}

const newPerson = async (fields: Record<string, unknown> = {}): Promise<string> => (await createRecord(server, team.apiKey, people.id, fields)).id;
const fieldsOf = async (recordId: string): Promise<Record<string, unknown>> => (await readRecord(server, team.apiKey, recordId)).fields;

const event = (eventId: string) => server.app.services.prisma.domainEvent.findUnique({ where: { eventId } });
const instance = (simplyId: string) => server.app.services.prisma.dataWizardInstance.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId } } });

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
  const columns = { first_name: 'PLAIN_TEXT', age: 'NUMBER', birthday: 'DATE', email: 'EMAIL_ADDRESS', consent: 'BOOLEAN', friend: 'SINGLE_DATA_RECORD', status: 'PLAIN_TEXT', code: REQUIRED_TEXT };
  people = await createCollection(server, team, { name: 'People', formula: '{first_name}', fields: columns });
  pets = await createCollection(server, team, { name: 'Pets', fields: { species: 'PLAIN_TEXT' } });
  theirs = await createCollection(server, other, { name: 'Theirs', fields: { x: 'PLAIN_TEXT' } });
  const f = people.fields;
  main = await createWizard(server, team.apiKey, {
    name: 'Update person',
    dataCollectionSimplyId: people.id,
    steps: [
      { title: 'Details', tasks: [updateTask('Details', requiredLink(f.first_name!), f.age!, f.birthday!, f.email!, f.consent!, f.friend!, f.code!)] },
      { title: 'Check', tasks: [validateTask('Has a name', f.first_name!), { type: 'DISPLAY', title: 'Thanks' }] },
    ],
  });
  gated = await createWizard(server, team.apiKey, {
    name: 'Gated',
    dataCollectionSimplyId: people.id,
    steps: [
      { title: 'Fill', tasks: [updateTask('Fill', f.first_name!, f.status!)] },
      { title: 'Gate', tasks: [validateTask('Status set', f.status!)] },
    ],
  });
  const runRole = await createRole(server, team, { name: 'Runner', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'RUN' }] });
  const editRole = await createRole(server, team, { name: 'Editor', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'EDIT' }] });
  runKey = (await createApiKey(server, team, { name: 'runner', teamRoleSimplyId: runRole, featurePermissions: [] })).key;
  editKey = (await createApiKey(server, team, { name: 'editor', teamRoleSimplyId: editRole, featurePermissions: [] })).key;
});
afterAll(() => server?.close());

describe('a successful run', () => {
  it('writes the record through the data core, completes the instance and fires WIZARD_COMPLETED with the stable id', async () => {
    const f = people.fields;
    const friend = await newPerson({ [f.first_name!]: 'Grace', [f.code!]: 'G' });
    const record = await newPerson({ [f.first_name!]: 'Ada', [f.code!]: 'A', [f.status!]: 'new' });
    const res = await execute(main.dataWizardSimplyId, {
      dataRecordSimplyId: record,
      formData: { [f.first_name!]: 'Ada L.', [f.age!]: '36', [f.birthday!]: '1815-12-10', [f.email!]: 'ada@Example.ORG', [f.consent!]: true, [f.friend!]: friend },
    });
    const data = expectOk(res);
    expect(Object.keys(data).sort()).toEqual(['dataRecordSimplyId', 'dataWizardInstanceSimplyId', 'dataWizardSimplyId', 'errors', 'message', 'success']);
    expect(data).toMatchObject({ success: true, message: 'Wizard completed', dataWizardSimplyId: main.dataWizardSimplyId, dataRecordSimplyId: record, errors: [] });
    expect(data.dataWizardInstanceSimplyId).toMatch(INSTANCE_ID);

    // the values went through the value layer (NUMBER from "36", the email's domain lower-cased)
    const fields = await fieldsOf(record);
    expect(fields).toMatchObject({ [f.first_name!]: 'Ada L.', [f.age!]: 36, [f.birthday!]: '1815-12-10', [f.email!]: 'ada@example.org', [f.consent!]: true, [f.status!]: 'new', [f.code!]: 'A' });
    expect(fields[f.friend!]).toBe(friend);
    expect((await readRecord(server, team.apiKey, record)).name).toBe('Ada L.');

    // audit entry: the runner's credential, source WIZARD, before/after per changed field
    const audit = expectOk(await server.request('GET', `/v1/audit-log/records/DataRecord/${record}`, { token: team.apiKey }));
    const entry = audit.find((e: any) => e.source === 'WIZARD');
    expect(entry).toMatchObject({ action: 'UPDATE', actor: { kind: 'API_KEY' } });
    expect(entry.requestId).toBe(res.body.meta.requestId);
    expect(entry.changes).toContainEqual({ dataFieldSimplyId: f.first_name, before: 'Ada', after: 'Ada L.' });
    expect(entry.changes.map((c: any) => c.dataFieldSimplyId)).not.toContain(f.status);

    // the record event and the completion event are in the outbox
    const updated = await server.app.services.prisma.domainEvent.findMany({ where: { teamId: team.teamId, eventType: 'DATA_RECORD_UPDATED' } });
    expect(updated.some((e) => (e.payload as any).data.dataRecordSimplyId === record)).toBe(true);
    const eventId = `wizard:${data.dataWizardInstanceSimplyId}:completion:v1`;
    const completion = await event(eventId);
    expect(completion).toMatchObject({ teamId: team.teamId, eventType: 'WIZARD_COMPLETED', collectionId: people.internalId });
    const payload = completion!.payload as any;
    expect(payload).toMatchObject({
      eventType: 'WIZARD_COMPLETED',
      eventId,
      data: {
        dataWizardSimplyId: main.dataWizardSimplyId,
        dataWizardInstanceSimplyId: data.dataWizardInstanceSimplyId,
        dataRecordSimplyId: record,
        dataCollectionSimplyId: people.id,
        success: true,
      },
      actor: { kind: 'API_KEY', userSimplyId: null },
    });
    expect(payload.data).not.toHaveProperty('errorDetails');
    expect(payload.actor).not.toHaveProperty('automationDepth');
    expect(new Date(payload.occurredAt).toString()).not.toBe('Invalid Date');

    expect(await instance(data.dataWizardInstanceSimplyId)).toMatchObject({ status: 'COMPLETED', errorDetails: null, actorKind: 'API_KEY', completedAt: expect.any(Date) });
  });

  it('only supplied fields are written; null clears; an unchanged record writes no audit entry and no record event', async () => {
    const f = people.fields;
    const record = await newPerson({ [f.first_name!]: 'Bea', [f.code!]: 'B', [f.age!]: 30 });
    expectOk(await execute(main.dataWizardSimplyId, { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Bea', [f.age!]: null } }));
    const fields = await fieldsOf(record);
    expect(fields[f.age!] ?? null).toBeNull();
    expect(fields[f.code!]).toBe('B');
    const auditCount = async () => (expectOk(await server.request('GET', `/v1/audit-log/records/DataRecord/${record}`, { token: team.apiKey })) as unknown[]).length;
    const before = await auditCount();
    const again = expectOk(await execute(main.dataWizardSimplyId, { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Bea' } }));
    expect(again.success).toBe(true);
    expect(await auditCount()).toBe(before);
    expect((await event(`wizard:${again.dataWizardInstanceSimplyId}:completion:v1`))!.eventType).toBe('WIZARD_COMPLETED');
  });

  it('team admins (signed-in) run any wizard; RUN authorizes the wizard writes without EDIT', async () => {
    const f = people.fields;
    const record = await newPerson({ [f.code!]: 'C' });
    const data = expectOk(await execute(main.dataWizardSimplyId, { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Cy' } }, team.userToken, team.teamSimplyId));
    expect(data.success).toBe(true);
    const completion = await event(`wizard:${data.dataWizardInstanceSimplyId}:completion:v1`);
    expect((completion!.payload as any).actor).toEqual({ kind: 'USER', id: team.userSimplyId, userSimplyId: team.userSimplyId });
    // the runner key cannot PATCH the record itself (no EDIT) but the wizard wrote it
    expectError(await server.request('PATCH', `/v1/data-records/${record}`, { token: runKey, body: { fields: { [f.first_name!]: 'X' } } }), 403, 'PERMISSION_DENIED');
  });
});

describe('a failed run answers 200 with success false, writes nothing and fires WIZARD_COMPLETION_FAILED', () => {
  async function expectFailedRun(res: TestResponse, record: string, before: Record<string, unknown>) {
    const data = expectOk(res);
    expect(data.success).toBe(false);
    expect(data.message).toEqual(expect.any(String));
    expect(data.errors.length).toBeGreaterThan(0);
    expect(await fieldsOf(record)).toEqual(before);
    const completion = await event(`wizard:${data.dataWizardInstanceSimplyId}:completion:v1`);
    expect(completion!.eventType).toBe('WIZARD_COMPLETION_FAILED');
    const payload = completion!.payload as any;
    expect(payload).toMatchObject({ eventType: 'WIZARD_COMPLETION_FAILED', data: { success: false, dataRecordSimplyId: record, errorDetails: data.errors } });
    const row = await instance(data.dataWizardInstanceSimplyId);
    expect(row.status).toBe('FAILED');
    expect(row.errorDetails).toEqual(data.errors);
    return data;
  }

  it('values are validated by field type, every bad value of the failing task reported', async () => {
    const f = people.fields;
    const record = await newPerson({ [f.first_name!]: 'Dee', [f.code!]: 'D' });
    const before = await fieldsOf(record);
    const cases: [string, unknown][] = [
      [f.age!, 'abc'],
      [f.age!, 1.5],
      [f.birthday!, '2026-02-30'],
      [f.email!, 'not an email'],
      [f.consent!, 'yes'],
      [f.friend!, 'ZZZZ-ZZZZ-ZZZZ'],
      [f.first_name!, 42],
    ];
    for (const [field, value] of cases) {
      const data = await expectFailedRun(await execute(main.dataWizardSimplyId, { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Dee', [field]: value } }), record, before);
      expect(data.errors.map((e: any) => e.dataFieldSimplyId), `${field} = ${JSON.stringify(value)}`).toContain(field);
      const error = data.errors.find((e: any) => e.dataFieldSimplyId === field);
      expect(error).toMatchObject({ field: `formData.${field}`, dataWizardStepSimplyId: main.steps[0].dataWizardStepSimplyId, dataWizardStepTaskSimplyId: main.steps[0].tasks[0].dataWizardStepTaskSimplyId });
    }
    const many = await expectFailedRun(await execute(main.dataWizardSimplyId, { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Dee', [f.age!]: 'x', [f.consent!]: 'no' } }), record, before);
    expect(many.errors.map((e: any) => e.dataFieldSimplyId).sort()).toEqual([f.age, f.consent].sort());
    expect(many.message).toContain(main.steps[0].tasks[0].dataWizardStepTaskSimplyId);
  });

  it('required task fields need a value; a field required by its collection cannot be cleared', async () => {
    const f = people.fields;
    const record = await newPerson({ [f.first_name!]: 'Eve', [f.code!]: 'E' });
    const before = await fieldsOf(record);
    for (const formData of [{}, { [f.first_name!]: null }, { [f.first_name!]: '   ' }, { [f.age!]: 3 }]) {
      const data = await expectFailedRun(await execute(main.dataWizardSimplyId, { dataRecordSimplyId: record, formData }), record, before);
      expect(data.errors).toContainEqual(expect.objectContaining({ dataFieldSimplyId: f.first_name, message: 'is required by this task' }));
    }
    // formData absent altogether is the same as {}
    await expectFailedRun(await execute(main.dataWizardSimplyId, { dataRecordSimplyId: record }), record, before);
    const cleared = await expectFailedRun(await execute(main.dataWizardSimplyId, { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Eve', [f.code!]: null } }), record, before);
    expect(cleared.errors).toContainEqual(expect.objectContaining({ dataFieldSimplyId: f.code }));
  });

  it('tasks run in order: a VALIDATE task sees what earlier tasks wrote; a later failure undoes the earlier writes', async () => {
    const f = people.fields;
    const record = await newPerson({ [f.first_name!]: 'Fay', [f.code!]: 'F' });
    const before = await fieldsOf(record);
    // status is not given, so the gate fails, and the name written by the first step is not kept
    const data = await expectFailedRun(await execute(gated.dataWizardSimplyId, { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Fiona' } }), record, before);
    expect(data.errors).toEqual([
      { dataWizardStepSimplyId: gated.steps[1].dataWizardStepSimplyId, dataWizardStepTaskSimplyId: gated.steps[1].tasks[0].dataWizardStepTaskSimplyId, dataFieldSimplyId: f.status, message: 'has no value' },
    ]);
    // with status, the gate passes on the value the first step wrote
    const ok = expectOk(await execute(gated.dataWizardSimplyId, { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Fiona', [f.status!]: 'active' } }));
    expect(ok.success).toBe(true);
    expect(await fieldsOf(record)).toMatchObject({ [f.first_name!]: 'Fiona', [f.status!]: 'active' });
  });
});

describe('input problems before the run starts are 4xx and leave nothing behind', () => {
  it('400 for a bad body, unknown formData keys (named) or malformed ids; 404 for records outside the collection or team', async () => {
    const f = people.fields;
    const record = await newPerson({ [f.first_name!]: 'Gil', [f.code!]: 'G' });
    const pet = (await createRecord(server, team.apiKey, pets.id, {})).id;
    const theirRecord = (await createRecord(server, other.apiKey, theirs.id, {})).id;
    const instances = () => server.app.services.prisma.dataWizardInstance.count({ where: { teamId: team.teamId } });
    const count = await instances();
    const id = main.dataWizardSimplyId;

    let error = expectError(await execute(id, { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Gil', [f.status!]: 'x', [pets.fields.species!]: 'cat', nope: 1 } }), 400, 'VALIDATION_ERROR');
    expect(error.details!.map((d) => d.field)).toEqual([`formData.${f.status}`, `formData.${pets.fields.species}`, 'formData.nope']);
    expect(error.message).toContain(f.status);
    error = expectError(await execute(id, { formData: {} }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'dataRecordSimplyId', message: 'is required' }]);
    error = expectError(await execute(id, { dataRecordSimplyId: '123' }), 400, 'VALIDATION_ERROR');
    expect(error.details![0]!.field).toBe('dataRecordSimplyId');
    error = expectError(await execute(id, { dataRecordSimplyId: record, formData: [1] }), 400, 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'formData', message: 'must be an object' }]);
    expectError(await execute(id, { dataRecordSimplyId: record, formData: 'x' }), 400, 'VALIDATION_ERROR');
    error = expectError(await execute(id, { dataRecordSimplyId: record, extra: true }), 400, 'VALIDATION_ERROR');
    expect(error.message).toContain('extra');
    expectError(await execute(id, [record]), 400, 'VALIDATION_ERROR');
    expectError(await server.request('POST', `/v1/data-wizards/${id}/execute`, { token: runKey }), 400, 'VALIDATION_ERROR');
    expectError(await execute('wiz-nope', { dataRecordSimplyId: record }), 400, 'VALIDATION_ERROR');

    expectError(await execute(id, { dataRecordSimplyId: pet, formData: { [f.first_name!]: 'x' } }), 404, 'NOT_FOUND');
    expectError(await execute(id, { dataRecordSimplyId: theirRecord, formData: { [f.first_name!]: 'x' } }), 404, 'NOT_FOUND');
    expectError(await execute(id, { dataRecordSimplyId: 'ZZZZ-ZZZZ-ZZZZ' }), 404, 'NOT_FOUND');
    // a deleted record is gone
    const doomed = await newPerson({ [f.code!]: 'X' });
    expectOk(await server.request('DELETE', `/v1/data-records/${doomed}`, { token: team.apiKey }));
    expectError(await execute(id, { dataRecordSimplyId: doomed, formData: { [f.first_name!]: 'x' } }), 404, 'NOT_FOUND');
    // another team's wizard
    const theirWizard = await createWizard(server, other.apiKey, { name: 'Theirs', dataCollectionSimplyId: theirs.id, steps: [{ title: 'S' }] });
    expectError(await execute(theirWizard.dataWizardSimplyId, { dataRecordSimplyId: record }), 404, 'NOT_FOUND');
    // a wizard with no steps cannot run
    const empty = await createWizard(server, team.apiKey, { name: 'Empty', dataCollectionSimplyId: people.id });
    expectError(await execute(empty.dataWizardSimplyId, { dataRecordSimplyId: record }), 409, 'CONFLICT');
    expect(await instances()).toBe(count);
  });
});

describe('who may execute', () => {
  it("needs RUN on the wizard's collection: EDIT or full data access are not enough; session tokens are refused with 403 PERMISSION_DENIED", async () => {
    const f = people.fields;
    const record = await newPerson({ [f.code!]: 'H' });
    const body = { dataRecordSimplyId: record, formData: { [f.first_name!]: 'Hal' } };
    expectError(await execute(main.dataWizardSimplyId, body, editKey), 403, 'PERMISSION_DENIED');
    // the bootstrap key has full EDIT access and every feature, but no RUN
    expectError(await execute(main.dataWizardSimplyId, body, team.apiKey), 403, 'PERMISSION_DENIED');
    const runRole = await createRole(server, team, { name: 'Pet runner', dataPermissions: [{ dataCollectionSimplyId: pets.id, level: 'RUN' }] });
    const petRunner = (await createApiKey(server, team, { name: 'pet runner', teamRoleSimplyId: runRole, featurePermissions: [] })).key;
    expectError(await execute(main.dataWizardSimplyId, body, petRunner), 403, 'PERMISSION_DENIED');
    const noRole = (await createApiKey(server, team, { name: 'no role', featurePermissions: [] })).key;
    expectError(await execute(main.dataWizardSimplyId, body, noRole), 403, 'PERMISSION_DENIED');
    // session tokens, even minted by a key that may run the wizard, with wizards:run
    const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: runKey, body: { oauthScopes: ['wizards:run', 'records:write'] } }), 201);
    expect(session.oauthScopes).toContain('wizards:run');
    const refused = expectError(await execute(main.dataWizardSimplyId, body, session.token), 403, 'PERMISSION_DENIED');
    expect(refused.message).toContain('Session tokens');
    // a member whose role grants RUN
    const member = await addMember(server, team, { teamRoleSimplyId: (await createRole(server, team, { name: 'Member runner', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] })) });
    expect(expectOk(await execute(main.dataWizardSimplyId, body, member.token, team.teamSimplyId)).success).toBe(true);
    expectError(await execute(main.dataWizardSimplyId, body, member.token), 400, 'VALIDATION_ERROR');
    expectError(await execute(main.dataWizardSimplyId, body, 'svc_live_nope'), 401, 'UNAUTHENTICATED');
    expect(await fieldsOf(record)).toMatchObject({ [f.first_name!]: 'Hal' });
  });
});

describe('runWizard for automations (RUN_WIZARD_STEP)', () => {
  it('runs only the given step and carries automationDepth and the step on the completion event', async () => {
    const f = people.fields;
    const record = await newPerson({ [f.first_name!]: 'Ivy', [f.code!]: 'I' });
    const principal = await server.app.services.authenticator.authenticate({ authorization: `Bearer ${team.userToken}`, teamSelector: team.teamSimplyId, clientIp: '127.0.0.1' });
    const services = server.app.services;
    const base = { teamId: team.teamId, dataWizardSimplyId: gated.dataWizardSimplyId, dataRecordSimplyId: record, principal, source: 'JOB' as const, automationDepth: 2 };

    // the first step alone: no gate, so status may stay empty
    const first = await runWizard(services, { ...base, dataWizardStepSimplyId: gated.steps[0].dataWizardStepSimplyId, formData: { [f.first_name!]: 'Ivy B.' } });
    expect(first).toMatchObject({ success: true, message: `Step ${gated.steps[0].dataWizardStepSimplyId} completed`, dataRecordSimplyId: record, eventId: `wizard:${first.dataWizardInstanceSimplyId}:completion:v1` });
    const payload = (await event(first.eventId))!.payload as any;
    expect(payload.data.dataWizardStepSimplyId).toBe(gated.steps[0].dataWizardStepSimplyId);
    expect(payload.actor).toEqual({ kind: 'USER', id: team.userSimplyId, userSimplyId: team.userSimplyId, automationDepth: 2 });
    expect(await fieldsOf(record)).toMatchObject({ [f.first_name!]: 'Ivy B.' });

    // the gate alone fails on the record as it is; formData for another step is an input error
    const gate = await runWizard(services, { ...base, dataWizardStepSimplyId: gated.steps[1].dataWizardStepSimplyId });
    expect(gate.success).toBe(false);
    expect((await event(gate.eventId))!.eventType).toBe('WIZARD_COMPLETION_FAILED');
    await expect(runWizard(services, { ...base, dataWizardStepSimplyId: gated.steps[1].dataWizardStepSimplyId, formData: { [f.status!]: 'x' } })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(runWizard(services, { ...base, dataWizardStepSimplyId: main.steps[0].dataWizardStepSimplyId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(runWizard(services, { ...base, dataWizardStepSimplyId: 'x' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });

    // each run has its own instance, so its own completion event id
    expect(new Set([first.eventId, gate.eventId]).size).toBe(2);
  });
});
