// Record triggers end to end: a record written over REST fires RECORD_CREATED, RECORD_UPDATED and
// FIELD_VALUE_CHANGED automations through the outbox; the execution job runs the actions as the
// automation (audited as such) and logs the run. Filter conditions, the loop guard and the
// self-update rule. Document 1 §2.7, §4.6, §6; docs/api/automations.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createApiKey, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { type GraphQLErrorShape, serverGraphqlWsClient } from '../support/realtime.ts';
import { automationApi, type AutomationTestServer, startAutomationServer, until, updateFields } from '../support/automation-fixtures.ts';

let server: AutomationTestServer;
let team: TeamFixture;
let people: CollectionFixture;
let f: Record<string, string>;

beforeAll(async () => {
  server = await startAutomationServer();
  team = await createTeam(server);
  people = await collection('People');
  f = people.fields;
});
afterAll(async () => {
  await server?.close();
});

const api = automationApi(() => server, () => team.apiKey);
const { call, createAutomation, onRecordCreated, executions, finished, record, disable } = api;
const createRecord = (fields: Record<string, unknown>, collectionId = people.id) => api.createRecord(collectionId, fields);

/**
 * a collection of people with a status and a note for the actions to write (not the shared People
 * of record-fixtures, which has neither); a test takes a fresh one so its automations never see
 * another test's records
 */
const collection = (name: string): Promise<CollectionFixture> =>
  createCollection(server, team, { name, formula: '{first_name}', fields: { first_name: REQUIRED_TEXT, status: 'PLAIN_TEXT', age: 'NUMBER', note: 'PLAIN_TEXT' } });

describe('RECORD_CREATED → UPDATE_FIELDS', () => {
  it('runs the action as the automation, logs the execution and records lastRunAt', async () => {
    const automation = await onRecordCreated(people.id, 'Mark new people', [updateFields({ [f.status!]: 'new' })]);
    expect(automation.lastRunAt).toBeNull();
    const id = await createRecord({ [f.first_name!]: 'Ada' });
    const [execution] = await finished(automation.id);
    expect(execution).toMatchObject({
      automationSimplyId: automation.id,
      triggerType: 'RECORD_CREATED',
      status: 'SUCCEEDED',
      recordsProcessed: 1,
      recordsFailed: 0,
      depth: 0,
      errorDetails: null,
    });
    expect(execution.id).toMatch(/^exe-/);
    expect(execution.triggerEventId).toMatch(/^[0-9a-z]{14}$/);
    expect(execution.executionDurationMs).toBeGreaterThanOrEqual(0);
    expect(new Date(execution.completedAt) >= new Date(execution.startedAt)).toBe(true);
    expect((await record(id)).fields[f.status!]).toBe('new');
    const detail = expectOk(await call('GET', `/v1/automations/${automation.id}`));
    expect(detail.lastRunAt).not.toBeNull();
    // audited as the automation, through the job source
    const audit = expectOk(await call('GET', `/v1/audit-log/records/DataRecord/${id}`));
    const update = audit.find((e: any) => e.action === 'UPDATE');
    expect(update).toBeDefined();
    expect(JSON.stringify(update)).toContain(automation.id);
    // the automation's own write fires an update event with its depth; nothing re-runs it
    const event = await server.app.services.pool.query(`SELECT payload FROM "DomainEvent" WHERE "eventType" = 'DATA_RECORD_UPDATED' AND payload->'data'->>'dataRecordSimplyId' = $1`, [id]);
    expect(event.rows[0].payload.actor).toMatchObject({ kind: 'AUTOMATION', id: automation.id, automationDepth: 1 });
    await server.app.services.outbox.dispatchPending();
    expect(await executions(automation.id)).toHaveLength(1);
    await disable(automation.id);
  });
});

