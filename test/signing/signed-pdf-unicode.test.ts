// Names and texts in any script the embedded font covers (Latin with its extensions, Greek,
// Cyrillic) come out of the signed PDF exactly: on the page stamp, the signature blocks, the
// certificate of completion and the document generated from the review fields, as a reader
// (pdf.js via unpdf) extracts them. The output stays a function of the input.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { loadFontBytes } from '../../src/modules/signing/signed-pdf/fonts.ts';
import { buildSignedPdf } from '../../src/modules/signing/signed-pdf/signed-pdf.ts';
import type { SignedPdfInput } from '../../src/modules/signing/signed-pdf/signed-pdf.types.ts';

const COMPLETED = new Date('2026-11-24T15:04:05.678Z');
const NAMES = ['Zoë Åström', 'Łukasz Żółć', 'Ελένη Παπαδοπούλου', 'Дмитрий Иванов'];
const EMAILS = ['zoë@exämple.test', 'łukasz@example.test', 'eleni@παράδειγμα.test', 'dmitry@пример.test'];
const AGENTS = ['Navigateur/1.0 (Français)', 'Przeglądarka/2.0 (Łódź)', 'Περιηγητής/3.0', 'Браузер/4.0 (Москва)'];

function input(source: SignedPdfInput['source']): SignedPdfInput {
  return {
    title: 'Contrat de bail — Ελληνικά · Русский · Čeština',
    requestSimplyId: 'sgr-AB23-CD45-EF80',
    source,
    consentVersion: 'Согласие 2026 · συναίνεση',
    completedAt: COMPLETED,
    signers: NAMES.map((name, i) => ({
      name,
      email: EMAILS[i]!,
      roleKey: `role${i}`,
      signingOrder: i + 1,
      typedName: name,
      signatureImagePng: null,
      consentVersion: 'Согласие 2026 · συναίνεση',
      events: [{ type: 'SIGNED', at: new Date(COMPLETED.getTime() - (4 - i) * 60_000), ipAddress: '203.0.113.9', userAgent: AGENTS[i]! }],
    })),
  };
}

async function sourcePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Source page 1', { x: 60, y: 700, size: 12, font });
  return Buffer.from(await doc.save());
}

async function pagesOf(pdf: Buffer): Promise<string[]> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(doc, { mergePages: false });
  return text as string[];
}

describe('names and texts in Latin, Greek and Cyrillic', () => {
  it('are printed exactly on every page of a stamped source PDF and its certificate', async () => {
    const result = await buildSignedPdf(input({ pdf: await sourcePdf() }));
    const pages = await pagesOf(result.pdf);
    const [stamped, ...appended] = pages;
    expect(stamped).toContain(`Electronically signed by ${NAMES.join(', ')}`);
    const signatures = appended[0]!;
    for (const [i, name] of NAMES.entries()) {
      expect(signatures, name).toContain(`${name} (role${i})`);
      expect(signatures, EMAILS[i]).toContain(EMAILS[i]);
    }
    const certificate = appended.slice(1).join('\n');
    expect(certificate).toContain('Contrat de bail — Ελληνικά · Русский · Čeština');
    expect(certificate).toContain('Согласие 2026 · συναίνεση');
    for (const [i, name] of NAMES.entries()) {
      expect(certificate, name).toContain(`Signer ${i + 1}: ${name}`);
      expect(certificate, name).toContain(`Name: ${name}`);
      expect(certificate, name).toContain(`typed name "${name}"`);
      expect(certificate, EMAILS[i]).toContain(`Email: ${EMAILS[i]}`);
      expect(certificate, AGENTS[i]).toContain(`User agent: ${AGENTS[i]}`);
    }
    expect(pages.join('\n')).not.toContain('?');
    expect(certificate).not.toContain('cannot show');
  });

  it('are printed exactly in the document generated from the review fields', async () => {
    const reviewFields = [
      { label: 'Locataire', value: 'Zoë Åström, Łukasz Żółć' },
      { label: 'Ενοικιαστής', value: 'Ελένη Παπαδοπούλου' },
      { label: 'Арендатор', value: 'Дмитрий Иванов' },
    ];
    const result = await buildSignedPdf(input({ reviewFields }));
    const all = (await pagesOf(result.pdf)).join('\n');
    for (const { label, value } of reviewFields) {
      expect(all, label).toContain(label);
      expect(all, value).toContain(value);
    }
    expect(all).not.toContain('?');
  });

  it('gives the same bytes for the same input', async () => {
    const source = await sourcePdf();
    const a = await buildSignedPdf(input({ pdf: source }));
    const b = await buildSignedPdf(input({ pdf: source }));
    expect(b.sha256).toBe(a.sha256);
    const c = await buildSignedPdf(input({ reviewFields: [{ label: 'Ονομα', value: 'Дмитрий' }] }));
    const d = await buildSignedPdf(input({ reviewFields: [{ label: 'Ονομα', value: 'Дмитрий' }] }));
    expect(d.sha256).toBe(c.sha256);
    expect(d.sourceSha256).toBe(c.sourceSha256);
  });

  it('prints right-to-left names (no bidi layout) and CJK as "?", and the certificate says so', async () => {
    const base = input({ reviewFields: [{ label: 'A', value: 'B' }] });
    const result = await buildSignedPdf({ ...base, signers: [{ ...base.signers[0]!, name: 'שרה 東京 Zoë', typedName: null }] });
    const all = (await pagesOf(result.pdf)).join('\n');
    expect(all).toContain('Name: ??? ?? Zoë');
    expect(all).toContain('characters the certificate font cannot show');
  });

  it('reads the font files once per process', () => {
    expect(loadFontBytes()).toBe(loadFontBytes());
  });
});
