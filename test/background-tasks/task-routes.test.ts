// The task routes every type shares (docs/api/background-tasks.md): who may call them
// (IDP_REQUIRED), who sees which task (rule 1), list paging and filters, the detail's sanitized
// result and errors, acknowledgement, archive/unarchive, cancel of a queued task, cross-team 404;
// over REST and GraphQL. Tasks are written directly here so each state is exact; the types' own
// suites run real work.
import { describe, expect, it } from 'vitest';
import { backgroundTaskId } from '../../src/modules/background-tasks/background-tasks.ids.ts';
import { insertErrors } from '../../src/modules/background-tasks/tasks.sql.ts';
import { adminOf, type Member } from '../support/background-task-fixtures.ts';
import { createPeople } from '../support/record-fixtures.ts';
import { addMember, createRole, type TeamFixture } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 2 });
const A = () => suite.teams[0];
const B = () => suite.teams[1];

async function userIdOf(simplyId: string): Promise<bigint> {
  return (await suite.server.app.services.prisma.user.findUniqueOrThrow({ where: { simplyId } })).id;
}

async function insertTask(team: TeamFixture, options: { userSimplyId?: string; type?: string; status?: string; result?: object; internal?: object; createdAt?: Date } = {}) {
  const finished = ['COMPLETED', 'FAILED', 'PARTIAL_SUCCESS'].includes(options.status ?? 'QUEUED');
  return suite.server.app.services.prisma.backgroundTask.create({
    data: {
      simplyId: backgroundTaskId.create(),
      teamId: team.teamId,
      taskType: options.type ?? 'DATA_EXPORT',
      status: options.status ?? 'QUEUED',
      userId: await userIdOf(options.userSimplyId ?? team.userSimplyId),
      queueData: {},
      progress: { processedCount: 3, totalCount: 10 },
      result: (options.result ?? null) as never,
      internal: (options.internal ?? {}) as never,
      hasResultFile: Boolean((options.internal as { resultFile?: unknown } | undefined)?.resultFile),
      completedAt: finished ? new Date() : null,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    },
  });
}

const get = (who: Member, path: string) => suite.server.request('GET', path, { token: who.token, teamId: who.teamId });
const post = (who: Member, path: string, body: unknown = {}) => suite.server.request('POST', path, { token: who.token, teamId: who.teamId, body });

