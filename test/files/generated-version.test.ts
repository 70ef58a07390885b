// Platform-generated versions (docs/api/files.md "Platform-generated versions"): bytes the platform
// produced (a signed PDF) stored through the real storage as the next version of a file a record
// field holds, or as a new file; read back byte for byte; the field's rules, the team's storage
// limit and tenancy hold; a retry with the same bytes adds nothing.
import { PDFDocument } from 'pdf-lib';
import { Agent, fetch as undiciFetch } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/expect-envelope.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { uploadFile } from '../support/file-uploads.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { fieldValueWithFile, PLATFORM_CREATOR, readFileVersionBytes, storeGeneratedFileVersion } from '../../src/modules/files/generated-version.ts';

const { server, teams } = useServer({ teams: 2, runJobs: true, ownDatabase: 'generated_versions' });
const [team, other] = teams;

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText(text, { x: 50, y: 700 });
  return Buffer.from(await doc.save());
}

const recordId = async (simplyId: string) => (await server.app.services.prisma.dataRecord.findFirstOrThrow({ where: { simplyId } })).id;
const fetchBytes = async (url: string) => Buffer.from(await (await undiciFetch(url, { dispatcher: new Agent({ connect: { ca: server.ca || undefined } }) })).arrayBuffer());

let contracts: CollectionFixture;
let originalPdf: Buffer;
let contractFileId: string;
let recordSimplyId: string;

beforeAll(async () => {
  originalPdf = await pdf('original contract');
  const done = await uploadFile(server, team.apiKey, originalPdf, { filename: 'contract.pdf', contentType: 'application/pdf' });
  expect(done.status, done.rejectionMessage).toBe('COMPLETED');
  contractFileId = done.fileSimplyId;
  contracts = await createCollection(server, team, {
    name: 'Contracts',
    fields: { title: 'PLAIN_TEXT', contract: 'SINGLE_FILE', annexes: { dataType: 'MULTI_FILE', config: { maxItems: 1 } }, photo: 'SINGLE_IMAGE' },
  });
  recordSimplyId = (await createRecord(server, team.apiKey, contracts.id, { [contracts.fields.title!]: 'Lease', [contracts.fields.contract!]: contractFileId })).id;
});

