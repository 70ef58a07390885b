// DATA_EXPORT (docs/api/background-tasks.md "Data export"; Document 3 §4.2 rules 2 and 3): a
// collection or a view exported by a real worker, the CSV fetched through the 60-second URL and
// compared cell by cell; scope intersection, field permissions, the fingerprint rechecked in the
// worker and before download, formula-safe cells, header-only exports, bad queueData and
// cross-team ids; over REST and GraphQL.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline, type Readable, Transform } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { Agent, fetch as undiciFetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { seedRecords } from '../../scripts/seed-records.ts';
import { runTask as runTaskJob } from '../../src/modules/background-tasks/background-tasks.jobs.ts';
import { adminOf, createTask, type Member, readTask, runTask, untilTaskDone } from '../support/background-task-fixtures.ts';
import { type CollectionFixture, type ColumnMap, createCollection } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { insertFileRows } from '../support/file-uploads.ts';
import { addMember, createRole, type TeamFixture, unique } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { until } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 2, runJobs: true, ownDatabase: 'data_export' });
const A = () => suite.teams[0];
const B = () => suite.teams[1];

const FILE_1 = 'file-2222-3333-4444';
const FILE_2 = 'file-5555-6666-7777';
const IMAGE_1 = 'file-8888-9999-AAAA';

/** Every data type, in this order (columns of the "every type" export). */
const EVERY_TYPE: ColumnMap = {
  name: { dataType: 'PLAIN_TEXT', title: { en: 'Name', de: 'Name (de)' } as never },
  notes: 'FORMATTED_TEXT',
  age: 'NUMBER',
  ratio: { dataType: 'DECIMAL', config: { scale: 3 } },
  price: { dataType: 'MONEY', config: { currency: 'EUR' } },
  born: 'DATE',
  seen: 'DATE_TIME',
  email: 'EMAIL_ADDRESS',
  phone: { dataType: 'PHONE_NUMBER', config: { defaultCountry: 'US' } },
  vip: 'BOOLEAN',
  site: 'URL',
  address: 'PHYSICAL_ADDRESS',
  friend: 'SINGLE_DATA_RECORD',
  friends: 'MULTI_DATA_RECORD',
  doc: 'SINGLE_FILE',
  docs: 'MULTI_FILE',
  photo: 'SINGLE_IMAGE',
  photos: 'MULTI_IMAGE',
};

