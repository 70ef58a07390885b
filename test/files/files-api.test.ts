// Every file and folder route over REST, and the same operations over GraphQL (Document 1 §2.8,
// §4.7): list with page/pageSize and filters, get with presigned URLs, download (original and
// variant), batch URLs, variants and regenerate, PATCH, move, soft and force delete, bulk delete,
// folders, versions, storage usage, the compatibility endpoints; other teams' ids are 404.
import sharp from 'sharp';
import { Agent, fetch as undiciFetch } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createIntent, sha256Base64, uploadFile } from '../support/file-uploads.ts';
import { useServer } from '../support/use-server.ts';
import { until } from '../support/until.ts';

const { server, teams } = useServer({ teams: 2, runJobs: true, ownDatabase: 'files_api' });
const [team, other] = teams;

const call = (method: string, path: string, body?: unknown, token = team.apiKey) => server.request(method, path, { token, body });
const fetchUrl = async (url: string) => {
  const response = await undiciFetch(url, { dispatcher: new Agent({ connect: { ca: server.ca || undefined } }) });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
};

async function textFile(text: string, o: Parameters<typeof uploadFile>[3] = {}) {
  const done = await uploadFile(server, team.apiKey, Buffer.from(text), { filename: `${text.slice(0, 12)}.txt`, ...o });
  expect(done.status, done.rejectionMessage).toBe('COMPLETED');
  return done.fileSimplyId as string;
}

let png: Buffer;
let imageId: string;

beforeAll(async () => {
  png = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
  const done = await uploadFile(server, team.apiKey, png, { filename: 'photo.png', contentType: 'image/png' });
  expect(done.status, done.rejectionMessage).toBe('COMPLETED');
  imageId = done.fileSimplyId;
});