describe('a new version of a file the record field holds', () => {
  it('stores the bytes as the next version, readable back and downloadable through the files routes', async () => {
    const signed = await pdf('signed contract');
    const stored = await storeGeneratedFileVersion(server.app.services, {
      teamId: team.teamId, dataRecordId: await recordId(recordSimplyId), fileFieldSimplyId: contracts.fields.contract!, fileSimplyId: contractFileId,
      filename: 'contract-signed.pdf', contentType: 'application/pdf', bytes: signed,
    });
    expect(stored).toEqual({ fileSimplyId: contractFileId, versionNumber: 2 });

    const current = await readFileVersionBytes(server.app.services, team.teamId, contractFileId);
    expect(current.versionNumber).toBe(2);
    expect(current.contentType).toBe('application/pdf');
    expect(current.bytes.equals(signed)).toBe(true);
    expect((await readFileVersionBytes(server.app.services, team.teamId, contractFileId, 1)).bytes.equals(originalPdf)).toBe(true);

    const versions = expectOk(await server.request('GET', `/v1/files/${contractFileId}/versions`, { token: team.apiKey }));
    expect(versions.map((v: any) => [v.versionNumber, v.isCurrent, v.filename])).toEqual([[2, true, 'contract-signed.pdf'], [1, false, 'contract.pdf']]);
    const file = expectOk(await server.request('GET', `/v1/files/${contractFileId}`, { token: team.apiKey }));
    expect(file).toMatchObject({ currentVersionNumber: 2, mimeType: 'application/pdf', fileType: 'DOCUMENT', fileSizeBytes: signed.length });
    expect((await fetchBytes(file.originalUrl)).equals(signed)).toBe(true);
  });

  it('a retry with the same bytes finds the version it stored instead of adding another', async () => {
    const signed = await pdf('signed twice');
    const args = {
      teamId: team.teamId, dataRecordId: await recordId(recordSimplyId), fileFieldSimplyId: contracts.fields.contract!, fileSimplyId: contractFileId,
      filename: 'contract-signed.pdf', contentType: 'application/pdf' as const, bytes: signed,
    };
    const [a, b] = await Promise.all([storeGeneratedFileVersion(server.app.services, args), storeGeneratedFileVersion(server.app.services, args)]);
    expect(a).toEqual(b);
    expect(await storeGeneratedFileVersion(server.app.services, args)).toEqual(a);
    const rows = await server.app.services.prisma.fileVersion.findMany({ where: { file: { simplyId: contractFileId } } });
    expect(rows.filter((r) => r.versionNumber === a.versionNumber)).toHaveLength(1);
    expect(rows.filter((r) => r.createdByKind === PLATFORM_CREATOR).length).toBe(2);
  });

  it('refuses a file the record field does not hold, a field that is not a file field, and a missing record', async () => {
    const loose = (await uploadFile(server, team.apiKey, await pdf('loose'), { filename: 'loose.pdf', contentType: 'application/pdf' })).fileSimplyId;
    const base = { teamId: team.teamId, dataRecordId: await recordId(recordSimplyId), filename: 'x.pdf', contentType: 'application/pdf' as const, bytes: await pdf('x') };
    await expect(storeGeneratedFileVersion(server.app.services, { ...base, fileFieldSimplyId: contracts.fields.contract!, fileSimplyId: loose })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    await expect(storeGeneratedFileVersion(server.app.services, { ...base, fileFieldSimplyId: contracts.fields.photo! })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(storeGeneratedFileVersion(server.app.services, { ...base, fileFieldSimplyId: contracts.fields.title! })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(storeGeneratedFileVersion(server.app.services, { ...base, fileFieldSimplyId: contracts.fields.contract!, bytes: Buffer.from('not a pdf') })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(storeGeneratedFileVersion(server.app.services, { ...base, dataRecordId: 999_999_999n, fileFieldSimplyId: contracts.fields.contract! })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await readFileVersionBytes(server.app.services, team.teamId, loose)).versionNumber).toBe(1);
  });
});

describe('a new file when the field holds none', () => {
  it('creates a DOCUMENT file written by the platform, readable through the record once the caller puts it in the field', async () => {
    const bare = (await createRecord(server, team.apiKey, contracts.id, { [contracts.fields.title!]: 'Bare' })).id;
    const bytes = await pdf('generated from review fields');
    const stored = await storeGeneratedFileVersion(server.app.services, {
      teamId: team.teamId, dataRecordId: await recordId(bare), fileFieldSimplyId: contracts.fields.annexes!, filename: 'signed.pdf', contentType: 'application/pdf', bytes,
    });
    expect(stored.versionNumber).toBe(1);
    expect(stored.fileSimplyId).toMatch(/^file-/);
    const row = await server.app.services.prisma.storedFile.findFirstOrThrow({ where: { simplyId: stored.fileSimplyId } });
    expect(row).toMatchObject({ teamId: team.teamId, fileType: 'DOCUMENT', mimeType: 'application/pdf', createdByKind: PLATFORM_CREATOR, filename: 'signed.pdf', fileSizeBytes: BigInt(bytes.length) });
    expect((await readFileVersionBytes(server.app.services, team.teamId, stored.fileSimplyId)).bytes.equals(bytes)).toBe(true);

    // the caller writes the field through the records service; then the file is a live reference
    const value = fieldValueWithFile(null, 'MULTI_FILE', stored.fileSimplyId);
    expect(value).toEqual([stored.fileSimplyId]);
    expectOk(await server.request('PATCH', `/v1/data-records/${bare}`, { token: team.apiKey, body: { fields: { [contracts.fields.annexes!]: value } } }));
    const expanded = await server.request('GET', `/v1/data-records/${bare}?expand=files`, { token: team.apiKey });
    expect(expanded.body.meta.expanded.files.map((f: any) => f.fileSimplyId)).toEqual([stored.fileSimplyId]);

    // the field holds its maximum (1) now: another new file is refused
    await expect(storeGeneratedFileVersion(server.app.services, {
      teamId: team.teamId, dataRecordId: await recordId(bare), fileFieldSimplyId: contracts.fields.annexes!, filename: 'more.pdf', contentType: 'application/pdf', bytes: await pdf('more'),
    })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('tenancy', () => {
  it("another team's file, record or version is 404", async () => {
    await expect(readFileVersionBytes(server.app.services, other.teamId, contractFileId)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await expect(readFileVersionBytes(server.app.services, team.teamId, contractFileId, 99)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(readFileVersionBytes(server.app.services, team.teamId, 'file-AAAA-BBBB-CCCC')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(readFileVersionBytes(server.app.services, team.teamId, 'not an id')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const bytes = await pdf('cross team');
    await expect(storeGeneratedFileVersion(server.app.services, {
      teamId: other.teamId, dataRecordId: await recordId(recordSimplyId), fileFieldSimplyId: contracts.fields.contract!, filename: 'x.pdf', contentType: 'application/pdf', bytes,
    })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const theirs = await createCollection(server, other, { name: 'Theirs', fields: { doc: 'SINGLE_FILE' } });
    const theirRecord = (await createRecord(server, other.apiKey, theirs.id, {})).id;
    await expect(storeGeneratedFileVersion(server.app.services, {
      teamId: other.teamId, dataRecordId: await recordId(theirRecord), fileFieldSimplyId: theirs.fields.doc!, fileSimplyId: contractFileId, filename: 'x.pdf', contentType: 'application/pdf', bytes,
    })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the storage limit', () => {
  it('refuses bytes that would take the team over its limit, storing nothing', async () => {
    const { prisma } = server.app.services;
    const usage = expectOk(await server.request('GET', '/v1/files/storage-usage', { token: team.apiKey }));
    await prisma.teamStorageQuota.upsert({ where: { teamId: team.teamId }, create: { teamId: team.teamId, quotaBytes: BigInt(usage.usedBytes) + 10n }, update: { quotaBytes: BigInt(usage.usedBytes) + 10n } });
    try {
      const versionsBefore = await prisma.fileVersion.count({ where: { teamId: team.teamId } });
      await expect(storeGeneratedFileVersion(server.app.services, {
        teamId: team.teamId, dataRecordId: await recordId(recordSimplyId), fileFieldSimplyId: contracts.fields.contract!, fileSimplyId: contractFileId,
        filename: 'too-big.pdf', contentType: 'application/pdf', bytes: await pdf('over the limit'),
      })).rejects.toMatchObject({ code: 'STORAGE_LIMIT_EXCEEDED', status: 409 });
      expect(await prisma.fileVersion.count({ where: { teamId: team.teamId } })).toBe(versionsBefore);
    } finally {
      await prisma.teamStorageQuota.delete({ where: { teamId: team.teamId } });
    }
  });
});