describe('RECORD_UPDATED and FIELD_VALUE_CHANGED', () => {
  it('RECORD_UPDATED fires on any update, not on create; FIELD_VALUE_CHANGED only when a watched field changes', async () => {
    const c = await collection('Updates');
    const updated = await createAutomation({ name: 'On update', triggerType: 'RECORD_UPDATED', dataCollectionSimplyId: c.id, actions: [updateFields({ [c.fields.note!]: 'touched' })] });
    const watched = await createAutomation({
      name: 'On age change',
      triggerType: 'FIELD_VALUE_CHANGED',
      dataCollectionSimplyId: c.id,
      triggerConfig: { dataFieldSimplyIds: [c.fields.age] },
      actions: [updateFields({ [c.fields.status!]: 'age changed' })],
    });
    const id = await createRecord({ [c.fields.first_name!]: 'Grace', [c.fields.age!]: 40 }, c.id);
    await server.app.services.outbox.dispatchPending();
    expect(await executions(updated.id)).toHaveLength(0);
    expect(await executions(watched.id)).toHaveLength(0);

    // a change of an unwatched field: RECORD_UPDATED only
    expectOk(await call('PATCH', `/v1/data-records/${id}`, { fields: { [c.fields.first_name!]: 'Grace H.' } }));
    await finished(updated.id, 1);
    expect((await record(id)).fields[c.fields.note!]).toBe('touched');
    // the record update made by "On update" (note) is not an age change, and never re-runs "On update" itself
    await server.app.services.outbox.dispatchPending();
    expect(await executions(watched.id)).toHaveLength(0);
    expect(await executions(updated.id)).toHaveLength(1);

    // a change of the watched field: both
    expectOk(await call('PATCH', `/v1/data-records/${id}`, { fields: { [c.fields.age!]: 41 } }));
    const [run] = await finished(watched.id, 1);
    expect(run).toMatchObject({ triggerType: 'FIELD_VALUE_CHANGED', status: 'SUCCEEDED', recordsProcessed: 1 });
    await finished(updated.id, 2);
    expect((await record(id)).fields[c.fields.status!]).toBe('age changed');
    // "On age change" wrote status: an update, so "On update" runs for it (depth 1), and stops there
    const runs = await finished(updated.id, 3);
    expect(runs.map((r) => r.depth).sort()).toEqual([0, 0, 1]);
    await disable(updated.id, watched.id);
  });

  it('a disabled automation is not triggered', async () => {
    const c = await collection('Disabled');
    const automation = await createAutomation({ name: 'Off', triggerType: 'RECORD_CREATED', dataCollectionSimplyId: c.id, isEnabled: false, actions: [] });
    await createRecord({ [c.fields.first_name!]: 'Nobody' }, c.id);
    await server.app.services.outbox.dispatchPending();
    expect(await executions(automation.id)).toEqual([]);
  });
});

describe('SMART collections and stale configurations', () => {
  it('an automation on a SMART collection fires for its source records and runs for current members only', async () => {
    const c = await collection('Source');
    const smart = expectOk(
      await call('POST', '/v1/data-collections', { name: 'Adults', type: 'SMART', parentDataCollectionSimplyId: c.id, filterCriteria: [{ field: c.fields.age, operator: 'gte', value: 18 }] }),
      201,
    );
    const automation = await onRecordCreated(smart.id, 'New adult', [updateFields({ [c.fields.status!]: 'adult' })]);
    const adult = await createRecord({ [c.fields.first_name!]: 'Ann', [c.fields.age!]: 30 }, c.id);
    const child = await createRecord({ [c.fields.first_name!]: 'Tim', [c.fields.age!]: 8 }, c.id);
    const runs = await finished(automation.id, 2);
    expect(runs.map((r) => r.status).sort()).toEqual(['SKIPPED', 'SUCCEEDED']);
    expect((await record(adult)).fields[c.fields.status!]).toBe('adult');
    expect((await record(child)).fields[c.fields.status!]).toBeUndefined();
    await disable(automation.id);
  });

  it('an action writing a field that was since removed fails with a clear error instead of writing nothing', async () => {
    const c = await collection('Stale');
    const automation = await onRecordCreated(c.id, 'Stale', [updateFields({ [c.fields.note!]: 'x' })]);
    const { prisma } = server.app.services;
    await prisma.dataField.deleteMany({ where: { teamId: team.teamId, simplyId: c.fields.note! } });
    server.app.services.schemas.invalidate(team.teamId);
    await createRecord({ [c.fields.first_name!]: 'Zed' }, c.id);
    const [run] = await finished(automation.id);
    expect(run).toMatchObject({ status: 'FAILED', recordsFailed: 1 });
    expect(run.errorDetails.failures[0]).toMatchObject({ code: 'INVALID_CONFIG', message: expect.stringContaining(c.fields.note!) });
    await disable(automation.id);
  });
});

