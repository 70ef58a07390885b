// Exactly-once effects of CREATE_RECORD and RUN_WIZARD_STEP across a worker's death. The drill of
// automation-crash.test.ts, with the worker killed (SIGKILL) after both effects committed and
// before the execution finished: a worker started after the kill runs the execution again from its
// first action, finds each action's effect key (src/app/effects.ts) and makes nothing twice: one
// created record, one wizard run, and the charge the killed run never reached.
//
// The stall is a table lock the test holds on PaymentCharge, which only the last action
// (CHARGE_PAYMENT) touches: the run creates its record, runs its wizard step and then waits.
//
// Also here: the mail table's unique AUTOMATION sourceId, which keys SEND_EMAIL.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EXECUTE_AUTOMATION } from '../../src/modules/automations/execution-claims.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { createWizard, updateTask } from '../support/wizard-fixtures.ts';
import { createRecords } from '../../src/kernel/index.ts';
import { automationContext, automationPrincipal } from '../../src/modules/automations/automation-principal.ts';
import { runWizard } from '../../src/modules/wizards/index.ts';
import { killAndRecover, startAutomationWorker } from './crash-drill.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 100 });
const cleanups: (() => Promise<unknown>)[] = [];
let database: ThrowawayDatabase;

beforeAll(async () => {
  database = await createMigratedDatabase('automation_crash_effects');
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await database?.drop();
});

