// The upload flow end to end (Document 1 §3, §4.7 rules 1-3, 5-7) over REST with the local
// driver and the built-in scanner, workers running: intent, signed post, complete (202, then the
// final status), idempotent and concurrent completes, credential binding, tampering refused by the
// storage endpoint, EXPIRED intents, text and SVG inspection, EICAR, quota at intent time, and the
// subscription on an upload's status. Rejection reasons one by one: upload-rejections.test.ts.
import { describe, expect, it } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createApiKey, createTeam } from '../support/fixtures.ts';
import { completeUpload, createIntent, finalStatus, postToSignedUrl, sha256Base64, uploadFile, type UploadIntent } from '../support/file-uploads.ts';
import { useServer } from '../support/use-server.ts';
import { until } from '../support/until.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';

const { server, teams } = useServer({ teams: 2, runJobs: true, ownDatabase: 'uploads' });
const [team, other] = teams;

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

async function intentFor(bytes: Buffer, o: Parameters<typeof createIntent>[3] = {}): Promise<UploadIntent> {
  return expectOk(await createIntent(server, team.apiKey, bytes, o), 201);
}

async function download(url: string) {
  const response = await undiciFetch(url, { dispatcher: new Agent({ connect: { ca: server.ca || undefined } }) });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('the happy path', () => {
  it('intent → post → complete → COMPLETED file with version 1; the status never shows storage coordinates', async () => {
    const bytes = Buffer.from('hello, files\n');
    const intent = await intentFor(bytes, { filename: 'hello.txt' });
    expect(intent.fileUploadSimplyId).toMatch(/^upl-/);
    expect(intent.status).toBe('CREATED');
    expect(intent.upload.url).toMatch(/^https:\/\//);
    expect(new Date(intent.upload.expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(intent.upload.expiresIn).toBeLessThanOrEqual(600);

    // complete before the bytes arrived: 409, intent stays open
    expectError(await completeUpload(server, team.apiKey, intent.fileUploadSimplyId), 409, 'UPLOAD_NOT_RECEIVED');
    const posted = await postToSignedUrl(server, intent, bytes, { partType: 'text/plain' });
    expect(posted.status, posted.text).toBeLessThan(300);

    const completed = await completeUpload(server, team.apiKey, intent.fileUploadSimplyId);
    expect([200, 202]).toContain(completed.status);
    const done = await finalStatus(server, team.apiKey, intent.fileUploadSimplyId);
    expect(done).toMatchObject({ status: 'COMPLETED', filename: 'hello.txt', contentType: 'text/plain', fileSizeBytes: bytes.length, versionNumber: 1, rejectionReason: null });
    expect(done.fileSimplyId).toMatch(/^file-/);
    const status = await server.request('GET', `/v1/file-uploads/${intent.fileUploadSimplyId}`, { token: team.apiKey });
    expect(status.text).not.toMatch(/teams\/|storageKey|objects\//);

    // completing again answers the final status (200)
    const again = expectOk(await completeUpload(server, team.apiKey, intent.fileUploadSimplyId));
    expect(again.status).toBe('COMPLETED');

    const file = expectOk(await server.request('GET', `/v1/files/${done.fileSimplyId}`, { token: team.apiKey }));
    expect(file).toMatchObject({ filename: 'hello.txt', fileType: 'TEXT', mimeType: 'text/plain', fileSizeBytes: bytes.length, currentVersionNumber: 1, thumbnailUrl: null });
    const fetched = await download(file.originalUrl);
    expect(fetched.status).toBe(200);
    expect(fetched.bytes.equals(bytes)).toBe(true);
    expect(fetched.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('concurrent completes move the upload once and all answer its status', async () => {
    const bytes = Buffer.from('concurrent completes');
    const intent = await intentFor(bytes);
    await postToSignedUrl(server, intent, bytes, { partType: 'text/plain' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => completeUpload(server, team.apiKey, intent.fileUploadSimplyId)));
    for (const a of answers) expect([200, 202], a.text).toContain(a.status);
    const done = await finalStatus(server, team.apiKey, intent.fileUploadSimplyId);
    expect(done.status).toBe('COMPLETED');
    const files = await server.app.services.prisma.fileVersion.count({ where: { file: { simplyId: done.fileSimplyId } } });
    expect(files).toBe(1);
  });
});

describe('binding and tampering', () => {
  it('an intent belongs to its credential and team: others get 404', async () => {
    const bytes = Buffer.from('mine');
    const intent = await intentFor(bytes);
    const second = await createApiKey(server, team, { name: `second ${Date.now()}`, featurePermissions: ['TEAM_ADMIN_MEDIA_LIBRARY'] });
    expectError(await server.request('GET', `/v1/file-uploads/${intent.fileUploadSimplyId}`, { token: second.key }), 404, 'NOT_FOUND');
    expectError(await completeUpload(server, second.key, intent.fileUploadSimplyId), 404, 'NOT_FOUND');
    expectError(await server.request('GET', `/v1/file-uploads/${intent.fileUploadSimplyId}`, { token: other.apiKey }), 404, 'NOT_FOUND');
    expectError(await completeUpload(server, team.userToken, intent.fileUploadSimplyId, team.teamSimplyId), 404, 'NOT_FOUND');
  });

  it('the storage endpoint refuses another size, another checksum, another type and changed fields; nothing is stored', async () => {
    const bytes = Buffer.from('exactly these bytes');
    const intent = await intentFor(bytes);
    const bigger = await postToSignedUrl(server, intent, Buffer.concat([bytes, Buffer.from('!')]), { partType: 'text/plain' });
    expect(bigger.status).toBeGreaterThanOrEqual(400);
    const same = Buffer.from('EXACTLY these bytes');
    const otherBytes = await postToSignedUrl(server, intent, same, { partType: 'text/plain' });
    expect(otherBytes.status).toBeGreaterThanOrEqual(400);
    const otherType = await postToSignedUrl(server, intent, bytes, { partType: 'image/png' });
    expect(otherType.status).toBeGreaterThanOrEqual(400);
    for (const [name, value] of Object.entries(intent.upload.fields)) {
      if (/sig/i.test(name)) continue;
      const changed = await postToSignedUrl(server, intent, bytes, { fields: { [name]: `${value}x` }, partType: 'text/plain' });
      expect(changed.status, `changed ${name}`).toBeGreaterThanOrEqual(400);
    }
    expectError(await completeUpload(server, team.apiKey, intent.fileUploadSimplyId), 409, 'UPLOAD_NOT_RECEIVED');
  });

  it('validates the intent: allowlisted exact type, sizes, checksum, filename; no storage address is accepted', async () => {
    const good = { filename: 'a.txt', contentType: 'text/plain', fileSizeBytes: 3, checksumSha256: sha256Base64('abc') };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...good, contentType: 'application/octet-stream' }, 'contentType'],
      [{ ...good, contentType: 'text/html' }, 'contentType'],
      [{ ...good, contentType: 'Text/Plain' }, 'contentType'],
      [{ ...good, fileSizeBytes: 0 }, 'fileSizeBytes'],
      [{ ...good, fileSizeBytes: 10 * 1024 * 1024 + 1 }, 'fileSizeBytes'],
      [{ ...good, contentType: 'application/pdf', fileSizeBytes: 500 * 1024 * 1024 + 1 }, 'fileSizeBytes'],
      [{ ...good, checksumSha256: 'abc' }, 'checksumSha256'],
      [{ ...good, filename: '../etc/passwd' }, 'filename'],
      [{ ...good, filename: '' }, 'filename'],
      [{ ...good, storageKey: 'teams/x/objects/y' }, 'storageKey'],
      [{ ...good, fileFolderSimplyId: '12' }, 'fileFolderSimplyId'],
    ];
    for (const [body, field] of bad) {
      const error = expectError(await server.request('POST', '/v1/file-uploads', { token: team.apiKey, body }), 400, 'VALIDATION_ERROR', field);
      expect(JSON.stringify(error.details), field).toContain(field);
    }
  });

  it('an intent that lapsed ends EXPIRED and loses its object', async () => {
    const bytes = Buffer.from('too late');
    const intent = await intentFor(bytes);
    await postToSignedUrl(server, intent, bytes, { partType: 'text/plain' });
    const { prisma, fileStorage } = server.app.services;
    const row = await prisma.fileUpload.update({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: intent.fileUploadSimplyId } }, data: { expiresAt: new Date(Date.now() - 3600_000) } });
    const answer = expectOk(await completeUpload(server, team.apiKey, intent.fileUploadSimplyId));
    expect(answer).toMatchObject({ status: 'EXPIRED', fileSimplyId: null });
    expect(await fileStorage.stat(row.storageKey)).toBeNull();
  });
});

describe('content', () => {
  it('EICAR is rejected as MALWARE_DETECTED by the built-in scanner and never becomes a file', async () => {
    const done = await uploadFile(server, team.apiKey, Buffer.from(EICAR), { filename: 'eicar.txt' });
    expect(done).toMatchObject({ status: 'REJECTED', rejectionReason: 'MALWARE_DETECTED', fileSimplyId: null });
  });

  it('XML with a DTD and an external entity is refused; well-formed XML is kept', async () => {
    const xxe = Buffer.from('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<r>&x;</r>\n');
    expect(await uploadFile(server, team.apiKey, xxe, { filename: 'x.xml', contentType: 'application/xml' })).toMatchObject({ status: 'REJECTED', rejectionReason: 'UNSUPPORTED_TYPE' });
    const fine = Buffer.from('<?xml version="1.0"?>\n<r a="1"><b/></r>\n');
    expect(await uploadFile(server, team.apiKey, fine, { filename: 'ok.xml', contentType: 'application/xml' })).toMatchObject({ status: 'COMPLETED' });
    const badJson = Buffer.from('{"a": ');
    expect(await uploadFile(server, team.apiKey, badJson, { filename: 'a.json', contentType: 'application/json' })).toMatchObject({ status: 'REJECTED', rejectionReason: 'UNSUPPORTED_TYPE' });
  });

  it('an SVG with script and event handlers is stored sanitized and served with a sandboxing CSP', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)"><rect width="10" height="10" onclick="alert(4)"/></a></svg>',
    );
    const done = await uploadFile(server, team.apiKey, svg, { filename: 'x.svg', contentType: 'image/svg+xml' });
    expect(done.status).toBe('COMPLETED');
    const file = expectOk(await server.request('GET', `/v1/files/${done.fileSimplyId}`, { token: team.apiKey }));
    const fetched = await download(file.originalUrl);
    const text = fetched.bytes.toString('utf8');
    expect(text).toContain('<svg');
    expect(text).toContain('<rect');
    expect(text).not.toMatch(/script|onload|onclick|javascript:/i);
    expect(fetched.headers.get('content-type')).toBe('image/svg+xml');
    expect(fetched.headers.get('content-security-policy')).toContain('sandbox');
    expect(file.fileSizeBytes).toBe(fetched.bytes.length);
  });

  it('bytes that do not match the declared type are UNSUPPORTED_TYPE', async () => {
    const done = await uploadFile(server, team.apiKey, Buffer.from('not a png at all'), { filename: 'fake.png', contentType: 'image/png' });
    expect(done).toMatchObject({ status: 'REJECTED', rejectionReason: 'UNSUPPORTED_TYPE' });
  });
});

