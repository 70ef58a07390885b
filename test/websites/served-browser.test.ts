// A published page in the machine's headless Chromium, carrying an XSS corpus everywhere a site's
// content comes from: text components' markup and text nodes of the page, the header and footer,
// a design stored before today's checks (script tags, event handlers, javascript: and data: URLs,
// CSS expressions, SVG payloads), the campaign chrome's HTML and the navigation's labels. Nothing
// runs: no dialog opens, no script element exists, the console stays clean; the page shows its
// text, and its chrome can be dismissed without script. Screenshots are kept in a temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../rest-adapter/docs-browser-check.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { until } from '../support/until.ts';
import { publishedSite, text, visit } from './served-fixtures.ts';
import { adminOf, call, type Caller } from './websites-fixtures.ts';

const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-website-served-'));
/** a 1×1 transparent PNG, answered for every image the corpus asks for */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const CORPUS = [
  '<script>alert("script")</script>',
  '<img src=x onerror=alert("onerror")>',
  '<a id="js-link" href="javascript:alert(\'href\')">js link</a>',
  '<a href="JaVaScRiPt&colon;alert(1)">encoded</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data link</a>',
  '<svg onload=alert("svg")><circle r=5></circle></svg>',
  '<svg><animate onbegin=alert("animate") attributeName=x dur=1s></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert("mxss")>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<div style="background:url(javascript:alert(1));width:expression(alert(1))">styled</div>',
  '<details open ontoggle=alert("toggle")><summary>s</summary></details>',
  '<body onload=alert("body")>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '</div></main><script>alert("breakout")</script>',
];
const CORPUS_HTML = CORPUS.join('\n');

let server: TestServer;
let team: TeamFixture;
let admin: Caller;
let browser: Browser;

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  admin = adminOf(team);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  console.log(`served website screenshots: ${shots}`);
});

interface Watched {
  page: Page;
  dialogs: string[];
  problems: string[];
}

