// Record outputs (docs/api/background-tasks.md "Record history and outputs"; Document 3 §4.2 rule 4):
// who may download a generated document (team admin, reader of the destination field, the task's
// starter; SUCCEEDED outputs only) and what canDownload says ahead of time; who sees a record's
// history; eligible destinations; output defaults upserted and deleted; other teams' ids and API
// keys. Over REST and GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { adminOf, type Member, runTask } from '../support/background-task-fixtures.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { insertFileRows } from '../support/file-uploads.ts';
import { addMember, createRole } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { DEFAULTS, documentTemplate, ELIGIBLE, fetchBytes, GEN, HISTORY, OUTPUTS, pdfPages, peopleWithFiles } from './document-generation-support.ts';

const suite = useServer({ teams: 2, runJobs: true, ownDatabase: 'record_outputs' });
const A = () => suite.teams[0];
const B = () => suite.teams[1];
const admin = (): Member => adminOf(A());

let people: CollectionFixture;
let others: CollectionFixture;
let template: string;
let ada: string;
/** members of team A: an editor who starts tasks, a plain reader, a reader who may not see `contract`, someone who reads only `others` */
const m: Record<'starter' | 'reader' | 'hider' | 'outsider', Member> = {} as never;
let starterRole: string;
/** the editor's task: Ada's certificate in `contract` */
let output: any;

const get = (who: Member, path: string) => suite.server.request('GET', path, { token: who.token, teamId: who.teamId });
const history = (who: Member, record = ada) => get(who, `${HISTORY}?dataRecordSimplyId=${record}`);
const download = (who: Member, id = output.recordOutputSimplyId) => get(who, `${OUTPUTS}/${id}/download`);
const put = (who: Member, body: unknown) => suite.server.request('PUT', DEFAULTS, { token: who.token, teamId: who.teamId, body });

async function member(role: string): Promise<Member> {
  const added = await addMember(suite.server, A(), { teamRoleSimplyId: role });
  return { token: added.token, teamId: A().teamSimplyId };
}

/** Hides a field from everyone holding `role` (field rules are written directly, as the fixtures do). */
async function hideField(role: string, field: string): Promise<void> {
  const { prisma, authenticator } = suite.server.app.services;
  const row = await prisma.teamRole.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: A().teamId, simplyId: role } } });
  await prisma.teamRoleFieldPermission.create({ data: { teamId: A().teamId, teamRoleId: row.id, dataFieldSimplyId: field, level: 'NONE' } });
  authenticator.cache.clear();
}

