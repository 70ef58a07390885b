// SCHEDULE triggers (the every-minute tick, invoked here with a given time instead of waiting for
// it) and wizard-completion triggers (domain events shaped as the wizard runner writes them, and
// a real wizard run), with the claim semantics of Document 1 §6 rule 6: one execution per
// automation and stable key, no redelivery by the queue, and reconciling an ambiguous claim.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecution } from '../../src/modules/automations/automation-runner.ts';
import { scheduleTick } from '../../src/modules/automations/automation-schedule.ts';
import { automationTriggerConsumer } from '../../src/modules/automations/automation-triggers.ts';
import { EXECUTE_AUTOMATION } from '../../src/modules/automations/execution-claims.ts';
import type { DomainEventRow } from '../../src/app/outbox.ts';
import { automationExecutionId } from '../../src/modules/automations/automations.ids.ts';
import { dataWizardInstanceId } from '../../src/modules/wizards/wizards.ids.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createWizard, requiredLink, updateTask } from '../support/wizard-fixtures.ts';
import { automationApi, type AutomationTestServer, startAutomationServer, until, updateFields } from '../support/automation-fixtures.ts';
import { inTransaction } from '../../src/app/transaction.ts';

let server: AutomationTestServer;
let team: TeamFixture;
let people: CollectionFixture;

beforeAll(async () => {
  server = await startAutomationServer();
  team = await createTeam(server);
  people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT', stage: 'PLAIN_TEXT', note: 'PLAIN_TEXT' } });
});
afterAll(async () => {
  await server?.close();
});

const { call, createAutomation, createRecord, record, executions, finished, disable } = automationApi(() => server, () => team.apiKey);
const services = () => server.app.services;

/** A minute boundary `hours` hours from now: a daily cron for it never comes due while the test runs. */
function futureMinute(hours = 3): Date {
  return new Date(Math.floor((Date.now() + hours * 3_600_000) / 60_000) * 60_000);
}

