// The signed PDF (docs/api/signing-requests.md "The signed PDF"): built with pdf-lib, opened again
// with pdf.js (unpdf) to check what a reader sees: the page count, the stamp on every page, the
// signature blocks with their drawn images, the certificate's facts (names, roles, emails, event
// times, IPs, user agents, consent version, the source SHA-256), the attached audit trail; names
// outside the embedded font's character set; refused sources; a 20-page source.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream, degrees, StandardFonts } from 'pdf-lib';
import { extractText, getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSignedPdf, sourceDocumentBytes } from '../../src/modules/signing/signed-pdf/signed-pdf.ts';
import type { SignedPdfInput } from '../../src/modules/signing/signed-pdf/signed-pdf.types.ts';
import { inspectSourcePdf } from '../../src/modules/signing/signed-pdf/source-pdf.ts';
import { UnusableSourcePdfError } from '../../src/modules/signing/signed-pdf/signed-pdf.errors.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const COMPLETED = new Date('2026-11-24T15:04:05.678Z');

async function sourcePdf(pages: number, options: { rotateSecond?: boolean } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 40; line++) page.drawText(`Source page ${i}, clause ${line + 1}: the parties agree to the terms set out here.`, { x: 60, y: 720 - line * 16, size: 10, font });
    if (options.rotateSecond && i === 2) page.setRotation(degrees(90));
  }
  return Buffer.from(await doc.save());
}

async function signatureImage(color: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><path d="M10 80 C 60 10, 110 10, 150 60 S 250 90, 290 20" stroke="${color}" stroke-width="4" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

let images: Buffer[];
beforeAll(async () => {
  images = await Promise.all(['#123', '#a22', '#2a2'].map(signatureImage));
});

function signers(): SignedPdfInput['signers'] {
  return [
    {
      name: 'Bob Stone', email: 'bob@example.test', roleKey: 'landlord', signingOrder: 2, typedName: null, signatureImagePng: images[1]!, consentVersion: '2026-01',
      events: [
        { type: 'SENT', at: new Date('2026-11-24T14:00:00.000Z'), ipAddress: null, userAgent: null },
        { type: 'VIEWED', at: new Date('2026-11-24T15:00:00.000Z'), ipAddress: '198.51.100.20', userAgent: 'BobBrowser/2.0 (X11; Linux)' },
        { type: 'SIGNED', at: new Date('2026-11-24T15:04:05.678Z'), ipAddress: '198.51.100.20', userAgent: 'BobBrowser/2.0 (X11; Linux)' },
      ],
    },
    {
      name: 'Ann Lee', email: 'ann@example.test', roleKey: 'tenant', signingOrder: 1, typedName: 'Ann Lee', signatureImagePng: images[0]!, consentVersion: '2026-01',
      events: [
        { type: 'SENT', at: new Date('2026-11-24T12:00:00.000Z'), ipAddress: null, userAgent: null },
        { type: 'VIEWED', at: new Date('2026-11-24T12:30:00.000Z'), ipAddress: '203.0.113.7', userAgent: 'AnnAgent/1.0 (Macintosh)' },
        { type: 'SIGNED', at: new Date('2026-11-24T12:31:10.000Z'), ipAddress: '203.0.113.7', userAgent: 'AnnAgent/1.0 (Macintosh)' },
      ],
    },
  ];
}

async function open(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(doc, { mergePages: false });
  return { doc, pages: text as string[] };
}

/** The attached audit trail: pdf.js lists the attachment, pdf-lib decodes its stream. */
async function auditTrail(doc: Awaited<ReturnType<typeof getDocumentProxy>>, pdf: Buffer): Promise<any> {
  const listed = await doc.getAttachments();
  const names = listed instanceof Map ? [...listed.keys()] : Object.keys(listed ?? {});
  expect(names).toEqual(['audit-trail.json']);
  const parsed = await PDFDocument.load(pdf);
  const tree = parsed.catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('EmbeddedFiles'), PDFDict).lookup(PDFName.of('Names'), PDFArray);
  const spec = tree.lookup(1, PDFDict);
  const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F')) as PDFRawStream;
  return JSON.parse(Buffer.from(decodePDFRawStream(stream).decode()).toString('utf8'));
}

/** Image paints on a page, as pdf.js's operator list reports them. */
async function imagePaints(doc: Awaited<ReturnType<typeof getDocumentProxy>>, pageNumber: number): Promise<number> {
  const { OPS } = await getResolvedPDFJS();
  const ops = await (await doc.getPage(pageNumber)).getOperatorList();
  return ops.fnArray.filter((op: number) => op === OPS.paintImageXObject).length;
}

