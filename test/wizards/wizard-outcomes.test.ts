// A wizard's outcomes (docs/api/data-wizards.md "Outcomes"): GET …/outcomes, POST
// …/outcome-presets/preview and …/apply, PATCH …/outcomes/{automationSimplyId}/enabled. The
// preview's canonical configuration, manifest, blockers, warnings and fingerprint; apply all or
// nothing, refused when stale or blocked, once per idempotency key; signed-in members only, with
// TEAM_ADMIN_DATA_WIZARDS; another team's ids are 404; the GraphQL twins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';
import { createWizard } from '../support/wizard-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let pets: CollectionFixture;
let otherWizard: string;
let otherAutomation: string;

const HEX64 = /^[0-9a-f]{64}$/;

/** as the team's admin user (signed in, team selected) */
function asUser(method: string, path: string, body?: unknown, who: { token: string; teamId?: string } = { token: team.userToken, teamId: team.teamSimplyId }): Promise<TestResponse> {
  return server.request(method, path, { token: who.token, teamId: who.teamId, body });
}

const versionCount = () => server.app.services.prisma.teamSchemaVersion.count({ where: { teamId: team.teamId } });
const setField = (field: string, value: unknown) => ({ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [field]: value } } });

async function newWizard(name = 'Sign-up', steps = 1): Promise<string> {
  const wizard = await createWizard(server, team.apiKey, { name, dataCollectionSimplyId: people.id, steps: Array.from({ length: steps }, (_, i) => ({ title: `Step ${i}` })) });
  return wizard.dataWizardSimplyId;
}

async function automation(body: Record<string, unknown>, token = team.apiKey): Promise<any> {
  return expectOk(await server.request('POST', '/v1/automations', { token, body: { isEnabled: false, ...body } }), 201);
}

const paths = (wizard: string) => ({
  outcomes: `/v1/data-wizards/${wizard}/outcomes`,
  preview: `/v1/data-wizards/${wizard}/outcome-presets/preview`,
  apply: `/v1/data-wizards/${wizard}/outcome-presets/apply`,
  enabled: (automationSimplyId: string) => `/v1/data-wizards/${wizard}/outcomes/${automationSimplyId}/enabled`,
});

async function preview(wizard: string, configuration: unknown): Promise<any> {
  return expectOk(await asUser('POST', paths(wizard).preview, { configuration }));
}

async function apply(wizard: string, reviewed: { configuration: unknown; fingerprint: string }, idempotencyKey: string): Promise<TestResponse> {
  return asUser('POST', paths(wizard).apply, { configuration: reviewed.configuration, fingerprint: reviewed.fingerprint, idempotencyKey });
}

async function automationsOf(wizard: string): Promise<any[]> {
  const all = expectOk(await server.request('GET', '/v1/automations?limit=100', { token: team.apiKey }));
  return all.filter((a: any) => a.triggerConfig?.dataWizardSimplyId === wizard);
}

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  other = await createTeam(server);
  people = await createCollection(server, team, { name: 'People', fields: { status: 'PLAIN_TEXT', note: 'PLAIN_TEXT', age: 'NUMBER' } });
  pets = await createCollection(server, team, { name: 'Pets', fields: { species: 'PLAIN_TEXT' } });
  const theirs = await createCollection(server, other, { name: 'Theirs', fields: { x: 'PLAIN_TEXT' } });
  otherWizard = (await createWizard(server, other.apiKey, { name: 'Theirs', dataCollectionSimplyId: theirs.id, steps: [{ title: 'Only' }] })).dataWizardSimplyId;
  otherAutomation = (await automation({ name: 'Their outcome', triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: otherWizard } }, other.apiKey)).id;
});
afterAll(() => server?.close());