describe('filterConditions', () => {
  it('runs the actions only for records meeting the conditions now; others are logged SKIPPED', async () => {
    const c = await collection('Filtered');
    const automation = await createAutomation({
      name: 'Adults only',
      triggerType: 'RECORD_CREATED',
      dataCollectionSimplyId: c.id,
      filterConditions: [
        { field: c.fields.age, operator: 'gte', value: 18 },
        { field: 'calculatedName', operator: 'startsWith', value: 'a' },
      ],
      actions: [updateFields({ [c.fields.status!]: 'adult' })],
    });
    const adult = await createRecord({ [c.fields.first_name!]: 'Alan', [c.fields.age!]: 41 }, c.id);
    const child = await createRecord({ [c.fields.first_name!]: 'Amy', [c.fields.age!]: 9 }, c.id);
    const other = await createRecord({ [c.fields.first_name!]: 'Bob', [c.fields.age!]: 50 }, c.id);
    const runs = await finished(automation.id, 3);
    expect(runs.filter((r) => r.status === 'SUCCEEDED')).toHaveLength(1);
    const skipped = runs.filter((r) => r.status === 'SKIPPED');
    expect(skipped).toHaveLength(2);
    for (const s of skipped) expect(s.errorDetails).toMatchObject({ code: 'CONDITIONS_NOT_MET' });
    expect((await record(adult)).fields[c.fields.status!]).toBe('adult');
    expect((await record(child)).fields[c.fields.status!]).toBeUndefined();
    expect((await record(other)).fields[c.fields.status!]).toBeUndefined();
    await disable(automation.id);
  });
});

describe('loop guard', () => {
  it('two automations creating records for each other stop at AUTOMATION_MAX_DEPTH, the stop logged as SKIPPED', async () => {
    const ping = await collection('Ping');
    const pong = await collection('Pong');
    /** for each record created in `from`, one named `value` in `to` */
    const relay = (name: string, from: CollectionFixture, to: CollectionFixture, value: string) =>
      onRecordCreated(from.id, name, [{ actionType: 'CREATE_RECORD', actionConfig: { dataCollectionSimplyId: to.id, fields: { [to.fields.first_name!]: value } } }]);
    const a = await relay('ping → pong', ping, pong, 'pong');
    const b = await relay('pong → ping', pong, ping, 'ping');
    await createRecord({ [ping.fields.first_name!]: 'start' }, ping.id);
    const max = server.app.services.config.AUTOMATION_MAX_DEPTH;
    // depths 0..max run (alternating a, b); the event at depth max + 1 is refused
    const all = await until('the chain to stop', async () => {
      const runs = [...(await executions(a.id)), ...(await executions(b.id))];
      return runs.some((r) => r.status === 'SKIPPED') && runs.every((r) => !['QUEUED', 'RUNNING'].includes(r.status)) ? runs : null;
    });
    const ran = all.filter((r) => r.status === 'SUCCEEDED').map((r) => r.depth).sort();
    expect(ran).toEqual([...Array(max + 1).keys()]);
    const stop = all.filter((r) => r.status === 'SKIPPED');
    expect(stop).toHaveLength(1);
    expect(stop[0]).toMatchObject({ depth: max + 1, recordsProcessed: 0, errorDetails: { code: 'AUTOMATION_DEPTH_EXCEEDED', depth: max + 1, maxDepth: max } });
    // and nothing more happens afterwards
    await new Promise((r) => setTimeout(r, 1500));
    await server.app.services.outbox.dispatchPending();
    expect([...(await executions(a.id)), ...(await executions(b.id))]).toHaveLength(all.length);
    const records = await server.app.services.prisma.dataRecord.count({ where: { teamId: team.teamId, collectionId: { in: [ping.internalId, pong.internalId] } } });
    expect(records).toBe(max + 2);
    await disable(a.id, b.id);
  });
});