async function watchedPage(): Promise<Watched> {
  const page = await (await browser.createBrowserContext()).newPage();
  const dialogs: string[] = [];
  const problems: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()} (${m.location().url ?? ''})`));
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    if (r.resourceType() === 'image' && !r.url().startsWith(server.baseUrl)) void r.respond({ status: 200, contentType: 'image/png', body: PIXEL });
    // the corpus' own relative image ("x"), and the icon the browser looks for at the host's root
    else if (r.url().endsWith('/x') || new URL(r.url()).pathname === '/favicon.ico') void r.respond({ status: 200, contentType: 'image/png', body: PIXEL });
    else void r.continue();
  });
  return { page, dialogs, problems };
}

describe('a published page with an XSS corpus in every source of content', () => {
  it('shows its text, runs nothing, and its chrome closes without script', async () => {
    const site = await publishedSite(server, admin, [
      text('title', 'Friends of the Park', 'h1'),
      { type: 'text', attributes: { id: 'rich' }, content: `<p>Rich text survives</p>${CORPUS_HTML}` },
      text('plain', CORPUS_HTML),
      { type: 'image', src: 'https://example.org/tree.png', attributes: { id: 'tree', alt: 'A tree' } },
      { type: 'link', attributes: { id: 'visit', href: 'https://example.org/' }, components: [{ type: 'textnode', content: 'Visit us' }] },
    ]);
    const db = server.app.services.prisma;
    // the header and footer carry the corpus too
    expectOk(
      await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, {
        headerDesignJson: { components: [{ type: 'text', attributes: { id: 'hd' }, content: `<strong>Park header</strong>${CORPUS_HTML}` }], styles: [] },
        footerDesignJson: { components: [text('ft', `Park footer ${CORPUS[0]}`)], styles: [] },
        navigationJson: { version: 2, menus: [{ name: 'Main <script>alert("menu")</script>', items: [{ type: 'PAGE', pageSimplyId: site.home, label: '<img src=x onerror=alert("label")>Home' }] }] },
        campaignChromeConfig: {
          version: 2,
          popups: [
            { id: 'fair', type: 'BANNER', enabled: true, accessibleLabel: 'Spring <b>fair</b>', html: `<p>Spring fair on Sunday</p>${CORPUS_HTML}` },
            { id: 'news', type: 'MODAL', enabled: true, accessibleLabel: 'Newsletter', html: `<p>Join the newsletter</p><a href="javascript:alert('modal')">x</a>` },
          ],
        },
      }),
    );
    expectOk(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/header-footer/publish`));
    expectOk(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/campaign-chrome/publish`));
    // a page design stored before today's checks: what a design may no longer hold, published as is
    const stored = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${site.home}/design`)).design;
    stored.components.push(
      { tagName: 'script', attributes: { id: 's1' }, components: [{ type: 'textnode', content: 'alert("stored script")' }] },
      { tagName: 'a', attributes: { id: 's2', href: 'javascript:alert("stored href")', onclick: 'alert("stored onclick")', style: 'background:url(javascript:alert(1))' }, components: [{ type: 'textnode', content: 'Stored link' }] },
      { tagName: 'img', attributes: { id: 's3', src: 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+', onerror: 'alert("stored img")' } },
      { tagName: 'svg', attributes: { id: 's4', onload: 'alert("stored svg")' } },
      { type: 'iframe', attributes: { id: 's5', src: 'javascript:alert("stored frame")' } },
      { tagName: 'div', attributes: { id: 's6' }, style: { width: 'expression(alert(1))', color: 'red}</style><script>alert("css")</script>' }, components: [{ type: 'textnode', content: 'Stored styled' }] },
    );
    stored.styles.push({ selectors: ['evil'], style: { background: 'url("javascript:alert(1)")' } }, { selectors: [], selectorsAdd: 'body{}</style><script>alert(1)</script><style>', style: { color: 'red' } });
    await db.websitePage.updateMany({ where: { simplyId: site.home }, data: { publishedDesign: stored, publishedAt: new Date() } });
    const served = await until('the stored design served', async () => {
      const r = await visit(server, `${site.base}/`);
      return r.text.includes('Stored link') && r.text.includes('Spring fair') && r.text.includes('Park header') && r;
    });
    // as markup (the corpus stays readable as text, escaped): no such element, attribute or CSS
    const parsed = new JSDOM(served.text).window.document;
    expect(parsed.querySelectorAll('script, svg, iframe, math, object, embed, base, meta[http-equiv]').length).toBe(0);
    const attributes = [...parsed.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => `${a.name}=${a.value}`));
    expect(attributes.filter((a) => /^on|^style=|^(?:href|src)=\s*(?:javascript|vbscript|data:(?!image\/png))/i.test(a))).toEqual([]);
    expect(/<style>([\s\S]*?)<\/style>/.exec(served.text)![1]).not.toMatch(/expression|javascript|<|\\/i);

    const { page, dialogs, problems } = await watchedPage();
    const response = await page.goto(`${server.baseUrl}${site.base}/`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    await page.screenshot({ path: path.join(shots, '1-published-page.png'), fullPage: true });
    const shown = await page.evaluate(() => document.body.innerText);
    for (const words of ['Friends of the Park', 'Rich text survives', 'Park header', 'Park footer', 'Spring fair on Sunday', 'Visit us', 'Stored link', 'Stored styled', '<script>alert("script")</script>']) expect(shown).toContain(words);
    expect(await page.$$eval('script, iframe, object, embed, svg, math', (els) => els.length)).toBe(0);
    // the text node's corpus is text, and the menu's label too
    expect(await page.$eval('#plain', (el) => el.textContent)).toBe(CORPUS_HTML);
    expect(await page.$eval('nav[aria-label^="Main"] a', (el) => el.textContent)).toBe('<img src=x onerror=alert("label")>Home');
    // links that could run are gone: click what is left of them
    for (const id of ['#js-link', '#s2']) {
      const link = await page.$(id);
      if (link) await link.click().catch(() => {});
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);

    // the chrome: a labelled banner and dialog, each closed by its own checkbox, no script
    expect(await page.$eval('[role="region"][aria-label="Spring <b>fair</b>"]', (el) => getComputedStyle(el).display)).not.toBe('none');
    const modal = '[role="dialog"][aria-label="Newsletter"]';
    expect(await page.$eval(modal, (el) => getComputedStyle(el).display)).not.toBe('none');
    await page.click(`${modal} .svc-close`);
    expect(await page.$eval(modal, (el) => getComputedStyle(el).display)).toBe('none');
    await page.screenshot({ path: path.join(shots, '2-modal-closed.png'), fullPage: true });
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);
});