const dailyAt = (at: Date) => `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;

describe('SCHEDULE', () => {
  it('the tick claims the due occurrence once and the run processes up to maxRecordsPerExecution matching records, oldest first', async () => {
    const c = await createCollection(server, team, { name: 'Batch', formula: '{name}', fields: { name: 'PLAIN_TEXT', note: 'PLAIN_TEXT' } });
    const ids: string[] = [];
    for (const name of ['r1', 'r2', 'r3', 'r4', 'skip-me']) ids.push(await createRecord(c.id, { [c.fields.name!]: name }));
    const at = futureMinute();
    const automation = await createAutomation({
      name: 'Nightly',
      triggerType: 'SCHEDULE',
      triggerConfig: { cron: dailyAt(at) },
      dataCollectionSimplyId: c.id,
      filterConditions: [{ field: 'calculatedName', operator: 'startsWith', value: 'r' }],
      maxRecordsPerExecution: 3,
      actions: [updateFields({ [c.fields.note!]: 'scheduled' })],
    });
    expect(automation.triggerConfig).toEqual({ cron: dailyAt(at), timezone: 'UTC' });
    // a minute before: nothing due
    expect(await scheduleTick(services(), new Date(at.getTime() - 60_000))).toEqual([]);
    const claimed = await scheduleTick(services(), new Date(at.getTime() + 20_000));
    expect(claimed.map((e) => e.triggerEventId)).toEqual([`schedule:${automation.id}:${at.toISOString()}`]);
    // the same tick again (another instance, a redelivered job) and a late tick within the look-back claim nothing
    expect(await scheduleTick(services(), new Date(at.getTime() + 20_000))).toEqual([]);
    expect(await scheduleTick(services(), new Date(at.getTime() + 3 * 60_000))).toEqual([]);
    const [run] = await finished(automation.id);
    expect(run).toMatchObject({ triggerType: 'SCHEDULE', status: 'SUCCEEDED', recordsProcessed: 3, recordsFailed: 0, triggerEventId: `schedule:${automation.id}:${at.toISOString()}` });
    const notes = await Promise.all(ids.map(async (id) => (await record(id)).fields[c.fields.note!] ?? null));
    expect(notes).toEqual(['scheduled', 'scheduled', 'scheduled', null, null]);
    // the next day's occurrence is a new claim
    const next = await scheduleTick(services(), new Date(at.getTime() + 86_400_000));
    expect(next).toHaveLength(1);
    await finished(automation.id, 2);
    expect(expectOk(await call('PUT', `/v1/automations/${automation.id}`, { isEnabled: false })).isEnabled).toBe(false);
    expect(await scheduleTick(services(), new Date(at.getTime() + 2 * 86_400_000))).toEqual([]);
  });

  it('evaluates the cron in its time zone; never catches up an occurrence from before the automation last changed', async () => {
    const automation = await createAutomation({ name: 'Berlin morning', triggerType: 'SCHEDULE', triggerConfig: { cron: '30 9 * * *', timezone: 'Europe/Berlin' }, actions: [] });
    // 2031-01-15 09:30 in Berlin (UTC+1 in winter) is 08:30 UTC
    const claimed = await scheduleTick(services(), new Date('2031-01-15T08:30:05Z'));
    expect(claimed.map((e) => e.triggerEventId)).toEqual([`schedule:${automation.id}:2031-01-15T08:30:00.000Z`]);
    expect(await scheduleTick(services(), new Date('2031-01-15T09:30:05Z'))).toEqual([]);
    // a run without a collection has no records: it runs once
    const [run] = await finished(automation.id);
    expect(run).toMatchObject({ status: 'SUCCEEDED', recordsProcessed: 1 });
    await disable(automation.id);

    const now = new Date();
    const lastMinute = new Date(Math.floor(now.getTime() / 60_000) * 60_000 - 60_000);
    const late = await createAutomation({ name: 'Created after its minute', triggerType: 'SCHEDULE', triggerConfig: { cron: dailyAt(lastMinute) }, actions: [] });
    expect(await scheduleTick(services(), now)).toEqual([]);
    await disable(late.id);
  });

  it('without a collection the actions run once; with a collection and no matching record the run is SKIPPED', async () => {
    const member = await addMember(server, team);
    const at = futureMinute(5);
    const lonely = await createAutomation({
      name: 'Daily digest',
      triggerType: 'SCHEDULE',
      triggerConfig: { cron: dailyAt(at) },
      actions: [{ actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: member.userSimplyId, title: 'Digest' } }],
    });
    const empty = await createAutomation({
      name: 'Nothing matches',
      triggerType: 'SCHEDULE',
      triggerConfig: { cron: dailyAt(at) },
      dataCollectionSimplyId: people.id,
      filterConditions: [{ field: people.fields.name, operator: 'eq', value: 'no such person' }],
      actions: [updateFields({ [people.fields.note!]: 'x' })],
    });
    expect(await scheduleTick(services(), at)).toHaveLength(2);
    const [digest] = await finished(lonely.id);
    expect(digest).toMatchObject({ status: 'SUCCEEDED', recordsProcessed: 1 });
    const user = await services().prisma.user.findUniqueOrThrow({ where: { simplyId: member.userSimplyId } });
    expect(await services().prisma.userNotification.count({ where: { userId: user.id, title: { equals: 'Digest' } } })).toBe(1);
    const [skipped] = await finished(empty.id);
    expect(skipped).toMatchObject({ status: 'SKIPPED', recordsProcessed: 0, errorDetails: { code: 'NO_MATCHING_RECORDS' } });
    await disable(lonely.id, empty.id);
  });
});

describe('WIZARD_COMPLETED and WIZARD_COMPLETION_FAILED', () => {
  let wizard: any;
  beforeAll(async () => {
    wizard = await createWizard(server, team.apiKey, { name: 'Intake', dataCollectionSimplyId: people.id, steps: [{ title: 'Stage', tasks: [updateTask('Stage', requiredLink(people.fields.stage!))] }] });
  });

  /** a completion event as the wizard runner writes it */
  async function completionEvent(recordId: string, success: boolean, options: { dispatched?: boolean } = {}): Promise<string> {
    const instance = dataWizardInstanceId.create();
    const eventId = `wizard:${instance}:completion:v1`;
    const eventType = success ? 'WIZARD_COMPLETED' : 'WIZARD_COMPLETION_FAILED';
    const payload = {
      eventType,
      eventId,
      occurredAt: new Date().toISOString(),
      data: {
        dataWizardSimplyId: wizard.dataWizardSimplyId,
        dataWizardInstanceSimplyId: instance,
        dataRecordSimplyId: recordId,
        dataCollectionSimplyId: people.id,
        success,
        message: success ? 'Wizard completed' : 'The wizard stopped',
        ...(success ? {} : { errorDetails: [{ message: 'stage is required' }] }),
      },
      actor: { kind: 'USER', id: team.userSimplyId, userSimplyId: team.userSimplyId },
    };
    await services().pool.query(
      `INSERT INTO "DomainEvent" ("teamId", "eventId", "eventType", "collectionId", payload, "dispatchedAt") VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
      [team.teamId, eventId, eventType, people.internalId, JSON.stringify(payload), options.dispatched ? new Date() : null],
    );
    void services().outbox.nudge();
    return eventId;
  }

  it('fires the matching automation once per stable key; its job is never retried by the queue', async () => {
    const completed = await createAutomation({
      name: 'After intake',
      triggerType: 'WIZARD_COMPLETED',
      triggerConfig: { dataWizardSimplyId: wizard.dataWizardSimplyId },
      actions: [updateFields({ [people.fields.note!]: 'intake done' })],
    });
    // the wizard's collection is the automation's
    expect(completed.dataCollectionSimplyId).toBe(people.id);
    const failed = await createAutomation({
      name: 'Intake failed',
      triggerType: 'WIZARD_COMPLETION_FAILED',
      triggerConfig: { dataWizardSimplyId: wizard.dataWizardSimplyId },
      actions: [updateFields({ [people.fields.note!]: 'intake failed' })],
    });
    const id = await createRecord(people.id, { [people.fields.name!]: 'Kim' });
    const key = await completionEvent(id, true);
    const [run] = await finished(completed.id);
    expect(run).toMatchObject({ triggerType: 'WIZARD_COMPLETED', triggerEventId: key, status: 'SUCCEEDED', recordsProcessed: 1 });
    expect((await record(id)).fields[people.fields.note!]).toBe('intake done');
    const jobs = await services().jobs.boss.findJobs<{ executionSimplyId: string }>(EXECUTE_AUTOMATION, { data: { executionSimplyId: run.id } });
    expect(jobs.map((j) => j.retryLimit)).toEqual([0]);
    expect(await executions(failed.id)).toEqual([]);

    // the event handed on again (at-least-once dispatch): the claim is taken, nothing new
    const rows = await services().pool.query(`SELECT id, "teamId", "eventId", "eventType", "collectionId", payload, "occurredAt" FROM "DomainEvent" WHERE "eventId" = $1`, [key]);
    const event: DomainEventRow = { ...rows.rows[0], id: BigInt(rows.rows[0].id), teamId: BigInt(rows.rows[0].teamId), collectionId: BigInt(rows.rows[0].collectionId) };
    await inTransaction(services().pool, (db) => automationTriggerConsumer(services())([event], db));
    expect(await executions(completed.id)).toHaveLength(1);
    // nor does a second delivery of its job run it again
    await runExecution(services(), { teamId: String(team.teamId), executionSimplyId: run.id }, { retryCount: 1 });
    expect(await executions(completed.id)).toHaveLength(1);

    const failKey = await completionEvent(id, false);
    const [failedRun] = await finished(failed.id);
    expect(failedRun).toMatchObject({ triggerType: 'WIZARD_COMPLETION_FAILED', triggerEventId: failKey, status: 'SUCCEEDED' });
    expect(await executions(completed.id)).toHaveLength(1);
    await disable(failed.id, completed.id);
  });

  it('a real wizard run fires WIZARD_COMPLETED end to end', async () => {
    const automation = await createAutomation({
      name: 'After a real run',
      triggerType: 'WIZARD_COMPLETED',
      triggerConfig: { dataWizardSimplyId: wizard.dataWizardSimplyId },
      dataCollectionSimplyId: people.id,
      filterConditions: [{ field: people.fields.stage, operator: 'eq', value: 'qualified' }],
      actions: [updateFields({ [people.fields.note!]: 'qualified by wizard' })],
    });
    const id = await createRecord(people.id, { [people.fields.name!]: 'Robin' });
    // run by the signed-in team admin (admins need no RUN grant)
    const result = expectOk(
      await server.request('POST', `/v1/data-wizards/${wizard.dataWizardSimplyId}/execute`, {
        token: team.userToken,
        teamId: team.teamSimplyId,
        body: { dataRecordSimplyId: id, formData: { [people.fields.stage!]: 'qualified' } },
      }),
    );
    expect(result.success).toBe(true);
    const [run] = await finished(automation.id);
    expect(run.status).toBe('SUCCEEDED');
    expect(run.triggerEventId).toMatch(/^wizard:wri-[2-9A-HJKMNP-Z-]+:completion:v1$/);
    expect((await record(id)).fields[people.fields.note!]).toBe('qualified by wizard');
    await disable(automation.id);
  });

  describe('an ambiguous claim (the worker died while the execution was RUNNING)', () => {
    const RECONCILE = `mutation ($id: String!, $resolution: AutomationExecutionResolution!) {
      reconcileAutomationExecution(executionSimplyId: $id, resolution: $resolution) { executionSimplyId status triggerEventId errorDetails } }`;
    let automation: any;
    let recordId: string;

    beforeAll(async () => {
      automation = await createAutomation({
        name: 'Reconcile me',
        triggerType: 'WIZARD_COMPLETED',
        triggerConfig: { dataWizardSimplyId: wizard.dataWizardSimplyId },
        isEnabled: true,
        actions: [updateFields({ [people.fields.note!]: 'reconciled run' })],
      });
      recordId = await createRecord(people.id, { [people.fields.name!]: 'Sam' });
    });

    /** a claimed execution left RUNNING with no job, as after a crash */
    async function stranded(): Promise<{ exe: string; key: string }> {
      const key = await completionEvent(recordId, true, { dispatched: true });
      const internal = await services().prisma.automation.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: automation.id } } });
      const exe = automationExecutionId.create();
      await services().prisma.automationExecution.create({
        data: { simplyId: exe, teamId: team.teamId, automationId: internal.id, triggerType: 'WIZARD_COMPLETED', triggerEventId: key, status: 'RUNNING', startedAt: new Date() },
      });
      return { exe, key };
    }

    it('is not run again automatically, and is listed by its stable key', async () => {
      const { exe, key } = await stranded();
      await runExecution(services(), { teamId: String(team.teamId), executionSimplyId: exe }, { retryCount: 1 });
      const byKey = expectOk(await call('GET', `/v1/automations/${automation.id}/executions?triggerEventId=${encodeURIComponent(key)}`));
      expect(byKey).toHaveLength(1);
      expect(byKey[0]).toMatchObject({ id: exe, status: 'RUNNING' });
      const running = expectOk(await call('GET', `/v1/automations/${automation.id}/executions?status=RUNNING`));
      expect(running.map((e: any) => e.id)).toContain(exe);
    });

    it('RETRY queues it again under the same claim and it runs; ABANDON marks it FAILED; settled or held executions are refused', async () => {
      const { exe, key } = await stranded();
      const retried = gqlData(await server.graphql(RECONCILE, { id: exe, resolution: 'RETRY' }, { token: team.apiKey })).reconcileAutomationExecution;
      expect(retried).toMatchObject({ executionSimplyId: exe, triggerEventId: key });
      const done = await until('the retried run', async () => {
        const [e] = expectOk(await call('GET', `/v1/automations/${automation.id}/executions?triggerEventId=${encodeURIComponent(key)}`));
        return e.status === 'SUCCEEDED' ? e : null;
      });
      expect(done.recordsProcessed).toBe(1);
      expectGqlError(await server.graphql(RECONCILE, { id: exe, resolution: 'ABANDON' }, { token: team.apiKey }), 'CONFLICT', 409);

      const second = await stranded();
      const abandoned = gqlData(await server.graphql(RECONCILE, { id: second.exe, resolution: 'ABANDON' }, { token: team.apiKey })).reconcileAutomationExecution;
      expect(abandoned.status).toBe('FAILED');
      expect(abandoned.errorDetails).toMatchObject({ code: 'ABANDONED', reconciled: { resolution: 'ABANDON', by: { kind: 'API_KEY' }, previousStatus: 'RUNNING' } });

      // a job still waiting for it: refused until the job has ended
      const third = await stranded();
      await services().jobs.boss.send(EXECUTE_AUTOMATION, { teamId: String(team.teamId), executionSimplyId: third.exe }, { startAfter: 3600 });
      expectGqlError(await server.graphql(RECONCILE, { id: third.exe, resolution: 'RETRY' }, { token: team.apiKey }), 'CONFLICT', 409);
      // unknown or malformed ids, other teams
      expectGqlError(await server.graphql(RECONCILE, { id: automationExecutionId.create(), resolution: 'RETRY' }, { token: team.apiKey }), 'NOT_FOUND', 404);
      expectGqlError(await server.graphql(RECONCILE, { id: 'exe-1', resolution: 'RETRY' }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
      const other = await createTeam(server);
      expectGqlError(await server.graphql(RECONCILE, { id: third.exe, resolution: 'ABANDON' }, { token: other.apiKey }), 'NOT_FOUND', 404);
    });
  });
});
