// BULK_DATA_IMPORT (docs/api/background-tasks.md "Import"): an uploaded CSV imported by a real
// worker into a collection — mapping by header, create / update / upsert on a key field, the dry
// run, row errors with row, column and field, PARTIAL_SUCCESS and FAILED, events and audit entries
// as batch writes make them, the limits, bad queueData, cross-team ids; over REST and GraphQL.
import { describe, expect, it } from 'vitest';
import { adminOf, type Member, runTask, untilTaskDone } from '../support/background-task-fixtures.ts';
import { type CollectionFixture, createCollection, REQUIRED_TEXT } from '../support/data-fixtures.ts';
import { addMember, createRole, type TeamFixture } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { auditCounts, eventCountsSince, lastEventId, liveRecords, taskErrors, uploadCsv } from './data-import-support.ts';

const suite = useServer({ teams: 2, runJobs: true, ownDatabase: 'data_import', env: { IMPORT_MAX_ROWS: 1500, IMPORT_MAX_BYTES: 200_000 } });
const A = () => suite.teams[0];
const B = () => suite.teams[1];

/** People: name (required), email (the key), age, vip, joined. */
function people(team: TeamFixture): Promise<CollectionFixture> {
  return createCollection(suite.server, team, {
    name: `People ${Math.random().toString(36).slice(2, 8)}`,
    formula: '{name}',
    fields: { name: REQUIRED_TEXT, email: 'EMAIL_ADDRESS', age: 'NUMBER', vip: 'BOOLEAN', joined: 'DATE' },
  });
}

function mappingOf(c: CollectionFixture, columns: Record<string, string>) {
  return Object.entries(columns).map(([column, field]) => ({ column, dataFieldSimplyId: c.fields[field]! }));
}

const post = (who: Member, body: unknown) => suite.server.request('POST', '/v1/background-tasks', { token: who.token, teamId: who.teamId, body });

