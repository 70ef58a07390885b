// The document-generation section of `npm run bench`, in process (it measures Chromium's work, not
// HTTP or the database):
//   document-generation-pdf  one generated document as DOCUMENT_GENERATION renders it: a two-page
//                            A4 certificate (header and footer on every page, a table, an embedded
//                            image) through PdfRenderer, on one browser kept open as a task keeps
//                            it; p50/p95 of 20 renders, and what launching the browser costs once
//                            per task. Informational: the issue states no target for it.
import sharp from 'sharp';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { PdfRenderer, type PdfDocument } from '../../../src/modules/background-tasks/document-generation/pdf-renderer.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runScenarios, type SectionRun } from '../section-bed.ts';

export const DOCUMENT_GENERATION_SCENARIOS = ['document-generation-pdf'] as const;
export type DocumentGenerationScenario = (typeof DOCUMENT_GENERATION_SCENARIOS)[number];

const RUNS = 20;
const WARMUP = 2;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;

async function certificate(): Promise<PdfDocument> {
  const logo = await sharp({ create: { width: 240, height: 80, channels: 3, background: '#2a4d8f' } }).png().toBuffer();
  const rows = Array.from({ length: 60 }, (_, i) => `<tr><td>${i + 1}</td><td>Module ${i + 1}: data modelling and records</td><td>${(70 + (i % 30)).toFixed(0)}%</td></tr>`).join('');
  const html = [
    '<!DOCTYPE html><html><head><meta charset="utf-8">',
    '<style>@page { size: 210mm 297mm; margin: 25mm 20mm 25mm 20mm; }</style>',
    '<style>body { font-family: serif; } h1 { color: #2a4d8f; } td { border-bottom: 1px solid #ccc; padding: 2mm; }</style>',
    '</head><body><main>',
    `<img src="data:image/png;base64,${logo.toString('base64')}" alt="">`,
    '<h1>Certificate for Ada Lovelace</h1><p>Awarded for completing the programme with distinction.</p>',
    `<table>${rows}</table>`,
    '</main></body></html>',
  ].join('\n');
  return { html, headerHtml: '<b>Header for Ada</b>', footerHtml: 'Page <span class="pageNumber"></span> of <span class="totalPages"></span>', marginsMm: { left: 20, right: 20 }, createdAt: new Date(Date.UTC(2026, 10, 24)) };
}

async function pdfScenario({ lines, targets, summary, progress }: SectionRun): Promise<void> {
  progress('document-generation: render a two-page certificate with Chromium');
  const doc = await certificate();
  const launchStarted = performance.now();
  const renderer = await PdfRenderer.launch({ creator: 'svc document generation, bench' });
  const launchMs = performance.now() - launchStarted;
  try {
    for (let i = 0; i < WARMUP; i++) await renderer.render(doc);
    const measured: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      bytes = (await renderer.render(doc)).length;
      measured.push(performance.now() - started);
    }
    const s = summarizeLatencies(measured);
    const value = p95(measured);
    summary.documentPdf = { runs: RUNS, launchMs, bytes, p50: s.p50, p95: value, max: s.max };
    lines.push(
      '',
      `document-generation-pdf: a two-page A4 certificate (header, footer, 60-row table, embedded image), ${RUNS} renders on one browser`,
      `  render: p50 ${s.p50.toFixed(1)} ms, p95 ${value.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; output ${(bytes / 1024).toFixed(0)} KB; browser launch (once per task) ${launchMs.toFixed(0)} ms`,
    );
    targets.push(judged('one generated PDF (two-page certificate), p95', `${value.toFixed(1)} ms`, true, { informational: true }));
  } finally {
    await renderer.close();
  }
}

export const runDocumentGenerationSection = (scenarios: readonly DocumentGenerationScenario[], progress: (line: string) => void) =>
  runScenarios(scenarios, progress, (section) => section.scenario('document-generation-pdf', () => pdfScenario(section)));

export const benchSection = defineBenchSection('document-generation', DOCUMENT_GENERATION_SCENARIOS, runDocumentGenerationSection);