describe('GET …/outcomes', () => {
  it("lists the automations of the wizard's success and error, oldest first, as summaries", async () => {
    const wizard = await newWizard();
    const elsewhere = await newWizard('Elsewhere');
    expect(expectOk(await asUser('GET', paths(wizard).outcomes))).toEqual({ dataWizardSimplyId: wizard, success: [], error: [] });
    const done = await automation({ name: 'Mark done', triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: wizard }, isEnabled: true, actions: [setField(people.fields.status!, 'done'), setField(people.fields.note!, 'ok')] });
    const failed = await automation({ name: 'Mark failed', triggerType: 'WIZARD_COMPLETION_FAILED', triggerConfig: { dataWizardSimplyId: wizard }, actions: [setField(people.fields.status!, 'failed')] });
    const second = await automation({ name: 'Also done', triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: wizard } });
    await automation({ name: 'Not an outcome', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id });
    await automation({ name: 'Another wizard', triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: elsewhere } });

    const outcomes = expectOk(await asUser('GET', paths(wizard).outcomes));
    expect(outcomes.dataWizardSimplyId).toBe(wizard);
    expect(outcomes.success.map((a: any) => a.automationSimplyId)).toEqual([done.id, second.id]);
    expect(outcomes.error.map((a: any) => a.automationSimplyId)).toEqual([failed.id]);
    expect(outcomes.success[0]).toEqual({
      automationSimplyId: done.id,
      outcome: 'SUCCESS',
      name: 'Mark done',
      description: null,
      triggerType: 'WIZARD_COMPLETED',
      isEnabled: true,
      actionCount: 2,
      actionTypes: ['UPDATE_FIELDS', 'UPDATE_FIELDS'],
      lastRunAt: null,
      createdAt: done.createdAt,
      updatedAt: done.updatedAt,
    });
    expect(outcomes.error[0]).toMatchObject({ outcome: 'ERROR', triggerType: 'WIZARD_COMPLETION_FAILED', isEnabled: false, actionCount: 1 });
  });
});

