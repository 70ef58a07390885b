// Each action type end to end (Document 1 §2.7): SEND_EMAIL (MailMessage rows, merge tags, HTML
// escaping), SEND_USER_NOTIFICATION, CHARGE_PAYMENT through the test provider (declines, one
// charge per idempotency key), CREATE_RECORD, RUN_WIZARD_STEP through the wizard runner; and how a
// run handles failures: continueOnError, retryConfig inside the job, onFailureActions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecution } from '../../src/modules/automations/automation-runner.ts';
import type { ChargeRequest, ChargeResult, PaymentProvider } from '../../src/modules/automations/payments/payment-provider.ts';
import { automationExecutionId } from '../../src/modules/automations/automations.ids.ts';
import { createCollection, type CollectionFixture, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { addMember, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createWizard, requiredLink, updateTask } from '../support/wizard-fixtures.ts';
import { automationApi, type AutomationTestServer, startAutomationServer, updateFields } from '../support/automation-fixtures.ts';

let server: AutomationTestServer;
let team: TeamFixture;

beforeAll(async () => {
  server = await startAutomationServer();
  team = await createTeam(server);
});
afterAll(async () => {
  await server?.close();
});

const { call, createAutomation, onRecordCreated, createRecord, record, finished, disable } = automationApi(() => server, () => team.apiKey);
const prisma = () => server.app.services.prisma;

describe('SEND_EMAIL', () => {
  it('mails fixed addresses and the record’s email field, with merge tags (escaped in HTML), once per idempotency key', async () => {
    const c = await createCollection(server, team, { name: 'Contacts', formula: '{first_name}', fields: { first_name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS' } });
    const automation = await onRecordCreated(c.id, 'Welcome mail', [
      {
        actionType: 'SEND_EMAIL',
        actionConfig: {
          to: ['ops@example.test'],
          toFieldSimplyId: c.fields.email,
          subject: 'Welcome {{first_name}}',
          text: 'Hello {{ first_name }} ({{record.id}}), your address is {{' + c.fields.email + '}}.',
          html: '<p>Hello {{first_name}}</p>',
        },
      },
    ]);
    const id = await createRecord(c.id, { [c.fields.first_name!]: '<Ada & Co>', [c.fields.email!]: 'ada@example.test' });
    const [run] = await finished(automation.id);
    expect(run.status).toBe('SUCCEEDED');
    const mails = await prisma().mailMessage.findMany({ where: { teamId: team.teamId, source: 'AUTOMATION' } });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      toAddresses: ['ops@example.test', 'ada@example.test'],
      subject: 'Welcome <Ada & Co>',
      textBody: `Hello <Ada & Co> (${id}), your address is ada@example.test.`,
      htmlBody: '<p>Hello &lt;Ada &amp; Co&gt;</p>',
      status: 'STORED',
    });
    expect(mails[0]!.sourceId).toBe(`${run.id}:${automation.actions[0].id}:${id}`);
    // a repeated run (the queue retrying after a crash) finds the message and sends nothing more
    await server.app.services.pool.query(`UPDATE "AutomationExecution" SET status = 'RUNNING' WHERE "simplyId" = $1`, [run.id]);
    await runExecution(server.app.services, { teamId: String(team.teamId), executionSimplyId: run.id }, { retryCount: 1 });
    expect(await prisma().mailMessage.count({ where: { teamId: team.teamId, source: 'AUTOMATION' } })).toBe(1);
    await disable(automation.id);
  });
});

describe('SEND_USER_NOTIFICATION', () => {
  it('stores a notification for an active member, fixed or read from the record; a non-member fails the action', async () => {
    const member = await addMember(server, team);
    const c = await createCollection(server, team, { name: 'Tickets', formula: '{title}', fields: { title: 'PLAIN_TEXT', assignee: 'EMAIL_ADDRESS' } });
    const automation = await onRecordCreated(c.id, 'Notify', [
      { actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: member.userSimplyId, title: 'New ticket: {{title}}', body: 'Record {{record.id}}' } },
      { actionType: 'SEND_USER_NOTIFICATION', actionConfig: { toUserFieldSimplyId: c.fields.assignee, title: 'Assigned: {{record.name}}' } },
    ]);
    const id = await createRecord(c.id, { [c.fields.title!]: 'Printer', [c.fields.assignee!]: member.email.toUpperCase() });
    const [run] = await finished(automation.id);
    expect(run.status).toBe('SUCCEEDED');
    const user = await prisma().user.findUniqueOrThrow({ where: { simplyId: member.userSimplyId } });
    const notes = await prisma().userNotification.findMany({ where: { teamId: team.teamId, userId: user.id }, orderBy: { id: 'asc' } });
    expect(notes.map((n) => [n.title, n.body])).toEqual([
      ['New ticket: Printer', `Record ${id}`],
      ['Assigned: Printer', null],
    ]);
    expect(notes[0]).toMatchObject({ source: 'AUTOMATION', notificationType: 'WORKFLOW', referenceEntityType: 'DATA_RECORD', referenceEntityId: id, actionUrl: `/data-records/${id}` });

    await createRecord(c.id, { [c.fields.title!]: 'Stapler', [c.fields.assignee!]: 'stranger@example.test' });
    const runs = await finished(automation.id, 2);
    const partial = runs.find((r) => r.id !== run.id);
    expect(partial.status).toBe('PARTIALLY_FAILED');
    expect(partial.errorDetails.failures).toEqual([expect.objectContaining({ code: 'NOT_A_MEMBER', actionType: 'SEND_USER_NOTIFICATION', automationActionSimplyId: automation.actions[1].id, attempts: 1 })]);
    await disable(automation.id);
  });
});

describe('CHARGE_PAYMENT, continueOnError and onFailureActions', () => {
  let orders: CollectionFixture;
  beforeAll(async () => {
    const amount = { dataType: 'MONEY', config: { currency: 'EUR' } };
    orders = await createCollection(server, team, { name: 'Orders', formula: '{label}', fields: { label: 'PLAIN_TEXT', amount, status: 'PLAIN_TEXT', note: 'PLAIN_TEXT' } });
  });

  /** runs `actions` for each order created with `label` (a label of the test's own) */
  const onOrders = (name: string, label: string, actions: unknown[]) => onRecordCreated(orders.id, name, actions, { filterConditions: [{ field: orders.fields.label, operator: 'eq', value: label }] });

  it('charges the record’s amount through the test provider; a decline fails the run and stops the record’s later actions', async () => {
    const automation = await onOrders('Charge', 'charge', [
      { actionType: 'CHARGE_PAYMENT', actionConfig: { amountFieldSimplyId: orders.fields.amount, description: 'Order {{record.id}}' } },
      updateFields({ [orders.fields.status!]: 'paid' }),
    ]);
    const good = await createRecord(orders.id, { [orders.fields.label!]: 'charge', [orders.fields.amount!]: '12.50' });
    const bad = await createRecord(orders.id, { [orders.fields.label!]: 'charge', [orders.fields.amount!]: '9.13' });
    const runs = await finished(automation.id, 2);
    expect(runs.map((r) => r.status).sort()).toEqual(['FAILED', 'SUCCEEDED']);
    expect((await record(good)).fields[orders.fields.status!]).toBe('paid');
    expect((await record(bad)).fields[orders.fields.status!]).toBeUndefined();
    const failedRun = runs.find((r) => r.status === 'FAILED');
    expect(failedRun).toMatchObject({ recordsProcessed: 1, recordsFailed: 1 });
    expect(failedRun.errorDetails.failures[0]).toMatchObject({ code: 'PAYMENT_DECLINED', dataRecordSimplyId: bad, actionType: 'CHARGE_PAYMENT' });
    const charges = await prisma().paymentCharge.findMany({ where: { teamId: team.teamId }, orderBy: { id: 'asc' } });
    const byRecord = new Map(charges.map((ch) => [ch.recordSimplyId, ch]));
    expect(byRecord.get(good)).toMatchObject({ provider: 'test', currency: 'EUR', status: 'SUCCEEDED', description: `Order ${good}` });
    expect(String(byRecord.get(good)!.amount)).toBe('12.5');
    expect(byRecord.get(good)!.providerReference).toMatch(/^test_/);
    expect(byRecord.get(bad)).toMatchObject({ status: 'DECLINED' });
    expect(byRecord.get(good)!.idempotencyKey).toBe(`${runs.find((r) => r.status === 'SUCCEEDED').id}:${automation.actions[0].id}:${good}`);
    await disable(automation.id);
  });

  it('continueOnError goes on with the next action; onFailureActions run when an action finally fails', async () => {
    const automation = await onOrders('Charge, then note', 'continue', [
      {
        actionType: 'CHARGE_PAYMENT',
        actionConfig: { amount: '1.13', currency: 'EUR' },
        continueOnError: true,
        retryConfig: { maxAttempts: 2, delaySeconds: 0 },
        onFailureActions: [updateFields({ [orders.fields.status!]: 'payment failed' })],
      },
      updateFields({ [orders.fields.note!]: 'processed' }),
    ]);
    const id = await createRecord(orders.id, { [orders.fields.label!]: 'continue' });
    const [run] = await finished(automation.id);
    expect(run).toMatchObject({ status: 'PARTIALLY_FAILED', recordsProcessed: 1, recordsFailed: 1 });
    expect(run.errorDetails.failures).toEqual([expect.objectContaining({ code: 'PAYMENT_DECLINED', attempts: 2 })]);
    const after = await record(id);
    expect(after.fields[orders.fields.status!]).toBe('payment failed');
    expect(after.fields[orders.fields.note!]).toBe('processed');
    await disable(automation.id);
  });

  it('retries an action inside the run (retryConfig) and never charges one idempotency key twice, even when the run is repeated', async () => {
    // a SCHEDULE automation whose cron never comes due during the test; its execution is run directly
    const automation = await createAutomation({
      name: 'Nightly charge',
      triggerType: 'SCHEDULE',
      triggerConfig: { cron: '0 0 1 1 *' },
      dataCollectionSimplyId: orders.id,
      filterConditions: [{ field: orders.fields.label, operator: 'eq', value: 'retry' }],
      actions: [{ actionType: 'CHARGE_PAYMENT', actionConfig: { amountFieldSimplyId: orders.fields.amount }, retryConfig: { maxAttempts: 3, delaySeconds: 1 } }],
    });
    await createRecord(orders.id, { [orders.fields.label!]: 'retry', [orders.fields.amount!]: '20.00' });
    const calls: ChargeRequest[] = [];
    const flaky: PaymentProvider = {
      name: 'test',
      async charge(request): Promise<ChargeResult> {
        calls.push(request);
        if (calls.length < 3) throw new Error('provider timeout');
        return { status: 'SUCCEEDED', providerReference: 'flaky_1' };
      },
    };
    const internal = await prisma().automation.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: automation.id } } });
    const exe = automationExecutionId.create();
    await prisma().automationExecution.create({
      data: { simplyId: exe, teamId: team.teamId, automationId: internal.id, triggerType: 'SCHEDULE', triggerEventId: `schedule:${automation.id}:test`, status: 'QUEUED' },
    });
    const started = Date.now();
    await runExecution(server.app.services, { teamId: String(team.teamId), executionSimplyId: exe }, { retryCount: 0 }, flaky);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000); // two waits of delaySeconds
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(1);
    const done = await prisma().automationExecution.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: exe } } });
    expect(done).toMatchObject({ status: 'SUCCEEDED', recordsProcessed: 1, recordsFailed: 0 });
    const charges = await prisma().paymentCharge.findMany({ where: { teamId: team.teamId, idempotencyKey: calls[0]!.idempotencyKey } });
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ status: 'SUCCEEDED', providerReference: 'flaky_1' });

    // the queue redelivering the run (worker died after the charge): the settled charge is not asked for again
    await prisma().automationExecution.update({ where: { id: done.id }, data: { status: 'RUNNING' } });
    await runExecution(server.app.services, { teamId: String(team.teamId), executionSimplyId: exe }, { retryCount: 1 }, flaky);
    expect(calls).toHaveLength(3);
    expect(await prisma().paymentCharge.count({ where: { teamId: team.teamId, idempotencyKey: calls[0]!.idempotencyKey } })).toBe(1);
    expect((await prisma().automationExecution.findUniqueOrThrow({ where: { id: done.id } })).status).toBe('SUCCEEDED');
    // a job delivered a second time for a run that already finished does nothing
    await runExecution(server.app.services, { teamId: String(team.teamId), executionSimplyId: exe }, { retryCount: 2 }, flaky);
    expect(calls).toHaveLength(3);
  });
});