describe('BULK_DATA_IMPORT create', () => {
  it('maps columns by header, creates every row through the value layer and reports the counts', async () => {
    const admin = adminOf(A());
    const c = await people(A());
    const csv = '\ufeffFull name,E-mail,Age,Ignored,VIP,Joined\r\nAda Lovelace,ADA@Example.org,36,x,yes,2024-01-31\r\n"Hopper, Grace","grace@example.org",85,,false,\r\n"Line\nbreak",,007,,,\r\n';
    const fileSimplyId = await uploadCsv(suite.server, admin, csv);
    const since = await lastEventId(suite.server, A().teamId);
    const task = await runTask(suite.server, admin, 'BULK_DATA_IMPORT', {
      fileSimplyId,
      dataCollectionSimplyId: c.id,
      mapping: mappingOf(c, { 'Full name': 'name', 'E-mail': 'email', Age: 'age', VIP: 'vip', Joined: 'joined' }),
    });
    expect(task).toMatchObject({
      status: 'COMPLETED',
      progress: { processedCount: 3, totalCount: 3 },
      result: { recordCount: 3, recordsCreated: 3, recordsUpdated: 0, successCount: 3, failureCount: 0 },
    });
    const rows = await liveRecords(suite.server, A().teamId, c.id);
    expect(rows.map((r) => r.values)).toEqual([
      { [c.fields.name!]: 'Ada Lovelace', [c.fields.email!]: 'ADA@example.org', [c.fields.age!]: 36, [c.fields.vip!]: true, [c.fields.joined!]: '2024-01-31' },
      { [c.fields.name!]: 'Hopper, Grace', [c.fields.email!]: 'grace@example.org', [c.fields.age!]: 85, [c.fields.vip!]: false },
      { [c.fields.name!]: 'Line\nbreak', [c.fields.age!]: 7 },
    ]);
    // like a batch write: one record event per record and one bulk-synced event for the chunk
    expect(await eventCountsSince(suite.server, A().teamId, since)).toEqual({ DATA_RECORD_CREATED: 3, DATA_RECORDS_BULK_SYNCED: 1 });
    expect((await auditCounts(suite.server, A().teamId, 'BACKGROUND_TASK')).CREATE).toBeGreaterThanOrEqual(3);
  });

  it('writes one bulk-synced event per chunk of 500 rows', async () => {
    const admin = adminOf(B());
    const c = await people(B());
    const lines = Array.from({ length: 1200 }, (_, i) => `Person ${i},${i}`);
    const fileSimplyId = await uploadCsv(suite.server, admin, `name,age\n${lines.join('\n')}\n`);
    const since = await lastEventId(suite.server, B().teamId);
    const task = await runTask(suite.server, admin, 'BULK_DATA_IMPORT', { fileSimplyId, dataCollectionSimplyId: c.id, mapping: mappingOf(c, { name: 'name', age: 'age' }) });
    expect(task).toMatchObject({ status: 'COMPLETED', result: { recordCount: 1200, recordsCreated: 1200 }, progress: { processedCount: 1200, totalCount: 1200 } });
    expect(await eventCountsSince(suite.server, B().teamId, since)).toEqual({ DATA_RECORD_CREATED: 1200, DATA_RECORDS_BULK_SYNCED: 3 });
    expect(await liveRecords(suite.server, B().teamId, c.id)).toHaveLength(1200);
  });

  it('reports bad rows with row number, column and field and ends PARTIAL_SUCCESS', async () => {
    const admin = adminOf(A());
    const c = await people(A());
    const csv = ['name,age,vip,email', 'Good,1,true,good@example.org', 'Bad age,abc,,', ',5,,', 'Too,many,cells,x@example.org,extra', 'Bad vip,3,maybe,', 'Also good,2,no,'].join('\n');
    const fileSimplyId = await uploadCsv(suite.server, admin, csv);
    const task = await runTask(suite.server, admin, 'BULK_DATA_IMPORT', { fileSimplyId, dataCollectionSimplyId: c.id, mapping: mappingOf(c, { name: 'name', age: 'age', vip: 'vip', email: 'email' }) });
    expect(task).toMatchObject({ status: 'PARTIAL_SUCCESS', errorCount: 4, result: { recordCount: 6, recordsCreated: 2, successCount: 2, failureCount: 4 } });
    const errors = await taskErrors(suite.server, task.backgroundTaskSimplyId);
    const byRow = Object.fromEntries(errors.map((e) => [e.errorContext.rowNumber, e]));
    expect(Object.keys(byRow).map(Number).sort()).toEqual([2, 3, 4, 5]);
    expect(byRow[2]).toMatchObject({ errorType: 'INVALID_VALUE', errorContext: { rowNumber: 2, column: 'age', dataFieldSimplyId: c.fields.age } });
    expect(byRow[2]!.errorMessage).toMatch(/^Row 2: column "age"/);
    expect(byRow[3]).toMatchObject({ errorType: 'INVALID_VALUE', errorContext: { rowNumber: 3, column: 'name', dataFieldSimplyId: c.fields.name } });
    expect(byRow[3]!.errorMessage).toContain('is required');
    expect(byRow[4]).toMatchObject({ errorType: 'COLUMN_COUNT_MISMATCH', errorContext: { rowNumber: 4 } });
    expect(byRow[5]).toMatchObject({ errorType: 'INVALID_VALUE', errorContext: { rowNumber: 5, column: 'vip', dataFieldSimplyId: c.fields.vip } });
    // the detail answers the unacknowledged errors too
    expect(task.errors.map((e: any) => e.errorContext.rowNumber).sort()).toEqual([2, 3, 4, 5]);
    expect((await liveRecords(suite.server, A().teamId, c.id)).map((r) => r.values[c.fields.name!])).toEqual(['Good', 'Also good']);
  });

  it('reports a row that is not valid CSV (bad quoting) and ends FAILED when no row could be imported', async () => {
    const admin = adminOf(A());
    const c = await people(A());
    const fileSimplyId = await uploadCsv(suite.server, admin, 'name,age\nx"y,1\n,2\n');
    const task = await runTask(suite.server, admin, 'BULK_DATA_IMPORT', { fileSimplyId, dataCollectionSimplyId: c.id, mapping: mappingOf(c, { name: 'name', age: 'age' }) });
    expect(task).toMatchObject({ status: 'FAILED', result: { recordCount: 2, recordsCreated: 0, failureCount: 2 } });
    const errors = await taskErrors(suite.server, task.backgroundTaskSimplyId);
    expect(errors.map((e) => [e.errorContext.rowNumber, e.errorType])).toEqual([
      [1, 'INVALID_CSV_ROW'],
      [2, 'INVALID_VALUE'],
    ]);
    expect(await liveRecords(suite.server, A().teamId, c.id)).toEqual([]);
  });

  it('takes columns by position when the file has no header row', async () => {
    const admin = adminOf(B());
    const c = await people(B());
    const fileSimplyId = await uploadCsv(suite.server, admin, 'Ada;36\nGrace;85\n');
    const task = await runTask(suite.server, admin, 'BULK_DATA_IMPORT', {
      fileSimplyId,
      dataCollectionSimplyId: c.id,
      hasHeaderRow: false,
      delimiter: ';',
      mapping: [
        { column: 1, dataFieldSimplyId: c.fields.name },
        { column: 2, dataFieldSimplyId: c.fields.age },
      ],
    });
    expect(task).toMatchObject({ status: 'COMPLETED', result: { recordsCreated: 2 } });
    expect((await liveRecords(suite.server, B().teamId, c.id)).map((r) => r.values[c.fields.age!])).toEqual([36, 85]);
  });
});