async function memberWithDataAccess(team: TeamFixture): Promise<Member & { userSimplyId: string }> {
  const people = await createPeople(suite.server, team, `People ${Math.random()}`);
  const role = await createRole(suite.server, team, { name: `Reader ${Math.random()}`, dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
  const member = await addMember(suite.server, team, { teamRoleSimplyId: role });
  return { token: member.token, teamId: team.teamSimplyId, userSimplyId: member.userSimplyId };
}

describe('who may call the task routes', () => {
  it('refuses API keys with 403 IDP_REQUIRED, over REST and GraphQL', async () => {
    const key = { token: A().apiKey, teamId: A().teamSimplyId };
    for (const response of [await get(key, '/v1/background-tasks'), await post(key, '/v1/background-tasks', { enumBackgroundTaskTypeId: 'DATA_EXPORT', queueData: {} })]) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('IDP_REQUIRED');
    }
    const gql = await suite.server.graphql('{ backgroundTasks { total } }', {}, { token: A().apiKey });
    expect(gql.errors?.[0]?.extensions?.code).toBe('IDP_REQUIRED');
  });

  it('answers 401 without a credential', async () => {
    const response = await suite.server.request('GET', '/v1/background-tasks');
    expect(response.status).toBe(401);
  });
});

describe('listing', () => {
  it('pages newest first with result always null, and validates limit, status and type', async () => {
    const admin = adminOf(A());
    const older = await insertTask(A(), { status: 'COMPLETED', result: { recordCount: 5 }, createdAt: new Date(Date.now() - 60_000) });
    const newer = await insertTask(A(), { status: 'COMPLETED', result: { recordCount: 6 } });
    const response = await get(admin, '/v1/background-tasks?limit=500');
    expect(response.status).toBe(200);
    const { tasks, canViewBackgroundTasks, total, limit, offset } = response.body.data;
    expect({ canViewBackgroundTasks, limit, offset }).toEqual({ canViewBackgroundTasks: true, limit: 500, offset: 0 });
    expect(total).toBeGreaterThanOrEqual(2);
    const ids = tasks.map((t: any) => t.backgroundTaskSimplyId);
    expect(ids.indexOf(newer.simplyId)).toBeLessThan(ids.indexOf(older.simplyId));
    expect(tasks.every((t: any) => t.result === null)).toBe(true);
    expect((await get(admin, '/v1/background-tasks')).body.data.limit).toBe(50);
    for (const bad of ['limit=501', 'limit=0', 'status=DONE', 'enumBackgroundTaskTypeId=NOPE', 'offset=-1']) {
      const refused = await get(admin, `/v1/background-tasks?${bad}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('filters by status and type, and answers 404 for a team integration not in the team', async () => {
    const admin = adminOf(A());
    const failed = await insertTask(A(), { status: 'FAILED', type: 'BULK_DELETE' });
    const byStatus = (await get(admin, '/v1/background-tasks?status=FAILED&limit=500')).body.data.tasks;
    expect(byStatus.every((t: any) => t.status === 'FAILED')).toBe(true);
    expect(byStatus.map((t: any) => t.backgroundTaskSimplyId)).toContain(failed.simplyId);
    const byType = (await get(admin, '/v1/background-tasks?enumBackgroundTaskTypeId=BULK_DELETE&limit=500')).body.data.tasks;
    expect(byType.every((t: any) => t.enumBackgroundTaskTypeId === 'BULK_DELETE')).toBe(true);
    const integration = await get(admin, '/v1/background-tasks?teamIntegrationSimplyId=tin-AAAA-BBBB-CCCC');
    expect(integration.status).toBe(404);
    expect(integration.body.error.code).toBe('NOT_FOUND');
  });
});

describe('totals', () => {
  it('agree with the tasks through creation, status moves, archive and deletion', async () => {
    const admin = adminOf(A());
    const { pool, prisma } = suite.server.app.services;
    const counted = async (where: string) => (await pool.query(`SELECT count(*)::int AS n FROM "BackgroundTask" WHERE "teamId" = $1 AND ${where}`, [A().teamId])).rows[0].n;
    const totals = async () => ({
      all: (await get(admin, '/v1/background-tasks?limit=1')).body.data.total,
      archivedToo: (await get(admin, '/v1/background-tasks?limit=1&includeArchived=true')).body.data.total,
      failed: (await get(admin, '/v1/background-tasks?limit=1&status=FAILED')).body.data.total,
      deletes: (await get(admin, '/v1/background-tasks?limit=1&enumBackgroundTaskTypeId=BULK_DELETE&includeArchived=true')).body.data.total,
    });
    const expected = async () => ({
      all: await counted('"clearedAt" IS NULL'),
      archivedToo: await counted('true'),
      failed: await counted(`"clearedAt" IS NULL AND status = 'FAILED'`),
      deletes: await counted(`"taskType" = 'BULK_DELETE'`),
    });
    const task = await insertTask(A(), { type: 'BULK_DELETE' });
    expect(await totals()).toEqual(await expected());
    await prisma.backgroundTask.update({ where: { id: task.id }, data: { status: 'FAILED', completedAt: new Date() } });
    expect(await totals()).toEqual(await expected());
    await post(admin, `/v1/background-tasks/${task.simplyId}/archive`);
    expect(await totals()).toEqual(await expected());
    await prisma.backgroundTask.delete({ where: { id: task.id } });
    expect(await totals()).toEqual(await expected());
  });
});

describe('visibility (rule 1)', () => {
  it('shows a member their own user-scoped tasks only; team admins see all; no data access sees nothing', async () => {
    const member = await memberWithDataAccess(A());
    const own = await insertTask(A(), { userSimplyId: member.userSimplyId, status: 'COMPLETED' });
    const admins = await insertTask(A(), { status: 'COMPLETED' });
    const listed = (await get(member, '/v1/background-tasks?limit=500')).body.data;
    expect(listed.tasks.map((t: any) => t.backgroundTaskSimplyId)).toEqual([own.simplyId]);
    expect(listed.canViewBackgroundTasks).toBe(true);
    expect((await get(member, `/v1/background-tasks/${admins.simplyId}`)).status).toBe(404);
    expect((await get(member, `/v1/background-tasks/${own.simplyId}`)).status).toBe(200);
    const adminList = (await get(adminOf(A()), '/v1/background-tasks?limit=500')).body.data.tasks.map((t: any) => t.backgroundTaskSimplyId);
    expect(adminList).toEqual(expect.arrayContaining([own.simplyId, admins.simplyId]));

    const noRole = await addMember(suite.server, A());
    const none = await get({ token: noRole.token, teamId: A().teamSimplyId }, '/v1/background-tasks');
    expect(none.status).toBe(200);
    expect(none.body.data).toMatchObject({ tasks: [], canViewBackgroundTasks: false, total: 0 });
    // their own task does not show either: without data access no task is theirs to follow
    const orphan = await insertTask(A(), { userSimplyId: noRole.userSimplyId });
    expect((await get({ token: noRole.token, teamId: A().teamSimplyId }, `/v1/background-tasks/${orphan.simplyId}`)).status).toBe(404);
  });

  it("answers 404 for another team's task, on every route", async () => {
    const theirs = await insertTask(B(), { status: 'COMPLETED' });
    const admin = adminOf(A());
    for (const path of ['', '/result-download']) expect((await get(admin, `/v1/background-tasks/${theirs.simplyId}${path}`)).status).toBe(404);
    for (const path of ['/archive', '/unarchive', '/cancel']) expect((await post(admin, `/v1/background-tasks/${theirs.simplyId}${path}`)).status).toBe(404);
    const gql = await suite.server.graphql('query($id: String!) { backgroundTask(backgroundTaskSimplyId: $id) { status } }', { id: theirs.simplyId }, { token: A().userToken, teamId: A().teamSimplyId });
    expect(gql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('detail, errors and acknowledgement', () => {
  it('shows the sanitized result and the unacknowledged errors; acknowledging recounts', async () => {
    const admin = adminOf(A());
    const task = await insertTask(A(), {
      status: 'PARTIAL_SUCCESS',
      result: { recordCount: 2, successCount: 1, failureCount: 1 },
      internal: { resultFile: { storageKey: 'exports/x/y.csv', filename: 'x.csv', contentType: 'text/csv' } },
    });
    await insertErrors(suite.server.app.services.pool, A().teamId, task.id, [
      { errorType: 'INVALID_VALUE', errorMessage: 'age must be a number', errorContext: { rowNumber: 2, dataFieldSimplyId: 'AAAA-BBBB-CCCC' } },
      { errorType: 'INVALID_VALUE', errorMessage: 'second', errorContext: { rowNumber: 3 } },
    ]);
    const detail = (await get(admin, `/v1/background-tasks/${task.simplyId}`)).body.data;
    expect(detail.result).toEqual({ recordCount: 2, successCount: 1, failureCount: 1 });
    expect(JSON.stringify(detail)).not.toContain('exports/x');
    expect(detail).toMatchObject({ errorCount: 2, unacknowledgedErrorCount: 2, errorCountUnacknowledged: 2, canDownloadResult: true });
    expect(detail.errors.map((e: any) => e.errorContext.rowNumber)).toEqual([2, 3]);

    const first = detail.errors[0].backgroundTaskErrorSimplyId;
    const ack = await post(admin, `/v1/background-tasks/${task.simplyId}/errors/${first}/acknowledge`);
    expect(ack.status).toBe(200);
    expect(ack.body.data).toMatchObject({ success: true, backgroundTaskErrorSimplyId: first, unacknowledgedCount: 1 });
    const again = await post(admin, `/v1/background-tasks/${task.simplyId}/errors/${first}/acknowledge`);
    expect(again.body.data).toMatchObject({ unacknowledgedCount: 1, acknowledgedAt: ack.body.data.acknowledgedAt });
    const after = (await get(admin, `/v1/background-tasks/${task.simplyId}`)).body.data;
    expect(after.errors.map((e: any) => e.backgroundTaskErrorSimplyId)).not.toContain(first);
    expect(after).toMatchObject({ errorCount: 2, unacknowledgedErrorCount: 1 });

    // an error id of another task is not found under this one
    const other = await insertTask(A(), { status: 'FAILED' });
    expect((await post(admin, `/v1/background-tasks/${other.simplyId}/errors/${after.errors[0].backgroundTaskErrorSimplyId}/acknowledge`)).status).toBe(404);
    expect((await post(admin, `/v1/background-tasks/${task.simplyId}/errors/bte-AAAA-BBBB-CCCC/acknowledge`, { extra: 1 })).status).toBe(400);
  });

  it('acknowledges over GraphQL too', async () => {
    const task = await insertTask(A(), { status: 'FAILED' });
    await insertErrors(suite.server.app.services.pool, A().teamId, task.id, [{ errorType: 'X', errorMessage: 'y' }]);
    const auth = { token: A().userToken, teamId: A().teamSimplyId };
    const read = await suite.server.graphql('query($id: String!) { backgroundTask(backgroundTaskSimplyId: $id) { errors { backgroundTaskErrorSimplyId } } }', { id: task.simplyId }, auth);
    const errorId = read.data.backgroundTask.errors[0].backgroundTaskErrorSimplyId;
    const ack = await suite.server.graphql(
      'mutation($t: String!, $e: String!) { acknowledgeBackgroundTaskError(backgroundTaskSimplyId: $t, backgroundTaskErrorSimplyId: $e) { unacknowledgedCount } }',
      { t: task.simplyId, e: errorId },
      auth,
    );
    expect(ack.data.acknowledgeBackgroundTaskError.unacknowledgedCount).toBe(0);
  });
});

describe('archive, unarchive and cancel', () => {
  it('archives finished tasks only; archived ones leave the list unless includeArchived', async () => {
    const admin = adminOf(A());
    const queued = await insertTask(A());
    const refused = await post(admin, `/v1/background-tasks/${queued.simplyId}/archive`);
    expect(refused.status).toBe(409);
    const done = await insertTask(A(), { status: 'COMPLETED' });
    const archived = await post(admin, `/v1/background-tasks/${done.simplyId}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.data.success).toBe(true);
    expect(Date.parse(archived.body.data.clearedAt)).toBeGreaterThan(0);
    const listed = (await get(admin, '/v1/background-tasks?limit=500')).body.data.tasks.map((t: any) => t.backgroundTaskSimplyId);
    expect(listed).not.toContain(done.simplyId);
    const all = (await get(admin, '/v1/background-tasks?limit=500&includeArchived=true')).body.data.tasks;
    expect(all.find((t: any) => t.backgroundTaskSimplyId === done.simplyId).clearedAt).toBe(archived.body.data.clearedAt);
    const back = await post(admin, `/v1/background-tasks/${done.simplyId}/unarchive`);
    expect(back.body.data).toEqual({ success: true });
    expect((await get(admin, `/v1/background-tasks/${done.simplyId}`)).body.data.clearedAt).toBeNull();
  });

  it('cancels a queued task at once (FAILED, a CANCELLED error, the starter notified); a finished one is 409', async () => {
    const admin = adminOf(A());
    const queued = await insertTask(A());
    const cancelled = await post(admin, `/v1/background-tasks/${queued.simplyId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'FAILED', result: { cancelled: true }, cancelRequested: true });
    expect(cancelled.body.data.errors[0].errorType).toBe('CANCELLED');
    const note = await suite.server.app.services.prisma.userNotification.findFirst({ where: { teamId: A().teamId, source: 'BACKGROUND_TASK', sourceId: queued.simplyId } });
    expect(note).toMatchObject({ notificationType: 'BACKGROUND_TASK_FAILED', category: 'system' });
    expect((await post(admin, `/v1/background-tasks/${queued.simplyId}/cancel`)).status).toBe(409);
  });

  it("lets only the starter or a team admin cancel", async () => {
    const member = await memberWithDataAccess(A());
    const task = await insertTask(A(), { userSimplyId: member.userSimplyId });
    const other = await memberWithDataAccess(A());
    // the other member does not even see it
    expect((await post(other, `/v1/background-tasks/${task.simplyId}/cancel`)).status).toBe(404);
    expect((await post(member, `/v1/background-tasks/${task.simplyId}/cancel`)).status).toBe(200);
  });
});

describe('creating', () => {
  it('refuses unknown types, platform-only types and malformed bodies with 400', async () => {
    const admin = adminOf(A());
    const unknown = await post(admin, '/v1/background-tasks', { enumBackgroundTaskTypeId: 'MINE_BITCOIN' });
    expect(unknown.status).toBe(400);
    const notRun = await post(admin, '/v1/background-tasks', { enumBackgroundTaskTypeId: 'WEBSITE_COPY', queueData: {} });
    expect(notRun.status).toBe(400);
    expect(notRun.body.error.code).toBe('TASK_TYPE_NOT_SUPPORTED');
    const notObject = await post(admin, '/v1/background-tasks', { enumBackgroundTaskTypeId: 'DATA_EXPORT', queueData: [1] });
    expect(notObject.status).toBe(400);
    const missing = await post(admin, '/v1/background-tasks', { queueData: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: any) => d.field)).toContain('enumBackgroundTaskTypeId');
  });
});