describe('a source PDF, stamped and certified', () => {
  it('keeps the pages, stamps each, appends signatures and a certificate with every fact', async () => {
    const source = await sourcePdf(3, { rotateSecond: true });
    const result = await buildSignedPdf({ title: 'Lease 12 Harbour St', requestSimplyId: 'sgr-AB23-CD45-EF67', source: { pdf: source }, signers: signers(), consentVersion: '2026-01', completedAt: COMPLETED });
    expect(result.sourceSha256).toBe(sha256(source));
    expect(result.sha256).toBe(sha256(result.pdf));
    const { doc, pages } = await open(result.pdf);
    expect(doc.numPages).toBe(result.pageCount);
    expect(result.pageCount).toBe(5); // 3 source pages + signatures + certificate

    for (let i = 0; i < 3; i++) {
      expect(pages[i]).toContain(`Source page ${i + 1}`);
      expect(pages[i]).toContain('Electronically signed by Ann Lee, Bob Stone on 2026-11-24 15:04 UTC');
      expect(pages[i]).toContain(`page ${i + 1} of 5`);
    }
    const signaturesPage = pages[3]!;
    expect(signaturesPage).toContain('Signatures');
    expect(signaturesPage.indexOf('Ann Lee (tenant)')).toBeLessThan(signaturesPage.indexOf('Bob Stone (landlord)'));
    expect(signaturesPage).toContain('Signed electronically on 2026-11-24T12:31:10.000Z');
    expect(signaturesPage).toContain('Signed electronically on 2026-11-24T15:04:05.678Z');
    expect(await imagePaints(doc, 4)).toBe(2);
    expect(await imagePaints(doc, 1)).toBe(0);

    const certificate = pages[4]!;
    for (const fact of [
      'Certificate of completion', 'Lease 12 Harbour St', 'sgr-AB23-CD45-EF67', '2026-11-24T15:04:05.678Z', result.sourceSha256,
      'Ann Lee', 'ann@example.test', 'Role: tenant', 'Bob Stone', 'bob@example.test', 'Role: landlord', 'Consent version accepted: 2026-01',
      '2026-11-24T12:30:00.000Z', 'VIEWED', '203.0.113.7', 'AnnAgent/1.0 (Macintosh)', '198.51.100.20', 'BobBrowser/2.0 (X11; Linux)', 'IP address: not recorded',
    ]) expect(certificate, fact).toContain(fact);
    expect(certificate).toMatch(/Consent version\s+2026-01/);

    const trail = await auditTrail(doc, result.pdf);
    expect(trail).toMatchObject({ signingRequestSimplyId: 'sgr-AB23-CD45-EF67', sourceDocumentSha256: result.sourceSha256, consentVersion: '2026-01' });
    expect(trail.signers.map((s: any) => s.name)).toEqual(['Ann Lee', 'Bob Stone']);
  });

  it('gives the same bytes for the same input (a retried completion stores nothing new)', async () => {
    const source = await sourcePdf(2);
    const input = { title: 'Twice', requestSimplyId: 'sgr-AB23-CD45-EF68', source: { pdf: source }, signers: signers(), consentVersion: null, completedAt: COMPLETED };
    const a = await buildSignedPdf(input);
    await new Promise((r) => setTimeout(r, 20));
    const b = await buildSignedPdf(input);
    expect(b.sha256).toBe(a.sha256);
  });

  it('stamps and certifies a 20-page source with three drawn signatures', async () => {
    const source = await sourcePdf(20);
    const three = [...signers(), { name: 'Cy Park', email: null, roleKey: 'witness', signingOrder: 3, typedName: 'C. Park', signatureImagePng: images[2]!, consentVersion: '2026-01', events: [{ type: 'SIGNED', at: COMPLETED, ipAddress: '2001:db8::1', userAgent: 'CyAgent/3' }] }];
    const started = performance.now();
    const result = await buildSignedPdf({ title: 'Twenty pages', requestSimplyId: 'sgr-AB23-CD45-EF69', source: { pdf: source }, signers: three, consentVersion: '2026-01', completedAt: COMPLETED });
    expect(performance.now() - started).toBeLessThan(5000);
    const { doc, pages } = await open(result.pdf);
    expect(doc.numPages).toBe(result.pageCount);
    expect(result.pageCount).toBeGreaterThanOrEqual(22);
    for (let i = 0; i < 20; i++) {
      expect(pages[i]).toContain(`Source page ${i + 1}`);
      expect(pages[i]).toContain('Ann Lee, Bob Stone, Cy Park');
    }
    let paints = 0;
    for (let p = 21; p <= result.pageCount; p++) paints += await imagePaints(doc, p);
    expect(paints).toBe(3);
    const appended = pages.slice(20).join('\n');
    expect(appended).toContain('2001:db8::1');
    expect(appended).toContain('CyAgent/3');
    expect(appended).toContain('Email: —');
  });
});