describe('images and variants', () => {
  it('records dimensions, renders variants asynchronously, serves thumbnail and variant URLs', async () => {
    const variants = await until('variants', async () => {
      const list = expectOk(await call('GET', `/v1/files/${imageId}/variants`));
      return list.length > 0 ? list : null;
    }, 20_000);
    const types = variants.map((v: any) => v.variantType);
    expect(types).toEqual(expect.arrayContaining(['THUMBNAIL_IMAGE', 'WEB_SIZE_IMAGE', 'RESPONSIVE_320', 'RESPONSIVE_640']));
    for (const v of variants) expect(v.width).toBeLessThanOrEqual(800);
    const file = expectOk(await call('GET', `/v1/files/${imageId}`));
    expect(file).toMatchObject({ fileType: 'IMAGE', width: 800, height: 600, mimeType: 'image/png' });
    expect(file.thumbnailUrl).toMatch(/^https:/);
    const thumb = await fetchUrl(file.thumbnailUrl);
    expect(thumb.status).toBe(200);
    const meta = await sharp(thumb.bytes).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(256);

    const download = expectOk(await call('GET', `/v1/files/${imageId}/download?variantType=WEB_SIZE_IMAGE`));
    expect(download).toMatchObject({ fileSimplyId: imageId, variantType: 'WEB_SIZE_IMAGE', expiresIn: 300 });
    expect(new Date(download.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(300_000);
    const original = expectOk(await call('GET', `/v1/files/${imageId}/download`));
    expect(original).toMatchObject({ expiresIn: 3600, variantType: null, versionNumber: 1 });
    expect((await fetchUrl(original.url)).bytes.equals(png)).toBe(true);
    expectError(await call('GET', `/v1/files/${imageId}/download?variantType=HUGE`), 400, 'VALIDATION_ERROR');

    const queued = expectOk(await call('POST', `/v1/files/${imageId}/variants/regenerate`), 202);
    expect(queued).toEqual({ fileSimplyId: imageId, queued: true });
  });

  it('variants are for images only', async () => {
    const id = await textFile('not an image');
    expectError(await call('POST', `/v1/files/${id}/variants/regenerate`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/files/${id}/download?variantType=THUMBNAIL_IMAGE`), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call('GET', `/v1/files/${id}/variants`))).toEqual([]);
  });
});

describe('list, change, move', () => {
  it('pages by page/pageSize, filters and sorts', async () => {
    const label = gqlData(await server.graphql('mutation { createTeamLabel(input: { name: "Invoices" }) { labelSimplyId } }', {}, { token: team.apiKey })).createTeamLabel.labelSimplyId;
    const folder = expectOk(await call('POST', '/v1/files/folders', { name: 'Reports' }), 201);
    const a = await textFile('alpha report', { fileFolderSimplyId: folder.fileFolderSimplyId, filename: 'alpha-report.txt' });
    const b = await textFile('beta notes', { filename: 'beta-notes.txt' });
    expectOk(await call('PATCH', `/v1/files/${b}`, { labelSimplyIds: [label], altText: 'Beta' }));

    const page1 = await call('GET', '/v1/files?page=1&pageSize=2&sortBy=createdAt&sortOrder=desc');
    expect(expectOk(page1)).toHaveLength(2);
    expect(page1.body.meta.pagination).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
    expect(page1.body.meta.pagination.total).toBeGreaterThanOrEqual(3);

    const inFolder = expectOk(await call('GET', `/v1/files?fileFolderSimplyId=${folder.fileFolderSimplyId}`));
    expect(inFolder.map((f: any) => f.fileSimplyId)).toEqual([a]);
    const atRoot = expectOk(await call('GET', '/v1/files?fileFolderSimplyId=null&pageSize=100'));
    expect(atRoot.map((f: any) => f.fileSimplyId)).toContain(b);
    expect(atRoot.map((f: any) => f.fileSimplyId)).not.toContain(a);
    expect(expectOk(await call('GET', '/v1/files?search=ALPHA-rep')).map((f: any) => f.fileSimplyId)).toEqual([a]);
    expect(expectOk(await call('GET', `/v1/files?labelSimplyIds=${label}`)).map((f: any) => f.fileSimplyId)).toEqual([b]);
    expect(expectOk(await call('GET', '/v1/files?fileType=IMAGE')).map((f: any) => f.fileSimplyId)).toEqual([imageId]);
    const byName = expectOk(await call('GET', '/v1/files?sortBy=filename&sortOrder=asc&pageSize=100')).map((f: any) => f.filename);
    expect(byName).toEqual([...byName].sort());
    for (const q of ['page=0', 'pageSize=101', 'sortBy=size', 'fileType=PDF', `search=${'x'.repeat(129)}`, 'includeDeleted=maybe', 'fileFolderSimplyId=12']) {
      expectError(await call('GET', `/v1/files?${q}`), 400, 'VALIDATION_ERROR', q);
    }

    // GraphQL: the same list
    const gql = gqlData(await server.graphql('query ($f: String) { files(fileFolderSimplyId: $f) { nodes { fileSimplyId } pagination { total page pageSize totalPages hasMore } } }', { f: folder.fileFolderSimplyId }, { token: team.apiKey }));
    expect(gql.files).toEqual({ nodes: [{ fileSimplyId: a }], pagination: { total: 1, page: 1, pageSize: 25, totalPages: 1, hasMore: false } });
  });

  it('PATCH renames and labels; PUT …/folder moves; other teams see 404', async () => {
    const id = await textFile('to be changed');
    const changed = expectOk(await call('PATCH', `/v1/files/${id}`, { filename: 'renamed.txt', altText: 'words' }));
    expect(changed).toMatchObject({ filename: 'renamed.txt', altText: 'words' });
    expect(expectOk(await call('PATCH', `/v1/files/${id}`, { altText: null })).altText).toBeNull();
    expectError(await call('PATCH', `/v1/files/${id}`, { filename: 'a/b' }), 400, 'VALIDATION_ERROR');
    expectError(await call('PATCH', `/v1/files/${id}`, { labelSimplyIds: ['lbl-2222-2222-2222'] }), 400, 'VALIDATION_ERROR');
    const folder = expectOk(await call('POST', '/v1/files/folders', { name: 'Moved here' }), 201);
    expect(expectOk(await call('PUT', `/v1/files/${id}/folder`, { fileFolderSimplyId: folder.fileFolderSimplyId })).fileFolderSimplyId).toBe(folder.fileFolderSimplyId);
    expect(expectOk(await call('PUT', `/v1/files/${id}/folder`, { fileFolderSimplyId: null })).fileFolderSimplyId).toBeNull();

    for (const [method, path, body] of [
      ['GET', `/v1/files/${id}`],
      ['GET', `/v1/files/${id}/download`],
      ['GET', `/v1/files/${id}/variants`],
      ['GET', `/v1/files/${id}/versions`],
      ['GET', `/v1/files/${id}/versions/1/download`],
      ['PATCH', `/v1/files/${id}`, { altText: 'x' }],
      ['PUT', `/v1/files/${id}/folder`, { fileFolderSimplyId: null }],
      ['DELETE', `/v1/files/${id}`],
      ['PATCH', `/v1/files/folders/${folder.fileFolderSimplyId}`, { name: 'x' }],
      ['DELETE', `/v1/files/folders/${folder.fileFolderSimplyId}`],
    ] as [string, string, unknown?][]) {
      expectError(await call(method, path, body, other.apiKey), 404, 'NOT_FOUND', `${method} ${path}`);
    }
    const batch = expectOk(await call('POST', '/v1/files/download-urls', { fileSimplyIds: [id] }, other.apiKey));
    expect(batch).toEqual([expect.objectContaining({ fileSimplyId: id, url: null, error: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
  });
});

describe('delete', () => {
  it('soft delete hides the file and keeps its object; force destroys it and every version', async () => {
    const id = await textFile('soft then hard');
    const { prisma, fileStorage } = server.app.services;
    const row = await prisma.storedFile.findFirstOrThrow({ where: { simplyId: id } });
    expect(expectOk(await call('DELETE', `/v1/files/${id}`))).toEqual({ id, deleted: true });
    expectError(await call('DELETE', `/v1/files/${id}`), 404, 'NOT_FOUND');
    expect(expectOk(await call('GET', '/v1/files?pageSize=100')).map((f: any) => f.fileSimplyId)).not.toContain(id);
    const withDeleted = expectOk(await call('GET', '/v1/files?pageSize=100&includeDeleted=true'));
    expect(withDeleted.find((f: any) => f.fileSimplyId === id)).toMatchObject({ isDeleted: true });
    expect(await fileStorage.stat(row.storageKey)).not.toBeNull();
    expectError(await call('GET', `/v1/files/${id}`), 404, 'NOT_FOUND');
    expect(expectOk(await call('GET', `/v1/files/${id}?includeDeleted=true`)).isDeleted).toBe(true);

    expect(expectOk(await call('DELETE', `/v1/files/${id}`, { force: true }))).toEqual({ id, deleted: true });
    expect(await fileStorage.stat(row.storageKey)).toBeNull();
    expect(await prisma.fileVersion.count({ where: { fileId: row.id } })).toBe(0);
    expectError(await call('GET', `/v1/files/${id}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/v1/files/${id}`, { force: 'yes' }), 400, 'VALIDATION_ERROR');
  });

  it('bulk delete answers per file', async () => {
    const a = await textFile('bulk a');
    const b = await textFile('bulk b');
    const results = expectOk(await call('POST', '/v1/files/bulk-delete', { fileSimplyIds: [a, b, 'file-2222-2222-2222'] }));
    expect(results).toEqual([
      { fileSimplyId: a, deleted: true, error: null },
      { fileSimplyId: b, deleted: true, error: null },
      { fileSimplyId: 'file-2222-2222-2222', deleted: false, error: expect.objectContaining({ code: 'NOT_FOUND' }) },
    ]);
    expectError(await call('POST', '/v1/files/bulk-delete', { fileSimplyIds: [] }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/files/bulk-delete', { fileSimplyIds: Array.from({ length: 101 }, () => a) }), 400, 'VALIDATION_ERROR');
  });
});

describe('folders', () => {
  it('nest, rename, move without cycles, and delete only when empty', async () => {
    const top = expectOk(await call('POST', '/v1/files/folders', { name: 'Top' }), 201);
    const child = expectOk(await call('POST', '/v1/files/folders', { name: 'Child', parentFileFolderSimplyId: top.fileFolderSimplyId }), 201);
    expect(child.parentFileFolderSimplyId).toBe(top.fileFolderSimplyId);
    const listed = expectOk(await call('GET', `/v1/files/folders?parentFileFolderSimplyId=${top.fileFolderSimplyId}`));
    expect(listed.map((f: any) => f.fileFolderSimplyId)).toEqual([child.fileFolderSimplyId]);
    expect(expectOk(await call('GET', '/v1/files/folders')).map((f: any) => f.fileFolderSimplyId)).toContain(top.fileFolderSimplyId);
    expect(expectOk(await call('PATCH', `/v1/files/folders/${child.fileFolderSimplyId}`, { name: 'Renamed' })).name).toBe('Renamed');
    expectError(await call('PATCH', `/v1/files/folders/${top.fileFolderSimplyId}`, { parentFileFolderSimplyId: child.fileFolderSimplyId }), 400, 'VALIDATION_ERROR');
    expectError(await call('PATCH', `/v1/files/folders/${top.fileFolderSimplyId}`, { parentFileFolderSimplyId: top.fileFolderSimplyId }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/v1/files/folders', { name: '' }), 400, 'VALIDATION_ERROR');

    expectError(await call('DELETE', `/v1/files/folders/${top.fileFolderSimplyId}`), 409, 'FOLDER_NOT_EMPTY');
    const file = await textFile('in a folder', { fileFolderSimplyId: child.fileFolderSimplyId });
    expectError(await call('DELETE', `/v1/files/folders/${child.fileFolderSimplyId}`), 409, 'FOLDER_NOT_EMPTY');
    expectOk(await call('DELETE', `/v1/files/${file}`));
    // a soft-deleted file does not keep a folder alive; it moves to the root
    expect(expectOk(await call('DELETE', `/v1/files/folders/${child.fileFolderSimplyId}`))).toEqual({ id: child.fileFolderSimplyId, deleted: true });
    expect(expectOk(await call('GET', `/v1/files/${file}?includeDeleted=true`)).fileFolderSimplyId).toBeNull();
    expectOk(await call('DELETE', `/v1/files/folders/${top.fileFolderSimplyId}`));
  });
});

describe('folder depth', () => {
  it('a move counts the subfolders that come along (at most 20 levels)', async () => {
    let parent: string | undefined;
    for (let level = 1; level <= 19; level++) {
      parent = expectOk(await call('POST', '/v1/files/folders', { name: `level ${level}`, ...(parent ? { parentFileFolderSimplyId: parent } : {}) }), 201).fileFolderSimplyId;
    }
    const branch = expectOk(await call('POST', '/v1/files/folders', { name: 'branch' }), 201).fileFolderSimplyId;
    expectOk(await call('POST', '/v1/files/folders', { name: 'leaf', parentFileFolderSimplyId: branch }), 201);
    expectError(await call('PATCH', `/v1/files/folders/${branch}`, { parentFileFolderSimplyId: parent }), 400, 'VALIDATION_ERROR');
    expectOk(await call('POST', '/v1/files/folders', { name: 'level 20', parentFileFolderSimplyId: parent }), 201);
  });
});

describe('versions and replacement', () => {
  it('a replacement keeps the public id; versions list and download each', async () => {
    const v1 = Buffer.from('first version');
    const id = await textFile('first version');
    const v2 = Buffer.from('second version');
    const done = await uploadFile(server, team.apiKey, v2, { isNewVersionOfFileSimplyId: id, filename: 'second.txt' });
    expect(done).toMatchObject({ status: 'COMPLETED', fileSimplyId: id, versionNumber: 2 });
    const versions = expectOk(await call('GET', `/v1/files/${id}/versions`));
    expect(versions.map((v: any) => [v.versionNumber, v.isCurrent])).toEqual([[2, true], [1, false]]);
    expect(versions[1].checksumSha256).toBe(sha256Base64(v1));
    const old = expectOk(await call('GET', `/v1/files/${id}/versions/1/download`));
    expect((await fetchUrl(old.url)).bytes.equals(v1)).toBe(true);
    expectError(await call('GET', `/v1/files/${id}/versions/3/download`), 404, 'NOT_FOUND');
    expectError(await call('GET', `/v1/files/${id}/versions/0/download`), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call('GET', `/v1/files/${id}`))).toMatchObject({ currentVersionNumber: 2, filename: 'second.txt' });
  });
});

describe('batch URLs, usage and compatibility endpoints', () => {
  it('download-urls answers each file; storage-usage sums what is stored', async () => {
    const id = await textFile('batch url');
    const results = expectOk(await call('POST', '/v1/files/download-urls', { fileSimplyIds: [id, imageId] }));
    expect(results.map((r: any) => [r.fileSimplyId, r.expiresIn, r.error])).toEqual([[id, 3600, null], [imageId, 3600, null]]);
    expectError(await call('POST', '/v1/files/download-urls', { fileSimplyIds: [id], url: 'https://x' }), 400, 'VALIDATION_ERROR');
    const usage = expectOk(await call('GET', '/v1/files/storage-usage'));
    expect(usage.usedBytes).toBeGreaterThan(png.length);
    expect(usage.fileCount).toBeGreaterThan(1);
    expect(usage.quotaBytes).toBe(10 * 1024 ** 3);
  });

  it('files/batch opens several intents and refuses storage addresses; temp-cleanup expires open ones', async () => {
    const item = (text: string) => ({ filename: `${text}.txt`, contentType: 'text/plain', fileSizeBytes: text.length, checksumSha256: sha256Base64(text) });
    const results = expectOk(await call('POST', '/v1/files/batch', { files: [item('one'), { ...item('two'), key: 'teams/x/objects/evil' }, item('three')] }));
    expect(results[0].upload.fileUploadSimplyId).toMatch(/^upl-/);
    expect(results[1]).toMatchObject({ upload: null, error: { code: 'VALIDATION_ERROR' } });
    expect(results[2].upload.upload.url).toMatch(/^https:/);
    expectError(await call('POST', '/v1/files/batch', { files: [item('x')], storageKey: 'a' }), 400, 'VALIDATION_ERROR');
    const cleaned = expectOk(await call('POST', '/v1/files/temp-cleanup', { fileUploadSimplyIds: [results[0].upload.fileUploadSimplyId] }));
    expect(cleaned).toEqual({ expired: 1 });
    const status = expectOk(await call('GET', `/v1/file-uploads/${results[0].upload.fileUploadSimplyId}`));
    expect(status.status).toBe('EXPIRED');
    expect(expectOk(await call('POST', '/v1/files/temp-cleanup')).expired).toBeGreaterThanOrEqual(1);
    expectError(await call('POST', '/v1/files/temp-cleanup', { path: '/tmp' }), 400, 'VALIDATION_ERROR');
  });
});

describe('GraphQL face', () => {
  it('runs the same operations', async () => {
    const bytes = Buffer.from('through graphql');
    const created = gqlData(
      await server.graphql(
        'mutation ($i: CreateFileUploadInput!) { createFileUpload(input: $i) { fileUploadSimplyId status upload { url fields } } }',
        { i: { filename: 'g.txt', contentType: 'text/plain', fileSizeBytes: bytes.length, checksumSha256: sha256Base64(bytes) } },
        { token: team.apiKey },
      ),
    ).createFileUpload;
    expect(created.status).toBe('CREATED');
    const file = gqlData(await server.graphql(`query { file(fileSimplyId: "${imageId}") { fileSimplyId fileType width originalUrl } fileStorageUsage { usedBytes } }`, {}, { token: team.apiKey }));
    expect(file.file).toMatchObject({ fileSimplyId: imageId, fileType: 'IMAGE', width: 800 });
    const versions = gqlData(await server.graphql(`query { fileVersions(fileSimplyId: "${imageId}") { versionNumber isCurrent } fileFolders { name } }`, {}, { token: team.apiKey }));
    expect(versions.fileVersions).toEqual([{ versionNumber: 1, isCurrent: true }]);
    const intent = expectOk(await createIntent(server, team.apiKey, bytes), 201);
    expect(intent.fileUploadSimplyId).toMatch(/^upl-/);
    const missing = await server.graphql('query { file(fileSimplyId: "file-2222-2222-2222") { fileSimplyId } }', {}, { token: team.apiKey });
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
