// GraphiQL at /graphql (GRAPHIQL=true): the page and every file it needs come from the server
// itself. Checked over HTTP (types, caching, refusals), and in the machine's Chromium cut off from
// any network but the test server's address: an API key typed into the headers editor runs a
// query over HTTP and a subscription over graphql-ws (the key sent as connection parameters).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/main/config.ts';
import { launchChromium } from '../../rest-adapter/docs-browser-check.ts';
import { createApiKey } from '../support/fixtures.ts';
import { rawRequest } from '../support/raw-https.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';

const { server, teams: [team] } = useServer({ teams: 1, env: { GRAPHIQL: true } });
const until = untilWith({ timeoutMs: 30_000, everyMs: 100 });

const HTML = { accept: 'text/html,application/xhtml+xml' };

async function graphiqlPage(target: TestServer) {
  return target.request('GET', '/graphql', { headers: HTML });
}

function assetUrls(html: string): string[] {
  return [...html.matchAll(/\/graphql\/assets\/[A-Za-z0-9_-]+\/[a-z.-]+\.(?:js|css)/g)].map((m) => m[0]);
}

describe('GraphiQL over HTTP', () => {
  it('answers a browser at /graphql with a page that loads nothing from elsewhere', async () => {
    const page = await graphiqlPage(server);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<title>svc platform GraphiQL</title>');
    // (the attribute value is escaped: &#39; is a quote to the browser)
    expect(page.text).toContain(`http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;;`);
    // no absolute URL at all: every script, stylesheet and worker is a path on this server
    expect(page.text).not.toMatch(/(?:https?:)?\/\/[a-z0-9]/i);
    const urls = new Set(assetUrls(page.text));
    for (const name of ['graphiql.css', 'yoga-graphiql.js', 'graphql-ws.js', 'graphiql-start.js', 'editor.worker.js', 'json.worker.js', 'graphql.worker.js']) {
      expect([...urls].some((u) => u.endsWith(`/${name}`)), name).toBe(true);
    }
  });

  it('serves each file with its type and immutable caching, GET and HEAD', async () => {
    const urls = [...new Set(assetUrls((await graphiqlPage(server)).text))];
    for (const url of urls) {
      const response = await server.request('GET', url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toMatch(url.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      expect(response.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(Number(response.headers.get('content-length')), url).toBe(Buffer.byteLength(response.text));
      const head = await server.request('HEAD', url);
      expect(head.status, url).toBe(200);
      expect(head.headers.get('content-length'), url).toBe(response.headers.get('content-length'));
      expect(head.text, url).toBe('');
    }
    const bundle = urls.find((u) => u.endsWith('/yoga-graphiql.js'))!;
    expect((await server.request('GET', bundle)).text).toContain('renderYogaGraphiQL');
  });

  it('refuses other methods, unknown names, another tag and any way out of the table', async () => {
    const bundle = assetUrls((await graphiqlPage(server)).text).find((u) => u.endsWith('/yoga-graphiql.js'))!;
    const tagged = bundle.slice(0, bundle.lastIndexOf('/') + 1);
    const post = await server.request('POST', bundle, { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.body.error.code).toBe('METHOD_NOT_ALLOWED');
    for (const target of [
      `${tagged}nothing.js`,
      `${tagged}yoga-graphiql.umd.js`,
      '/graphql/assets/0000000000/yoga-graphiql.js',
      '/graphql/assets/yoga-graphiql.js',
      '/graphql/assets/',
      `${tagged}package.json`,
      `${tagged}..%2F..%2Fpackage.json`,
      `${tagged}%2e%2e%2fpackage.json`,
      `${tagged}monacoeditorwork%2Feditor.worker.bundle.js`,
    ]) {
      const response = await server.request('GET', target);
      expect(response.status, target).toBe(404);
      expect(response.body.error.code, target).toBe('NOT_FOUND');
    }
    // dot segments never reach the table (the front door refuses them)
    for (const target of [`${tagged}../../../package.json`, `${tagged}%2e%2e/%2e%2e/package.json`, '/graphql/assets/../../package.json']) {
      expect((await rawRequest(server.baseUrl, server.ca, { method: 'GET', path: target })).status, target).toBe(400);
    }
  });

  it('leaves GraphQL over HTTP as it was', async () => {
    const get = await server.request('GET', '/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json' } });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { __typename: 'Query' } });
    const viewer = await server.graphql('{ viewer { credentialKind } }', undefined, { token: team.apiKey });
    expect(viewer.errors).toBeUndefined();
  });
});

