// BULK_DELETE (docs/api/background-tasks.md "Bulk delete"): records named by id or by the
// record-search filters, deleted by a real worker in chunks, with one RecordTaskLink per record
// (SUCCEEDED, SKIPPED when already deleted), error entries for ids that are not records of the
// collection, events and audit entries as batch deletes make them, bad queueData and cross-team
// ids; over REST and GraphQL.
import { describe, expect, it } from 'vitest';
import { adminOf, type Member, runTask, untilTaskDone } from '../support/background-task-fixtures.ts';
import { type CollectionFixture, createCollection, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { addMember, createRole, type TeamFixture } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { auditCounts, eventCountsSince, lastEventId, liveRecords, taskErrors } from './data-import-support.ts';

const suite = useServer({ teams: 2, runJobs: true, ownDatabase: 'bulk_delete' });
const A = () => suite.teams[0];
const B = () => suite.teams[1];

function items(team: TeamFixture): Promise<CollectionFixture> {
  return createCollection(suite.server, team, { name: `Items ${Math.random().toString(36).slice(2, 8)}`, formula: '{title}', fields: { title: REQUIRED_TEXT, n: 'NUMBER' } });
}

/** Creates `count` records (n = 0 … count-1) through the batch route; answers their ids in order. */
async function seed(team: TeamFixture, c: CollectionFixture, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const records = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({ fields: { [c.fields.title!]: `item ${start + i}`, [c.fields.n!]: start + i } }));
    const data = expectOk(await suite.server.request('POST', '/v1/data-records/batch', { token: team.apiKey, body: { dataCollectionSimplyId: c.id, records } }));
    ids.push(...data.results.map((r: any) => r.dataRecordSimplyId));
  }
  return ids;
}

async function links(taskSimplyId: string): Promise<Record<string, string>> {
  const { prisma } = suite.server.app.services;
  const task = await prisma.backgroundTask.findFirstOrThrow({ where: { simplyId: taskSimplyId } });
  const rows = await prisma.recordTaskLink.findMany({ where: { teamId: task.teamId, taskId: task.id } });
  const records = await prisma.dataRecord.findMany({ where: { teamId: task.teamId, id: { in: rows.map((r) => r.dataRecordId) } } });
  const simplyIdOf = new Map(records.map((r) => [r.id, r.simplyId]));
  for (const row of rows) expect(row).toMatchObject({ relationType: 'TARGET', completedAt: expect.any(Date) });
  return Object.fromEntries(rows.map((r) => [simplyIdOf.get(r.dataRecordId)!, r.recordStatus]));
}

const post = (who: Member, body: unknown) => suite.server.request('POST', '/v1/background-tasks', { token: who.token, teamId: who.teamId, body });

describe('BULK_DELETE by ids', () => {
  it('deletes the named records with an outcome per record: SUCCEEDED, SKIPPED when already gone, an error for ids of other collections or teams', async () => {
    const admin = adminOf(A());
    const c = await items(A());
    const other = await items(A());
    const [a, b, c3, gone] = await seed(A(), c, 4);
    const elsewhere = (await createRecord(suite.server, A().apiKey, other.id, { [other.fields.title!]: 'other' })).id;
    const theirCollection = await items(B());
    const theirs = (await createRecord(suite.server, B().apiKey, theirCollection.id, { [theirCollection.fields.title!]: 'theirs' })).id;
    expect((await suite.server.request('DELETE', `/v1/data-records/${gone}`, { token: A().apiKey })).status).toBeLessThan(300);
    const since = await lastEventId(suite.server, A().teamId);

    const task = await runTask(suite.server, admin, 'BULK_DELETE', { dataCollectionSimplyId: c.id, dataRecordSimplyIds: [a, b, gone, elsewhere, theirs, a] });
    expect(task).toMatchObject({
      status: 'PARTIAL_SUCCESS',
      progress: { processedCount: 5, totalCount: 5 },
      result: { recordCount: 5, successCount: 2, failureCount: 2, skippedCount: 1 },
    });
    expect(await links(task.backgroundTaskSimplyId)).toEqual({ [a!]: 'SUCCEEDED', [b!]: 'SUCCEEDED', [gone!]: 'SKIPPED' });
    const errors = await taskErrors(suite.server, task.backgroundTaskSimplyId);
    expect(errors.map((e) => [e.errorType, e.errorContext.dataRecordSimplyId])).toEqual([
      ['RECORD_NOT_FOUND', elsewhere],
      ['RECORD_NOT_FOUND', theirs],
    ]);
    expect((await liveRecords(suite.server, A().teamId, c.id)).map((r) => r.simplyId)).toEqual([c3]);
    expect((await liveRecords(suite.server, A().teamId, other.id)).map((r) => r.simplyId)).toEqual([elsewhere]);
    expect((await liveRecords(suite.server, B().teamId, theirCollection.id)).map((r) => r.simplyId)).toEqual([theirs]);
    expect(await eventCountsSince(suite.server, A().teamId, since)).toEqual({ DATA_RECORD_DELETED: 2, DATA_RECORDS_BULK_SYNCED: 1 });
    expect((await auditCounts(suite.server, A().teamId, 'BACKGROUND_TASK')).DELETE).toBeGreaterThanOrEqual(2);
  });
});

