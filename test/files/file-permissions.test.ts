// Rule 4 and the read rules (docs/api/files.md "Permissions"), and files in records: file and image
// fields must name live files of the team (image fields: images), deleting a file leaves record
// values alone, and record reads expand file metadata (expand=files / DataRecord.files).
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole } from '../support/fixtures.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { createIntent, uploadFile } from '../support/file-uploads.ts';
import { useServer } from '../support/use-server.ts';

const { server, teams } = useServer({ teams: 2, runJobs: true, ownDatabase: 'file_permissions' });
const [team, other] = teams;
const bytes = Buffer.from('permission probe');

let folderId: string;
let fileId: string;
let imageId: string;
let docs: CollectionFixture;

beforeAll(async () => {
  folderId = expectOk(await server.request('POST', '/v1/files/folders', { token: team.apiKey, body: { name: 'Library' } }), 201).fileFolderSimplyId;
  fileId = (await uploadFile(server, team.apiKey, bytes, { filename: 'probe.txt' })).fileSimplyId;
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0a0' } }).png().toBuffer();
  imageId = (await uploadFile(server, team.apiKey, png, { filename: 'p.png', contentType: 'image/png' })).fileSimplyId;
  docs = await createCollection(server, team, { name: 'Docs', fields: { title: 'PLAIN_TEXT', attachment: 'SINGLE_FILE', pictures: 'MULTI_IMAGE' } });
});

const intentStatus = async (token: string, o: Parameters<typeof createIntent>[3] = {}, teamId?: string) =>
  (await createIntent(server, token, bytes, { ...o, teamId })).status;

describe('rule 4: who may upload', () => {
  it('API keys need edit-level TEAM_ADMIN_MEDIA_LIBRARY', async () => {
    const none = await createApiKey(server, team, { name: 'no media', featurePermissions: [] });
    const view = await createApiKey(server, team, { name: 'media view', featurePermissions: ['TEAM_ADMIN_MEDIA_LIBRARY:VIEW'] });
    const edit = await createApiKey(server, team, { name: 'media edit', featurePermissions: ['TEAM_ADMIN_MEDIA_LIBRARY'] });
    expect(await intentStatus(none.key)).toBe(403);
    expect(await intentStatus(view.key)).toBe(403);
    expect(await intentStatus(edit.key)).toBe(201);
    expect(await intentStatus(edit.key, { fileFolderSimplyId: folderId })).toBe(201);
    expect(await intentStatus(edit.key, { isNewVersionOfFileSimplyId: fileId })).toBe(201);
  });

  it('session tokens need the permission and the files:write scope', async () => {
    const without = await mintSessionToken(server, team.apiKey, { oauthScopes: ['records:read'] });
    const withScope = await mintSessionToken(server, team.apiKey, { oauthScopes: ['files:write'] });
    const noFeature = await mintSessionToken(server, team.apiKey, { oauthScopes: ['files:write'], featurePermissions: ['TEAM_SETTINGS:VIEW'] });
    expect(await intentStatus(without.token)).toBe(403);
    expect(await intentStatus(withScope.token)).toBe(201);
    expect(await intentStatus(noFeature.token)).toBe(403);
  });

  it('signed-in users may add root-level attachments; folders and replacements need the permission', async () => {
    const member = await addMember(server, team);
    expect(await intentStatus(member.token, {}, team.teamSimplyId)).toBe(201);
    expect(await intentStatus(member.token, { fileFolderSimplyId: folderId }, team.teamSimplyId)).toBe(403);
    expect(await intentStatus(member.token, { isNewVersionOfFileSimplyId: fileId }, team.teamSimplyId)).toBe(403);
    expect(await intentStatus(team.userToken, { fileFolderSimplyId: folderId }, team.teamSimplyId)).toBe(201);
  });

  it("another team's folder or file is 404, not a permission question", async () => {
    expect(await intentStatus(other.apiKey, { fileFolderSimplyId: folderId })).toBe(404);
    expect(await intentStatus(other.apiKey, { isNewVersionOfFileSimplyId: fileId })).toBe(404);
  });
});