it('a run repeated after its worker died creates no second record and runs no second wizard step', { timeout: 90_000 }, async () => {
  const dataDir = path.join(inject('testDataDir'), `automation-crash-effects-${randomBytes(4).toString('hex')}`);
  const server: TestServer = await startTestServer({ databaseUrl: database.url, runJobs: false, dataDir });
  cleanups.push(() => server.close());
  const { pool, prisma } = server.app.services;
  const team = await createTeam(server);
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT', stage: 'PLAIN_TEXT' } });
  const tasks = await createCollection(server, team, { name: 'Tasks', formula: '{title}', fields: { title: 'PLAIN_TEXT' } });
  const wizard = await createWizard(server, team.apiKey, { name: 'Screening', dataCollectionSimplyId: people.id, steps: [{ title: 'Stage', tasks: [updateTask('Set stage', people.fields.stage!)] }] });
  const step = wizard.steps[0].dataWizardStepSimplyId;
  const automation = expectOk(
    await server.request('POST', '/v1/automations', {
      token: team.apiKey,
      body: {
        name: 'Onboard',
        triggerType: 'RECORD_CREATED',
        dataCollectionSimplyId: people.id,
        actions: [
          { actionType: 'CREATE_RECORD', actionConfig: { dataCollectionSimplyId: tasks.id, fields: { [tasks.fields.title!]: 'Call back' } } },
          { actionType: 'RUN_WIZARD_STEP', actionConfig: { dataWizardSimplyId: wizard.dataWizardSimplyId, dataWizardStepSimplyId: step, formData: { [people.fields.stage!]: 'screened' } } },
          { actionType: 'CHARGE_PAYMENT', actionConfig: { amount: '5.00', currency: 'EUR' } },
        ],
      },
    }),
    201,
  );
  const record = expectOk(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: 'Ada' } } }), 201);

  // the stall: PaymentCharge, locked by a transaction of the test's own before any worker runs
  const locker = new pg.Client({ connectionString: database.url });
  await locker.connect();
  cleanups.push(() => locker.end());
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE "PaymentCharge" IN ACCESS EXCLUSIVE MODE');

  const worker = await startAutomationWorker(database.url, dataDir, cleanups);

  // both effects committed, and the run waits for the lock in its last action
  const taskCount = () => prisma.dataRecord.count({ where: { teamId: team.teamId, collectionId: tasksCollectionId } });
  const tasksCollectionId = (await prisma.dataCollection.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: tasks.id }, select: { id: true } })).id;
  await until('the record created and the wizard step run', async () => (await taskCount()) === 1 && (await prisma.dataWizardInstance.count({ where: { teamId: team.teamId, status: 'COMPLETED' } })) === 1);
  await until('the run waiting in CHARGE_PAYMENT', async () => (await pool.query(`SELECT 1 FROM pg_locks WHERE relation = '"PaymentCharge"'::regclass AND NOT granted`)).rowCount! > 0);
  const execution = await prisma.automationExecution.findFirstOrThrow({ where: { teamId: team.teamId } });
  expect(execution.status).toBe('RUNNING');

  const done = await killAndRecover({ worker, stall: locker, databaseUrl: database.url, dataDir, cleanups, prisma, executionId: execution.id });
  expect(done, JSON.stringify(done.errorDetails)).toMatchObject({ status: 'SUCCEEDED', recordsProcessed: 1, recordsFailed: 0, errorDetails: null });
  // pg-boss completes the job just after the handler has recorded the execution's end
  const job = await until('the job completed', async () => {
    const [row] = (await pool.query(`SELECT state, "retry_count" AS "retryCount" FROM pgboss.job WHERE name = $1 AND data->>'executionSimplyId' = $2`, [EXECUTE_AUTOMATION, execution.simplyId])).rows;
    return row?.state !== 'active' && row;
  });
  expect(job).toEqual({ state: 'completed', retryCount: 1 });

  // CREATE_RECORD: one record, and its key answers with it
  const key = (action: number) => `${execution.simplyId}:${automation.actions[action].id}:${record.id}`;
  const created = expectOk(await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${tasks.id}`, { token: team.apiKey }));
  expect(created).toHaveLength(1);
  expect(created[0].fields).toEqual({ [tasks.fields.title!]: 'Call back' });
  const effects = await prisma.effectKey.findMany({ where: { teamId: team.teamId }, orderBy: { createdAt: 'asc' } });
  expect(effects.map((e) => e.key)).toEqual([key(0), key(1)]);
  expect(effects[0]!.result).toMatchObject({ created: [{ index: 0, dataRecordSimplyId: created[0].id }] });

  // RUN_WIZARD_STEP: one run, one completion event, the record written once
  const instances = await prisma.dataWizardInstance.findMany({ where: { teamId: team.teamId } });
  expect(instances).toHaveLength(1);
  expect(instances[0]).toMatchObject({ status: 'COMPLETED', actorKind: 'AUTOMATION' });
  expect(effects[1]!.result).toMatchObject({ success: true, dataWizardInstanceSimplyId: instances[0]!.simplyId });
  const completions = await pool.query(`SELECT "eventId" FROM "DomainEvent" WHERE "teamId" = $1 AND "eventType" = 'WIZARD_COMPLETED'`, [team.teamId]);
  expect(completions.rows).toEqual([{ eventId: `wizard:${instances[0]!.simplyId}:completion:v1` }]);
  const updates = await pool.query(`SELECT count(*)::int AS n FROM "DomainEvent" WHERE "teamId" = $1 AND "eventType" = 'DATA_RECORD_UPDATED'`, [team.teamId]);
  expect(updates.rows[0].n).toBe(1);
  const after = expectOk(await server.request('GET', `/v1/data-records/${record.id}`, { token: team.apiKey }));
  expect(after.fields[people.fields.stage!]).toBe('screened');

  // the charge the killed run never reached, made once by the new worker
  expect(await prisma.paymentCharge.findMany({ where: { teamId: team.teamId }, select: { idempotencyKey: true, status: true } })).toEqual([{ idempotencyKey: key(2), status: 'SUCCEEDED' }]);
});

describe('two runs of one key at once (a reconciled retry beside a late worker)', () => {
  it('CREATE_RECORD and RUN_WIZARD_STEP make their effect once; both runs answer with it', async () => {
    const dataDir = path.join(inject('testDataDir'), `automation-key-race-${randomBytes(4).toString('hex')}`);
    const server = await startTestServer({ databaseUrl: database.url, runJobs: false, dataDir });
    cleanups.push(() => server.close());
    const { services } = server.app;
    const team = await createTeam(server);
    const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT', stage: 'PLAIN_TEXT' } });
    const wizard = await createWizard(server, team.apiKey, { name: 'Screening', dataCollectionSimplyId: people.id, steps: [{ title: 'Stage', tasks: [updateTask('Set stage', people.fields.stage!)] }] });
    const ref = { id: team.teamId, simplyId: team.teamSimplyId, name: 'Team' };
    const principal = automationPrincipal(ref, 'aut-2222-2222-2222', 'exe-2222-2222-2222', 1);
    const ctx = automationContext(services, principal);
    const createKey = 'exe-2222-2222-2222:act-2222-2222-2222:-';

    const creates = await Promise.all([0, 1, 2].map(() => createRecords(ctx, people.id, [{ [people.fields.name!]: 'Ada' }], { batch: false, source: 'JOB', effectKey: createKey })));
    const ids = creates.map((c) => c.records[0]!.row.simplyId);
    expect(new Set(ids).size).toBe(1);
    expect(await services.prisma.dataRecord.count({ where: { teamId: team.teamId } })).toBe(1);

    const wizardKey = `exe-2222-2222-2222:act-3333-3333-3333:${ids[0]}`;
    const run = () =>
      runWizard(services, {
        teamId: team.teamId,
        dataWizardSimplyId: wizard.dataWizardSimplyId,
        dataRecordSimplyId: ids[0]!,
        formData: { [people.fields.stage!]: 'screened' },
        principal,
        source: 'JOB',
        effectKey: wizardKey,
      });
    const runs = await Promise.all([run(), run(), run()]);
    for (const r of runs) expect(r).toEqual(runs[0]);
    expect(runs[0]).toMatchObject({ success: true });
    // the runs that lost the claim leave no instance behind
    expect(await services.prisma.dataWizardInstance.findMany({ where: { teamId: team.teamId }, select: { simplyId: true, status: true } })).toEqual([
      { simplyId: runs[0]!.dataWizardInstanceSimplyId, status: 'COMPLETED' },
    ]);
    // and a later repeat is answered without starting anything
    expect(await run()).toEqual(runs[0]);
    expect(await services.prisma.dataWizardInstance.count({ where: { teamId: team.teamId } })).toBe(1);
  });
});

describe('AUTOMATION mail keyed by its sourceId', () => {
  it('stores one message per team and sourceId; a repeat answers with it and other sources may repeat', async () => {
    const dataDir = path.join(inject('testDataDir'), `automation-mail-key-${randomBytes(4).toString('hex')}`);
    const server = await startTestServer({ databaseUrl: database.url, runJobs: false, dataDir });
    cleanups.push(() => server.close());
    const { mail, prisma } = server.app.services;
    const [team, other] = [await createTeam(server), await createTeam(server)];
    const message = (teamId: bigint, source: string, sourceId: string) => ({ teamId, to: ['ada@example.test'], subject: 'Hello', text: 'Hi', source, sourceId });

    const first = await mail.enqueue(message(team.teamId, 'AUTOMATION', 'exe-X:act-Y:rec-Z'));
    const repeat = await mail.enqueue({ ...message(team.teamId, 'AUTOMATION', 'exe-X:act-Y:rec-Z'), subject: 'Hello again' });
    expect(first.existing).toBeUndefined();
    expect(repeat).toEqual({ id: first.id, simplyId: first.simplyId, existing: true });
    expect(await prisma.mailMessage.findMany({ where: { teamId: team.teamId }, select: { subject: true } })).toEqual([{ subject: 'Hello' }]);

    // another team's key, and sources that reuse a sourceId on purpose, are stored
    expect((await mail.enqueue(message(other.teamId, 'AUTOMATION', 'exe-X:act-Y:rec-Z'))).existing).toBeUndefined();
    await mail.enqueue(message(team.teamId, 'SIGNING', 'sig-1'));
    await mail.enqueue(message(team.teamId, 'SIGNING', 'sig-1'));
    expect(await prisma.mailMessage.count({ where: { teamId: team.teamId, source: 'SIGNING' } })).toBe(2);
  });
});