describe('BULK_DELETE by filter', () => {
  it('deletes exactly the records the filter matches, in chunks of 1000 (one bulk-synced event each)', async () => {
    const admin = adminOf(B());
    const c = await items(B());
    const ids = await seed(B(), c, 1300);
    const since = await lastEventId(suite.server, B().teamId);
    const task = await runTask(suite.server, admin, 'BULK_DELETE', { dataCollectionSimplyId: c.id, requestFilter: [{ field: c.fields.n, operator: 'gte', value: 200 }] });
    expect(task).toMatchObject({ status: 'COMPLETED', errorCount: 0, progress: { processedCount: 1100, totalCount: 1100 }, result: { recordCount: 1100, successCount: 1100, failureCount: 0, skippedCount: 0 } });
    expect((await liveRecords(suite.server, B().teamId, c.id)).map((r) => r.simplyId)).toEqual(ids.slice(0, 200));
    const outcomes = await links(task.backgroundTaskSimplyId);
    expect(Object.keys(outcomes).sort()).toEqual(ids.slice(200).sort());
    expect(new Set(Object.values(outcomes))).toEqual(new Set(['SUCCEEDED']));
    expect(await eventCountsSince(suite.server, B().teamId, since)).toEqual({ DATA_RECORD_DELETED: 1100, DATA_RECORDS_BULK_SYNCED: 2 });
    // the selection is kept on the task (a restart deletes the same set), never answered
    const row = await suite.server.app.services.prisma.backgroundTask.findFirstOrThrow({ where: { simplyId: task.backgroundTaskSimplyId } });
    expect((row.internal as { selection: string[] }).selection).toHaveLength(1100);
    expect(JSON.stringify(task)).not.toContain('selection');
  });

  it('completes with nothing to do when the filter matches no record', async () => {
    const admin = adminOf(A());
    const c = await items(A());
    await seed(A(), c, 3);
    const task = await runTask(suite.server, admin, 'BULK_DELETE', { dataCollectionSimplyId: c.id, requestFilter: [{ field: c.fields.title, operator: 'eq', value: 'nothing like this' }] });
    expect(task).toMatchObject({ status: 'COMPLETED', result: { recordCount: 0, successCount: 0 }, progress: { processedCount: 0, totalCount: 0 } });
    expect(await liveRecords(suite.server, A().teamId, c.id)).toHaveLength(3);
  });
});

