// The chat widget in the machine's headless Chromium (docs/api/conversations.md "Embedding"): a
// team's page on an allowed https origin (a local server here) embeds the loader; the visitor
// opens the chat and writes; the agent reads it through the API and answers (with an internal
// note and hostile HTML around), and the answer appears in the widget live over graphql-ws. The
// frame is served under its strict Content-Security-Policy (nonce'd scripts only, frame-ancestors
// the widget's origins), nothing is refused and nothing is logged as an error. Screenshots are
// saved in a temporary folder named in the test output.
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../rest-adapter/docs-browser-check.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { call, keyOf, post } from './conversation-fixtures.ts';
import { createWidget, type Widget } from './widget-fixtures.ts';

const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-chat-widget-'));
let server: TestServer;
let team: TeamFixture;
let browser: Browser;
let host: https.Server;
let hostOrigin: string;
let widget: Widget;

beforeAll(async () => {
  server = await startTestServer();
  team = await createTeam(server);
  const tls = path.join(server.dataDir, 'tls');
  // the team's own site: a page that embeds the loader, as the docs' snippet says
  host = https.createServer({ cert: fs.readFileSync(path.join(tls, 'self-signed-cert.pem')), key: fs.readFileSync(path.join(tls, 'self-signed-key.pem')) }, (req, res) => {
    const snippet = new URL(req.url ?? '/', 'https://x').searchParams.get('snippet') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Acme shop</title><h1>Acme shop</h1><p>Welcome to our shop.</p>${snippet}`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `https://localhost:${(host.address() as AddressInfo).port}`;
  widget = await createWidget(server, team, { name: 'Shop chat', allowedOrigins: [hostOrigin], appearance: { title: 'Acme support', greeting: 'Hi! Ask us anything.', primaryColor: '#0F766E' } });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => host?.close(resolve));
  await server?.close();
  console.log(`chat widget screenshots: ${shots}`);
});

/** A page recording console errors, failed responses and policy violations, and the frame's response headers. */
async function watchedPage(): Promise<{ page: Page; problems: string[]; frameHeaders: Promise<Record<string, string>> }> {
  const page = await (await browser.createBrowserContext()).newPage();
  await page.setViewport({ width: 1100, height: 760 });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${(e as Error).message}`));
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && problems.push(`${r.status()} ${r.url()}`));
  const frameHeaders = new Promise<Record<string, string>>((resolve) => page.on('response', (r) => r.url().includes('/widget/v1/frame/') && resolve(r.headers())));
  await page.evaluateOnNewDocument(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, problems, frameHeaders };
}

async function widgetFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector(`iframe#svc-chat-${widget.id}`, { timeout: 15_000 });
  const frame = await handle!.contentFrame();
  await frame.waitForSelector('#launcher', { timeout: 15_000 });
  return frame;
}

const texts = (frame: Frame, selector: string) => frame.$$eval(selector, (els) => els.map((e) => e.textContent));

describe('the chat widget in Chromium', () => {
  it('a visitor writes, the agent answers through the API, the answer arrives live', async () => {
    const { page, problems, frameHeaders } = await watchedPage();
    await page.goto(`${hostOrigin}/?snippet=${encodeURIComponent(widget.embed.snippet)}`, { waitUntil: 'load' });
    const frame = await widgetFrame(page);

    const headers = await frameHeaders;
    const policy = headers['content-security-policy'] ?? '';
    expect(policy).toContain(`frame-ancestors ${hostOrigin}`);
    expect(policy).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'(;|$)/);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");

    await page.screenshot({ path: path.join(shots, '1-launcher.png') });
    await frame.click('#launcher');
    await frame.waitForSelector('#start:not([hidden])', { timeout: 15_000 });
    expect(await frame.$eval('#title', (e) => e.textContent)).toBe('Acme support');
    expect(await frame.$eval('#greeting', (e) => e.textContent)).toBe('Hi! Ask us anything.');
    await frame.type('#start input[name=visitorName]', 'Ada <b>Lovelace</b>');
    await frame.type('#start textarea[name=content]', 'Hello! <img src=x onerror=alert(1)> Where is my order?');
    await page.screenshot({ path: path.join(shots, '2-start.png') });
    await frame.click('#start button[type=submit]');
    await frame.waitForSelector('#messages li.author-visitor', { timeout: 15_000 });
    const conversation = await frame.$eval('#widget', (e) => (e as HTMLElement).dataset.conversation!);
    expect(conversation).toMatch(/^cnv-/);

    // the agent sees it through the API, as the characters the visitor typed
    const thread = expectOk(await call(server, keyOf(team), 'GET', `/v1/conversations/${conversation}/messages`));
    expect(thread).toMatchObject([{ authorType: 'END_USER', channel: 'CHAT', contentType: 'TEXT', content: 'Hello! <img src=x onerror=alert(1)> Where is my order?' }]);
    expect(expectOk(await call(server, keyOf(team), 'GET', `/v1/conversations/${conversation}`))).toMatchObject({ visitorName: 'Ada <b>Lovelace</b>', channel: 'CHAT' });

    // once the widget listens, the agent answers: a note the visitor must never see, then the answer
    await frame.waitForSelector('#widget[data-live="true"]', { timeout: 15_000 });
    await post(server, keyOf(team), conversation, { content: 'INTERNAL: check the warehouse first', channel: 'INTERNAL_NOTE' });
    await post(server, keyOf(team), conversation, { content: '<p>It ships <b>tomorrow</b>.<script>alert(2)</script><img src=x onerror=alert(3)></p>', contentType: 'HTML' });
    await frame.waitForSelector('#messages li.author-agent', { timeout: 15_000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await texts(frame, '#messages li')).toEqual(['Hello! <img src=x onerror=alert(1)> Where is my order?', 'It ships tomorrow.']);
    // nothing anyone wrote became markup: no image, no script beyond the page's own two
    expect(await frame.$$eval('#messages img, #messages script, #messages b', (els) => els.length)).toBe(0);
    expect(await frame.$$eval('script', (els) => els.length)).toBe(2);
    expect(await frame.content()).not.toContain('INTERNAL: check the warehouse');

    // the visitor answers back; the agent reads it
    await frame.type('#compose textarea[name=content]', 'Thank you!');
    await frame.click('#compose button[type=submit]');
    await frame.waitForFunction(() => document.querySelectorAll('#messages li').length === 3, { timeout: 15_000 });
    const after = expectOk(await call(server, keyOf(team), 'GET', `/v1/conversations/${conversation}/messages`));
    expect(after.at(-1)).toMatchObject({ authorType: 'END_USER', content: 'Thank you!' });
    await page.screenshot({ path: path.join(shots, '3-conversation.png') });
    expect(fs.existsSync(path.join(shots, '3-conversation.png'))).toBe(true);
    expect(problems).toEqual([]);
  }, 90_000);

  it('is not shown on an origin the widget does not allow', async () => {
    const { page, problems } = await watchedPage();
    // the same page, reached by another origin name of the same server
    const port = (host.address() as AddressInfo).port;
    await page.goto(`https://127.0.0.1:${port}/?snippet=${encodeURIComponent(widget.embed.snippet)}`, { waitUntil: 'load' });
    const handle = await page.waitForSelector(`iframe#svc-chat-${widget.id}`, { timeout: 15_000 });
    await new Promise((r) => setTimeout(r, 1000));
    const frame = await handle!.contentFrame();
    // the browser refuses to render the frame: nothing of the widget inside
    expect(await frame.$('#launcher')).toBeNull();
    expect(problems.some((p) => /frame-ancestors|Refused to frame/i.test(p))).toBe(true);
    await page.screenshot({ path: path.join(shots, '4-refused-origin.png') });
  }, 60_000);
});
