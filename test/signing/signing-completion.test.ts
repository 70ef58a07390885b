// Completion with a file target: the signed PDF is stored as a new version of the target file (or
// a new file put into the field), opened again with a PDF parser (pages, text), its hash kept on the
// request; a completion that is retried or runs twice at once leaves one completed request and one
// PDF version.
import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileVersionBytes, storeGeneratedFileVersion } from '../../src/modules/files/generated-version.ts';
import { COMPLETE_SIGNING, completeSigningRequest } from '../../src/modules/signing/signing-completion.ts';
import { type AutomationTestServer, startAutomationServer } from '../support/automation-fixtures.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { readRecord } from '../support/record-fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { contractCollection, contractRecord, createBody, mailedToken, PNG_1x1, until } from './signing-support.ts';

let sink: SmtpSink;
let server: AutomationTestServer;
let team: TeamFixture;
let c: CollectionFixture;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startAutomationServer({ env: { SMTP_URL: sink.url } });
  team = await createTeam(server);
  c = await contractCollection(server, team);
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token: team.apiKey, body });
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sign = (token: string, typedName: string) => server.request('POST', '/v1/signing/sign', { body: { token, typedName, signatureImage: PNG_1x1, consentAccepted: true, consentVersion: 'v1' } });

/** Creates a request on `record` with `fileTarget`, and has both signers sign in order; answers its detail once the PDF is stored. */
async function signedRequest(record: string, fileTarget: Record<string, unknown>) {
  const body = createBody(c, record, { fileTarget });
  const created = expectOk(await call('POST', '/v1/signing-requests', body), 201);
  expectOk(await sign(await mailedToken(sink, body.signers[0]!.email), 'Ada Lovelace'));
  expectOk(await sign(await mailedToken(sink, body.signers[1]!.email), 'Bob Builder'));
  return until('the signed PDF stored', async () => {
    const d = expectOk(await call('GET', `/v1/signing-requests/${created.id}`));
    return d.signedFileVersionNumber !== null ? d : null;
  });
}

async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string }> {
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  const { totalPages, text } = await extractText(doc, { mergePages: true });
  return { pages: totalPages, text: text as string };
}

async function sourcePdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([612, 792]).drawText(`Lease clause page ${i}`, { x: 60, y: 700, size: 14, font });
  return Buffer.from(await doc.save());
}

const versions = (fileSimplyId: string) =>
  server.app.services.pool.query(`SELECT v."versionNumber" FROM "FileVersion" v JOIN "StoredFile" f ON f.id = v."fileId" WHERE f."simplyId" = $1 ORDER BY 1`, [fileSimplyId]).then((r) => r.rows.map((x) => x.versionNumber));

