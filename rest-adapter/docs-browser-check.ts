// Loads /docs in a real headless browser (the machine's Chromium through puppeteer-core; no browser
// is ever downloaded), waits for the route list to render, records every request the page made,
// saves a screenshot and reads the operation names of the sidebar with every group opened (they
// are the operations' summaries: a sentence there makes the sidebar unreadable). Shared by the docs
// page test and `npm run docs:check`.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';

/** What the rendered reference shows once it has read /openapi.json: the title, tags, paths, summaries. */
export const DOCS_EXPECTED_TEXTS: readonly string[] = [
  'svc platform API',
  'team-roles',
  'webhooks',
  '/v1/auth/login',
  'Complete a multi-factor sign-in',
];

/** The longest operation name the sidebar should show (summaries are at most 40 characters). */
export const SIDEBAR_NAME_MAX = 50;

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The machine's Chromium, headless, trusting the test server's self-signed certificate. */
export async function launchChromium(extraArgs: string[] = []) {
  const { default: puppeteer } = await import('puppeteer-core');
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // root in a container has no sandbox to use; a closed network refuses the browser's own calls home
    args: [
      '--ignore-certificate-errors',
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

export interface DocsCheckResult {
  /** every URL the page requested (blocked ones included) */
  requests: string[];
  /** requests to another origin than the server's */
  foreignRequests: string[];
  /** Content-Security-Policy violations and failed requests reported by the browser */
  problems: string[];
  /** the texts found on the rendered page */
  found: string[];
  /** the labels of the renderer's own toolbar shown on the page (its hosted services: sharing, deploying, SDKs): none on a self-hosted reference */
  vendorToolbar: string[];
  /** the operation names in the sidebar, every group opened, in order */
  sidebarOperations: string[];
  screenshot: string;
}

export async function checkDocsPage(options: {
  baseUrl: string;
  /** texts the rendered reference must show (operation summaries, tags) */
  expectTexts: readonly string[];
  screenshot: string;
  timeoutMs?: number;
}): Promise<DocsCheckResult> {
  const origin = new URL(options.baseUrl).origin;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => void requests.push(request.url()));
    page.on('requestfailed', (request) => void problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
    });
    page.on('pageerror', (error) => void problems.push(`page error: ${String(error)}`));
    const timeout = options.timeoutMs ?? 60_000;
    const response = await page.goto(`${options.baseUrl}/docs`, { waitUntil: 'load', timeout });
    if (response?.status() !== 200) throw new Error(`/docs answered ${response?.status()}`);
    await page.waitForFunction(
      (texts: readonly string[]) => texts.every((t) => document.body.innerText.includes(t)),
      { timeout, polling: 250 },
      options.expectTexts,
    );
    const text = await page.evaluate(() => document.body.innerText);
    const vendorToolbar = await page.evaluate(() => [...document.querySelectorAll('.api-reference-toolbar')].map((el) => (el as HTMLElement).innerText.trim()).filter(Boolean));
    fs.mkdirSync(path.dirname(options.screenshot), { recursive: true });
    await page.screenshot({ path: options.screenshot as `${string}.png` });
    const sidebarOperations = await readSidebarOperations(page, timeout);
    const foreignRequests = requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin);
    return { requests, foreignRequests, problems, found: options.expectTexts.filter((t) => text.includes(t)), vendorToolbar, sidebarOperations, screenshot: options.screenshot };
  } finally {
    await browser.close();
  }
}

/** The sidebar's closed groups (the renderer opens only the first), as page script. */
const CLOSED_GROUPS = "[...document.querySelectorAll('aside button')].filter((b) => /open group/i.test(b.innerText))";

/** Opens every group of the sidebar and reads each operation entry's label (entries are the `li[data-sidebar-id]` whose id names a method). */
async function readSidebarOperations(page: Page, timeout: number): Promise<string[]> {
  await page.evaluate(`${CLOSED_GROUPS}.forEach((b) => b.click())`);
  await page.waitForFunction(`${CLOSED_GROUPS}.length === 0`, { timeout, polling: 250 });
  return page.evaluate(() =>
    [...document.querySelectorAll('aside li[data-sidebar-id]')]
      .filter((li) => /\/(GET|POST|PUT|PATCH|DELETE)\//i.test(li.getAttribute('data-sidebar-id') ?? ''))
      .map((li) => ((li.querySelector('a') as HTMLElement | null)?.innerText ?? '').split('\n')[0]!.trim()),
  );
}
