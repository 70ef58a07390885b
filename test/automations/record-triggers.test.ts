// Record triggers end to end: a record written over REST fires RECORD_CREATED, RECORD_UPDATED and
// FIELD_VALUE_CHANGED automations through the outbox; the execution job runs the actions as the
// automation (audited as such) and logs the run. Filter conditions, the loop guard and the
// self-update rule. Document 1 §2.7, §4.6, §6; docs/api/automations.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { untilWith } from '../support/until.ts';
import { type AutomationTestServer, startAutomationServer } from './automation-server.ts';

const until = untilWith({ timeoutMs: 15_000, everyMs: 100 });

let server: AutomationTestServer;
let team: TeamFixture;
let people: CollectionFixture;
let f: Record<string, string>;

beforeAll(async () => {
  server = await startAutomationServer();
  team = await createTeam(server);
  people = await createCollection(server, team, {
    name: 'People',
    formula: '{first_name}',
    fields: [
      { columnName: 'first_name', dataType: 'PLAIN_TEXT', isRequired: true },
      { columnName: 'status', dataType: 'PLAIN_TEXT' },
      { columnName: 'age', dataType: 'NUMBER' },
      { columnName: 'note', dataType: 'PLAIN_TEXT' },
    ],
  });
  f = people.fields;
});
afterAll(async () => {
  await server?.close();
});

const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token: team.apiKey, body });

async function createAutomation(body: Record<string, unknown>): Promise<any> {
  return expectOk(await call('POST', '/v1/automations', body), 201);
}

async function createRecord(fields: Record<string, unknown>, collection = people.id): Promise<string> {
  return expectOk(await call('POST', '/v1/data-records', { dataCollectionSimplyId: collection, fields }), 201).id;
}

async function executions(automationId: string): Promise<any[]> {
  return expectOk(await call('GET', `/v1/automations/${automationId}/executions?limit=100`));
}

/** waits until the automation has `count` finished executions; returns them newest first */
async function finished(automationId: string, count = 1): Promise<any[]> {
  return until(`${count} finished execution(s) of ${automationId}`, async () => {
    const list = await executions(automationId);
    const done = list.filter((e) => !['QUEUED', 'RUNNING'].includes(e.status));
    return done.length >= count ? done : null;
  });
}

async function record(id: string): Promise<any> {
  return expectOk(await call('GET', `/v1/data-records/${id}`));
}

describe('RECORD_CREATED → UPDATE_FIELDS', () => {
  it('runs the action as the automation, logs the execution and records lastRunAt', async () => {
    const automation = await createAutomation({
      name: 'Mark new people',
      triggerType: 'RECORD_CREATED',
      dataCollectionSimplyId: people.id,
      actions: [{ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [f.status!]: 'new' } } }],
    });
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
    await call('PUT', `/v1/automations/${automation.id}`, { isEnabled: false });
  });
});