describe('the signed PDF', () => {
  it('without a source file: a PDF of the review fields becomes a new file in the target field', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const done = await signedRequest(record, { fileFieldSimplyId: c.fields.document });
    expect(done).toMatchObject({ status: 'completed', signedFileSimplyId: expect.any(String), signedFileVersionNumber: 1, completedDocumentSha256: expect.stringMatching(/^[0-9a-f]{64}$/), sourceDocumentSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(done.targets.find((t: any) => t.targetType === 'FILE')).toMatchObject({ state: 'WRITTEN', fileSimplyId: done.signedFileSimplyId, versionNumber: 1, dataFieldSimplyId: c.fields.document });
    const after = await readRecord(server, team.apiKey, record);
    expect(after.fields[c.fields.document!]).toBe(done.signedFileSimplyId);
    const file = await readFileVersionBytes(server.app.services, team.teamId, done.signedFileSimplyId, 1);
    expect(file.contentType).toBe('application/pdf');
    expect(sha256(file.bytes)).toBe(done.completedDocumentSha256);
    const { pages, text } = await pdfText(file.bytes);
    expect(pages).toBeGreaterThanOrEqual(2);
    for (const expected of ['Lease 12B', '1200', 'Ada Lovelace', 'Bob Builder', 'tenant', 'landlord', done.sourceDocumentSha256, done.signingRequestSimplyId]) expect(text).toContain(expected);
    expect(done.events.map((e: any) => e.eventType)).toEqual(expect.arrayContaining(['COMPLETED', 'FIELDS_WRITTEN', 'DOCUMENT_STORED']));
  });

  it('with a source file: the signed PDF is the next version of that file, stamped, with the source hash', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const recordRow = await server.app.services.prisma.dataRecord.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: record } });
    const source = await sourcePdf(3);
    const stored = await storeGeneratedFileVersion(server.app.services, { teamId: team.teamId, dataRecordId: recordRow.id, fileFieldSimplyId: c.fields.document!, filename: 'lease.pdf', contentType: 'application/pdf', bytes: source });
    expectOk(await call('PATCH', `/v1/data-records/${record}`, { fields: { [c.fields.document!]: stored.fileSimplyId } }));

    const done = await signedRequest(record, { fileFieldSimplyId: c.fields.document, fileSimplyId: stored.fileSimplyId, sourceFileVersionNumber: 1 });
    expect(done).toMatchObject({ signedFileSimplyId: stored.fileSimplyId, signedFileVersionNumber: 2, sourceDocumentSha256: sha256(source) });
    expect(await versions(stored.fileSimplyId)).toEqual([1, 2]);
    const file = await readFileVersionBytes(server.app.services, team.teamId, stored.fileSimplyId, 2);
    expect(sha256(file.bytes)).toBe(done.completedDocumentSha256);
    const { pages, text } = await pdfText(file.bytes);
    expect(pages).toBeGreaterThan(3);
    expect(text).toContain('Lease clause page 3');
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain(sha256(source));
  });

  it('a completion retried after a crash, or run twice at once, leaves one PDF version', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const done = await signedRequest(record, { fileFieldSimplyId: c.fields.document });
    const id = (await server.app.services.prisma.signingRequest.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: done.signingRequestSimplyId } })).id;
    // the crash: the PDF was stored but the request never learned it
    await server.app.services.pool.query(`UPDATE "SigningRequest" SET "signedFileVersionNumber" = NULL, "signedFileId" = NULL WHERE id = $1`, [id]);
    await Promise.all([completeSigningRequest(server.app.services, { teamId: team.teamId, id }, { wait: true }), completeSigningRequest(server.app.services, { teamId: team.teamId, id }, { wait: true }), completeSigningRequest(server.app.services, { teamId: team.teamId, id }, { wait: false })]);
    const again = expectOk(await call('GET', `/v1/signing-requests/${done.signingRequestSimplyId}`));
    expect(again).toMatchObject({ status: 'completed', signedFileSimplyId: done.signedFileSimplyId, signedFileVersionNumber: 1, completedDocumentSha256: done.completedDocumentSha256 });
    expect(await versions(done.signedFileSimplyId)).toEqual([1]);
    expect(await server.app.services.prisma.storedFile.count({ where: { teamId: team.teamId, simplyId: done.signedFileSimplyId } })).toBe(1);
    // the write-back ran once: one audited update by the signing link
    const audit = expectOk(await call('GET', `/v1/audit-log/records/DataRecord/${record}`));
    expect(audit.filter((e: any) => e.actor.kind === 'PUBLIC_LINK' && e.changes.some((ch: any) => ch.dataFieldSimplyId === c.fields.signature))).toHaveLength(1);
    expect(await server.app.services.prisma.signingRequest.count({ where: { teamId: team.teamId, sourceRecordId: (await server.app.services.prisma.dataRecord.findFirstOrThrow({ where: { simplyId: record, teamId: team.teamId } })).id, status: 'COMPLETED' } })).toBe(1);
  });

  it('the queued completion job finishes what the inline run left undone', async () => {
    const record = await contractRecord(server, team.apiKey, c);
    const done = await signedRequest(record, { fileFieldSimplyId: c.fields.document });
    const id = (await server.app.services.prisma.signingRequest.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: done.signingRequestSimplyId } })).id;
    await server.app.services.pool.query(`UPDATE "SigningRequest" SET "signedFileVersionNumber" = NULL, "signedFileId" = NULL WHERE id = $1`, [id]);
    await server.app.services.jobs.send(COMPLETE_SIGNING, { teamId: String(team.teamId), signingRequestId: String(id) });
    const again = await until('the job stored the PDF again', async () => {
      const d = expectOk(await call('GET', `/v1/signing-requests/${done.signingRequestSimplyId}`));
      return d.signedFileVersionNumber !== null ? d : null;
    });
    expect(again).toMatchObject({ signedFileSimplyId: done.signedFileSimplyId, signedFileVersionNumber: 1, completedDocumentSha256: done.completedDocumentSha256 });
    expect(await versions(done.signedFileSimplyId)).toEqual([1]);
  });
});
