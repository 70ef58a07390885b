// The signing section of `npm run bench`, in process (it measures the PDF library work, not HTTP):
//   signing-signed-pdf  stamp and certify a 20-page PDF (about 40 lines of text per page) for
//                       three signers with drawn PNG signatures and a few events each: the whole
//                       buildSignedPdf (parse, stamp every page, signature and certificate pages,
//                       audit-trail attachment, save), p95 of 20 runs < 1 s
import sharp from 'sharp';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { buildSignedPdf } from '../../../src/modules/signing/signed-pdf/signed-pdf.ts';
import type { SignedPdfInput } from '../../../src/modules/signing/signed-pdf/signed-pdf.types.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runScenarios, type SectionRun } from '../section-bed.ts';

export const SIGNING_SCENARIOS = ['signing-signed-pdf'] as const;
export type SigningScenario = (typeof SIGNING_SCENARIOS)[number];

const PAGES = 20;
const RUNS = 20;
const WARMUP = 3;
const TARGET_P95_MS = 1000;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;

async function twentyPagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let p = 1; p <= PAGES; p++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Agreement, page ${p}`, { x: 60, y: 780, size: 16, font });
    for (let line = 0; line < 40; line++) {
      page.drawText(`${p}.${line + 1} The parties agree that the obligations set out in this clause apply from the start date.`, { x: 60, y: 750 - line * 17, size: 10, font });
    }
  }
  return Buffer.from(await doc.save());
}

async function drawnSignature(seed: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><rect width="600" height="200" fill="white"/><path d="M20 150 C 120 ${20 + seed * 10}, 220 30, 300 120 S 480 180, 580 ${40 + seed * 20}" stroke="#112" stroke-width="6" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function signers(): Promise<SignedPdfInput['signers']> {
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 24, 12, minutes));
  return Promise.all(
    ['Ann Lee', 'Bob Stone', 'Cy Park'].map(async (name, i) => ({
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}@example.test`,
      roleKey: ['tenant', 'landlord', 'witness'][i]!,
      signingOrder: i + 1,
      typedName: name,
      signatureImagePng: await drawnSignature(i),
      consentVersion: '2026-01',
      events: ['SENT', 'VIEWED', 'SIGNED'].map((type, e) => ({ type, at: at(i * 10 + e), ipAddress: `203.0.113.${10 + i}`, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' })),
    })),
  );
}

async function signedPdfScenario({ lines, targets, summary, progress }: SectionRun): Promise<void> {
  progress('signing: stamp and certify a 20-page PDF');
  const source = await twentyPagePdf();
  const input: SignedPdfInput = { title: 'Lease agreement', requestSimplyId: 'sgr-BNCH-AB23-CD45', source: { pdf: source }, signers: await signers(), consentVersion: '2026-01', completedAt: new Date(Date.UTC(2026, 10, 24, 13)) };
  let pageCount = 0;
  let bytes = 0;
  for (let i = 0; i < WARMUP; i++) await buildSignedPdf(input);
  const measured: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = await buildSignedPdf(input);
    measured.push(performance.now() - started);
    pageCount = result.pageCount;
    bytes = result.pdf.length;
  }
  if (pageCount < PAGES + 2) throw new Error(`the signed PDF has ${pageCount} pages, expected at least ${PAGES + 2}`);
  const s = summarizeLatencies(measured);
  const value = p95(measured);
  summary.signedPdf = { sourcePages: PAGES, sourceBytes: source.length, signers: 3, runs: RUNS, pageCount, bytes, p50: s.p50, p95: value, max: s.max };
  lines.push(
    '',
    `signing-signed-pdf: a ${PAGES}-page source (${(source.length / 1024).toFixed(0)} KB), 3 signers with drawn PNG signatures, ${RUNS} runs in process`,
    `  buildSignedPdf: p50 ${s.p50.toFixed(1)} ms, p95 ${value.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; output ${pageCount} pages, ${(bytes / 1024).toFixed(0)} KB`,
  );
  targets.push(judged(`stamp and certify a ${PAGES}-page PDF (3 drawn signatures), p95 < ${TARGET_P95_MS} ms`, `${value.toFixed(1)} ms`, value < TARGET_P95_MS));
}

export const runSigningSection = (scenarios: readonly SigningScenario[], progress: (line: string) => void) =>
  runScenarios(scenarios, progress, (section) => section.scenario('signing-signed-pdf', () => signedPdfScenario(section)));

export const benchSection = defineBenchSection('signing', SIGNING_SCENARIOS, runSigningSection);