describe('BULK_DATA_IMPORT update and upsert on a key field', () => {
  async function seeded(team: TeamFixture) {
    const c = await people(team);
    const ada = await createRecord(suite.server, team.apiKey, c.id, { [c.fields.name!]: 'Ada', [c.fields.email!]: 'ada@example.org', [c.fields.age!]: 1 });
    const grace = await createRecord(suite.server, team.apiKey, c.id, { [c.fields.name!]: 'Grace', [c.fields.email!]: 'grace@example.org', [c.fields.age!]: 2 });
    return { c, ada: ada.id as string, grace: grace.id as string };
  }

  it('UPDATE changes the matched records only (keys compared like search: case-insensitive), unmatched and repeated keys are row errors', async () => {
    const admin = adminOf(A());
    const { c, ada, grace } = await seeded(A());
    const csv = 'email,age,name\nADA@example.org,37,\nnobody@example.org,5,Nobody\nada@example.org,99,\n,4,\ngrace@example.org,86,Grace H.\n';
    const fileSimplyId = await uploadCsv(suite.server, admin, csv);
    const since = await lastEventId(suite.server, A().teamId);
    const task = await runTask(suite.server, admin, 'BULK_DATA_IMPORT', {
      fileSimplyId,
      dataCollectionSimplyId: c.id,
      mode: 'UPDATE',
      matchFieldSimplyId: c.fields.email,
      mapping: mappingOf(c, { email: 'email', age: 'age', name: 'name' }),
    });
    expect(task).toMatchObject({ status: 'PARTIAL_SUCCESS', result: { recordCount: 5, recordsCreated: 0, recordsUpdated: 2, successCount: 2, failureCount: 3 } });
    const errors = await taskErrors(suite.server, task.backgroundTaskSimplyId);
    expect(errors.map((e) => [e.errorContext.rowNumber, e.errorType, e.errorContext.column])).toEqual([
      [2, 'RECORD_NOT_FOUND', 'email'],
      [3, 'DUPLICATE_KEY', 'email'],
      [4, 'INVALID_KEY', 'email'],
    ]);
    const rows = await liveRecords(suite.server, A().teamId, c.id);
    // a blank cell leaves the field as it was (blankCells IGNORE)
    expect(rows.find((r) => r.simplyId === ada)!.values).toMatchObject({ [c.fields.name!]: 'Ada', [c.fields.age!]: 37 });
    expect(rows.find((r) => r.simplyId === grace)!.values).toMatchObject({ [c.fields.name!]: 'Grace H.', [c.fields.age!]: 86 });
    expect(rows).toHaveLength(2);
    expect(await eventCountsSince(suite.server, A().teamId, since)).toEqual({ DATA_RECORD_UPDATED: 2, DATA_RECORDS_BULK_SYNCED: 1 });
  });

  it('UPSERT updates matched records and creates the others; blankCells CLEAR empties fields', async () => {
    const admin = adminOf(B());
    const { c, ada } = await seeded(B());
    const fileSimplyId = await uploadCsv(suite.server, admin, 'email,name,age\nada@example.org,Ada L.,\nnew@example.org,Newcomer,9\n');
    const task = await runTask(suite.server, admin, 'BULK_DATA_IMPORT', {
      fileSimplyId,
      dataCollectionSimplyId: c.id,
      mode: 'UPSERT',
      matchFieldSimplyId: c.fields.email,
      blankCells: 'CLEAR',
      mapping: mappingOf(c, { email: 'email', name: 'name', age: 'age' }),
    });
    expect(task).toMatchObject({ status: 'COMPLETED', result: { recordCount: 2, recordsCreated: 1, recordsUpdated: 1, successCount: 2, failureCount: 0 } });
    const rows = await liveRecords(suite.server, B().teamId, c.id);
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.simplyId === ada)!.values).toEqual({ [c.fields.name!]: 'Ada L.', [c.fields.email!]: 'ada@example.org' });
    expect(rows.at(-1)!.values).toEqual({ [c.fields.name!]: 'Newcomer', [c.fields.email!]: 'new@example.org', [c.fields.age!]: 9 });
  });
});

