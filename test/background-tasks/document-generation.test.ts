// DOCUMENT_GENERATION (docs/api/background-tasks.md "Document generation"): a real document
// template rendered by Chromium for each selected record, the PDFs read back with pdf.js (merge
// tags filled in, header and footer on the page), stored as team files and written into the
// destination field with REPLACE and APPEND; record history and outputs; the output default used
// when the task names no destination; per-record failures (PARTIAL_SUCCESS); bad queueData,
// permissions and other teams' ids; a missing renderer. Over REST and GraphQL.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminOf, createTask, type Member, runTask, untilTaskDone } from '../support/background-task-fixtures.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { insertFileRows } from '../support/file-uploads.ts';
import { addMember, createRole } from '../support/fixtures.ts';
import { createRecord, readRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { DEFAULTS, documentTemplate, fileBytes, GEN, HISTORY, pdfPages, peopleWithFiles } from './document-generation-support.ts';

const suite = useServer({ teams: 2, runJobs: true, ownDatabase: 'document_generation' });
const A = () => suite.teams[0];
const B = () => suite.teams[1];
const admin = (): Member => adminOf(A());
const TASK_ID = /^btk-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const FILE_ID = /^file-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;

let people: CollectionFixture;
let template: string;
const ids: Record<'ada' | 'grace' | 'alan', string> = { ada: '', grace: '', alan: '' };

async function record(id: string) {
  return readRecord(suite.server, A().apiKey, id);
}

async function post(who: Member, queueData: unknown) {
  return suite.server.request('POST', '/v1/background-tasks', { token: who.token, teamId: who.teamId, body: { enumBackgroundTaskTypeId: GEN, queueData } });
}

function queue(extra: Record<string, unknown> = {}) {
  return { contentTemplateSimplyId: template, dataCollectionSimplyId: people.id, dataRecordSimplyIds: [ids.ada, ids.grace], destination: { dataFieldSimplyId: people.fields.contract!, writeMode: 'REPLACE' }, ...extra };
}

beforeAll(async () => {
  const { server } = suite;
  people = await peopleWithFiles(server, A());
  const f = people.fields;
  ids.ada = (await createRecord(server, A().apiKey, people.id, { [f.first_name!]: 'Ada', [f.last_name!]: 'Lovelace', [f.note!]: 'first programmer' })).id;
  ids.grace = (await createRecord(server, A().apiKey, people.id, { [f.first_name!]: 'Grace', [f.last_name!]: 'Hopper', [f.note!]: 'compilers & <b>COBOL</b>' })).id;
  ids.alan = (await createRecord(server, A().apiKey, people.id, { [f.first_name!]: 'Alan', [f.last_name!]: 'Turing' })).id;
  template = await documentTemplate(server, A(), people);
});

describe('rendering and writing', () => {
  it('renders one PDF per record (merge tags, header, footer), stores it as a team file and REPLACEs the single-file field', { timeout: 60_000 }, async () => {
    const created = await createTask(suite.server, admin(), GEN, queue({ dataRecordSimplyIds: [ids.ada, ids.grace, ids.alan] }));
    expect(created.backgroundTaskSimplyId).toMatch(TASK_ID);
    expect(created.status).toBe('QUEUED');
    expect(created.progress).toEqual({ processedCount: 0, totalCount: 3 });
    const done = await untilTaskDone(suite.server, admin(), created.backgroundTaskSimplyId);
    expect(done.status).toBe('COMPLETED');
    expect(done.errors).toEqual([]);
    expect(done.progress).toEqual({ processedCount: 3, totalCount: 3, successCount: 3, failureCount: 0 });
    expect(done.result).toMatchObject({ recordCount: 3, successCount: 3, failureCount: 0, outputKey: 'document', externalTemplateName: 'Certificate', destinationDataFieldSimplyId: people.fields.contract, destinationWriteMode: 'REPLACE' });

    const expected = { ada: ['Certificate for Ada Lovelace', 'Note: first programmer', 'Header for Ada'], grace: ['Certificate for Grace Hopper', 'Note: compilers & <b>COBOL</b>', 'Header for Grace'], alan: ['Certificate for Alan Turing', 'Header for Alan'] };
    for (const [who, texts] of Object.entries(expected)) {
      const fileId = (await record(ids[who as keyof typeof ids])).fields[people.fields.contract!];
      expect(fileId, who).toMatch(FILE_ID);
      const bytes = await fileBytes(suite.server, A(), fileId);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const pages = await pdfPages(bytes);
      expect(pages).toHaveLength(1);
      for (const text of [...texts, 'Footer of the certificate', 'page 1 of 1']) expect(pages[0], `${who}: ${text}`).toContain(text);
      // the date inside the PDF is the task's creation, not the moment of printing; the Creator names the task
      expect(bytes.toString('latin1')).toMatch(/\/CreationDate \(D:\d{14}\+00'00'\)/);
      expect(bytes.toString('latin1')).toContain(`/Creator (svc document generation, task ${created.backgroundTaskSimplyId})`);
    }
    // ordinary team files: listed in /v1/files under the template and record's name
    const ada = (await record(ids.ada)).fields[people.fields.contract!];
    const file = expectOk(await suite.server.request('GET', `/v1/files/${ada}`, { token: A().apiKey }));
    expect(file).toMatchObject({ filename: 'Certificate - Ada Lovelace.pdf', mimeType: 'application/pdf' });
  });

  it('REPLACE again puts the new document in place of the old one (the old file stays a team file)', { timeout: 60_000 }, async () => {
    const before = (await record(ids.ada)).fields[people.fields.contract!];
    const done = await runTask(suite.server, admin(), GEN, queue({ dataRecordSimplyIds: [ids.ada] }));
    expect(done.status).toBe('COMPLETED');
    const after = (await record(ids.ada)).fields[people.fields.contract!];
    expect(after).toMatch(FILE_ID);
    expect(after).not.toBe(before);
    expectOk(await suite.server.request('GET', `/v1/files/${before}`, { token: A().apiKey }));
  });

  it('APPEND adds each new document to a multi-file field, keeping what it held', { timeout: 60_000 }, async () => {
    const papers = people.fields.papers!;
    const first = await runTask(suite.server, admin(), GEN, queue({ dataRecordSimplyIds: [ids.grace], destination: { dataFieldSimplyId: papers, writeMode: 'APPEND' } }));
    expect(first.status).toBe('COMPLETED');
    const once = (await record(ids.grace)).fields[papers];
    expect(once).toHaveLength(1);
    const second = await runTask(suite.server, admin(), GEN, queue({ dataRecordSimplyIds: [ids.grace], destination: { dataFieldSimplyId: papers, writeMode: 'APPEND' } }));
    expect(second.status).toBe('COMPLETED');
    const twice = (await record(ids.grace)).fields[papers];
    expect(twice).toHaveLength(2);
    expect(twice[0]).toBe(once[0]);
    expect((await pdfPages(await fileBytes(suite.server, A(), twice[1])))[0]).toContain('Certificate for Grace Hopper');
    // REPLACE into the multi-file field leaves only the new document
    await runTask(suite.server, admin(), GEN, queue({ dataRecordSimplyIds: [ids.grace], destination: { dataFieldSimplyId: papers, writeMode: 'REPLACE' } }));
    const replaced = (await record(ids.grace)).fields[papers];
    expect(replaced).toHaveLength(1);
    expect(twice).not.toContain(replaced[0]);
  });

  it('a requestFilter selects the records when the task is created', { timeout: 60_000 }, async () => {
    const created = await createTask(suite.server, admin(), GEN, {
      ...queue({ dataRecordSimplyIds: undefined }),
      requestFilter: [{ field: people.fields.first_name, operator: 'eq', value: 'Alan' }],
    });
    expect(created.progress.totalCount).toBe(1);
    const done = await untilTaskDone(suite.server, admin(), created.backgroundTaskSimplyId);
    expect(done.status).toBe('COMPLETED');
    const history = expectOk(await suite.server.request('GET', `${HISTORY}?dataRecordSimplyId=${ids.alan}`, { token: A().userToken, teamId: A().teamSimplyId }));
    expect(history.tasks[0].backgroundTaskSimplyId).toBe(created.backgroundTaskSimplyId);
  });

  it('records history: each record links to the task, with its output (states, public metadata, file)', { timeout: 60_000 }, async () => {
    const done = await runTask(suite.server, admin(), GEN, queue({ dataRecordSimplyIds: [ids.ada], outputKey: 'summary' }));
    const fileId = (await record(ids.ada)).fields[people.fields.contract!];
    const history = expectOk(await suite.server.request('GET', `${HISTORY}?dataRecordSimplyId=${ids.ada}&limit=2`, { token: A().userToken, teamId: A().teamSimplyId }));
    expect(history).toMatchObject({ dataRecordSimplyId: ids.ada, dataCollectionSimplyId: people.id, limit: 2, offset: 0 });
    expect(history.total).toBeGreaterThanOrEqual(3);
    expect(history.tasks).toHaveLength(2);
    const [entry] = history.tasks;
    expect(entry).toMatchObject({ backgroundTaskSimplyId: done.backgroundTaskSimplyId, enumBackgroundTaskTypeId: GEN, taskStatus: 'COMPLETED', recordStatus: 'SUCCEEDED', relationType: 'TARGET' });
    expect(entry.recordTaskLinkSimplyId).toMatch(/^rtl-/);
    expect(entry.completedAt).not.toBeNull();
    expect(entry.outputs).toHaveLength(1);
    const [output] = entry.outputs;
    expect(output).toMatchObject({
      outputKey: 'summary',
      outputKind: 'FILE',
      status: 'SUCCEEDED',
      destinationWriteStatus: 'WRITTEN',
      destinationWriteMode: 'REPLACE',
      destinationDataFieldSimplyId: people.fields.contract,
      result: { externalTemplateName: 'Certificate', filename: 'Certificate - Ada Lovelace.pdf', contentType: 'application/pdf' },
      file: { fileSimplyId: fileId, filename: 'Certificate - Ada Lovelace.pdf', mimeType: 'application/pdf' },
      canDownload: true,
    });
    expect(output.recordOutputSimplyId).toMatch(/^rto-/);
    expect(output.result.fileSizeBytes).toBeGreaterThan(1000);
    // newest first; the next page continues
    const next = expectOk(await suite.server.request('GET', `${HISTORY}?dataRecordSimplyId=${ids.ada}&limit=2&offset=2`, { token: A().userToken, teamId: A().teamSimplyId }));
    expect(next.tasks.map((t: any) => t.backgroundTaskSimplyId)).not.toContain(done.backgroundTaskSimplyId);
    expect(next.total).toBe(history.total);
  });
});

describe('output defaults and per-record failures', () => {
  it('without a destination the output default is used (a template-specific one before the general one)', { timeout: 60_000 }, async () => {
    const general = expectOk(await suite.server.request('PUT', DEFAULTS, { token: A().userToken, teamId: A().teamSimplyId, body: { dataCollectionSimplyId: people.id, enumBackgroundTaskTypeId: GEN, outputKey: 'letter', dataFieldSimplyId: people.fields.contract, writeMode: 'REPLACE' } }));
    const own = expectOk(await suite.server.request('PUT', DEFAULTS, { token: A().userToken, teamId: A().teamSimplyId, body: { dataCollectionSimplyId: people.id, enumBackgroundTaskTypeId: GEN, outputKey: 'letter', dataFieldSimplyId: people.fields.papers, writeMode: 'APPEND', sourceContentTemplateSimplyId: template } }));
    const before = ((await record(ids.alan)).fields[people.fields.papers!] ?? []) as string[];
    const created = await createTask(suite.server, admin(), GEN, { contentTemplateSimplyId: template, dataCollectionSimplyId: people.id, dataRecordSimplyIds: [ids.alan], outputKey: 'letter' });
    const done = await untilTaskDone(suite.server, admin(), created.backgroundTaskSimplyId);
    expect(done.result).toMatchObject({ destinationDataFieldSimplyId: people.fields.papers, destinationWriteMode: 'APPEND' });
    expect((await record(ids.alan)).fields[people.fields.papers!]).toHaveLength(before.length + 1);
    // without the template's own default, the general one applies
    expectOk(await suite.server.request('DELETE', `${DEFAULTS}/${own.defaultSimplyId}`, { token: A().userToken, teamId: A().teamSimplyId }));
    const again = await runTask(suite.server, admin(), GEN, { contentTemplateSimplyId: template, dataCollectionSimplyId: people.id, dataRecordSimplyIds: [ids.alan], outputKey: 'letter' });
    expect(again.result).toMatchObject({ destinationDataFieldSimplyId: people.fields.contract, destinationWriteMode: 'REPLACE' });
    expect(general.isEnabled).toBe(true);
  });

  it('a record whose field cannot take the document fails alone: PARTIAL_SUCCESS with an error entry naming it', { timeout: 60_000 }, async () => {
    const box = people.fields.box!;
    await insertFileRows(suite.server, A().teamId, [{ simplyId: 'file-BBBB-CCCC-DDDD', fileType: 'DOCUMENT' }]);
    const full = (await createRecord(suite.server, A().apiKey, people.id, { [people.fields.first_name!]: 'Full', [box]: ['file-BBBB-CCCC-DDDD'] })).id;
    const done = await runTask(suite.server, admin(), GEN, queue({ dataRecordSimplyIds: [ids.ada, full], destination: { dataFieldSimplyId: box, writeMode: 'APPEND' } }));
    expect(done.status).toBe('PARTIAL_SUCCESS');
    expect(done.progress).toMatchObject({ processedCount: 2, totalCount: 2, successCount: 1, failureCount: 1 });
    expect(done.result).toMatchObject({ successCount: 1, failureCount: 1 });
    expect(done.errors).toHaveLength(1);
    expect(done.errors[0]).toMatchObject({ errorType: 'VALIDATION_ERROR', errorContext: { dataRecordSimplyId: full } });
    expect(done.errors[0].errorMessage).toContain('full');
    expect((await record(full)).fields[box]).toEqual(['file-BBBB-CCCC-DDDD']);
    expect((await record(ids.ada)).fields[box]).toHaveLength(1);
    const history = expectOk(await suite.server.request('GET', `${HISTORY}?dataRecordSimplyId=${full}`, { token: A().userToken, teamId: A().teamSimplyId }));
    expect(history.tasks[0]).toMatchObject({ recordStatus: 'FAILED', taskStatus: 'PARTIAL_SUCCESS' });
    expect(history.tasks[0].outputs[0]).toMatchObject({ status: 'FAILED', destinationWriteStatus: 'SKIPPED', file: null, canDownload: false });
  });

  it('when no record gets its document the task is FAILED', { timeout: 60_000 }, async () => {
    const full = (await createRecord(suite.server, A().apiKey, people.id, { [people.fields.first_name!]: 'Also full', [people.fields.box!]: ['file-BBBB-CCCC-DDDD'] })).id;
    const done = await runTask(suite.server, admin(), GEN, queue({ dataRecordSimplyIds: [full], destination: { dataFieldSimplyId: people.fields.box, writeMode: 'APPEND' } }));
    expect(done.status).toBe('FAILED');
    expect(done.result).toMatchObject({ successCount: 0, failureCount: 1 });
  });
});

describe('bad queueData, permissions and other teams', () => {
  it('malformed queueData is a 400 naming each problem', async () => {
    const cases: [unknown, string][] = [
      [{}, 'queueData.contentTemplateSimplyId'],
      [queue({ contentTemplateSimplyId: 'nope' }), 'queueData.contentTemplateSimplyId'],
      [queue({ requestFilter: [] }), 'queueData.dataRecordSimplyIds'],
      [queue({ dataRecordSimplyIds: [] }), 'queueData.dataRecordSimplyIds'],
      [queue({ dataRecordSimplyIds: [ids.ada, ids.ada] }), 'queueData.dataRecordSimplyIds.1'],
      [queue({ dataRecordSimplyIds: Array.from({ length: 501 }, () => ids.ada) }), 'queueData.dataRecordSimplyIds'],
      [queue({ outputKey: 'has space' }), 'queueData.outputKey'],
      [queue({ destination: { dataFieldSimplyId: people.fields.contract, writeMode: 'MERGE' } }), 'queueData.destination.writeMode'],
      [queue({ bucket: 'exports' }), 'queueData.bucket'],
      [queue({ destination: { dataFieldSimplyId: people.fields.note, writeMode: 'REPLACE' } }), 'queueData.destination.dataFieldSimplyId'],
      [queue({ destination: { dataFieldSimplyId: people.fields.contract, writeMode: 'APPEND' } }), 'queueData.destination.writeMode'],
      [queue({ dataRecordSimplyIds: ['2222-3333-4444'] }), 'queueData.dataRecordSimplyIds[0]'],
      [queue({ dataRecordSimplyIds: undefined, requestFilter: [{ field: 'nope', operator: 'eq', value: 1 }] }), 'queueData.requestFilter[0].field'],
      [queue({ dataRecordSimplyIds: undefined, requestFilter: [{ field: people.fields.first_name, operator: 'eq', value: 'Nobody' }] }), 'queueData.requestFilter'],
      [queue({ destination: undefined, outputKey: 'unset' }), 'queueData.destination'],
    ];
    for (const [queueData, field] of cases) {
      const error = expectError(await post(admin(), queueData), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((d) => d.field), field).toContain(field);
    }
  });

  it('a template that is not a usable document template of the collection is refused', async () => {
    const message = expectOk(await suite.server.request('POST', '/v1/content-templates', { token: A().apiKey, body: { name: 'Hello', textContent: 'Hi {{first_name}}', usageTypes: ['OUTGOING_MESSAGE'] } }), 201);
    expectError(await post(admin(), queue({ contentTemplateSimplyId: message.id })), 400, 'VALIDATION_ERROR', 'message template');
    const other = await peopleWithFiles(suite.server, A(), 'Others');
    const foreign = await documentTemplate(suite.server, A(), other);
    expectError(await post(admin(), queue({ contentTemplateSimplyId: foreign })), 400, 'VALIDATION_ERROR', 'template of another collection');
    // blocking readiness issues (an archived template) are listed
    const archived = await documentTemplate(suite.server, A(), people);
    expectOk(await suite.server.request('DELETE', `/v1/content-templates/${archived}`, { token: A().apiKey }));
    const error = expectError(await post(admin(), queue({ contentTemplateSimplyId: archived })), 400, 'VALIDATION_ERROR', 'archived template');
    expect(error.details?.map((d) => (d as { code?: string }).code)).toContain('ARCHIVED');
    expectError(await post(admin(), queue({ contentTemplateSimplyId: 'ctpl-2222-3333-4444' })), 404, 'NOT_FOUND', 'unknown template');
  });

  it('the starter needs read access to the collection and edit access to the destination field; API keys get IDP_REQUIRED', async () => {
    const readOnly = await createRole(suite.server, A(), { name: 'people readers', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
    const reader = await addMember(suite.server, A(), { teamRoleSimplyId: readOnly });
    expectError(await post({ token: reader.token, teamId: A().teamSimplyId }, queue()), 403, 'PERMISSION_DENIED', 'reader');
    const nobody = await addMember(suite.server, A());
    expectError(await post({ token: nobody.token, teamId: A().teamSimplyId }, queue()), 403, 'PERMISSION_DENIED', 'no data access');
    const response = await suite.server.request('POST', '/v1/background-tasks', { token: A().apiKey, body: { enumBackgroundTaskTypeId: GEN, queueData: queue() } });
    expectError(response, 403, 'IDP_REQUIRED', 'api key');
  });

  it("another team's collection, records and template are 404 or 400, never used", async () => {
    const theirs = await peopleWithFiles(suite.server, B(), 'Theirs');
    const theirTemplate = await documentTemplate(suite.server, B(), theirs);
    const theirRecord = (await createRecord(suite.server, B().apiKey, theirs.id, { [theirs.fields.first_name!]: 'Eve' })).id;
    expectError(await post(admin(), queue({ dataCollectionSimplyId: theirs.id })), 404, 'NOT_FOUND', 'their collection');
    expectError(await post(admin(), queue({ contentTemplateSimplyId: theirTemplate })), 404, 'NOT_FOUND', 'their template');
    expectError(await post(admin(), queue({ dataRecordSimplyIds: [theirRecord] })), 400, 'VALIDATION_ERROR', 'their record');
    expectError(await suite.server.request('GET', `${HISTORY}?dataRecordSimplyId=${theirRecord}`, { token: A().userToken, teamId: A().teamSimplyId }), 404, 'NOT_FOUND', 'their history');
  });
});

describe('the renderer', () => {
  const saved = process.env.CHROMIUM_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  });

  it('without Chromium the task fails with RENDERER_NOT_CONFIGURED and a message saying what to install; nothing is written', { timeout: 60_000 }, async () => {
    const before = (await record(ids.alan)).fields[people.fields.contract!] ?? null;
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    const done = await runTask(suite.server, admin(), GEN, queue({ dataRecordSimplyIds: [ids.alan] }));
    expect(done.status).toBe('FAILED');
    expect(done.errors).toHaveLength(1);
    expect(done.errors[0].errorType).toBe('RENDERER_NOT_CONFIGURED');
    expect(done.errors[0].errorMessage).toMatch(/chromium/i);
    expect(done.errors[0].errorMessage).not.toContain('/nonexistent');
    expect((await record(ids.alan)).fields[people.fields.contract!] ?? null).toEqual(before);
  });
});

describe('GraphQL', () => {
  it('createBackgroundTask starts a generation; backgroundTaskRecordHistory shows its outputs', { timeout: 60_000 }, async () => {
    const data = gqlData(
      await suite.server.graphql(
        'mutation($input: CreateBackgroundTaskInput!) { createBackgroundTask(input: $input) { backgroundTaskSimplyId status } }',
        { input: { enumBackgroundTaskTypeId: GEN, queueData: queue({ dataRecordSimplyIds: [ids.grace] }) } },
        { token: A().userToken, teamId: A().teamSimplyId },
      ),
    );
    const done = await untilTaskDone(suite.server, admin(), data.createBackgroundTask.backgroundTaskSimplyId);
    expect(done.status).toBe('COMPLETED');
    const history = gqlData(
      await suite.server.graphql(
        'query($id: String!) { backgroundTaskRecordHistory(dataRecordSimplyId: $id, limit: 1) { dataRecordSimplyId total limit tasks { backgroundTaskSimplyId recordStatus outputs { status destinationWriteStatus canDownload file { fileSimplyId } } } } }',
        { id: ids.grace },
        { token: A().userToken, teamId: A().teamSimplyId },
      ),
    ).backgroundTaskRecordHistory;
    expect(history.limit).toBe(1);
    expect(history.tasks).toEqual([
      { backgroundTaskSimplyId: done.backgroundTaskSimplyId, recordStatus: 'SUCCEEDED', outputs: [{ status: 'SUCCEEDED', destinationWriteStatus: 'WRITTEN', canDownload: true, file: { fileSimplyId: (await record(ids.grace)).fields[people.fields.contract!] } }] },
    ]);
  });
});
