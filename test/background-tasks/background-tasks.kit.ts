// Background tasks in the route-table suites (test/support/area-kit.ts): the races of their write
// routes, the bodies of their id routes, how their lists are read, and a finished document
// generation in the route world.
//
// Races on background tasks (signed-in members only): acknowledging one error N times (one
// acknowledgedAt, the count recounted to 0), archiving / unarchiving one task N times (one
// clearedAt), cancelling one queued task N times (it ends once: one CANCELLED error, one
// notification), and N creates of one export (N tasks, each run once).
import { backgroundTaskId, recordOutputId, recordTaskLinkId } from '../../src/modules/background-tasks/background-tasks.ids.ts';
import { insertErrors } from '../../src/modules/background-tasks/tasks.sql.ts';
import { untilTaskDone } from '../support/background-task-fixtures.ts';
import { expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY } from '../concurrency/race-person.ts';
import { ok, type AreaTestKit } from '../support/area-kit.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';

const TASKS = '/v1/background-tasks';

async function task(kit: RaceKit, status: string) {
  return kit.server.app.services.prisma.backgroundTask.create({
    data: {
      simplyId: backgroundTaskId.create(),
      teamId: kit.team.teamId,
      taskType: 'BULK_DELETE',
      status,
      userId: kit.team.userId,
      queueData: {},
      completedAt: status === 'QUEUED' ? null : new Date(),
    },
  });
}

const distinct = (values: unknown[]) => new Set(values).size;

/** A collection with a multi-file field (both write modes), for output defaults. */
async function fileFieldCollection(kit: RaceKit): Promise<{ collection: string; field: string }> {
  const collection = await kit.admin('POST', '/v1/data-collections', { name: `Race ${Math.random()}` });
  const field = await kit.admin('POST', `/v1/data-collections/${collection.id}/fields`, { title: 'Documents', dataType: 'MULTI_FILE' });
  return { collection: collection.id, field: field.id };
}

const DEFAULTS = `${TASKS}/output-defaults`;