beforeAll(async () => {
  const { server } = suite;
  people = await peopleWithFiles(server, A());
  others = await peopleWithFiles(server, A(), 'Others');
  ada = (await createRecord(server, A().apiKey, people.id, { [people.fields.first_name!]: 'Ada', [people.fields.last_name!]: 'Lovelace' })).id;
  template = await documentTemplate(server, A(), people);
  starterRole = await createRole(server, A(), { name: 'people editors', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'EDIT' }] });
  const readRole = await createRole(server, A(), { name: 'people readers', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
  const hideRole = await createRole(server, A(), { name: 'readers without contracts', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
  await hideField(hideRole, people.fields.contract!);
  const otherRole = await createRole(server, A(), { name: 'others readers', dataPermissions: [{ dataCollectionSimplyId: others.id, level: 'READ' }] });
  m.starter = await member(starterRole);
  m.reader = await member(readRole);
  m.hider = await member(hideRole);
  m.outsider = await member(otherRole);
  const done = await runTask(server, m.starter, GEN, {
    contentTemplateSimplyId: template,
    dataCollectionSimplyId: people.id,
    dataRecordSimplyIds: [ada],
    destination: { dataFieldSimplyId: people.fields.contract, writeMode: 'REPLACE' },
  });
  expect(done.status).toBe('COMPLETED');
  output = expectOk(await history(admin())).tasks[0].outputs[0];
}, 60_000);

describe('record-output download (rule 4)', () => {
  it('a team admin gets a 60-second URL of the PDF under a safe filename', async () => {
    const link = expectOk(await download(admin()));
    expect(link).toMatchObject({ recordOutputSimplyId: output.recordOutputSimplyId, fileSimplyId: output.file.fileSimplyId, expiresIn: 60, filename: 'Certificate - Ada Lovelace.pdf', contentType: 'application/pdf' });
    expect(new Date(link.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(61_000);
    const file = await fetchBytes(suite.server, link.url);
    expect(file.status).toBe(200);
    expect((await pdfPages(file.bytes))[0]).toContain('Certificate for Ada Lovelace');
  });

  it('someone who can read the destination field may download; canDownload says so', async () => {
    expect(expectOk(await history(m.reader)).tasks[0].outputs[0].canDownload).toBe(true);
    expectOk(await download(m.reader));
  });

  it('someone who reads the record but not the destination field gets 403; canDownload is false', async () => {
    const seen = expectOk(await history(m.hider));
    expect(seen.tasks[0].outputs[0]).toMatchObject({ recordOutputSimplyId: output.recordOutputSimplyId, canDownload: false });
    expectError(await download(m.hider), 403, 'PERMISSION_DENIED');
  });

  it("someone who cannot read the record gets 404 for the download and the record's history", async () => {
    expectError(await download(m.outsider), 404, 'NOT_FOUND');
    expectError(await history(m.outsider), 404, 'NOT_FOUND');
    // nor through a collection the record is not in
    expectError(await get(admin(), `${HISTORY}?dataRecordSimplyId=${ada}&dataCollectionSimplyId=${others.id}`), 404, 'NOT_FOUND');
  });

  it('the starter may download even once the field is hidden from them', async () => {
    await hideField(starterRole, people.fields.contract!);
    expect(expectOk(await history(m.starter)).tasks[0].outputs[0].canDownload).toBe(true);
    expectOk(await download(m.starter));
  });

  it('an output that did not succeed, or whose file was deleted since, is 409 RECORD_OUTPUT_NOT_AVAILABLE', { timeout: 60_000 }, async () => {
    await insertFileRows(suite.server, A().teamId, [{ simplyId: 'file-CCCC-DDDD-EEEE', fileType: 'DOCUMENT' }]);
    const full = (await createRecord(suite.server, A().apiKey, people.id, { [people.fields.first_name!]: 'Full', [people.fields.box!]: ['file-CCCC-DDDD-EEEE'] })).id;
    const failed = await runTask(suite.server, admin(), GEN, { contentTemplateSimplyId: template, dataCollectionSimplyId: people.id, dataRecordSimplyIds: [full], destination: { dataFieldSimplyId: people.fields.box, writeMode: 'APPEND' } });
    expect(failed.status).toBe('FAILED');
    const failedOutput = expectOk(await history(admin(), full)).tasks[0].outputs[0];
    expect(failedOutput).toMatchObject({ status: 'FAILED', canDownload: false });
    expectError(await download(admin(), failedOutput.recordOutputSimplyId), 409, 'RECORD_OUTPUT_NOT_AVAILABLE');

    const other = (await createRecord(suite.server, A().apiKey, people.id, { [people.fields.first_name!]: 'Gone' })).id;
    await runTask(suite.server, admin(), GEN, { contentTemplateSimplyId: template, dataCollectionSimplyId: people.id, dataRecordSimplyIds: [other], destination: { dataFieldSimplyId: people.fields.papers, writeMode: 'APPEND' } });
    const stored = expectOk(await history(admin(), other)).tasks[0].outputs[0];
    expectOk(await suite.server.request('DELETE', `/v1/files/${stored.file.fileSimplyId}`, { token: A().apiKey }));
    const after = expectOk(await history(admin(), other)).tasks[0].outputs[0];
    expect(after).toMatchObject({ status: 'SUCCEEDED', file: null, canDownload: false });
    const error = expectError(await download(admin(), stored.recordOutputSimplyId), 409, 'RECORD_OUTPUT_NOT_AVAILABLE');
    expect(error.message).toContain('deleted');
  });

  it("other teams' outputs are 404, malformed ids 400, API keys IDP_REQUIRED", async () => {
    expectError(await download(adminOf(B())), 404, 'NOT_FOUND');
    expectError(await download(admin(), 'rto-2222-3333-4444'), 404, 'NOT_FOUND');
    expectError(await download(admin(), 'not-an-id'), 400, 'VALIDATION_ERROR');
    expectError(await suite.server.request('GET', `${OUTPUTS}/${output.recordOutputSimplyId}/download`, { token: A().apiKey }), 403, 'IDP_REQUIRED');
    expectError(await suite.server.request('GET', `${HISTORY}?dataRecordSimplyId=${ada}`, { token: A().apiKey }), 403, 'IDP_REQUIRED');
    expectError(await get(admin(), HISTORY), 400, 'VALIDATION_ERROR');
    expectError(await get(admin(), `${HISTORY}?dataRecordSimplyId=${ada}&limit=101`), 400, 'VALIDATION_ERROR');
  });

  it('GraphQL: recordOutputDownload answers the same rules', async () => {
    const query = 'query($id: String!) { recordOutputDownload(recordOutputSimplyId: $id) { url expiresIn filename } }';
    const ok = gqlData(await suite.server.graphql(query, { id: output.recordOutputSimplyId }, { token: m.reader.token, teamId: m.reader.teamId }));
    expect(ok.recordOutputDownload).toMatchObject({ expiresIn: 60, filename: 'Certificate - Ada Lovelace.pdf' });
    expectGqlError(await suite.server.graphql(query, { id: output.recordOutputSimplyId }, { token: m.hider.token, teamId: m.hider.teamId }), 'PERMISSION_DENIED', 403);
    expectGqlError(await suite.server.graphql(query, { id: output.recordOutputSimplyId }, { token: B().userToken, teamId: B().teamSimplyId }), 'NOT_FOUND', 404);
  });
});

describe('eligible destinations and output defaults', () => {
  const eligible = (who: Member, query: string) => get(who, `${ELIGIBLE}?${query}`);
  const base = () => `dataCollectionSimplyId=${people.id}&enumBackgroundTaskTypeId=${GEN}&outputKey=invoice`;

  it("lists the collection's file fields the caller may edit, with their write modes", async () => {
    const data = expectOk(await eligible(admin(), base()));
    expect(data).toMatchObject({ dataCollectionSimplyId: people.id, enumBackgroundTaskTypeId: GEN, outputKey: 'invoice', sourceContentTemplateSimplyId: null, currentDefault: null });
    expect(data.destinations).toEqual([
      { dataFieldSimplyId: people.fields.contract, title: 'contract', columnName: 'contract', dataType: 'SINGLE_FILE', writeModes: ['REPLACE'], isDefault: false },
      { dataFieldSimplyId: people.fields.papers, title: 'papers', columnName: 'papers', dataType: 'MULTI_FILE', writeModes: ['REPLACE', 'APPEND'], isDefault: false },
      { dataFieldSimplyId: people.fields.box, title: 'box', columnName: 'box', dataType: 'MULTI_FILE', writeModes: ['REPLACE', 'APPEND'], isDefault: false },
    ]);
    // a reader may write nowhere; a field hidden from the editor is left out
    expect(expectOk(await eligible(m.reader, base())).destinations).toEqual([]);
    expect(expectOk(await eligible(m.starter, base())).destinations.map((d: any) => d.columnName)).toEqual(['papers', 'box']);
  });

  it('a default is created, replaced in place, marked among the destinations, and only used while enabled', async () => {
    const body = { dataCollectionSimplyId: people.id, enumBackgroundTaskTypeId: GEN, outputKey: 'invoice', dataFieldSimplyId: people.fields.contract, writeMode: 'REPLACE' };
    const created = expectOk(await put(admin(), body));
    expect(created).toMatchObject({ ...body, sourceContentTemplateSimplyId: null, isEnabled: true });
    expect(created.defaultSimplyId).toMatch(/^tod-/);
    const replaced = expectOk(await put(admin(), { ...body, dataFieldSimplyId: people.fields.papers, writeMode: 'APPEND' }));
    expect(replaced).toMatchObject({ defaultSimplyId: created.defaultSimplyId, dataFieldSimplyId: people.fields.papers, writeMode: 'APPEND' });
    let data = expectOk(await eligible(admin(), base()));
    expect(data.currentDefault).toMatchObject({ defaultSimplyId: created.defaultSimplyId, writeMode: 'APPEND' });
    expect(data.destinations.filter((d: any) => d.isDefault).map((d: any) => d.columnName)).toEqual(['papers']);
    // one for this template only wins for it
    const own = expectOk(await put(admin(), { ...body, dataFieldSimplyId: people.fields.box, sourceContentTemplateSimplyId: template }));
    expect(own.defaultSimplyId).not.toBe(created.defaultSimplyId);
    data = expectOk(await eligible(admin(), `${base()}&sourceContentTemplateSimplyId=${template}`));
    expect(data).toMatchObject({ sourceContentTemplateSimplyId: template, currentDefault: { defaultSimplyId: own.defaultSimplyId } });
    // disabled: kept, not used
    expectOk(await put(admin(), { ...body, dataFieldSimplyId: people.fields.papers, writeMode: 'APPEND', isEnabled: false }));
    expect(expectOk(await eligible(admin(), base())).currentDefault).toBeNull();
  });

  it('bad values are 400 with details; without edit access 403; other teams 404', async () => {
    const body = { dataCollectionSimplyId: people.id, enumBackgroundTaskTypeId: GEN, outputKey: 'memo', dataFieldSimplyId: people.fields.papers, writeMode: 'REPLACE' };
    const bad: [unknown, string][] = [
      [{ ...body, writeMode: 'APPEND', dataFieldSimplyId: people.fields.contract }, 'writeMode'],
      [{ ...body, dataFieldSimplyId: people.fields.note }, 'dataFieldSimplyId'],
      [{ ...body, enumBackgroundTaskTypeId: 'DATA_EXPORT' }, 'enumBackgroundTaskTypeId'],
      [{ ...body, outputKey: '' }, 'outputKey'],
      [{ ...body, bucket: 'x' }, 'bucket'],
      [{ ...body, sourceContentTemplateSimplyId: await documentTemplate(suite.server, A(), others) }, 'sourceContentTemplateSimplyId'],
    ];
    for (const [value, field] of bad) {
      const error = expectError(await put(admin(), value), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((d) => d.field), field).toContain(field);
    }
    expectError(await put(m.reader, body), 403, 'PERMISSION_DENIED');
    const theirs = await peopleWithFiles(suite.server, B(), 'Theirs');
    expectError(await put(admin(), { ...body, dataCollectionSimplyId: theirs.id, dataFieldSimplyId: theirs.fields.papers }), 404, 'NOT_FOUND');
    expectError(await eligible(admin(), `dataCollectionSimplyId=${theirs.id}&enumBackgroundTaskTypeId=${GEN}&outputKey=memo`), 404, 'NOT_FOUND');
    expectError(await eligible(admin(), `dataCollectionSimplyId=${people.id}&enumBackgroundTaskTypeId=${GEN}`), 400, 'VALIDATION_ERROR');
    expectError(await suite.server.request('PUT', DEFAULTS, { token: A().apiKey, body }), 403, 'IDP_REQUIRED');
  });

  it('DELETE removes a default (edit access to its collection); again, or from another team, 404', async () => {
    const body = { dataCollectionSimplyId: people.id, enumBackgroundTaskTypeId: GEN, outputKey: 'to_delete', dataFieldSimplyId: people.fields.papers, writeMode: 'APPEND' };
    const created = expectOk(await put(admin(), body));
    const path = `${DEFAULTS}/${created.defaultSimplyId}`;
    expectError(await suite.server.request('DELETE', path, { token: m.reader.token, teamId: m.reader.teamId }), 403, 'PERMISSION_DENIED');
    expectError(await suite.server.request('DELETE', path, { token: m.outsider.token, teamId: m.outsider.teamId }), 404, 'NOT_FOUND');
    expectError(await suite.server.request('DELETE', path, { token: B().userToken, teamId: B().teamSimplyId }), 404, 'NOT_FOUND');
    expect(expectOk(await suite.server.request('DELETE', path, { token: A().userToken, teamId: A().teamSimplyId }))).toEqual({ id: created.defaultSimplyId, deleted: true });
    expectError(await suite.server.request('DELETE', path, { token: A().userToken, teamId: A().teamSimplyId }), 404, 'NOT_FOUND');
    expectError(await suite.server.request('DELETE', `${DEFAULTS}/nope`, { token: A().userToken, teamId: A().teamSimplyId }), 400, 'VALIDATION_ERROR');
  });

  it('GraphQL: eligibleOutputDestinations, upsertTaskOutputDefault, deleteTaskOutputDefault', async () => {
    const as = { token: A().userToken, teamId: A().teamSimplyId };
    const upserted = gqlData(
      await suite.server.graphql(
        'mutation($input: UpsertTaskOutputDefaultInput!) { upsertTaskOutputDefault(input: $input) { defaultSimplyId dataFieldSimplyId writeMode isEnabled } }',
        { input: { dataCollectionSimplyId: people.id, enumBackgroundTaskTypeId: GEN, outputKey: 'graphql', dataFieldSimplyId: people.fields.box, writeMode: 'APPEND' } },
        as,
      ),
    ).upsertTaskOutputDefault;
    expect(upserted).toMatchObject({ dataFieldSimplyId: people.fields.box, writeMode: 'APPEND', isEnabled: true });
    const listed = gqlData(
      await suite.server.graphql(
        'query($c: String!, $t: String!, $k: String!) { eligibleOutputDestinations(dataCollectionSimplyId: $c, enumBackgroundTaskTypeId: $t, outputKey: $k) { destinations { columnName isDefault } currentDefault { defaultSimplyId } } }',
        { c: people.id, t: GEN, k: 'graphql' },
        as,
      ),
    ).eligibleOutputDestinations;
    expect(listed.currentDefault).toEqual({ defaultSimplyId: upserted.defaultSimplyId });
    expect(listed.destinations.find((d: any) => d.isDefault)).toEqual({ columnName: 'box', isDefault: true });
    const deleted = gqlData(await suite.server.graphql('mutation($id: String!) { deleteTaskOutputDefault(defaultSimplyId: $id) }', { id: upserted.defaultSimplyId }, as));
    expect(deleted.deleteTaskOutputDefault).toBe(true);
    expectGqlError(await suite.server.graphql('mutation($id: String!) { deleteTaskOutputDefault(defaultSimplyId: $id) }', { id: upserted.defaultSimplyId }, { token: A().apiKey }), 'IDP_REQUIRED', 403);
  });
});