describe('BULK_DELETE refusals at creation', () => {
  it('answers 400 with details for malformed queueData', async () => {
    const admin = adminOf(A());
    const c = await items(A());
    const cases: [unknown, string][] = [
      [{ dataCollectionSimplyId: c.id }, 'queueData.dataRecordSimplyIds'],
      [{ dataCollectionSimplyId: c.id, dataRecordSimplyIds: ['AAAA-BBBB-CCCC'], requestFilter: [] }, 'queueData.dataRecordSimplyIds'],
      [{ dataCollectionSimplyId: c.id, dataRecordSimplyIds: ['nope'] }, 'queueData.dataRecordSimplyIds.0'],
      [{ dataCollectionSimplyId: c.id, dataRecordSimplyIds: [] }, 'queueData.dataRecordSimplyIds'],
      [{ dataCollectionSimplyId: c.id, requestFilter: [{ field: 'AAAA-BBBB-CCCC', operator: 'eq', value: 1 }] }, 'queueData.requestFilter[0].field'],
      [{ dataCollectionSimplyId: c.id, requestFilter: [{ field: c.fields.n, operator: 'contains', value: 1 }] }, 'queueData.requestFilter[0].operator'],
      [{ dataCollectionSimplyId: c.id, dataRecordSimplyIds: ['AAAA-BBBB-CCCC'], objectKey: 'x' }, 'queueData.objectKey'],
      [{ dataCollectionSimplyId: 'bad', dataRecordSimplyIds: ['AAAA-BBBB-CCCC'] }, 'queueData.dataCollectionSimplyId'],
    ];
    for (const [queueData, field] of cases) {
      const response = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DELETE', queueData });
      expect(response.status, JSON.stringify(queueData)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details.map((d: any) => d.field), JSON.stringify(response.body.error.details)).toContain(field);
    }
    const tooMany = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DELETE', queueData: { dataCollectionSimplyId: c.id, dataRecordSimplyIds: Array.from({ length: 10_001 }, (_, i) => `AAAA-BBBB-${String(i).padStart(4, '0')}`) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details[0]).toMatchObject({ field: 'queueData.dataRecordSimplyIds', message: expect.stringContaining('at most 10000') });
  });

  it('answers 404 for another team\'s collection and 403 to a member who may only read it', async () => {
    const admin = adminOf(A());
    const theirs = await items(B());
    const notFound = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DELETE', queueData: { dataCollectionSimplyId: theirs.id, dataRecordSimplyIds: ['AAAA-BBBB-CCCC'] } });
    expect(notFound.status).toBe(404);

    const c = await items(A());
    const role = await createRole(suite.server, A(), { name: `Readers ${Date.now()}`, dataPermissions: [{ dataCollectionSimplyId: c.id, level: 'READ' }] });
    const reader = await addMember(suite.server, A(), { teamRoleSimplyId: role });
    const denied = await post({ token: reader.token, teamId: A().teamSimplyId }, { enumBackgroundTaskTypeId: 'BULK_DELETE', queueData: { dataCollectionSimplyId: c.id, dataRecordSimplyIds: ['AAAA-BBBB-CCCC'] } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('PERMISSION_DENIED');
  });
});

describe('BULK_DELETE over GraphQL', () => {
  it('creates the task with createBackgroundTask and reads its result with backgroundTask', async () => {
    const admin = adminOf(B());
    const c = await items(B());
    const ids = await seed(B(), c, 3);
    const created = await suite.server.graphql(
      `mutation ($input: CreateBackgroundTaskInput!) { createBackgroundTask(input: $input) { backgroundTaskSimplyId status progress } }`,
      { input: { enumBackgroundTaskTypeId: 'BULK_DELETE', queueData: { dataCollectionSimplyId: c.id, dataRecordSimplyIds: ids.slice(0, 2) } } },
      { token: admin.token, teamId: admin.teamId },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createBackgroundTask).toMatchObject({ status: 'QUEUED', progress: { processedCount: 0, totalCount: 2 } });
    const id = created.data.createBackgroundTask.backgroundTaskSimplyId;
    await untilTaskDone(suite.server, admin, id);
    const detail = await suite.server.graphql(`query ($id: String!) { backgroundTask(backgroundTaskSimplyId: $id) { status result errors { errorType } } }`, { id }, { token: admin.token, teamId: admin.teamId });
    expect(detail.errors).toBeUndefined();
    expect(detail.data.backgroundTask).toMatchObject({ status: 'COMPLETED', result: { recordCount: 2, successCount: 2, failureCount: 0, skippedCount: 0 }, errors: [] });
    expect((await liveRecords(suite.server, B().teamId, c.id)).map((r) => r.simplyId)).toEqual([ids[2]]);

    const bad = await suite.server.graphql(
      `mutation ($input: CreateBackgroundTaskInput!) { createBackgroundTask(input: $input) { backgroundTaskSimplyId } }`,
      { input: { enumBackgroundTaskTypeId: 'BULK_DELETE', queueData: { dataCollectionSimplyId: c.id } } },
      { token: admin.token, teamId: admin.teamId },
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: [{ field: 'queueData.dataRecordSimplyIds' }] });
  });
});
