// The task runner every type shares (background-tasks.jobs.ts, task-run.ts): a finished task
// notifies its starter once, its progress arrives over graphql-ws, a cancel request is noticed at
// the next progress update, a starter who left the team stops the task, and a task whose job is
// gone for good is failed by the sweep. BULK_DELETE serves as the real work.
import { afterAll, describe, expect, it } from 'vitest';
import { backgroundTaskId } from '../../src/modules/background-tasks/background-tasks.ids.ts';
import { runTask, sweepOrphanedTasks } from '../../src/modules/background-tasks/background-tasks.jobs.ts';
import { TaskCancelledError, TaskRun } from '../../src/modules/background-tasks/task-run.ts';
import { claimTask } from '../../src/modules/background-tasks/tasks.sql.ts';
import { adminOf, createTask, untilTaskDone } from '../support/background-task-fixtures.ts';
import { createPeople, createRecord } from '../support/record-fixtures.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';
import { until } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 1, runJobs: true, ownDatabase: 'task_runner' });
const team = () => suite.teams[0];
const clients: { dispose(): unknown }[] = [];
afterAll(async () => {
  for (const c of clients) await c.dispose();
});

async function peopleWith(count: number): Promise<{ collection: string; records: string[] }> {
  const people = await createPeople(suite.server, team(), `People ${Math.random()}`);
  const records: string[] = [];
  for (let i = 0; i < count; i++) records.push((await createRecord(suite.server, team().apiKey, people.id, { [people.fields.first_name!]: `P${i}` })).id);
  return { collection: people.id, records };
}

async function queuedRow(type = 'BULK_DELETE', queueData: object = {}) {
  return suite.server.app.services.prisma.backgroundTask.create({
    data: { simplyId: backgroundTaskId.create(), teamId: team().teamId, taskType: type, userId: team().userId, queueData: queueData as never },
  });
}

describe('a task from start to end', () => {
  it('streams its progress over graphql-ws and notifies the starter once when it ends', async () => {
    const { collection, records } = await peopleWith(3);
    const admin = adminOf(team());
    // the task is created queued and run once the subscription is live: created through the
    // service's statements, its job sent after subscribing
    const row = await queuedRow('BULK_DELETE', { dataCollectionSimplyId: collection, dataRecordSimplyIds: records });
    const events: any[] = [];
    const client = serverGraphqlWsClient(suite.server, { connectionParams: { authorization: `Bearer ${admin.token}`, 'X-Team-Id': admin.teamId } });
    clients.push(client);
    const subscribed = new Promise<void>((resolve) => {
      client.subscribe(
        { query: 'subscription($id: String!) { backgroundTaskProgress(backgroundTaskSimplyId: $id) { status progress errorCount lastUpdatedAt completedAt } }', variables: { id: row.simplyId } },
        { next: (r) => events.push(r.data?.backgroundTaskProgress ?? r.errors), error: () => {}, complete: () => {} },
      );
      // the protocol does not say when a subscription is live: give the LISTEN a moment
      setTimeout(resolve, 500);
    });
    await subscribed;
    await runTask(suite.server.app.services, { data: { teamId: String(team().teamId), taskId: String(row.id) }, retryCount: 0 });
    await until('the final event', () => events.some((e) => e?.status === 'COMPLETED'), 10_000);
    expect(events.at(-1)).toMatchObject({ status: 'COMPLETED', progress: { processedCount: 3 } });
    expect(events.some((e) => e?.status === 'PROCESSING')).toBe(true);
    // a second run of the same job (a duplicate delivery) changes nothing
    await runTask(suite.server.app.services, { data: { teamId: String(team().teamId), taskId: String(row.id) }, retryCount: 0 });
    const notes = await suite.server.app.services.prisma.userNotification.findMany({ where: { teamId: team().teamId, source: 'BACKGROUND_TASK', sourceId: row.simplyId } });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ notificationType: 'BACKGROUND_TASK_COMPLETED', category: 'system', userId: team().userId, referenceEntityId: row.simplyId });
  });

  it('refuses a subscription to a task the caller cannot see', async () => {
    const client = serverGraphqlWsClient(suite.server, { connectionParams: { authorization: `Bearer ${team().userToken}`, 'X-Team-Id': team().teamSimplyId } });
    clients.push(client);
    const code = await new Promise<string>((resolve) => {
      client.subscribe(
        { query: 'subscription { backgroundTaskProgress(backgroundTaskSimplyId: "btk-AAAA-BBBB-CCCC") { status } }' },
        { next: (r) => resolve(String((r.errors?.[0]?.extensions as { code?: string })?.code)), error: (e) => resolve(String((e as any)?.[0]?.extensions?.code ?? e)), complete: () => resolve('COMPLETE') },
      );
    });
    expect(code).toBe('NOT_FOUND');
  });

  it('runs a task created through the route to the end with the workers of the server', async () => {
    const { collection, records } = await peopleWith(2);
    const created = await createTask(suite.server, adminOf(team()), 'BULK_DELETE', { dataCollectionSimplyId: collection, dataRecordSimplyIds: records });
    expect(created.status).toBe('QUEUED');
    const done = await untilTaskDone(suite.server, adminOf(team()), created.backgroundTaskSimplyId);
    expect(done).toMatchObject({ status: 'COMPLETED', errorCount: 0 });
    expect(Date.parse(done.completedAt)).toBeGreaterThanOrEqual(Date.parse(done.startedAt));
  });
});