describe('preview', () => {
  it('answers the canonical configuration, the manifest, warnings and a stable fingerprint, and changes nothing', async () => {
    const wizard = await newWizard('Sign-up');
    const before = await versionCount();
    const configuration = { success: { actions: [setField(people.fields.status!, 'done')] }, error: { name: '  Failed  ', isEnabled: false, actions: [{ ...setField(people.fields.status!, 'failed'), retryConfig: { maxAttempts: 2 } }] } };
    const p = await preview(wizard, configuration);
    expect(p.dataWizardSimplyId).toBe(wizard);
    expect(p.configuration).toEqual({
      success: {
        automationSimplyId: null,
        name: 'Sign-up: on success',
        isEnabled: true,
        actions: [{ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [people.fields.status!]: 'done' } }, continueOnError: false, retryConfig: null, onFailureActions: null }],
      },
      error: {
        automationSimplyId: null,
        name: 'Failed',
        isEnabled: false,
        actions: [{ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [people.fields.status!]: 'failed' } }, continueOnError: false, retryConfig: { maxAttempts: 2, delaySeconds: 0 }, onFailureActions: null }],
      },
    });
    expect(p.manifest).toEqual([
      { outcome: 'SUCCESS', operation: 'CREATE', automationSimplyId: null, name: 'Sign-up: on success', triggerType: 'WIZARD_COMPLETED', isEnabled: true, actionCount: 1, replacedActionCount: 0, changes: [] },
      { outcome: 'ERROR', operation: 'CREATE', automationSimplyId: null, name: 'Failed', triggerType: 'WIZARD_COMPLETION_FAILED', isEnabled: false, actionCount: 1, replacedActionCount: 0, changes: [] },
    ]);
    expect(p.blockers).toEqual([]);
    expect(p.warnings).toEqual([{ code: 'OUTCOME_DISABLED', outcome: 'ERROR', field: null, message: expect.stringContaining('disabled') }]);
    expect(p.fingerprint).toMatch(HEX64);
    // the same review, or its canonical form, fingerprints the same; nothing was stored
    expect((await preview(wizard, configuration)).fingerprint).toBe(p.fingerprint);
    expect((await preview(wizard, p.configuration)).fingerprint).toBe(p.fingerprint);
    expect((await preview(wizard, { ...configuration, error: null })).fingerprint).not.toBe(p.fingerprint);
    expect(await automationsOf(wizard)).toEqual([]);
    expect(await versionCount()).toBe(before);
  });

  it('lists blockers: actions the automation rules refuse, an automation that is no outcome of this wizard; and warnings', async () => {
    const wizard = await newWizard('Empty', 0);
    const unrelated = await automation({ name: 'Record rule', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: people.id });
    const p = await preview(wizard, {
      success: { automationSimplyId: unrelated.id, actions: [{ actionType: 'NOPE' }, setField(pets.fields.species!, 'cat')] },
    });
    expect(p.blockers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'NOT_AN_OUTCOME', outcome: 'SUCCESS', field: 'configuration.success.automationSimplyId' }),
        expect.objectContaining({ code: 'INVALID_ACTION', outcome: 'SUCCESS', field: 'configuration.success.actions[0].actionType' }),
        expect.objectContaining({ code: 'INVALID_ACTION', outcome: 'SUCCESS', field: expect.stringContaining(`configuration.success.actions[1].actionConfig.fields`) }),
      ]),
    );
    expect(p.warnings.map((w: any) => w.code)).toContain('WIZARD_HAS_NO_STEPS');
    // apply refuses while there are blockers, and changes nothing
    const refused = expectError(await apply(wizard, p, 'blocked-1'), 409, 'OUTCOME_PRESET_BLOCKED');
    expect(refused.details?.map((d) => d.field)).toContain('configuration.success.automationSimplyId');
    expect(await automationsOf(wizard)).toEqual([]);
    expect(expectOk(await server.request('GET', `/v1/automations/${unrelated.id}`, { token: team.apiKey })).triggerType).toBe('RECORD_CREATED');
  });

  it('names the field of a bad body (400)', async () => {
    const wizard = await newWizard();
    const cases: [unknown, string][] = [
      [{}, 'configuration'],
      [{ configuration: {} }, 'configuration'],
      [{ configuration: { success: null, error: null } }, 'configuration'],
      [{ configuration: { succes: { actions: [] } } }, 'configuration.succes'],
      [{ configuration: { success: { actions: [] } } }, 'configuration.success.actions'],
      [{ configuration: { success: {} } }, 'configuration.success.actions'],
      [{ configuration: { success: { actions: [{ actionConfig: {} }] } } }, 'configuration.success.actions.0.actionType'],
      [{ configuration: { success: { actions: [{ actionType: 'UPDATE_FIELDS', executionRank: 2 }] } } }, 'configuration.success.actions.0.executionRank'],
      [{ configuration: { success: { name: '', actions: [setField(people.fields.status!, 'x')] } } }, 'configuration.success.name'],
      [{ configuration: { success: { isEnabled: 'yes', actions: [setField(people.fields.status!, 'x')] } } }, 'configuration.success.isEnabled'],
      [{ configuration: { success: { automationSimplyId: 'aut-1', actions: [setField(people.fields.status!, 'x')] } } }, 'configuration.success.automationSimplyId'],
      [{ configuration: { success: { actions: [setField(people.fields.status!, 'x')] } }, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await asUser('POST', paths(wizard).preview, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    expectError(await asUser('POST', '/v1/data-wizards/wiz-1/outcome-presets/preview', { configuration: { success: { actions: [setField(people.fields.status!, 'x')] } } }), 400, 'VALIDATION_ERROR');
  });
});

describe('apply', () => {
  it('creates what the preview planned, in one schema version; the same key answers the first application and changes nothing', async () => {
    const wizard = await newWizard('Apply');
    const p = await preview(wizard, { success: { name: 'Done', actions: [setField(people.fields.status!, 'done')] }, error: { actions: [setField(people.fields.status!, 'failed')] } });
    const before = await versionCount();
    const applied = expectOk(await apply(wizard, p, 'apply-key-1'));
    expect(applied).toMatchObject({ dataWizardSimplyId: wizard, fingerprint: p.fingerprint, idempotencyKey: 'apply-key-1', replayed: false });
    expect(Date.parse(applied.appliedAt)).not.toBeNaN();
    expect(applied.manifest.map((e: any) => [e.outcome, e.operation, e.name])).toEqual([['SUCCESS', 'CREATE', 'Done'], ['ERROR', 'CREATE', 'Apply: on error']]);
    const [successId, errorId] = applied.manifest.map((e: any) => e.automationSimplyId);
    expect(successId).toMatch(/^aut-/);
    expect(await versionCount()).toBe(before + 1);

    const created = expectOk(await server.request('GET', `/v1/automations/${successId}`, { token: team.apiKey }));
    expect(created).toMatchObject({ name: 'Done', isEnabled: true, triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: wizard }, dataCollectionSimplyId: people.id });
    expect(created.actions.map((a: any) => [a.actionType, a.actionConfig, a.executionRank])).toEqual([['UPDATE_FIELDS', { fields: { [people.fields.status!]: 'done' } }, 1]]);
    const outcomes = expectOk(await asUser('GET', paths(wizard).outcomes));
    expect([outcomes.success.map((a: any) => a.automationSimplyId), outcomes.error.map((a: any) => a.automationSimplyId)]).toEqual([[successId], [errorId]]);

    // the same key again: the first answer, nothing applied twice
    const again = expectOk(await apply(wizard, p, 'apply-key-1'));
    expect(again).toEqual({ ...applied, replayed: true });
    expect(await automationsOf(wizard)).toHaveLength(2);
    expect(await versionCount()).toBe(before + 1);
    // the same key with another review
    const reused = expectError(await apply(wizard, { configuration: p.configuration, fingerprint: 'f'.repeat(64) }, 'apply-key-1'), 409, 'IDEMPOTENCY_KEY_REUSED');
    expect(reused.details?.[0]?.field).toBe('idempotencyKey');
    // a new key with the old review: the outcomes changed since, so it is stale
    const stale = expectError(await apply(wizard, p, 'apply-key-2'), 409, 'OUTCOME_PRESET_STALE');
    expect(stale.details?.[0]?.field).toBe('fingerprint');
    expect(await automationsOf(wizard)).toHaveLength(2);
  });

  it('refuses a stale fingerprint and changes nothing (an outcome changed since the preview, or another configuration)', async () => {
    const wizard = await newWizard('Stale');
    const existing = await automation({ name: 'Old', triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: wizard }, isEnabled: true, actions: [setField(people.fields.note!, 'old')] });
    const p = await preview(wizard, { success: { automationSimplyId: existing.id, actions: [setField(people.fields.note!, 'new')] } });
    expect(p.manifest[0]).toMatchObject({ operation: 'UPDATE', automationSimplyId: existing.id, name: 'Old', changes: ['actions'], replacedActionCount: 1 });
    // someone turns it off meanwhile
    expectOk(await asUser('PATCH', paths(wizard).enabled(existing.id), { isEnabled: false }));
    const before = await versionCount();
    expectError(await apply(wizard, p, 'stale-1'), 409, 'OUTCOME_PRESET_STALE');
    // another configuration than the reviewed one
    expectError(await apply(wizard, { configuration: { success: { automationSimplyId: existing.id, actions: [setField(people.fields.note!, 'other')] } }, fingerprint: p.fingerprint }, 'stale-2'), 409, 'OUTCOME_PRESET_STALE');
    const now = expectOk(await server.request('GET', `/v1/automations/${existing.id}`, { token: team.apiKey }));
    expect(now.isEnabled).toBe(false);
    expect(now.actions.map((a: any) => a.actionConfig)).toEqual([{ fields: { [people.fields.note!]: 'old' } }]);
    expect(await versionCount()).toBe(before);
    // a fresh review applies
    const fresh = await preview(wizard, { success: { automationSimplyId: existing.id, isEnabled: true, actions: [setField(people.fields.note!, 'new')] } });
    expect(fresh.manifest[0].changes).toEqual(['isEnabled', 'actions']);
    expect(fresh.warnings.map((w: any) => w.code)).toEqual(['ACTIONS_REPLACED']);
    expectOk(await apply(wizard, fresh, 'stale-3'));
    const updated = expectOk(await server.request('GET', `/v1/automations/${existing.id}`, { token: team.apiKey }));
    expect(updated).toMatchObject({ name: 'Old', isEnabled: true });
    expect(updated.actions.map((a: any) => a.actionConfig)).toEqual([{ fields: { [people.fields.note!]: 'new' } }]);
    // the same configuration again: nothing to change, no schema version
    const unchanged = await preview(wizard, { success: { automationSimplyId: existing.id, actions: [setField(people.fields.note!, 'new')] } });
    expect(unchanged.manifest[0]).toMatchObject({ operation: 'UNCHANGED', changes: [], replacedActionCount: 0 });
    const count = await versionCount();
    expect(expectOk(await apply(wizard, unchanged, 'stale-4')).manifest[0].operation).toBe('UNCHANGED');
    expect(await versionCount()).toBe(count);
  });

  it('is all or nothing: one outcome blocked, neither is applied; a second application of one review is stale', async () => {
    const wizard = await newWizard('Atomic');
    const p = await preview(wizard, { success: { actions: [setField(people.fields.status!, 'ok')] }, error: { actions: [setField(people.fields.age!, 'not a number')] } });
    expect(p.blockers.map((b: any) => [b.code, b.outcome])).toEqual([['INVALID_ACTION', 'ERROR']]);
    expectError(await apply(wizard, p, 'atomic-1'), 409, 'OUTCOME_PRESET_BLOCKED');
    expect(await automationsOf(wizard)).toEqual([]);

    const good = await preview(wizard, { success: { actions: [setField(people.fields.status!, 'ok')] } });
    const answers = await Promise.all(['atomic-2', 'atomic-3', 'atomic-4'].map((key) => apply(wizard, good, key)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('OUTCOME_PRESET_STALE');
    expect(await automationsOf(wizard)).toHaveLength(1);
  });

  it('names the field of a bad body (400)', async () => {
    const wizard = await newWizard();
    const configuration = { success: { actions: [setField(people.fields.status!, 'x')] } };
    const cases: [unknown, string][] = [
      [{ configuration, idempotencyKey: 'k' }, 'fingerprint'],
      [{ configuration, fingerprint: 'abc', idempotencyKey: 'k' }, 'fingerprint'],
      [{ configuration, fingerprint: '0'.repeat(64) }, 'idempotencyKey'],
      [{ configuration, fingerprint: '0'.repeat(64), idempotencyKey: '   ' }, 'idempotencyKey'],
      [{ configuration, fingerprint: '0'.repeat(64), idempotencyKey: 'k'.repeat(65) }, 'idempotencyKey'],
      [{ fingerprint: '0'.repeat(64), idempotencyKey: 'k' }, 'configuration'],
      [{ configuration: { success: { actions: 'all' } }, fingerprint: '0'.repeat(64), idempotencyKey: 'k' }, 'configuration.success.actions'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await asUser('POST', paths(wizard).apply, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
  });
});

describe('PATCH …/outcomes/{automationSimplyId}/enabled', () => {
  it('turns an outcome automation on and off; other automations are 404', async () => {
    const wizard = await newWizard('Toggle');
    const elsewhere = await newWizard('Toggle elsewhere');
    const outcome = await automation({ name: 'Outcome', triggerType: 'WIZARD_COMPLETION_FAILED', triggerConfig: { dataWizardSimplyId: wizard } });
    const before = await versionCount();
    const on = expectOk(await asUser('PATCH', paths(wizard).enabled(outcome.id), { isEnabled: true }));
    expect(on).toMatchObject({ automationSimplyId: outcome.id, outcome: 'ERROR', isEnabled: true, name: 'Outcome' });
    expect(expectOk(await server.request('GET', `/v1/automations/${outcome.id}`, { token: team.apiKey })).isEnabled).toBe(true);
    expect(await versionCount()).toBe(before + 1);
    expect(expectOk(await asUser('PATCH', paths(wizard).enabled(outcome.id), { isEnabled: false })).isEnabled).toBe(false);

    const recordRule = await automation({ name: 'Rule', triggerType: 'RECORD_UPDATED', dataCollectionSimplyId: people.id });
    expectError(await asUser('PATCH', paths(wizard).enabled(recordRule.id), { isEnabled: true }), 404, 'NOT_FOUND');
    expectError(await asUser('PATCH', paths(elsewhere).enabled(outcome.id), { isEnabled: true }), 404, 'NOT_FOUND');
    expectError(await asUser('PATCH', paths(wizard).enabled('aut-AB23-CD45-EF67'), { isEnabled: true }), 404, 'NOT_FOUND');
    for (const [body, field] of [[{}, 'isEnabled'], [{ isEnabled: 'yes' }, 'isEnabled'], [{ isEnabled: true, name: 'x' }, 'name']] as const) {
      const error = expectError(await asUser('PATCH', paths(wizard).enabled(outcome.id), body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
    expectError(await asUser('PATCH', paths(wizard).enabled('aut-1'), { isEnabled: true }), 400, 'VALIDATION_ERROR');
    expect(expectOk(await server.request('GET', `/v1/automations/${recordRule.id}`, { token: team.apiKey })).isEnabled).toBe(false);
  });
});

describe('who may use the outcome routes', () => {
  it("answers another team's wizard and automation 404 and changes nothing of theirs", async () => {
    const wizard = await newWizard('Mine');
    const configuration = { success: { actions: [setField(people.fields.status!, 'x')] } };
    const theirs = paths(otherWizard);
    expectError(await asUser('GET', theirs.outcomes), 404, 'NOT_FOUND');
    expectError(await asUser('POST', theirs.preview, { configuration }), 404, 'NOT_FOUND');
    expectError(await asUser('POST', theirs.apply, { configuration, fingerprint: '0'.repeat(64), idempotencyKey: 'x' }), 404, 'NOT_FOUND');
    expectError(await asUser('PATCH', theirs.enabled(otherAutomation), { isEnabled: true }), 404, 'NOT_FOUND');
    expectError(await asUser('PATCH', paths(wizard).enabled(otherAutomation), { isEnabled: true }), 404, 'NOT_FOUND');
    // their automation named in a configuration
    expectError(await asUser('POST', paths(wizard).preview, { configuration: { success: { automationSimplyId: otherAutomation, actions: [setField(people.fields.status!, 'x')] } } }), 404, 'NOT_FOUND');
    expect(expectOk(await server.request('GET', `/v1/automations/${otherAutomation}`, { token: other.apiKey })).isEnabled).toBe(false);
  });

  it('serves signed-in members only: API keys, session tokens and OAuth tokens get IDP_REQUIRED; the feature permission decides the rest', async () => {
    const wizard = await newWizard('Who');
    const outcome = await automation({ name: 'Outcome', triggerType: 'WIZARD_COMPLETED', triggerConfig: { dataWizardSimplyId: wizard } });
    const configuration = { success: { actions: [setField(people.fields.status!, 'x')] } };
    const p = paths(wizard);
    const requests: [string, string, unknown?][] = [
      ['GET', p.outcomes],
      ['POST', p.preview, { configuration }],
      ['POST', p.apply, { configuration, fingerprint: '0'.repeat(64), idempotencyKey: 'who' }],
      ['PATCH', p.enabled(outcome.id), { isEnabled: true }],
    ];
    const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { expiresInMinutes: 5 } }), 201).token;
    const oauth = await oauthToken(server, team, 'schema:read records:read');
    const viewerRole = await createRole(server, team, { name: 'Wizard viewers', dataFullAccess: 'EDIT', featurePermissions: [{ name: 'TEAM_ADMIN_DATA_WIZARDS', level: 'VIEW' }] });
    const editorRole = await createRole(server, team, { name: 'Wizard editors', dataFullAccess: 'EDIT', featurePermissions: [{ name: 'TEAM_ADMIN_DATA_WIZARDS', level: 'EDIT' }] });
    const viewer = await addMember(server, team, { teamRoleSimplyId: viewerRole });
    const editor = await addMember(server, team, { teamRoleSimplyId: editorRole });
    const plain = await addMember(server, team);
    for (const [method, path, body] of requests) {
      for (const token of [team.apiKey, session, oauth]) {
        expectError(await server.request(method, path, { token, body }), 403, 'IDP_REQUIRED', `${method} ${path}`);
        // the credential kind before the input
        if (method !== 'GET') expectError(await server.request(method, path, { token, body: { wrong: true } }), 403, 'IDP_REQUIRED', `${method} ${path}`);
      }
      expectError(await server.request(method, path, { body }), 401, 'UNAUTHENTICATED');
      expectError(await asUser(method, path, body, { token: plain.token, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      expectError(await asUser(method, path, body, { token: team.userToken }), 400, 'VALIDATION_ERROR', `${method} ${path} (no team)`);
      if (method !== 'GET') {
        expectError(await asUser(method, path, body, { token: viewer.token, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED', `${method} ${path}`);
        expectError(await asUser(method, path, { wrong: true }, { token: viewer.token, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      }
    }
    // view level reads; edit level previews, applies and enables
    expectOk(await asUser('GET', p.outcomes, undefined, { token: viewer.token, teamId: team.teamSimplyId }));
    const editorWho = { token: editor.token, teamId: team.teamSimplyId };
    const reviewed = expectOk(await asUser('POST', p.preview, { configuration }, editorWho));
    expect(reviewed.blockers).toEqual([]);
    expectOk(await asUser('POST', p.apply, { configuration: reviewed.configuration, fingerprint: reviewed.fingerprint, idempotencyKey: 'editor-1' }, editorWho));
    expectOk(await asUser('PATCH', p.enabled(outcome.id), { isEnabled: true }, editorWho));
    // an editor without edit access to the collection may not make an automation write it
    const narrowRole = await createRole(server, team, { name: 'Wizard editors, readers', dataFullAccess: 'READ', featurePermissions: [{ name: 'TEAM_ADMIN_DATA_WIZARDS', level: 'EDIT' }] });
    const narrow = await addMember(server, team, { teamRoleSimplyId: narrowRole });
    const denied = expectOk(await asUser('POST', p.preview, { configuration }, { token: narrow.token, teamId: team.teamSimplyId }));
    expect(denied.blockers.map((b: any) => b.code)).toEqual(['PERMISSION_DENIED']);
  });

  it('has GraphQL twins with the same rules', async () => {
    const wizard = await newWizard('GraphQL');
    const user = { token: team.userToken, teamId: team.teamSimplyId };
    const PREVIEW = `query ($id: String!, $c: JSON!) { dataWizardOutcomePresetPreview(dataWizardSimplyId: $id, configuration: $c) { configuration fingerprint blockers { code } manifest { operation } } }`;
    const APPLY = `mutation ($id: String!, $input: DataWizardOutcomePresetApplyInput!) { applyDataWizardOutcomePreset(dataWizardSimplyId: $id, input: $input) { replayed manifest { automationSimplyId } } }`;
    const OUTCOMES = `query ($id: String!) { dataWizardOutcomes(dataWizardSimplyId: $id) { success { automationSimplyId isEnabled } error { automationSimplyId } } }`;
    const ENABLE = `mutation ($id: String!, $a: String!, $on: Boolean!) { setDataWizardOutcomeEnabled(dataWizardSimplyId: $id, automationSimplyId: $a, isEnabled: $on) { isEnabled } }`;
    const p = gqlData(await server.graphql(PREVIEW, { id: wizard, c: { success: { actions: [setField(people.fields.status!, 'x')] } } }, user)).dataWizardOutcomePresetPreview;
    expect(p.manifest).toEqual([{ operation: 'CREATE' }]);
    const applied = gqlData(await server.graphql(APPLY, { id: wizard, input: { configuration: p.configuration, fingerprint: p.fingerprint, idempotencyKey: 'gql-1' } }, user)).applyDataWizardOutcomePreset;
    const id = applied.manifest[0].automationSimplyId;
    expect(gqlData(await server.graphql(APPLY, { id: wizard, input: { configuration: p.configuration, fingerprint: p.fingerprint, idempotencyKey: 'gql-1' } }, user)).applyDataWizardOutcomePreset.replayed).toBe(true);
    expect(gqlData(await server.graphql(OUTCOMES, { id: wizard }, user)).dataWizardOutcomes).toEqual({ success: [{ automationSimplyId: id, isEnabled: true }], error: [] });
    expect(gqlData(await server.graphql(ENABLE, { id: wizard, a: id, on: false }, user)).setDataWizardOutcomeEnabled.isEnabled).toBe(false);
    expectGqlError(await server.graphql(OUTCOMES, { id: wizard }, { token: team.apiKey }), 'IDP_REQUIRED', 403);
    expectGqlError(await server.graphql(APPLY, { id: wizard, input: { configuration: p.configuration, fingerprint: p.fingerprint, idempotencyKey: 'gql-2' } }, user), 'OUTCOME_PRESET_STALE', 409);
    expectGqlError(await server.graphql(PREVIEW, { id: otherWizard, c: { success: { actions: [setField(people.fields.status!, 'x')] } } }, user), 'NOT_FOUND', 404);
    expectGqlError(await server.graphql(PREVIEW, { id: wizard, c: { success: { actions: [] } } }, user), 'VALIDATION_ERROR', 400);
  });
});