describe('BULK_DATA_IMPORT dry run', () => {
  it('validates every row through the value layer, reports the errors and writes nothing', async () => {
    const admin = adminOf(A());
    const c = await people(A());
    await createRecord(suite.server, A().apiKey, c.id, { [c.fields.name!]: 'Ada', [c.fields.email!]: 'ada@example.org' });
    const fileSimplyId = await uploadCsv(suite.server, admin, 'email,name,age\nada@example.org,Ada,x\nnew@example.org,New,3\nother@example.org,,4\n');
    const since = await lastEventId(suite.server, A().teamId);
    const before = await liveRecords(suite.server, A().teamId, c.id);
    const task = await runTask(suite.server, admin, 'BULK_DATA_IMPORT', {
      fileSimplyId,
      dataCollectionSimplyId: c.id,
      mode: 'UPSERT',
      matchFieldSimplyId: c.fields.email,
      dryRun: true,
      mapping: mappingOf(c, { email: 'email', name: 'name', age: 'age' }),
    });
    expect(task).toMatchObject({
      status: 'PARTIAL_SUCCESS',
      result: { dryRun: true, recordCount: 3, recordsCreated: 0, recordsUpdated: 0, recordsToCreate: 1, recordsToUpdate: 0, successCount: 1, failureCount: 2 },
    });
    const errors = await taskErrors(suite.server, task.backgroundTaskSimplyId);
    expect(errors.map((e) => [e.errorContext.rowNumber, e.errorType, e.errorContext.column])).toEqual([
      [1, 'INVALID_VALUE', 'age'],
      [3, 'INVALID_VALUE', 'name'],
    ]);
    expect(await liveRecords(suite.server, A().teamId, c.id)).toEqual(before);
    expect(await eventCountsSince(suite.server, A().teamId, since)).toEqual({});
  });
});