async function fetchBytes(server: TestServer, url: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await undiciFetch(url, { dispatcher: new Agent({ connect: { ca: server.ca || undefined } }) });
  return { status: response.status, headers: response.headers as unknown as Headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The task's CSV through GET …/result-download and its 60-second URL. */
async function downloadCsv(who: Member, taskId: string): Promise<{ text: string; rows: string[][]; filename: string }> {
  const response = await suite.server.request('GET', `/v1/background-tasks/${taskId}/result-download`, { token: who.token, teamId: who.teamId });
  const link = expectOk(response);
  expect(link.expiresIn).toBe(60);
  const file = await fetchBytes(suite.server, link.url);
  expect(file.status).toBe(200);
  const text = file.bytes.toString('utf8');
  return { text, rows: parse(text, { relax_column_count: false }) as string[][], filename: link.filename };
}

async function exportOf(who: Member, queueData: Record<string, unknown>): Promise<{ task: any; text: string; rows: string[][]; filename: string }> {
  const task = await runTask(suite.server, who, 'DATA_EXPORT', queueData);
  expect(task.status, JSON.stringify(task.errors)).toBe('COMPLETED');
  return { task, ...(await downloadCsv(who, task.backgroundTaskSimplyId)) };
}

const createExport = (who: Member, queueData: unknown) =>
  suite.server.request('POST', '/v1/background-tasks', { token: who.token, teamId: who.teamId, body: { enumBackgroundTaskTypeId: 'DATA_EXPORT', queueData } });

async function simpleCollection(team: TeamFixture, name = `Contacts ${unique()}`): Promise<CollectionFixture> {
  return createCollection(suite.server, team, { name, formula: '{name}', fields: { name: 'PLAIN_TEXT', city: 'PLAIN_TEXT', score: 'NUMBER', secret: 'PLAIN_TEXT' } });
}

async function addRecords(team: TeamFixture, collection: CollectionFixture, rows: Record<string, unknown>[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const fields = Object.fromEntries(Object.entries(row).map(([column, value]) => [collection.fields[column]!, value]));
    ids.push((await createRecord(suite.server, team.apiKey, collection.id, fields)).id);
  }
  return ids;
}

/** A member whose role reads `collection` (minus `hidden` fields), with DATA_EXPORT at VIEW level unless told otherwise. */
async function reader(team: TeamFixture, collection: CollectionFixture, options: { hidden?: string[]; canExport?: boolean } = {}) {
  const body = (hidden: string[]) => ({
    name: `Exporter ${unique()}`,
    dataPermissions: [{ dataCollectionSimplyId: collection.id, level: 'READ' }],
    featurePermissions: options.canExport === false ? [] : [{ name: 'DATA_EXPORT', level: 'VIEW' }],
    fieldPermissions: hidden.map((column) => ({ dataFieldSimplyId: collection.fields[column]!, level: 'NONE' })),
  });
  const roleId = await createRole(suite.server, team, body(options.hidden ?? []));
  const member = await addMember(suite.server, team, { teamRoleSimplyId: roleId });
  return {
    who: { token: member.token, teamId: team.teamSimplyId } as Member,
    /** replaces the role (PUT): the fields it hides from now on */
    hide: async (hidden: string[]) => {
      expectOk(await suite.server.request('PUT', `/v1/team-roles/${roleId}`, { token: team.apiKey, body: body(hidden) }));
    },
  };
}

describe('what an export contains', () => {
  it('writes every data type in its documented cell form, built-in columns first, headers in the starter’s language', async () => {
    const admin = adminOf(A());
    await insertFileRows(suite.server, A().teamId, [
      { simplyId: FILE_1, fileType: 'DOCUMENT' },
      { simplyId: FILE_2, fileType: 'DOCUMENT' },
      { simplyId: IMAGE_1, fileType: 'IMAGE' },
    ]);
    const things = await createCollection(suite.server, A(), { name: 'Things', formula: '{name}', fields: EVERY_TYPE });
    const [friendA, friendB] = await addRecords(A(), things, [{ name: 'Friend A' }, { name: 'Friend B' }]);
    const [full] = await addRecords(A(), things, [
      {
        name: 'Ada, "the first"\nline two',
        notes: '<p>Hello <strong>world</strong></p>',
        age: -42,
        ratio: '-0.125',
        price: '19.9',
        born: '1815-12-10',
        seen: '2026-01-02T03:04:05.678+01:00',
        email: 'ada@example.test',
        phone: '(415) 555-2671',
        vip: true,
        site: 'HTTPS://Example.com:443/a%20b',
        address: { line1: '1 Main St', city: 'Springfield', region: 'IL', postalCode: '62701', countryCode: 'US' },
        friend: friendA,
        friends: [friendA, friendB],
        doc: FILE_1,
        docs: [FILE_1, FILE_2],
        photo: IMAGE_1,
        photos: [IMAGE_1],
      },
    ]);
    const [empty] = await addRecords(A(), things, [{ name: 'Empty' }]);
    // the admin reads German headers where a title has them
    await suite.server.app.services.prisma.user.update({ where: { simplyId: A().userSimplyId }, data: { defaultInterfaceLanguageId: 'de' } });
    const columns = Object.keys(EVERY_TYPE);
    const { task, text, rows, filename } = await exportOf(admin, {
      dataCollectionSimplyId: things.id,
      dataFieldSimplyIds: columns.map((c) => things.fields[c]),
      systemColumns: ['RECORD_SIMPLY_ID', 'CALCULATED_NAME'],
      dataRecordSimplyIds: [full, empty],
    });
    await suite.server.app.services.prisma.user.update({ where: { simplyId: A().userSimplyId }, data: { defaultInterfaceLanguageId: null } });

    expect(task.result).toMatchObject({ filename, contentType: 'text/csv', recordCount: 2, fileSizeBytes: Buffer.byteLength(text) });
    expect(filename).toMatch(/^Things-\d{8}-\d{4}\.csv$/);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(rows[0]).toEqual(['Record ID', 'Name', 'Name (de)', ...columns.slice(1)]);
    expect(rows[1]).toEqual([
      full,
      'Ada, "the first" line two',
      'Ada, "the first"\nline two',
      '<p>Hello <strong>world</strong></p>',
      '-42',
      '-0.125',
      '19.90',
      '1815-12-10',
      '2026-01-02T02:04:05.678Z',
      'ada@example.test',
      "'+14155552671",
      'true',
      'https://example.com/a%20b',
      '1 Main St, Springfield, IL, 62701, US',
      friendA,
      `${friendA}; ${friendB}`,
      FILE_1,
      `${FILE_1}; ${FILE_2}`,
      IMAGE_1,
      IMAGE_1,
    ]);
    expect(rows[2]).toEqual([empty, 'Empty', 'Empty', ...columns.slice(1).map(() => '')]);
    expect(rows).toHaveLength(3);

    // in English the field's title meets the built-in "Name": the second one is told apart
    const english = await exportOf(admin, { dataCollectionSimplyId: things.id, dataFieldSimplyIds: [things.fields.name], systemColumns: ['CALCULATED_NAME'], dataRecordSimplyIds: [empty] });
    expect(english.rows).toEqual([
      ['Name', 'Name (2)'],
      ['Empty', 'Empty'],
    ]);
  });

  it('puts an apostrophe before cells a spreadsheet would run as a formula, but keeps numbers numbers', async () => {
    const admin = adminOf(A());
    const sheet = await createCollection(suite.server, A(), {
      name: 'Sheet',
      formula: '{text}',
      fields: { text: { dataType: 'PLAIN_TEXT', title: '=HEADER()' }, amount: 'NUMBER', cost: { dataType: 'MONEY', config: { currency: 'EUR' } }, mail: 'EMAIL_ADDRESS' },
    });
    // (a leading CR cannot be stored: text values turn CR into LF)
    const hostile = ['=HYPERLINK("http://evil.test","x")', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', 'plain', "'already quoted"];
    const ids = await addRecords(
      A(),
      sheet,
      hostile.map((text, i) => ({ text, amount: -i, cost: `-${i}.5`, mail: i === 1 ? '+tag@example.test' : null })),
    );
    const { rows } = await exportOf(admin, {
      dataCollectionSimplyId: sheet.id,
      dataFieldSimplyIds: [sheet.fields.text, sheet.fields.amount, sheet.fields.cost, sheet.fields.mail],
      systemColumns: ['CALCULATED_NAME'],
    });
    expect(rows[0]).toEqual(['Name', "'=HEADER()", 'amount', 'cost', 'mail']);
    const body = rows.slice(1);
    expect(body.map((r) => r[1])).toEqual([
      `'=HYPERLINK("http://evil.test","x")`,
      "'+1+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tTAB",
      'plain',
      "'already quoted",
    ]);
    // the calculated name is text too
    expect(body[0]![0]).toBe(`'=HYPERLINK("http://evil.test","x")`);
    expect(body.map((r) => r[2])).toEqual(['0', '-1', '-2', '-3', '-4', '-5', '-6']);
    expect(body.map((r) => r[3])).toEqual(['-0.50', '-1.50', '-2.50', '-3.50', '-4.50', '-5.50', '-6.50']);
    expect(body[1]![4]).toBe("'+tag@example.test");
    expect(ids).toHaveLength(7);
  });

  it('answers a header-only CSV when nothing matches', async () => {
    const admin = adminOf(A());
    const contacts = await simpleCollection(A());
    await addRecords(A(), contacts, [{ name: 'Ada', city: 'London' }]);
    const { task, text, rows } = await exportOf(admin, {
      dataCollectionSimplyId: contacts.id,
      dataFieldSimplyIds: [contacts.fields.name, contacts.fields.city],
      requestFilter: [{ field: contacts.fields.city, operator: 'eq', value: 'Paris' }],
    });
    expect(text).toBe('name,city\r\n');
    expect(rows).toEqual([['name', 'city']]);
    expect(task.result).toMatchObject({ recordCount: 0, fileSizeBytes: 11 });
    expect(task.progress).toEqual({ processedCount: 0, totalCount: 0 });
  });

  it('intersects the view’s saved filter, the request filter and the selected records (GraphQL)', async () => {
    const admin = adminOf(A());
    const contacts = await simpleCollection(A());
    const ids = await addRecords(A(), contacts, [
      { name: 'Ada', city: 'London', score: 10 },
      { name: 'Alan', city: 'London', score: 3 },
      { name: 'Grace', city: 'London', score: 20 },
      { name: 'Linus', city: 'Helsinki', score: 30 },
      { name: 'Edsger', city: 'London', score: 40 },
    ]);
    const view = expectOk(
      await suite.server.request('POST', '/v1/data-views', {
        token: A().apiKey,
        body: { dataCollectionSimplyId: contacts.id, name: 'Londoners', enumDataViewTypeId: 'TABLE', config: { filters: [{ field: contacts.fields.city, operator: 'eq', value: 'London' }] } },
      }),
      201,
    );
    const created = await suite.server.graphql(
      `mutation ($input: CreateBackgroundTaskInput!) { createBackgroundTask(input: $input) { backgroundTaskSimplyId status enumBackgroundTaskTypeId } }`,
      {
        input: {
          enumBackgroundTaskTypeId: 'DATA_EXPORT',
          queueData: {
            dataViewSimplyId: view.id,
            dataFieldSimplyIds: [contacts.fields.name, contacts.fields.score],
            systemColumns: ['RECORD_SIMPLY_ID'],
            requestFilter: [{ field: contacts.fields.score, operator: 'gte', value: 5 }],
            // Alan fails the request filter, Linus the view's, Edsger is not selected
            dataRecordSimplyIds: [ids[0], ids[1], ids[2], ids[3]],
          },
        },
      },
      { token: admin.token, teamId: admin.teamId },
    );
    expect(created.errors).toBeUndefined();
    const taskId = created.data.createBackgroundTask.backgroundTaskSimplyId;
    expect(created.data.createBackgroundTask).toMatchObject({ status: 'QUEUED', enumBackgroundTaskTypeId: 'DATA_EXPORT' });
    await untilTaskDone(suite.server, admin, taskId);
    const detail = await suite.server.graphql(
      `query ($id: String!) { backgroundTask(backgroundTaskSimplyId: $id) { status result progress canDownloadResult } backgroundTaskResultDownload(backgroundTaskSimplyId: $id) { url expiresIn filename contentType } }`,
      { id: taskId },
      { token: admin.token, teamId: admin.teamId },
    );
    expect(detail.errors).toBeUndefined();
    const { backgroundTask: task, backgroundTaskResultDownload: link } = detail.data;
    expect(task).toMatchObject({ status: 'COMPLETED', canDownloadResult: true, result: { recordCount: 2, contentType: 'text/csv' }, progress: { processedCount: 2, totalCount: 2 } });
    expect(link).toMatchObject({ expiresIn: 60, contentType: 'text/csv', filename: expect.stringMatching(/^Contacts [0-9a-f]+-\d{8}-\d{4}\.csv$/) });
    const file = await fetchBytes(suite.server, link.url);
    expect(parse(file.bytes.toString('utf8'))).toEqual([
      ['Record ID', 'name', 'score'],
      [ids[0], 'Ada', '10'],
      [ids[2], 'Grace', '20'],
    ]);
  });

  it('keeps the CSV private to its task: no team file, nothing in /v1/files', async () => {
    const admin = adminOf(B());
    const contacts = await simpleCollection(B());
    await addRecords(B(), contacts, [{ name: 'Ada' }]);
    await exportOf(admin, { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [contacts.fields.name] });
    expect(await suite.server.app.services.prisma.storedFile.count({ where: { teamId: B().teamId } })).toBe(0);
    const files = expectOk(await suite.server.request('GET', '/v1/files', { token: B().apiKey }));
    expect(files).toEqual([]);
  });
});

describe('permissions and scope', () => {
  it('needs DATA_EXPORT and read access; unreadable fields and views filtering on them are refused at creation', async () => {
    const contacts = await simpleCollection(A());
    const noFeature = await reader(A(), contacts, { canExport: false });
    const denied = await createExport(noFeature.who, { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [contacts.fields.name] });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('PERMISSION_DENIED');

    const other = await simpleCollection(A());
    const elsewhere = await reader(A(), other);
    const unreadable = await createExport(elsewhere.who, { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [contacts.fields.name] });
    expect(unreadable.status).toBe(403);

    const partial = await reader(A(), contacts, { hidden: ['secret'] });
    const hidden = await createExport(partial.who, { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [contacts.fields.name, contacts.fields.secret, other.fields.name] });
    expect(hidden.status).toBe(400);
    expect(hidden.body.error.code).toBe('VALIDATION_ERROR');
    expect(hidden.body.error.details).toEqual([
      { field: 'queueData.dataFieldSimplyIds[1]', message: expect.stringContaining('cannot read field') },
      { field: 'queueData.dataFieldSimplyIds[2]', message: expect.stringContaining('is not a field of collection') },
    ]);
    const byHiddenFilter = await createExport(partial.who, {
      dataCollectionSimplyId: contacts.id,
      dataFieldSimplyIds: [contacts.fields.name],
      requestFilter: [{ field: contacts.fields.secret, operator: 'eq', value: 'x' }],
    });
    expect(byHiddenFilter.status).toBe(400);
    expect(byHiddenFilter.body.error.details).toEqual([{ field: 'queueData.requestFilter[0].field', message: expect.stringContaining('is not a field') }]);

    const view = expectOk(
      await suite.server.request('POST', '/v1/data-views', {
        token: A().apiKey,
        body: { dataCollectionSimplyId: contacts.id, name: 'Secretive', enumDataViewTypeId: 'LIST', config: { filters: [{ field: contacts.fields.secret, operator: 'eq', value: 'x' }] } },
      }),
      201,
    );
    const viaView = await createExport(partial.who, { dataViewSimplyId: view.id, dataFieldSimplyIds: [contacts.fields.name] });
    expect(viaView.status).toBe(403);
    expect(viaView.body.error.message).toContain('filters on a field your team role cannot read');

    // the readable fields export fine for the same member
    await addRecords(A(), contacts, [{ name: 'Ada', secret: 'hidden' }]);
    const { rows } = await exportOf(partial.who, { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [contacts.fields.name, contacts.fields.city] });
    expect(rows).toEqual([
      ['name', 'city'],
      ['Ada', ''],
    ]);
  });

  it('refuses the download with 403 EXPORT_SCOPE_CHANGED once a field of the export is hidden from its starter (REST and GraphQL)', async () => {
    const contacts = await simpleCollection(A());
    await addRecords(A(), contacts, [{ name: 'Ada', secret: 's3cret' }]);
    const member = await reader(A(), contacts);
    const task = await runTask(suite.server, member.who, 'DATA_EXPORT', { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [contacts.fields.name, contacts.fields.secret] });
    expect(task.status).toBe('COMPLETED');
    expect((await downloadCsv(member.who, task.backgroundTaskSimplyId)).rows[1]).toEqual(['Ada', 's3cret']);

    await member.hide(['secret']);
    const refused = await suite.server.request('GET', `/v1/background-tasks/${task.backgroundTaskSimplyId}/result-download`, { token: member.who.token, teamId: member.who.teamId });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('EXPORT_SCOPE_CHANGED');
    const gql = await suite.server.graphql(
      `query ($id: String!) { backgroundTaskResultDownload(backgroundTaskSimplyId: $id) { url } }`,
      { id: task.backgroundTaskSimplyId },
      { token: member.who.token, teamId: member.who.teamId },
    );
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'EXPORT_SCOPE_CHANGED', status: 403 });

    // given the field back, the same export downloads again (the scope is the same as at creation)
    await member.hide([]);
    expect((await downloadCsv(member.who, task.backgroundTaskSimplyId)).rows).toHaveLength(2);
  });

  it('lets only the starter download the CSV', async () => {
    const contacts = await simpleCollection(A());
    const member = await reader(A(), contacts);
    const task = await runTask(suite.server, member.who, 'DATA_EXPORT', { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [contacts.fields.name] });
    const admin = adminOf(A());
    expect((await readTask(suite.server, admin, task.backgroundTaskSimplyId)).canDownloadResult).toBe(false);
    const response = await suite.server.request('GET', `/v1/background-tasks/${task.backgroundTaskSimplyId}/result-download`, { token: admin.token, teamId: admin.teamId });
    expect(response.status).toBe(403);
  });
});

describe('bad queueData and other teams', () => {
  it('answers 400 with details for each problem', async () => {
    const admin = adminOf(A());
    const contacts = await simpleCollection(A());
    const field = contacts.fields.name;
    const cases: [unknown, { field: string; message: unknown }[]][] = [
      [{ dataFieldSimplyIds: [field] }, [
        { field: 'queueData.dataCollectionSimplyId', message: 'give exactly one of dataCollectionSimplyId and dataViewSimplyId' },
        { field: 'queueData.dataViewSimplyId', message: 'give exactly one of dataCollectionSimplyId and dataViewSimplyId' },
      ]],
      [{ dataCollectionSimplyId: contacts.id, dataViewSimplyId: 'view-2222-3333-4444', dataFieldSimplyIds: [field] }, [
        { field: 'queueData.dataCollectionSimplyId', message: 'give only one of dataCollectionSimplyId and dataViewSimplyId' },
        { field: 'queueData.dataViewSimplyId', message: 'give only one of dataCollectionSimplyId and dataViewSimplyId' },
      ]],
      [{ dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [field], tableName: 'DataRecord', headers: ['A'], outputTypes: ['text'], bucketName: 'b', objectKey: 'exports/x.csv', column_names: ['a'], colour: 'red' }, [
        { field: 'queueData.tableName', message: expect.stringContaining('the service chooses') },
        { field: 'queueData.headers', message: expect.stringContaining('the service chooses') },
        { field: 'queueData.outputTypes', message: expect.stringContaining('the service chooses') },
        { field: 'queueData.bucketName', message: expect.stringContaining('the service chooses') },
        { field: 'queueData.objectKey', message: expect.stringContaining('the service chooses') },
        { field: 'queueData.column_names', message: expect.stringContaining('the service chooses') },
        { field: 'queueData.colour', message: expect.stringContaining('unknown key') },
      ]],
      [{ dataCollectionSimplyId: contacts.id }, [{ field: 'queueData.dataFieldSimplyIds', message: expect.stringContaining('is required') }]],
      [{ dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [] }, [{ field: 'queueData.dataFieldSimplyIds', message: 'name at least one field' }]],
      [{ dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [field, field, 'name'] }, [
        { field: 'queueData.dataFieldSimplyIds.2', message: expect.stringContaining('field simplyId') },
      ]],
      [{ dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [field], systemColumns: ['APPROVAL_STATUS', 'ROW_NUMBER'] }, [
        { field: 'queueData.systemColumns.1', message: expect.stringContaining('must be one of') },
      ]],
      [{ dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [field], systemColumns: ['APPROVAL_STATUS'] }, [
        { field: 'queueData.systemColumns', message: expect.stringContaining('no approval workflow') },
      ]],
      [{ dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [field], requestFilter: [{ field, operator: 'gt', value: 'x' }] }, [
        { field: 'queueData.requestFilter[0].operator', message: expect.stringContaining('does not apply') },
      ]],
      [{ dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [field], dataRecordSimplyIds: [] }, [
        { field: 'queueData.dataRecordSimplyIds', message: expect.stringContaining('at least one record') },
      ]],
    ];
    for (const [queueData, details] of cases) {
      const response = await createExport(admin, queueData);
      expect(response.status, JSON.stringify(queueData)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details, JSON.stringify(queueData)).toEqual(details);
    }
    const notObject = await createExport(admin, 'not an object');
    expect(notObject.status).toBe(400);
    expect(notObject.body.error.details[0].field).toMatch(/queueData/);
    // the duplicate is named too, once the ids are well formed
    const dup = await createExport(admin, { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [field, field] });
    expect(dup.body.error.details).toEqual([{ field: 'queueData.dataFieldSimplyIds', message: `${field} is listed more than once` }]);

    const gql = await suite.server.graphql(
      `mutation ($input: CreateBackgroundTaskInput!) { createBackgroundTask(input: $input) { backgroundTaskSimplyId } }`,
      { input: { enumBackgroundTaskTypeId: 'DATA_EXPORT', queueData: { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [field], objectKey: 'k' } } },
      { token: admin.token, teamId: admin.teamId },
    );
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: [{ field: 'queueData.objectKey', message: expect.stringContaining('the service chooses') }] });
  });

  it('answers 404 for another team’s collection or view', async () => {
    const admin = adminOf(A());
    const theirs = await simpleCollection(B());
    const theirView = expectOk(
      await suite.server.request('POST', '/v1/data-views', { token: B().apiKey, body: { dataCollectionSimplyId: theirs.id, name: 'Theirs', enumDataViewTypeId: 'LIST' } }),
      201,
    );
    for (const queueData of [
      { dataCollectionSimplyId: theirs.id, dataFieldSimplyIds: [theirs.fields.name] },
      { dataViewSimplyId: theirView.id, dataFieldSimplyIds: [theirs.fields.name] },
    ]) {
      const response = await createExport(admin, queueData);
      expect(response.status, JSON.stringify(queueData)).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    // records of another team named in the selection are simply not there
    const theirRecords = await addRecords(B(), theirs, [{ name: 'Not yours' }]);
    const mine = await simpleCollection(A());
    const { rows } = await exportOf(admin, { dataCollectionSimplyId: mine.id, dataFieldSimplyIds: [mine.fields.name], dataRecordSimplyIds: theirRecords });
    expect(rows).toEqual([['name']]);
  });
});