describe('automationExecutions subscription', () => {
  const SUBSCRIPTION = `subscription ($a: String) { automationExecutions(automationSimplyId: $a) {
    automationSimplyId executionSimplyId triggerType status recordsProcessed recordsFailed startedAt completedAt executionDurationMs errorDetails } }`;

  function subscribe(token: string, automation?: string) {
    const state = { events: [] as any[], graphqlErrors: [] as GraphQLErrorShape[], done: false };
    const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${token}` } });
    client.subscribe<{ automationExecutions: any }>(
      { query: SUBSCRIPTION, variables: { a: automation ?? null } },
      {
        next: (result) => {
          if (result.errors) state.graphqlErrors.push(...(result.errors as GraphQLErrorShape[]));
          if (result.data?.automationExecutions) state.events.push(result.data.automationExecutions);
        },
        error: (error) => {
          if (Array.isArray(error)) state.graphqlErrors.push(...(error as GraphQLErrorShape[]));
          state.done = true;
        },
        complete: () => (state.done = true),
      },
    );
    return { state, close: () => client.dispose() };
  }

  it('streams queued, started and finished updates of the team’s executions over graphql-ws; other teams and unprivileged keys see nothing', async () => {
    const c = await collection('Streamed');
    const automation = await onRecordCreated(c.id, 'Streamed', [updateFields({ [c.fields.status!]: 'seen' })]);
    const sub = subscribe(team.apiKey, automation.id);
    const all = subscribe(team.apiKey);
    const other = await createTeam(server);
    const stranger = subscribe(other.apiKey);
    const plainKey = (await createApiKey(server, team, { name: 'no automations', featurePermissions: ['TEAM_SETTINGS'] })).key;
    const refused = subscribe(plainKey);
    try {
      // the protocol does not say when a subscription is live: write until one run has been seen
      await until('the subscription to go live', async () => {
        await createRecord({ [c.fields.first_name!]: 'warm-up' }, c.id);
        return until('an event', () => sub.state.events.length > 0, 3000, 50).catch(() => false);
      });
      const seen = new Set(sub.state.events.map((e) => e.executionSimplyId));
      await createRecord({ [c.fields.first_name!]: 'watched' }, c.id);
      const events = await until('queued, running and succeeded of a new execution', () => {
        const fresh = sub.state.events.filter((e) => !seen.has(e.executionSimplyId));
        const statuses = fresh.map((e) => e.status);
        return statuses.includes('QUEUED') && statuses.includes('RUNNING') && statuses.includes('SUCCEEDED') ? fresh : null;
      });
      expect(new Set(events.map((e) => e.executionSimplyId)).size).toBe(1);
      expect(events.map((e) => e.status)).toEqual(['QUEUED', 'RUNNING', 'SUCCEEDED']);
      const done = events[2];
      expect(done).toMatchObject({ automationSimplyId: automation.id, triggerType: 'RECORD_CREATED', recordsProcessed: 1, recordsFailed: 0, errorDetails: null });
      expect(done.executionDurationMs).toBeGreaterThanOrEqual(0);
      expect(new Date(done.completedAt).getTime()).toBeGreaterThanOrEqual(new Date(done.startedAt).getTime());
      expect(events[0]).toMatchObject({ startedAt: null, completedAt: null });
      await until('the team-wide subscriber', () => all.state.events.some((e) => e.executionSimplyId === done.executionSimplyId && e.status === 'SUCCEEDED'));
      expect(stranger.state.events).toEqual([]);
      expect(stranger.state.graphqlErrors).toEqual([]);
      await until('the refusal', () => refused.state.graphqlErrors.length > 0);
      expect(refused.state.graphqlErrors[0]?.extensions?.code).toBe('PERMISSION_DENIED');
      expect(refused.state.events).toEqual([]);
    } finally {
      for (const s of [sub, all, stranger, refused]) s.close();
      await disable(automation.id);
    }
  });
});