describe('BULK_DATA_IMPORT refusals at creation', () => {
  it('answers 400 with details for malformed queueData', async () => {
    const admin = adminOf(A());
    const c = await people(A());
    const cases: [unknown, string[]][] = [
      [{}, ['queueData.fileSimplyId', 'queueData.dataCollectionSimplyId', 'queueData.mapping']],
      [{ fileSimplyId: 'file-2222-3333-4444', dataCollectionSimplyId: c.id, mapping: [], mode: 'MERGE' }, ['queueData.mapping', 'queueData.mode']],
      [{ fileSimplyId: 'file-2222-3333-4444', dataCollectionSimplyId: c.id, mapping: mappingOf(c, { a: 'name' }), mode: 'UPDATE' }, ['queueData.matchFieldSimplyId']],
      [{ fileSimplyId: 'file-2222-3333-4444', dataCollectionSimplyId: c.id, mapping: mappingOf(c, { a: 'name' }), hasHeaderRow: false }, ['queueData.mapping.0.column']],
      [{ fileSimplyId: 'file-2222-3333-4444', dataCollectionSimplyId: c.id, mapping: mappingOf(c, { a: 'name' }), bucket: 'x' }, ['queueData.bucket']],
      [{ fileSimplyId: 'file-2222-3333-4444', dataCollectionSimplyId: c.id, mapping: [{ column: 'a', dataFieldSimplyId: 'AAAA-BBBB-CCCC' }] }, ['queueData.mapping.0.dataFieldSimplyId']],
      [{ fileSimplyId: 'file-2222-3333-4444', dataCollectionSimplyId: c.id, mapping: mappingOf(c, { a: 'age' }) }, ['queueData.mapping']],
    ];
    for (const [queueData, fields] of cases) {
      const response = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData });
      expect(response.status, JSON.stringify(queueData)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      const named = response.body.error.details.map((d: any) => d.field);
      for (const field of fields) expect(named, JSON.stringify(response.body.error.details)).toContain(field);
    }
  });

  it('refuses a mapped column the header does not have, a non-CSV file and a file over the limits', async () => {
    const admin = adminOf(A());
    const c = await people(A());
    const csv = await uploadCsv(suite.server, admin, 'name,age\nAda,1\n');
    const missing = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: csv, dataCollectionSimplyId: c.id, mapping: mappingOf(c, { Name: 'name' }) } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ field: 'queueData.mapping.0.column', message: 'no column "Name" in the header (it has: name, age)' }]);

    const text = await uploadFileAs(admin, 'name\nAda\n', 'notes.txt', 'text/plain');
    const notCsv = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: text, dataCollectionSimplyId: c.id, mapping: mappingOf(c, { name: 'name' }) } });
    expect(notCsv.status).toBe(400);
    expect(notCsv.body.error.details[0]).toMatchObject({ field: 'queueData.fileSimplyId', message: expect.stringContaining('text/plain') });

    // this suite runs with IMPORT_MAX_ROWS 1500 and IMPORT_MAX_BYTES 200000
    const tooMany = await uploadCsv(suite.server, admin, `name\n${'x\n'.repeat(1501)}`);
    const rows = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: tooMany, dataCollectionSimplyId: c.id, mapping: mappingOf(c, { name: 'name' }) } });
    expect(rows.status).toBe(400);
    expect(rows.body.error.details[0]).toMatchObject({ field: 'queueData.fileSimplyId', message: 'has more than 1500 data rows: split the file' });
    const large = await uploadCsv(suite.server, admin, `name\n${`${'y'.repeat(199)}\n`.repeat(1001)}`);
    const bytes = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: large, dataCollectionSimplyId: c.id, mapping: mappingOf(c, { name: 'name' }) } });
    expect(bytes.status).toBe(400);
    expect(bytes.body.error.details[0].message).toMatch(/at most 200000 bytes/);
  });

  it('answers 404 for another team\'s file or collection', async () => {
    const admin = adminOf(A());
    const mine = await people(A());
    const theirs = await people(B());
    const theirFile = await uploadCsv(suite.server, adminOf(B()), 'name\nx\n');
    const myFile = await uploadCsv(suite.server, admin, 'name\nx\n');
    const file404 = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: theirFile, dataCollectionSimplyId: mine.id, mapping: mappingOf(mine, { name: 'name' }) } });
    expect(file404.status).toBe(404);
    const collection404 = await post(admin, { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: myFile, dataCollectionSimplyId: theirs.id, mapping: mappingOf(theirs, { name: 'name' }) } });
    expect(collection404.status).toBe(404);
  });

  it('answers 403 when the member may not edit the collection', async () => {
    const c = await people(A());
    const role = await createRole(suite.server, A(), { name: `Readers ${Date.now()}`, dataPermissions: [{ dataCollectionSimplyId: c.id, level: 'READ' }] });
    const reader = await addMember(suite.server, A(), { teamRoleSimplyId: role });
    const who = { token: reader.token, teamId: A().teamSimplyId };
    const file = await uploadCsv(suite.server, who, 'name\nx\n');
    const denied = await post(who, { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: file, dataCollectionSimplyId: c.id, mapping: mappingOf(c, { name: 'name' }) } });
    expect(denied.status).toBe(403);
  });
});