describe('stopping', () => {
  it('notices a cancel request at the next progress update', async () => {
    const services = suite.server.app.services;
    const row = await queuedRow();
    const claimed = (await claimTask(services.pool, team().teamId, row.id))!;
    const run = new TaskRun(services, claimed, services.logger);
    await run.progress({ processedCount: 1, totalCount: 10 }, { force: true });
    await services.prisma.backgroundTask.update({ where: { id: row.id }, data: { cancelRequestedAt: new Date() } });
    await expect(run.progress({ processedCount: 2, totalCount: 10 }, { force: true })).rejects.toBeInstanceOf(TaskCancelledError);
    expect(run.signal.aborted).toBe(true);
  });

  it('ends a claimed task whose cancel was requested before it started, keeping its progress', async () => {
    const services = suite.server.app.services;
    const row = await queuedRow();
    await services.prisma.backgroundTask.update({ where: { id: row.id }, data: { cancelRequestedAt: new Date(), progress: { processedCount: 4 } } });
    await runTask(services, { data: { teamId: String(team().teamId), taskId: String(row.id) }, retryCount: 0 });
    const after = await services.prisma.backgroundTask.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ status: 'FAILED', result: { cancelled: true, processedCount: 4 } });
  });

  it('fails the task when its starter is no longer an active member', async () => {
    const services = suite.server.app.services;
    const { collection, records } = await peopleWith(1);
    const row = await queuedRow('BULK_DELETE', { dataCollectionSimplyId: collection, dataRecordSimplyIds: records });
    const leaver = await services.prisma.user.create({ data: { simplyId: (await import('../../src/app/ids.ts')).userId.create(), email: `gone-${Math.random()}@example.test`, isActive: false } });
    await services.prisma.backgroundTask.update({ where: { id: row.id }, data: { userId: leaver.id } });
    await runTask(services, { data: { teamId: String(team().teamId), taskId: String(row.id) }, retryCount: 0 });
    const errors = await services.prisma.backgroundTaskError.findMany({ where: { teamId: team().teamId, taskId: row.id } });
    expect((await services.prisma.backgroundTask.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('FAILED');
    expect(errors.map((e) => e.errorType)).toEqual(['STARTER_NOT_ACTIVE']);
  });

  it('fails a task no job can run any more (WORKER_LOST), and leaves tasks with a live job alone', async () => {
    const services = suite.server.app.services;
    const lost = await queuedRow();
    await services.prisma.backgroundTask.update({ where: { id: lost.id }, data: { status: 'PROCESSING', lastUpdatedAt: new Date(Date.now() - 10 * 60_000) } });
    await sweepOrphanedTasks(services);
    const after = await services.prisma.backgroundTask.findUniqueOrThrow({ where: { id: lost.id } });
    expect(after.status).toBe('FAILED');
    const errors = await services.prisma.backgroundTaskError.findMany({ where: { teamId: team().teamId, taskId: lost.id } });
    expect(errors.map((e) => e.errorType)).toEqual(['WORKER_LOST']);
  });
});