describe('a document generated from the review fields', () => {
  it('writes each label and value over as many pages as needed, then the same signatures and certificate', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `term${i}`).join(' ');
    const reviewFields = [
      { label: 'Tenant', value: 'Ann Lee' },
      { label: 'Address', value: '12 Harbour St\nPort Town' },
      { label: 'Terms', value: long },
      { label: 'Reference', value: 'X'.repeat(300) },
      ...Array.from({ length: 60 }, (_, i) => ({ label: `Clause ${i + 1}`, value: `Clause text ${i + 1}` })),
    ];
    const input = { title: 'Generated lease', requestSimplyId: 'sgr-AB23-CD45-EF70', source: { reviewFields }, signers: signers(), consentVersion: '2026-01', completedAt: COMPLETED };
    const result = await buildSignedPdf(input);
    const generated = await sourceDocumentBytes(input);
    expect(result.sourceSha256).toBe(sha256(generated));
    const sourcePages = (await inspectSourcePdf(generated)).pageCount;
    expect(sourcePages).toBeGreaterThan(1);

    const { doc, pages } = await open(result.pdf);
    expect(doc.numPages).toBe(sourcePages + 2);
    const body = pages.slice(0, sourcePages).join('\n');
    for (const text of ['Generated lease', 'Tenant', 'Ann Lee', '12 Harbour St', 'Port Town', 'term0', 'term399', 'Clause 60', 'Clause text 60']) expect(body, text).toContain(text);
    expect(pages[0]).toContain(`page 1 of ${sourcePages + 2}`);
    expect(pages.at(-1)).toContain(result.sourceSha256);
    expect(pages.at(-1)).toMatch(new RegExp(`Source document pages\\s+${sourcePages}\\b`));
  });
});

describe('text the embedded fonts cannot draw', () => {
  it('replaces it instead of failing, and keeps the original in the audit trail', async () => {
    const names = ['Дмитрий Петров', 'Łukasz Żółć', '東京 花子', 'Zoë 😀 Ørsted'];
    const input: SignedPdfInput = {
      title: 'Договор 契約 — Ünïcode',
      requestSimplyId: 'sgr-AB23-CD45-EF71',
      source: { reviewFields: [{ label: 'Имя', value: 'Ωμέγα\u200b\u202e evil \u0000 text' }] },
      signers: names.map((name, i) => ({ name, email: `p${i}@example.test`, roleKey: `role${i}`, signingOrder: 1, typedName: name, signatureImagePng: null, consentVersion: 'v1', events: [{ type: 'SIGNED', at: COMPLETED, ipAddress: '203.0.113.9', userAgent: 'Agent 東京' }] })),
      consentVersion: 'v1',
      completedAt: COMPLETED,
    };
    const result = await buildSignedPdf(input);
    const { doc, pages } = await open(result.pdf);
    const all = pages.join('\n');
    // Latin, Greek and Cyrillic (and the few emoji DejaVu has) are drawn exactly; CJK (not in the font) becomes "?"
    expect(all).toContain('Дмитрий Петров');
    expect(all).toContain('Łukasz Żółć');
    expect(all).toContain('Ωμέγα evil');
    expect(all).toContain('Договор ?? — Ünïcode');
    expect(all).toContain('?? ??');
    expect(all).toContain('Zoë 😀 Ørsted');
    expect(all).toContain('Agent ??');
    expect(all).toContain('characters the certificate font cannot show');
    const trail = await auditTrail(doc, result.pdf);
    expect(trail.signers.map((s: any) => s.name)).toEqual(names);
    expect(trail.title).toBe(input.title);
  });

  it('notes an unreadable drawn image instead of failing', async () => {
    const [first] = signers();
    const result = await buildSignedPdf({ title: 'Bad image', requestSimplyId: 'sgr-AB23-CD45-EF72', source: { reviewFields: [{ label: 'A', value: 'B' }] }, signers: [{ ...first!, signatureImagePng: Buffer.from('not a png') }], consentVersion: null, completedAt: COMPLETED });
    const { pages } = await open(result.pdf);
    expect(pages.join('\n')).toContain('could not be read');
  });
});

describe('sources that cannot be signed', () => {
  const build = (pdf: Buffer) => buildSignedPdf({ title: 'T', requestSimplyId: 'sgr-AB23-CD45-EF73', source: { pdf }, signers: signers(), consentVersion: null, completedAt: COMPLETED });

  it('refuses bytes that are not a PDF, and a PDF that does not parse', async () => {
    for (const bytes of [Buffer.from('hello world'), Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage'), Buffer.alloc(0)]) {
      const error = await build(bytes).catch((e) => e);
      expect(error).toBeInstanceOf(UnusableSourcePdfError);
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, reason: 'MALFORMED' });
    }
    const valid = await sourcePdf(1);
    await expect(build(valid.subarray(0, 200))).rejects.toMatchObject({ reason: 'MALFORMED' });
  });

  it('refuses an encrypted PDF', async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('secret');
    const encrypt = doc.context.register(doc.context.obj({ Filter: PDFName.of('Standard'), V: 1, R: 2, Length: 40, P: -44, O: 'x'.repeat(32), U: 'y'.repeat(32) }));
    doc.context.trailerInfo.Encrypt = encrypt;
    const encrypted = Buffer.from(await doc.save({ useObjectStreams: false }));
    const error = await build(encrypted).catch((e) => e);
    expect(error).toBeInstanceOf(UnusableSourcePdfError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'ENCRYPTED' });
    await expect(inspectSourcePdf(encrypted)).rejects.toMatchObject({ reason: 'ENCRYPTED' });
  });
});