describe('storage limit at intent creation', () => {
  it('answers 409 STORAGE_LIMIT_EXCEEDED when the team is full', async () => {
    const small = await createTeam(server);
    await server.app.services.prisma.teamStorageQuota.create({ data: { teamId: small.teamId, quotaBytes: 10n } });
    const error = expectError(await createIntent(server, small.apiKey, Buffer.from('eleven bytes')), 409, 'STORAGE_LIMIT_EXCEEDED');
    expect(error.message).toMatch(/storage limit/);
    const usage = expectOk(await server.request('GET', '/v1/files/storage-usage', { token: small.apiKey }));
    expect(usage).toMatchObject({ usedBytes: 0, quotaBytes: 10, isTeamQuota: true, fileCount: 0 });
  });
});

describe("a team's own storage limit", () => {
  it('system administrators set and clear it; nobody else may', async () => {
    const admin = await createTeam(server, { isSystemAdmin: true });
    const target = await createTeam(server);
    const set = 'mutation ($t: String!, $q: Float) { setTeamStorageQuota(teamSimplyId: $t, quotaBytes: $q) }';
    const denied = await server.graphql(set, { t: target.teamSimplyId, q: 5 }, { token: target.userToken });
    expect(denied.errors?.[0]?.extensions?.code).toBe('PERMISSION_DENIED');
    expect((await server.graphql(set, { t: target.teamSimplyId, q: 5 }, { token: admin.userToken })).data?.setTeamStorageQuota).toBe(true);
    expect(expectOk(await server.request('GET', '/v1/files/storage-usage', { token: target.apiKey }))).toMatchObject({ quotaBytes: 5, isTeamQuota: true });
    expectError(await createIntent(server, target.apiKey, Buffer.from('more than five')), 409, 'STORAGE_LIMIT_EXCEEDED');
    expect((await server.graphql(set, { t: target.teamSimplyId, q: null }, { token: admin.userToken })).data?.setTeamStorageQuota).toBe(true);
    expect(expectOk(await server.request('GET', '/v1/files/storage-usage', { token: target.apiKey }))).toMatchObject({ quotaBytes: 10 * 1024 ** 3, isTeamQuota: false });
    const bad = await server.graphql(set, { t: target.teamSimplyId, q: -1 }, { token: admin.userToken });
    expect(bad.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
  });
});

describe('realtime', () => {
  it('fileUploadStatus pushes the status until it is final', async () => {
    const bytes = Buffer.from('pushed, not polled');
    const intent = await intentFor(bytes);
    await postToSignedUrl(server, intent, bytes, { partType: 'text/plain' });
    const statuses: string[] = [];
    const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${team.apiKey}` } });
    const ended = new Promise<void>((resolve, reject) => {
      client.subscribe<{ fileUploadStatus: { status: string } }>(
        { query: 'subscription ($id: String!) { fileUploadStatus(fileUploadSimplyId: $id) { status fileSimplyId } }', variables: { id: intent.fileUploadSimplyId } },
        { next: (result) => (result.data ? statuses.push(result.data.fileUploadStatus.status) : reject(new Error(JSON.stringify(result.errors)))), error: reject, complete: resolve },
      );
    });
    await until('the first status', () => statuses.length > 0);
    await completeUpload(server, team.apiKey, intent.fileUploadSimplyId);
    await ended;
    await client.dispose();
    expect(statuses[0]).toMatch(/CREATED|PENDING/);
    expect(statuses.at(-1)).toBe('COMPLETED');
  });
});
