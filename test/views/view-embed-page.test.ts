// The embedded page of a view (docs/api/data-views.md "The embedded page"), opened by its EMBED
// token in the machine's headless Chromium: the view's display fields as columns and nothing else,
// its saved filter and sort, 25 rows a page with links between pages, values escaped, a strict
// Content-Security-Policy the page keeps (no violation, no console error), and frame-ancestors
// from the token's allowed origins (a page on another origin frames it only when listed).
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../rest-adapter/docs-browser-check.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createEvent, createToken, pathOf, publishedView, startSharingBed, type SharingBed } from './view-sharing-fixtures.ts';

const XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>';

let bed: SharingBed;
let browser: Browser;
/** a page on another https origin that frames whatever `?src=` names */
let host: https.Server;
let hostOrigin: string;
let view: string;
let embed: { token: string; url: string };

beforeAll(async () => {
  bed = await startSharingBed();
  const f = bed.events.fields;
  view = await publishedView(bed, {
    name: 'Sessions <with> "markup"',
    columns: ['title', 'seats', 'status'],
    filters: [{ field: f.seats, operator: 'gte', value: 1 }],
    sortOrder: [{ field: f.seats, direction: 'desc' }],
  });
  for (let seats = 1; seats <= 30; seats++) await createEvent(bed, { title: seats === 17 ? XSS : `Session ${seats}`, seats, status: seats % 2 ? 'open' : 'full', secret: `secret ${seats}` });
  await createEvent(bed, { title: 'Sold out', seats: 0, status: 'closed' });
  const tls = path.join(bed.server.dataDir, 'tls');
  host = https.createServer({ cert: fs.readFileSync(path.join(tls, 'self-signed-cert.pem')), key: fs.readFileSync(path.join(tls, 'self-signed-key.pem')) }, (req, res) => {
    const src = new URL(req.url ?? '/', 'https://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>host</title><iframe id="embed" src="${src.replace(/"/g, '&quot;')}" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `https://localhost:${(host.address() as AddressInfo).port}`;
  embed = await createToken(bed, view, 'EMBED', { allowedOrigins: [hostOrigin] });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => host?.close(resolve));
  await bed?.server.close();
});

/** A page that records console errors, failed responses and CSP violations. */
async function watchedPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await (await browser.createBrowserContext()).newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${(e as Error).message}`));
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && problems.push(`${r.status()} ${r.url()}`));
  // runs before the page's own content, outside its policy: reports what the policy refused
  await page.evaluateOnNewDocument(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, problems };
}

const table = (page: Page) =>
  page.evaluate(() => ({
    head: [...document.querySelectorAll('thead th')].map((th) => th.textContent),
    rows: [...document.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    scripts: document.querySelectorAll('script').length,
    images: document.querySelectorAll('img').length,
    nav: document.querySelector('nav')?.textContent?.replace(/\s+/g, ' ').trim(),
    title: document.title,
  }));

describe('the embedded page in Chromium', () => {
  it('shows the view\u2019s columns and a page of its records, filtered and sorted, under its policy', async () => {
    const { page, problems } = await watchedPage();
    const response = await page.goto(embed.url, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors https:\/\/localhost:\d+$/);
    expect(response?.headers()['cache-control']).toBe('no-store');
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    const shown = await table(page);
    expect(shown.title).toBe('Sessions <with> "markup"');
    expect(shown.head).toEqual(['title', 'seats', 'status']);
    expect(shown.rows).toHaveLength(25);
    // seats descending (a sort on a field value), the filtered-out record absent
    expect(shown.rows.map((r) => r[1])).toEqual(Array.from({ length: 25 }, (_, i) => String(30 - i)));
    expect(shown.rows[0]).toEqual(['Session 30', '30', 'full']);
    // the markup of a value is text: no script, no image came of it
    expect(shown.rows.find((r) => r[1] === '17')![0]).toBe(XSS);
    expect(shown.scripts).toBe(0);
    expect(shown.images).toBe(0);
    expect(shown.nav).toBe('Page 1 of 2 · 30 records Next');
    const html = await page.content();
    expect(html).not.toContain('secret');
    expect(html).not.toContain('Sold out');
    // the style is applied (its hash matches): the header cells have their background
    expect(await page.$eval('th', (th) => getComputedStyle(th).backgroundColor)).toBe('rgb(246, 248, 250)');

    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('a[rel=next]')]);
    const second = await table(page);
    expect(new URL(page.url()).search).toBe('?page=2');
    expect(second.rows.map((r) => r[1])).toEqual(['5', '4', '3', '2', '1']);
    expect(second.nav).toBe('Previous Page 2 of 2 · 30 records');
    expect(problems, problems.join('\n')).toEqual([]);
    await page.close();
  });

  it('may be framed by an allowed origin, and by no other', async () => {
    const framed = await watchedPage();
    await framed.page.goto(`${hostOrigin}/?src=${encodeURIComponent(embed.url)}`, { waitUntil: 'load' });
    const frame = framed.page.frames().find((f) => f.url().startsWith(embed.url));
    expect(frame, 'the embed loaded in the frame').toBeDefined();
    expect(await frame!.$$eval('tbody tr', (rows) => rows.length)).toBe(25);
    expect(framed.problems, framed.problems.join('\n')).toEqual([]);
    await framed.page.close();

    // a token without origins may not be framed at all
    const other = await publishedView(bed, { columns: ['title'] });
    const closed = await createToken(bed, other, 'EMBED');
    const refused = await watchedPage();
    await refused.page.goto(`${hostOrigin}/?src=${encodeURIComponent(closed.url)}`, { waitUntil: 'load' });
    const blocked = refused.page.frames().find((f) => f !== refused.page.mainFrame());
    expect(await blocked?.$('table').catch(() => null)).toBeFalsy();
    expect(refused.problems.join('\n')).toMatch(/frame-ancestors/);
    await refused.page.close();

    // an internal token's page: the platform's own origin only
    const internal = expectOk(await bed.call('GET', `/v1/data-views/${view}/internal-token`));
    const foreign = await watchedPage();
    await foreign.page.goto(`${hostOrigin}/?src=${encodeURIComponent(internal.url)}`, { waitUntil: 'load' });
    expect(foreign.problems.join('\n')).toMatch(/frame-ancestors/);
    await foreign.page.close();
    const direct = await watchedPage();
    expect((await direct.page.goto(internal.url, { waitUntil: 'load' }))?.status()).toBe(200);
    expect((await table(direct.page)).rows).toHaveLength(25);
    expect(direct.problems, direct.problems.join('\n')).toEqual([]);
    await direct.page.close();
  });
});

describe('the embedded page over HTTP', () => {
  const get = (p: string, method = 'GET') => bed.server.request(method, p);

  it('pages with page and pageSize; refuses bad paging with a 400 naming the parameter', async () => {
    const base = pathOf(embed.url);
    const small = await get(`${base}?pageSize=10&page=3`);
    expect(small.status).toBe(200);
    expect(small.text).toContain('Page 3 of 3 · 30 records');
    expect(small.text).toContain('href="?page=2&amp;pageSize=10"');
    expect((small.text.match(/<tr>/g) ?? []).length).toBe(1 + 10);
    const beyond = await get(`${base}?page=9`);
    expect(beyond.status).toBe(200);
    expect(beyond.text).toContain('No records to show.');
    for (const [query, field] of [['page=0', 'page'], ['page=x', 'page'], ['pageSize=101', 'pageSize'], ['pageSize=-1', 'pageSize'], ['page=99999', 'page']]) {
      const error = expectError(await get(`${base}?${query}`), 400, 'VALIDATION_ERROR', query);
      expect(error.details?.map((d) => d.field)).toEqual([field]);
    }
    // a site's own parameters are ignored
    expect((await get(`${base}?utm_source=newsletter`)).status).toBe(200);
  });

  it('orders by the built-in sort levels through the kernel', async () => {
    const byName = await publishedView(bed, { columns: ['title', 'seats'], sortOrder: [{ field: 'calculatedName', direction: 'asc' }], filters: [{ field: bed.events.fields.seats, operator: 'lte', value: 3 }, { field: bed.events.fields.seats, operator: 'gte', value: 1 }] });
    const token = await createToken(bed, byName, 'EMBED');
    const text = (await get(pathOf(token.url))).text;
    const titles = [...text.matchAll(/<tr><td>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(titles).toEqual(['Session 1', 'Session 2', 'Session 3']);
  });

  it('answers HEAD, refuses other methods, and is 404 for unknown, malformed or revoked tokens', async () => {
    const head = await get(pathOf(embed.url), 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-security-policy')).toContain('frame-ancestors');
    expectError(await get(pathOf(embed.url), 'POST'), 405, 'METHOD_NOT_ALLOWED');
    for (const p of ['/view-embeds/', '/view-embeds/nope', `/view-embeds/svc_vem_${'C'.repeat(43)}`, `${pathOf(embed.url)}/x`, '/view-embeds/svc_vit_e30.AAAA']) {
      expectError(await get(p), 404, 'NOT_FOUND', p);
    }
    const view2 = await publishedView(bed, { columns: ['title'] });
    const token = await createToken(bed, view2, 'EMBED');
    expect((await get(pathOf(token.url))).status).toBe(200);
    expectOk(await bed.call('DELETE', `/v1/data-views/${view2}/public-access-tokens/EMBED`));
    expectError(await get(pathOf(token.url)), 404, 'NOT_FOUND');
  });

  it('shows the fields the view shows now: a display link removed is gone from the page at once', async () => {
    const detail = expectOk(await bed.call('GET', `/v1/data-views/${view}/admin-detail`));
    const status = detail.displayFieldLinks.find((l: any) => l.dataFieldSimplyId === bed.events.fields.status);
    expectOk(await bed.call('DELETE', `/v1/data-views/${view}/display-field-links/${status.id}`));
    const text = (await get(pathOf(embed.url))).text;
    expect(text).toContain('<th scope="col">title</th><th scope="col">seats</th></tr>');
    expect(text).not.toContain('>full<');
    expectOk(await bed.call('POST', `/v1/data-views/${view}/display-field-links`, { dataFieldSimplyId: bed.events.fields.status, label: 'State' }), 201);
    expect((await get(pathOf(embed.url))).text).toContain('<th scope="col">State</th>');
  });
});