describe('CREATE_RECORD', () => {
  it('creates a record in the configured collection with the given values', async () => {
    const source = await createCollection(server, team, { name: 'Signups', formula: '{email}', fields: { email: 'EMAIL_ADDRESS' } });
    const target = await createCollection(server, team, { name: 'Tasks', formula: '{title}', fields: { title: REQUIRED_TEXT, priority: 'NUMBER' } });
    const fields = { [target.fields.title!]: 'Call back', [target.fields.priority!]: 2 };
    const automation = await onRecordCreated(source.id, 'Follow up', [{ actionType: 'CREATE_RECORD', actionConfig: { dataCollectionSimplyId: target.id, fields } }]);
    await createRecord(source.id, { [source.fields.email!]: 'x@example.test' });
    const [run] = await finished(automation.id);
    expect(run.status).toBe('SUCCEEDED');
    const list = expectOk(await call('GET', `/v1/data-records?dataCollectionSimplyId=${target.id}`));
    expect(list).toHaveLength(1);
    expect(list[0].fields).toEqual(fields);
    await disable(automation.id);
  });
});

describe('RUN_WIZARD_STEP', () => {
  it('runs the wizard on the record as the automation, with the configured formData', async () => {
    const c = await createCollection(server, team, { name: 'Applicants', formula: '{name}', fields: { name: 'PLAIN_TEXT', stage: 'PLAIN_TEXT' } });
    const wizard = await createWizard(server, team.apiKey, { name: 'Screening', dataCollectionSimplyId: c.id, steps: [{ title: 'Stage', tasks: [updateTask('Set stage', requiredLink(c.fields.stage!))] }] });
    const runStep = { dataWizardSimplyId: wizard.dataWizardSimplyId, dataWizardStepSimplyId: wizard.steps[0].dataWizardStepSimplyId, formData: { [c.fields.stage!]: 'screened' } };
    const automation = await onRecordCreated(c.id, 'Screen', [{ actionType: 'RUN_WIZARD_STEP', actionConfig: runStep }]);
    const id = await createRecord(c.id, { [c.fields.name!]: 'Lin' });
    const [run] = await finished(automation.id);
    expect(run.status, JSON.stringify(run.errorDetails)).toBe('SUCCEEDED');
    expect((await record(id)).fields[c.fields.stage!]).toBe('screened');
    const instances = await prisma().dataWizardInstance.findMany({ where: { teamId: team.teamId } });
    expect(instances).toHaveLength(1);
    expect(instances[0]).toMatchObject({ status: 'COMPLETED', actorKind: 'AUTOMATION', actorId: automation.id });
    // the completion event carries the depth of the automation's writes
    const event = await server.app.services.pool.query(`SELECT payload FROM "DomainEvent" WHERE "eventId" = $1`, [`wizard:${instances[0]!.simplyId}:completion:v1`]);
    expect(event.rows[0].payload.actor).toMatchObject({ kind: 'AUTOMATION', id: automation.id, automationDepth: 1 });
    await disable(automation.id);
  });
});
