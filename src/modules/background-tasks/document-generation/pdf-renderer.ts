// HTML to PDF with the machine's Chromium (Debian's `chromium`; CHROMIUM_PATH names another binary)
// driven by puppeteer-core, which never downloads a browser. One browser per task run, a fresh
// page per document. The page gets no network (every request but data: URLs is refused) and no
// JavaScript, and each step has a time limit. The header and footer are Chromium's own header and
// footer templates, so they repeat on every page inside the margins.
import fs from 'node:fs';
import type { Browser } from 'puppeteer-core';
import { RendererNotConfiguredError } from '../background-tasks.errors.ts';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** setContent and page.pdf each get this long per document */
export const RENDER_TIMEOUT_MS = 30_000;
const LAUNCH_TIMEOUT_MS = 30_000;

/** Read when a browser is launched, so a worker picks up a changed setting on its next task. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
}

export interface PdfDocument {
  /** a whole HTML document: page size and margins in its `@page` rule */
  html: string;
  headerHtml: string | null;
  footerHtml: string | null;
  /** left and right page margins: the header and footer are inset by them */
  marginsMm: { left: number; right: number } | null;
  /** written as the PDF's creation and modification date (see fixDates) */
  createdAt: Date;
}

/** A header or footer template: Chromium draws it at a tiny default size and without the page's styles. */
function marginTemplate(html: string | null, margins: PdfDocument['marginsMm']): string {
  if (html === null) return '<span></span>';
  const inset = margins ? `padding: 0 ${margins.right}mm 0 ${margins.left}mm;` : '';
  return `<div style="box-sizing: border-box; width: 100%; ${inset} font-size: 9pt; font-family: sans-serif;">${html}</div>`;
}

function pdfDate(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `D:${at.getUTCFullYear()}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}+00'00'`;
}

/**
 * Chromium stamps the time of printing into the document information; everything else it writes
 * depends on the HTML (and the Creator, see launch) alone. Stamping a fixed time instead makes a
 * document a function of its HTML, so a retry after a crash produces the same bytes and finds the
 * file it already stored.
 * The stamp is written in place with the same length, so no offset of the file moves.
 */
export function fixDates(pdf: Buffer, at: Date): Buffer {
  const stamp = Buffer.from(pdfDate(at), 'latin1');
  for (const key of ['/CreationDate (', '/ModDate (']) {
    const start = pdf.indexOf(key, 0, 'latin1');
    if (start < 0) continue;
    const from = start + key.length;
    const end = pdf.indexOf(')', from, 'latin1');
    if (end - from === stamp.length && pdf[from] === 0x44 /* D */) stamp.copy(pdf, from);
  }
  return pdf;
}

export class PdfRenderer {
  private readonly browser: Browser;

  private constructor(browser: Browser) {
    this.browser = browser;
  }

  /**
   * Starts Chromium; RENDERER_NOT_CONFIGURED when there is none to start (the task fails, no retry
   * helps). `creator` becomes the PDFs' Creator entry (Chromium writes its user agent there): naming
   * the task in it keeps two tasks' documents distinct files even when their content is the same.
   */
  static async launch(options: { creator: string }): Promise<PdfRenderer> {
    const executablePath = chromiumPath();
    try {
      fs.accessSync(executablePath, fs.constants.X_OK);
    } catch {
      throw new RendererNotConfiguredError(
        'No Chromium is installed where this task runs, so no PDF can be rendered: install the chromium package on the worker machines (or set CHROMIUM_PATH to a Chromium binary) and start the task again',
      );
    }
    const { default: puppeteer } = await import('puppeteer-core');
    try {
      const browser = await puppeteer.launch({
        executablePath,
        headless: true,
        timeout: LAUNCH_TIMEOUT_MS,
        args: [
          '--disable-dev-shm-usage',
          '--no-first-run',
          '--disable-gpu',
          '--disable-extensions',
          '--mute-audio',
          `--user-agent=${options.creator.replace(/[^\w .,:-]/g, '')}`,
          // root (a container) has no sandbox to use; any other user keeps Chromium's sandbox
          ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        ],
      });
      return new PdfRenderer(browser);
    } catch (error) {
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new RendererNotConfiguredError(`Chromium could not be started to render PDFs (${why}); check the chromium installation on the worker machines and start the task again`);
    }
  }

  async render(doc: PdfDocument): Promise<Buffer> {
    const page = await this.browser.newPage();
    try {
      await page.setJavaScriptEnabled(false);
      await page.setRequestInterception(true);
      // a document carries what it shows (embedded images); nothing is fetched from anywhere
      page.on('request', (request) => {
        if (request.isInterceptResolutionHandled()) return;
        void (request.url().startsWith('data:') ? request.continue() : request.abort('blockedbyclient')).catch(() => {});
      });
      await page.setContent(doc.html, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
      const withMargins = doc.headerHtml !== null || doc.footerHtml !== null;
      const pdf = await page.pdf({
        // the template's page size and margins are the document's @page rule
        preferCSSPageSize: true,
        format: 'A4',
        printBackground: true,
        displayHeaderFooter: withMargins,
        headerTemplate: marginTemplate(doc.headerHtml, doc.marginsMm),
        footerTemplate: marginTemplate(doc.footerHtml, doc.marginsMm),
        timeout: RENDER_TIMEOUT_MS,
      });
      return fixDates(Buffer.from(pdf), doc.createdAt);
    } finally {
      await page.close().catch(() => {});
    }
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
  }
}