describe('GraphiQL off', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer({ env: { GRAPHIQL: false } });
  });
  afterAll(() => off?.close());

  it('is on in development, off in production and tests unless GRAPHIQL says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).graphiql).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).graphiql).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).graphiql).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', GRAPHIQL: 'true' }).graphiql).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', GRAPHIQL: 'false' }).graphiql).toBe(false);
  });

  it('answers no page and no files', async () => {
    const page = await graphiqlPage(off);
    expect(page.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
    expect(page.text).not.toContain('GraphiQL');
    const urls = assetUrls((await graphiqlPage(server)).text);
    for (const url of urls) expect((await off.request('GET', url)).status, url).toBe(404);
  });
});

/**
 * Where the browser's traffic for any other host goes: a proxy that records what was asked of it
 * and answers nothing useful. The browser resolves no name either.
 */
async function startTrapProxy(): Promise<{ port: number; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const trap = net.createServer((socket) => {
    socket.once('data', (chunk) => {
      seen.push(chunk.toString('latin1').split('\r\n')[0]!);
      socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  return {
    port: (trap.address() as net.AddressInfo).port,
    seen,
    close: () => new Promise<void>((resolve) => trap.close(() => resolve())),
  };
}

/** The text a Monaco editor shows (spaces normalised). */
async function editorText(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (el) => ((el as HTMLElement).innerText ?? '').replace(/\u00a0/g, ' '));
}

const QUERY_EDITOR = '.graphiql-query-editor .monaco-editor .view-lines';
// the variables editor shares the section, hidden while the Headers tab is open
const HEADERS_EDITOR = 'section[aria-label="Headers"] .graphiql-editor:not(.hidden) .view-lines';
const RESPONSE = 'section[aria-label="Result Window"]';

/** Types `text` into the Authorization value of the headers template, just before its closing quote. */
async function typeIntoAuthorization(page: Page, text: string): Promise<void> {
  await page.waitForSelector(HEADERS_EDITOR, { visible: true });
  await page.click(HEADERS_EDITOR);
  await page.keyboard.down('Control');
  await page.keyboard.press('Home');
  await page.keyboard.up('Control');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  // the cursor stands after `",`: step back over the comma and the closing quote
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type(text);
  await page.keyboard.press('Home');
}

/** Replaces the operation in the query editor by typing it. */
async function typeOperation(page: Page, operation: string): Promise<void> {
  await page.click(QUERY_EDITOR);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Delete');
  await page.keyboard.type(operation);
  // the editor closes brackets itself: whatever it shows must read as the operation typed
  await until('the operation in the editor', async () => (await editorText(page, QUERY_EDITOR)).replace(/\s+/g, ' ').trim() === operation);
}

describe('GraphiQL in Chromium without a network', () => {
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let trap: Awaited<ReturnType<typeof startTrapProxy>>;
  const requests: string[] = [];
  const sockets: string[] = [];
  const framesSent: string[] = [];
  const problems: string[] = [];
  const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-graphiql-'));

  beforeAll(async () => {
    trap = await startTrapProxy();
    browser = await launchChromium([
      // no name resolves, and everything but the test server's address goes to the trap
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
      `--proxy-server=http://127.0.0.1:${trap.port}`,
      '--proxy-bypass-list=127.0.0.1',
    ]);
    page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    // the page's own session sees the workers' script loads and the WebSocket frames
    cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    cdp.on('Network.requestWillBeSent', (e) => void requests.push(e.request.url));
    cdp.on('Network.webSocketCreated', (e) => void sockets.push(e.url));
    cdp.on('Network.webSocketFrameSent', (e) => void framesSent.push(e.response.payloadData));
    page.on('requestfailed', (r) => void problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
    page.on('pageerror', (error) => void problems.push(`page error: ${String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    const response = await page.goto(`${server.baseUrl}/graphql`, { waitUntil: 'load' });
    if (response?.status() !== 200) throw new Error(`/graphql answered ${response?.status()}`);
    await page.waitForSelector(QUERY_EDITOR, { visible: true, timeout: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await trap?.close();
  });

  it('runs a query with the API key typed into the headers editor', async () => {
    await until('the schema-aware editor', async () => (await editorText(page, QUERY_EDITOR)).includes('viewer'));
    // as a person would: the key after `"Bearer ` in the template
    await typeIntoAuthorization(page, team.apiKey);
    await until('the key in the headers editor', async () => (await editorText(page, HEADERS_EDITOR)).includes(`"Authorization": "Bearer ${team.apiKey}"`));
    await page.click('.graphiql-execute-button');
    const result = await until('the query result', async () => {
      const text = await editorText(page, RESPONSE);
      return text.includes('credentialKind') && text.includes('featurePermissions') ? text : null;
    });
    expect(result).toContain('"credentialKind": "API_KEY"');
    expect(result).not.toContain('"errors"');
    // the headers (the key) stay out of the browser's storage; GraphiQL keeps only the operations
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).toContain('viewer');
    expect(stored).not.toContain(team.apiKey);
    await page.screenshot({ path: path.join(shots, 'graphiql-query.png') });
    console.log(`GraphiQL screenshot: ${path.join(shots, 'graphiql-query.png')}`);
  }, 60_000);

  it('runs a subscription over graphql-ws with the same headers as connection parameters', async () => {
    await typeOperation(page, 'subscription { teamEvents { type resourceType } }');
    await page.click('.graphiql-execute-button');
    await until('connection_init and subscribe sent over graphql-ws', () =>
      framesSent.some((f) => f.includes('"connection_init"')) && framesSent.some((f) => f.includes('"subscribe"')));
    expect(sockets).toEqual([server.baseUrl.replace(/^https:/, 'wss:') + '/graphql']);
    const init = JSON.parse(framesSent.find((f) => f.includes('"connection_init"'))!);
    // the untouched X-Team-Id template entry ("") is left out
    expect(init.payload).toEqual({ authorization: `Bearer ${team.apiKey}` });
    // a key created now is a team event; the subscription may need a moment to be in place
    const shown = await until('the team event in the result', async () => {
      await createApiKey(server, team, { name: `graphiql ${Date.now()}`, featurePermissions: [] });
      const text = await editorText(page, RESPONSE);
      return text.includes('API_KEY_CREATED') ? text : null;
    }, 30_000, 1_000);
    expect(shown).toContain('"resourceType"');
    await page.screenshot({ path: path.join(shots, 'graphiql-subscription.png') });
  }, 60_000);

  it('shows a credential the server refuses on connection_init as an error', async () => {
    // the running subscription stops first (the same button), then the key gets a stray character
    await page.click('.graphiql-execute-button');
    await until('the subscription stopped', () => page.$eval('.graphiql-execute-button', (b) => b.getAttribute('aria-label')?.startsWith('Execute')));
    await typeIntoAuthorization(page, 'x');
    await page.click('.graphiql-execute-button');
    const shown = await until('the refusal in the result', async () => {
      const text = await editorText(page, RESPONSE);
      return text.includes('4403') ? text : null;
    });
    expect(shown).toContain('The connection closed: 4403 Forbidden');
    expect(sockets).toHaveLength(2);
    const inits = framesSent.filter((f) => f.includes('"connection_init"')).map((f) => JSON.parse(f).payload);
    expect(inits.at(-1)).toEqual({ authorization: `Bearer ${team.apiKey}x` });
  });

  it('made every request to the test server, and nothing reached the trap', () => {
    const origin = new URL(server.baseUrl).origin;
    const foreign = requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin);
    expect(foreign).toEqual([]);
    // the editor's workers were loaded, from here
    for (const worker of ['editor.worker.js', 'graphql.worker.js', 'json.worker.js']) {
      expect(requests.some((url) => url.startsWith(`${origin}/graphql/assets/`) && url.endsWith(`/${worker}`)), worker).toBe(true);
    }
    // what reached the trap came from Chromium's own services (clock, updates, sign-in, autofill),
    // never from the page: these are their hosts, and no other may appear
    const chromiumServices = /^(?:CONNECT |[A-Z]+ http:\/\/)(?:clients2\.google\.com|update\.googleapis\.com|accounts\.google\.com|content-autofill\.googleapis\.com)[:/]/;
    expect(trap.seen.filter((line) => !chromiumServices.test(line))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