describe('the scope rechecked by the worker', () => {
  // a server without workers on a database of its own: the task waits in the queue until this
  // test runs its job, so the permission change lands between creation and work
  const idle = useServer({ teams: 1, ownDatabase: 'data_export_idle' });

  it('fails the task with EXPORT_SCOPE_CHANGED when the starter lost a field before the worker ran', async () => {
    const team = idle.teams[0];
    const contacts = await createCollection(idle.server, team, { name: 'Contacts', fields: { name: 'PLAIN_TEXT', secret: 'PLAIN_TEXT' } });
    const roleBody = (hidden: boolean) => ({
      name: 'Exporters',
      dataPermissions: [{ dataCollectionSimplyId: contacts.id, level: 'READ' }],
      featurePermissions: [{ name: 'DATA_EXPORT', level: 'VIEW' }],
      fieldPermissions: hidden ? [{ dataFieldSimplyId: contacts.fields.secret, level: 'NONE' }] : [],
    });
    const roleId = await createRole(idle.server, team, roleBody(false));
    const member = await addMember(idle.server, team, { teamRoleSimplyId: roleId });
    const who = { token: member.token, teamId: team.teamSimplyId };
    const created = await createTask(idle.server, who, 'DATA_EXPORT', { dataCollectionSimplyId: contacts.id, dataFieldSimplyIds: [contacts.fields.name, contacts.fields.secret] });
    expectOk(await idle.server.request('PUT', `/v1/team-roles/${roleId}`, { token: team.apiKey, body: roleBody(true) }));

    const row = await idle.server.app.services.prisma.backgroundTask.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: created.backgroundTaskSimplyId } } });
    await runTaskJob(idle.server.app.services, { data: { teamId: String(row.teamId), taskId: String(row.id) }, retryCount: 0 });
    const task = await readTask(idle.server, who, created.backgroundTaskSimplyId);
    expect(task.status).toBe('FAILED');
    expect(task.canDownloadResult).toBe(false);
    expect(task.errors).toEqual([
      expect.objectContaining({ errorType: 'EXPORT_SCOPE_CHANGED', errorMessage: expect.stringContaining('cannot read field') }),
    ]);
    const after = await idle.server.app.services.prisma.backgroundTask.findUniqueOrThrow({ where: { id: row.id } });
    expect((after.internal as Record<string, unknown>).resultFile).toBeUndefined();
  });

  it('stops a cancelled export and keeps no partial file', { timeout: 90_000 }, async () => {
    const team = idle.teams[0];
    const { services } = idle.server.app;
    const seeded = await seedRecords(services.pool, services.prisma, team.teamId, 20_000);
    services.schemas.invalidate(team.teamId);
    const who = adminOf(team);
    const created = await createTask(idle.server, who, 'DATA_EXPORT', { dataCollectionSimplyId: seeded.collectionSimplyId, dataFieldSimplyIds: Object.values(seeded.fields) });
    const row = await services.prisma.backgroundTask.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: created.backgroundTaskSimplyId } } });
    // the storage takes its time, so the cancel arrives while the CSV is being written
    const write = services.fileStorage.write;
    services.fileStorage.write = (key, body, options) => {
      const slow = new Transform({ transform: (chunk, _e, done) => setTimeout(() => done(null, chunk), 300) });
      // pipeline (not pipe): the export's failure must reach the storage's read
      pipeline(body as Readable, slow, () => {});
      return write.call(services.fileStorage, key, slow, options);
    };
    try {
      const job = runTaskJob(services, { data: { teamId: String(row.teamId), taskId: String(row.id) }, retryCount: 0 });
      await until('the export to be under way', async () => ((await readTask(idle.server, who, created.backgroundTaskSimplyId)).progress.processedCount ?? 0) > 0, 20_000, 50);
      expectOk(await idle.server.request('POST', `/v1/background-tasks/${created.backgroundTaskSimplyId}/cancel`, { token: who.token, teamId: who.teamId, body: {} }));
      await job;
    } finally {
      services.fileStorage.write = write;
    }
    const task = await readTask(idle.server, who, created.backgroundTaskSimplyId);
    expect(task.status).toBe('FAILED');
    expect(task.result).toMatchObject({ cancelled: true });
    expect(task.errors).toEqual([expect.objectContaining({ errorType: 'CANCELLED' })]);
    expect(task.canDownloadResult).toBe(false);
    const folder = path.join(idle.server.dataDir, 'files', 'exports', team.teamSimplyId);
    expect(fs.existsSync(folder) ? fs.readdirSync(folder) : []).toEqual([]);
  });
});