describe('reading files', () => {
  it('without the media library, a member reads its own uploads and files of records it can read', async () => {
    const readerRole = await createRole(server, team, { name: `docs reader ${Date.now()}`, dataPermissions: [{ dataCollectionSimplyId: docs.id, level: 'READ' }] });
    const member = await addMember(server, team, { teamRoleSimplyId: readerRole });
    const as = (method: string, path: string, body?: unknown) => server.request(method, path, { token: member.token, teamId: team.teamSimplyId, body });
    expectError(await as('GET', `/v1/files/${fileId}`), 404, 'NOT_FOUND');
    expect(expectOk(await as('GET', '/v1/files')).map((f: any) => f.fileSimplyId)).not.toContain(fileId);

    const own = await uploadFile(server, member.token, Buffer.from('my own'), { teamId: team.teamSimplyId });
    expect(expectOk(await as('GET', `/v1/files/${own.fileSimplyId}`)).filename).toBe('file.txt');
    expect(expectOk(await as('GET', '/v1/files')).map((f: any) => f.fileSimplyId)).toEqual([own.fileSimplyId]);

    // a file id typed into a text field grants nothing
    expectOk(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: docs.id, fields: { [docs.fields.title!]: imageId } } }), 201);
    expectError(await as('GET', `/v1/files/${imageId}`), 404, 'NOT_FOUND');
    expectOk(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: docs.id, fields: { [docs.fields.attachment!]: fileId } } }), 201);
    expect(expectOk(await as('GET', `/v1/files/${fileId}`)).fileSimplyId).toBe(fileId);
    expectError(await as('PATCH', `/v1/files/${fileId}`, { altText: 'no' }), 403, 'PERMISSION_DENIED');
    expectError(await as('GET', '/v1/files/folders'), 403, 'PERMISSION_DENIED');
  });
});

describe('files in records', () => {
  it('file and image fields name live files of the team; images only in image fields', async () => {
    const create = (fields: Record<string, unknown>) =>
      server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: docs.id, fields } });
    const ok = expectOk(await create({ [docs.fields.attachment!]: fileId, [docs.fields.pictures!]: [imageId] }), 201);
    expectError(await create({ [docs.fields.attachment!]: 'file-2222-2222-2222' }), 400, 'VALIDATION_ERROR');
    expectError(await create({ [docs.fields.pictures!]: [fileId] }), 400, 'VALIDATION_ERROR');
    const foreign = await uploadFile(server, other.apiKey, Buffer.from('theirs'));
    expectError(await create({ [docs.fields.attachment!]: foreign.fileSimplyId }), 400, 'VALIDATION_ERROR');

    const read = await server.request('GET', `/v1/data-records/${ok.id}?expand=files`, { token: team.apiKey });
    expectOk(read);
    expect(read.body.meta.expanded.files.map((f: any) => f.fileSimplyId).sort()).toEqual([fileId, imageId].sort());
    const gql = gqlData(await server.graphql(`query { dataRecord(dataRecordSimplyId: "${ok.id}") { files { fileSimplyId fileType } } }`, {}, { token: team.apiKey }));
    expect(gql.dataRecord.files).toEqual(expect.arrayContaining([{ fileSimplyId: imageId, fileType: 'IMAGE' }]));

    // deleting a file leaves the record's values as they were
    const extra = (await uploadFile(server, team.apiKey, Buffer.from('short lived'))).fileSimplyId;
    const rec = expectOk(await create({ [docs.fields.attachment!]: extra }), 201);
    expectOk(await server.request('DELETE', `/v1/files/${extra}`, { token: team.apiKey, body: { force: true } }));
    const after = expectOk(await server.request('GET', `/v1/data-records/${rec.id}?expand=files`, { token: team.apiKey }));
    expect(after.fields[docs.fields.attachment!]).toBe(extra);
  });
});
