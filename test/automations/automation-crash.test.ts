// The mid-automation drill: a worker process killed (SIGKILL) while an execution is
// RUNNING, stalled inside its last action, leaves the job claimed and the execution RUNNING. The
// job's heartbeat stops; an instance's supervisor hands the job back, and a worker started after
// the kill takes the execution again within 30 s and completes it. The repeated run's side effects
// are keyed (`<execution>:<action>:<record>`), so the mail and the notification the killed run made
// exist once, and the record update the killed run was waiting to make is made by the new one.
// CREATE_RECORD and RUN_WIZARD_STEP have their own drill: automation-crash-effects.test.ts.
//
// The stall is a row lock the test holds on the trigger record, so the run's UPDATE_FIELDS waits
// for it; the lock is taken before any worker runs (the API server runs none, and the event waits
// in the outbox until the first worker starts).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { EXECUTE_AUTOMATION } from '../../src/modules/automations/execution-claims.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { killAndRecover, startAutomationWorker } from './crash-drill.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 100 });
const cleanups: (() => Promise<unknown>)[] = [];
let database: ThrowawayDatabase;

beforeAll(async () => {
  database = await createMigratedDatabase('automation_crash');
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await database?.drop();
});

it('an execution whose worker dies mid-run is completed by another worker within 30 s, its effects once', { timeout: 120_000 }, async () => {
  const dataDir = path.join(inject('testDataDir'), `automation-crash-${randomBytes(4).toString('hex')}`);
  const server: TestServer = await startTestServer({ databaseUrl: database.url, runJobs: false, dataDir });
  cleanups.push(() => server.close());
  const { pool, prisma } = server.app.services;
  const team = await createTeam(server);
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS', status: 'PLAIN_TEXT' } });
  const automation = expectOk(
    await server.request('POST', '/v1/automations', {
      token: team.apiKey,
      body: {
        name: 'Welcome',
        triggerType: 'RECORD_CREATED',
        dataCollectionSimplyId: people.id,
        actions: [
          { actionType: 'SEND_EMAIL', actionConfig: { toFieldSimplyId: people.fields.email, subject: 'Welcome {{name}}', text: 'Hello {{name}}' } },
          { actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: team.userSimplyId, title: 'New person {{name}}' } },
          { actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [people.fields.status!]: 'welcomed' } } },
        ],
      },
    }),
    201,
  );
  const record = expectOk(
    await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: 'Ada', [people.fields.email!]: 'ada@example.test' } } }),
    201,
  );

  // the stall: the record's row, locked by a transaction of the test's own
  const locker = new pg.Client({ connectionString: database.url });
  await locker.connect();
  cleanups.push(() => locker.end());
  await locker.query('BEGIN');
  await locker.query(`SELECT id FROM "DataRecord" WHERE "teamId" = $1 AND "simplyId" = $2 FOR UPDATE`, [team.teamId, record.id]);

  const worker = await startAutomationWorker(database.url, dataDir, cleanups);

  // the run sent its mail and notification, then waits for the record
  const mailWhere = { teamId: team.teamId, source: 'AUTOMATION' };
  await until('the first two actions', async () => (await prisma.mailMessage.count({ where: mailWhere })) === 1 && (await prisma.userNotification.count({ where: { teamId: team.teamId } })) === 1);
  const execution = await prisma.automationExecution.findFirstOrThrow({ where: { teamId: team.teamId } });
  expect(execution.status).toBe('RUNNING');
  const jobOf = async () => (await pool.query(`SELECT id, state, "retry_count" AS "retryCount" FROM pgboss.job WHERE name = $1 AND data->>'executionSimplyId' = $2`, [EXECUTE_AUTOMATION, execution.simplyId])).rows;
  // a live worker keeps its long run's job by heartbeat: past the 10-second heartbeat it is still the first attempt
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  expect(await jobOf()).toEqual([{ id: expect.any(String), state: 'active', retryCount: 0 }]);

  const done = await killAndRecover({ worker, stall: locker, databaseUrl: database.url, dataDir, cleanups, prisma, executionId: execution.id });
  expect(done).toMatchObject({ status: 'SUCCEEDED', recordsProcessed: 1, recordsFailed: 0, errorDetails: null });

  // exactly once in effect: one execution, one mail, one notification, the record updated
  expect(await prisma.automationExecution.count({ where: { teamId: team.teamId } })).toBe(1);
  const mails = await prisma.mailMessage.findMany({ where: mailWhere });
  expect(mails).toHaveLength(1);
  expect(mails[0]!.sourceId).toBe(`${execution.simplyId}:${automation.actions[0].id}:${record.id}`);
  expect(await prisma.userNotification.count({ where: { teamId: team.teamId } })).toBe(1);
  const after = expectOk(await server.request('GET', `/v1/data-records/${record.id}`, { token: team.apiKey }));
  expect(after.fields[people.fields.status!]).toBe('welcomed');
  // pg-boss completes the job just after the handler has recorded the execution's end
  const job = await until('the job completed', async () => {
    const [row] = await jobOf();
    return row?.state !== 'active' && row;
  });
  expect(job).toMatchObject({ state: 'completed', retryCount: 1 });
});