describe('BULK_DATA_IMPORT over GraphQL', () => {
  it('creates the task with createBackgroundTask and reads the result and errors with backgroundTask', async () => {
    const admin = adminOf(B());
    const c = await people(B());
    const fileSimplyId = await uploadCsv(suite.server, admin, 'name,age\nAda,1\nBad,x\n');
    const created = await suite.server.graphql(
      `mutation ($input: CreateBackgroundTaskInput!) { createBackgroundTask(input: $input) { backgroundTaskSimplyId status enumBackgroundTaskTypeId progress } }`,
      { input: { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId, dataCollectionSimplyId: c.id, mapping: mappingOf(c, { name: 'name', age: 'age' }) } } },
      { token: admin.token, teamId: admin.teamId },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createBackgroundTask).toMatchObject({ status: 'QUEUED', enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', progress: { processedCount: 0, totalCount: 2 } });
    const id = created.data.createBackgroundTask.backgroundTaskSimplyId;
    await untilTaskDone(suite.server, admin, id);
    const detail = await suite.server.graphql(
      `query ($id: String!) { backgroundTask(backgroundTaskSimplyId: $id) { status result errors { errorType errorContext } } }`,
      { id },
      { token: admin.token, teamId: admin.teamId },
    );
    expect(detail.errors).toBeUndefined();
    expect(detail.data.backgroundTask).toMatchObject({
      status: 'PARTIAL_SUCCESS',
      result: { recordCount: 2, recordsCreated: 1, failureCount: 1 },
      errors: [{ errorType: 'INVALID_VALUE', errorContext: { rowNumber: 2, column: 'age', dataFieldSimplyId: c.fields.age } }],
    });

    const bad = await suite.server.graphql(
      `mutation ($input: CreateBackgroundTaskInput!) { createBackgroundTask(input: $input) { backgroundTaskSimplyId } }`,
      { input: { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId, dataCollectionSimplyId: c.id, mapping: [] } } },
      { token: admin.token, teamId: admin.teamId },
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: [{ field: 'queueData.mapping' }] });
  });

  it('is refused to API keys (IDP_REQUIRED)', async () => {
    const c = await people(A());
    const response = await suite.server.request('POST', '/v1/background-tasks', {
      token: A().apiKey,
      body: { enumBackgroundTaskTypeId: 'BULK_DATA_IMPORT', queueData: { fileSimplyId: 'file-2222-3333-4444', dataCollectionSimplyId: c.id, mapping: mappingOf(c, { name: 'name' }) } },
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('IDP_REQUIRED');
  });
});

async function uploadFileAs(who: Member, text: string, filename: string, contentType: string): Promise<string> {
  const { uploadFile } = await import('../support/file-uploads.ts');
  const upload = await uploadFile(suite.server, who.token, Buffer.from(text), { filename, contentType, teamId: who.teamId });
  return upload.fileSimplyId;
}