const backgroundTaskRaces: RaceTable = {
  [`PUT ${DEFAULTS}`]: [
    {
      what: 'N upserts of one output default, half REPLACE and half APPEND',
      callers: PERSON_ONLY,
      async run(kit) {
        const { collection, field } = await fileFieldCollection(kit);
        const body = (writeMode: string) => ({ dataCollectionSimplyId: collection, enumBackgroundTaskTypeId: 'DOCUMENT_GENERATION', outputKey: 'document', dataFieldSimplyId: field, writeMode });
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'PUT', path: DEFAULTS, body: body(i % 2 ? 'APPEND' : 'REPLACE') })));
        kit.expectAnswers(xs, ['200', '201']);
        expectSame(kit, 'distinct defaults answered', distinct(succeeded(xs).map((x) => x.response.body.data.defaultSimplyId)), 1, xs);
        const rows = await kit.server.app.services.prisma.taskOutputDefault.findMany({ where: { teamId: kit.team.teamId } });
        expectSame(kit, 'default rows', rows.length, 1, xs);
      },
    },
  ],
  [`DELETE ${DEFAULTS}/{defaultSimplyId}`]: [
    {
      what: 'N deletes of one output default',
      callers: PERSON_ONLY,
      async run(kit) {
        const { collection, field } = await fileFieldCollection(kit);
        const made = await kit.server.request('PUT', DEFAULTS, {
          token: kit.caller.token,
          teamId: kit.caller.teamId ?? kit.team.teamSimplyId,
          body: { dataCollectionSimplyId: collection, enumBackgroundTaskTypeId: 'DOCUMENT_GENERATION', outputKey: 'document', dataFieldSimplyId: field, writeMode: 'REPLACE' },
        });
        const xs = await kit.race({ method: 'DELETE', path: `${DEFAULTS}/${made.body.data.defaultSimplyId}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'deletes answered 200', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`POST ${TASKS}/{backgroundTaskSimplyId}/errors/{backgroundTaskErrorSimplyId}/acknowledge`]: [
    {
      what: 'N acknowledgements of one error entry',
      callers: PERSON_ONLY,
      async run(kit) {
        const row = await task(kit, 'FAILED');
        await insertErrors(kit.server.app.services.pool, kit.team.teamId, row.id, [{ errorType: 'X', errorMessage: 'one' }, { errorType: 'X', errorMessage: 'two' }]);
        const errors = await kit.server.app.services.prisma.backgroundTaskError.findMany({ where: { teamId: kit.team.teamId, taskId: row.id }, orderBy: { id: 'asc' } });
        const xs = await kit.race({ method: 'POST', path: `${TASKS}/${row.simplyId}/errors/${errors[0]!.simplyId}/acknowledge`, body: {} });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'distinct acknowledgedAt answered', distinct(succeeded(xs).map((x) => x.response.body.data.acknowledgedAt)), 1, xs);
        expectSame(kit, 'unacknowledgedCount answered', distinct(succeeded(xs).map((x) => x.response.body.data.unacknowledgedCount)), 1, xs);
        const after = await kit.server.app.services.prisma.backgroundTask.findUniqueOrThrow({ where: { id: row.id } });
        expectSame(kit, 'the task counts', { errorCount: after.errorCount, unacknowledged: after.unacknowledgedErrorCount }, { errorCount: 2, unacknowledged: 1 }, xs);
      },
    },
  ],
  [`POST ${TASKS}/{backgroundTaskSimplyId}/archive`]: [
    {
      what: 'N archives of one finished task',
      callers: PERSON_ONLY,
      async run(kit) {
        const row = await task(kit, 'COMPLETED');
        const xs = await kit.race({ method: 'POST', path: `${TASKS}/${row.simplyId}/archive`, body: {} });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'distinct clearedAt answered', distinct(succeeded(xs).map((x) => x.response.body.data.clearedAt)), 1, xs);
        const after = await kit.server.app.services.prisma.backgroundTask.findUniqueOrThrow({ where: { id: row.id } });
        expectSame(kit, 'clearedAt stored', after.clearedAt?.toISOString(), succeeded(xs)[0]?.response.body.data.clearedAt, xs);
      },
    },
  ],
  [`POST ${TASKS}/{backgroundTaskSimplyId}/unarchive`]: [
    {
      what: 'N unarchives racing N archives of one finished task',
      callers: PERSON_ONLY,
      async run(kit) {
        const row = await task(kit, 'COMPLETED');
        const path = `${TASKS}/${row.simplyId}`;
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: `${path}/${i % 2 ? 'archive' : 'unarchive'}`, body: {} })));
        kit.expectAnswers(xs, ['200']);
        const listed = await kit.server.request('GET', `${path}`, { token: kit.caller.token, teamId: kit.caller.teamId });
        if (listed.status !== 200) kit.problem(`the task reads ${listed.status} after the race`, xs);
      },
    },
  ],
  [`POST ${TASKS}/{backgroundTaskSimplyId}/cancel`]: [
    {
      what: 'N cancels of one queued task',
      callers: PERSON_ONLY,
      async run(kit) {
        const row = await task(kit, 'QUEUED');
        const xs = await kit.race({ method: 'POST', path: `${TASKS}/${row.simplyId}/cancel`, body: {} });
        kit.expectAnswers(xs, ['200', '409 INVALID_STATUS_TRANSITION']);
        const { prisma } = kit.server.app.services;
        const after = await prisma.backgroundTask.findUniqueOrThrow({ where: { id: row.id } });
        expectSame(kit, 'the status after the cancels', after.status, 'FAILED', xs);
        expectSame(kit, 'CANCELLED errors', await prisma.backgroundTaskError.count({ where: { teamId: kit.team.teamId, taskId: row.id, errorType: 'CANCELLED' } }), 1, xs);
        expectSame(kit, 'notifications', await prisma.userNotification.count({ where: { teamId: kit.team.teamId, source: 'BACKGROUND_TASK', sourceId: row.simplyId } }), 1, xs);
      },
    },
  ],
  [`POST ${TASKS}`]: [
    {
      what: 'N creates of one bulk delete',
      callers: PERSON_ONLY,
      async run(kit) {
        const collection = await kit.admin('POST', '/v1/data-collections', { name: `Race ${Math.random()}` });
        const xs = await kit.race({ method: 'POST', path: TASKS, body: { enumBackgroundTaskTypeId: 'BULK_DELETE', queueData: { dataCollectionSimplyId: collection.id, requestFilter: [] } } });
        kit.expectAnswers(xs, ['201']);
        const ids = succeeded(xs).map((x) => x.response.body.data.backgroundTaskSimplyId as string);
        expectSame(kit, 'distinct tasks', distinct(ids), xs.length, xs);
        const who = { token: kit.caller.token!, teamId: kit.caller.teamId ?? kit.team.teamSimplyId };
        const finished = await Promise.all(ids.map((id) => untilTaskDone(kit.server, who, id)));
        expectSame(kit, 'statuses', distinct(finished.map((t) => t.status)), 1, xs);
        const { prisma } = kit.server.app.services;
        expectSame(kit, 'notifications (one per task)', await prisma.userNotification.count({ where: { teamId: kit.team.teamId, source: 'BACKGROUND_TASK', sourceId: { in: ids } } }), ids.length, xs);
      },
    },
  ],
};

/**
 * A finished document generation of the team's admin with one error entry and one succeeded
 * output (the world's image, held by a file field of the world's collection), and an output
 * default into that field. The task rows are written as the task runner writes them: the world
 * renders no PDF.
 */
async function buildTaskWorld(server: TestServer, team: TeamFixture, of: { collection: string; record: string; file: string }, name: (what: string) => string): Promise<Record<string, string>> {
  const { prisma, pool } = server.app.services;
  const asAdmin = { token: team.userToken, teamId: team.teamSimplyId };
  const fileField = await ok(await server.request('POST', `/v1/data-collections/${of.collection}/fields`, { token: team.apiKey, body: { title: name('Document'), dataType: 'SINGLE_FILE' } }), 'create file field');
  await ok(await server.request('PATCH', `/v1/data-records/${of.record}`, { token: team.apiKey, body: { fields: { [fileField.id]: of.file } } }), 'attach the image');
  const task = await prisma.backgroundTask.create({
    data: { simplyId: backgroundTaskId.create(), teamId: team.teamId, taskType: 'DOCUMENT_GENERATION', status: 'PARTIAL_SUCCESS', userId: team.userId, queueData: {}, progress: { processedCount: 2, totalCount: 2 }, result: { successCount: 1, failureCount: 1 }, completedAt: new Date() },
  });
  await insertErrors(pool, team.teamId, task.id, [{ errorType: 'RECORD_NOT_FOUND', errorMessage: 'world error', errorContext: { dataRecordSimplyId: 'AAAA-BBBB-CCCC' } }]);
  const error = await prisma.backgroundTaskError.findFirstOrThrow({ where: { teamId: team.teamId, taskId: task.id } });
  const record = await prisma.dataRecord.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: of.record }, select: { id: true } });
  const file = await prisma.storedFile.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: of.file }, select: { id: true, filename: true, mimeType: true } });
  const link = await prisma.recordTaskLink.create({ data: { simplyId: recordTaskLinkId.create(), teamId: team.teamId, taskId: task.id, dataRecordId: record.id, recordStatus: 'SUCCEEDED', completedAt: new Date() } });
  const output = await prisma.recordTaskOutput.create({
    data: {
      simplyId: recordOutputId.create(), teamId: team.teamId, taskId: task.id, linkId: link.id, dataRecordId: record.id, outputKey: 'document', status: 'SUCCEEDED',
      destinationWriteStatus: 'WRITTEN', destinationWriteMode: 'REPLACE', destinationFieldSimplyId: fileField.id, fileId: file.id,
      result: { filename: file.filename, contentType: file.mimeType },
    },
  });
  const defaults = await ok(
    await server.request('PUT', '/v1/background-tasks/output-defaults', { ...asAdmin, body: { dataCollectionSimplyId: of.collection, enumBackgroundTaskTypeId: 'DOCUMENT_GENERATION', outputKey: 'document', dataFieldSimplyId: fileField.id, writeMode: 'REPLACE' } }),
    'set an output default',
  );
  return { backgroundTaskSimplyId: task.simplyId, backgroundTaskErrorSimplyId: error.simplyId, recordOutputSimplyId: output.simplyId, defaultSimplyId: defaults.defaultSimplyId };
}

export const kit: AreaTestKit = {
  races: backgroundTaskRaces,
  idRouteBodies: {
    'POST /v1/background-tasks/{backgroundTaskSimplyId}/errors/{backgroundTaskErrorSimplyId}/acknowledge': () => ({}),
    'POST /v1/background-tasks/{backgroundTaskSimplyId}/archive': () => ({}),
    'POST /v1/background-tasks/{backgroundTaskSimplyId}/unarchive': () => ({}),
    'POST /v1/background-tasks/{backgroundTaskSimplyId}/cancel': () => ({}),
  },
  readQueries: {
    'GET /v1/background-tasks': () => 'limit=500&includeArchived=true',
    'GET /v1/background-tasks/record-history': (ids) => `dataRecordSimplyId=${ids.dataRecordSimplyId}&limit=100`,
    'GET /v1/background-tasks/output-destinations/eligible': (ids) => `dataCollectionSimplyId=${ids.dataCollectionSimplyId}&enumBackgroundTaskTypeId=DOCUMENT_GENERATION&outputKey=document`,
  },
  // the output is the world's image: its media library is built alongside, and waited for here
  async world({ server, team, name, ids, need }) {
    const { fileSimplyId } = await need('fileSimplyId');
    return { ids: await buildTaskWorld(server, team, { collection: ids.dataCollectionSimplyId!, record: ids.dataRecordSimplyId!, file: fileSimplyId! }, name) };
  },
};
