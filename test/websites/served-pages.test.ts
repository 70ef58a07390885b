// The published sites as the platform serves them (docs/api/websites.md "The published site"):
// the published design and never the draft, 404 for what is not published, stored renderings with
// strong ETags and 304s, the same bytes for the same inputs, navigation and campaign chrome, the
// last good rendering when a design cannot be rendered, custom domains, and previews of the drafts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import https from 'node:https';
import type { TestServer } from '../support/server.ts';
import { until } from '../support/until.ts';
import { publishedSite, publishPage, setDesign, text, visit } from './served-fixtures.ts';
import { adminOf, call, type Caller, createPage, createSite, memberWith } from './websites-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let admin: Caller;

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  admin = adminOf(team);
});
afterAll(() => server?.close());

const policyOf = (headers: Headers) => headers.get('content-security-policy') ?? '';

/** A GET with another Host (a custom domain pointed at the platform), over TLS to the server's own name. */
function onHost(host: string, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(server.baseUrl, { method: 'GET', path, ca: server.ca, servername: 'localhost', agent: false, headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a published page', () => {
  it('serves the published design, never the draft, under a policy where nothing runs', async () => {
    const site = await publishedSite(server, admin, [text('greeting', 'Welcome to the park', 'h1')], { metaTitle: 'Friends of the Park', metaDescription: 'A park & its friends' });
    const first = await visit(server, `${site.base}/`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.text).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(first.text).toContain('<h1 id="greeting">Welcome to the park</h1>');
    expect(first.text).toContain('<title>Home | Friends of the Park</title>');
    expect(first.text).toContain('<meta name="description" content="A park &amp; its friends">');
    expect(policyOf(first.headers)).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'$/);
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    expect(first.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);

    // a draft edit is not on the published site, however often it is asked for
    await setDesign(server, admin, site.home, [text('greeting', 'Draft words nobody should see', 'h1')]);
    for (let i = 0; i < 3; i++) expect((await visit(server, `${site.base}/`)).text).not.toContain('Draft words');
    expect((await visit(server, `${site.base}/`)).text).toBe(first.text);

    // publishing it puts it there from the next request
    await publishPage(server, admin, site.home);
    const after = await until('the new design served', async () => {
      const r = await visit(server, `${site.base}/`);
      return r.text.includes('Draft words nobody should see') && r;
    });
    expect(after.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });

  it('answers 304 to If-None-Match with its ETag, and gives the same bytes for the same inputs', async () => {
    const site = await publishedSite(server, admin, [text('a', 'Stable <words> & "quotes"'), { type: 'image', src: 'https://example.org/tree.png', attributes: { id: 'img1', alt: 'A tree' } }]);
    const first = await visit(server, `${site.base}/`);
    const etag = first.headers.get('etag')!;
    const again = await visit(server, `${site.base}/`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await visit(server, `${site.base}/`, { 'if-none-match': '"something-else"' })).status).toBe(200);

    // rendered again from scratch (the stored renderings gone, the memory forgotten): the same bytes
    const db = server.app.services.prisma;
    const before = await db.websiteRendering.count({ where: { page: { simplyId: site.home } } });
    expect(before).toBe(1);
    await db.websiteRendering.deleteMany({ where: { page: { simplyId: site.home } } });
    await server.app.services.notifier.notify('svc_website_served', String((await db.website.findFirstOrThrow({ where: { simplyId: site.websiteSimplyId } })).id));
    const rerendered = await until('a new rendering stored', async () => {
      const r = await visit(server, `${site.base}/`);
      return (await db.websiteRendering.count({ where: { page: { simplyId: site.home } } })) === 1 && r;
    });
    expect(rerendered.text).toBe(first.text);
    expect(rerendered.headers.get('etag')).toBe(etag);
  });

  it('answers a plain 404 page for a site or a page that is not published, and for paths that are no page', async () => {
    const site = await createSite(server, admin);
    const home = (await createPage(server, admin, site.websiteSimplyId, { title: 'Home' })).pageSimplyId;
    await setDesign(server, admin, home, [text('x', 'Not yet')]);
    await publishPage(server, admin, home);
    const offline = await visit(server, `/sites/${site.slug}/`);
    expect(offline.status).toBe(404);
    expect(offline.text).toContain('Page not found');
    expect(offline.text).not.toContain('Not yet');

    const live = await publishedSite(server, admin, [text('x', 'Live')]);
    const draftOnly = (await createPage(server, admin, live.websiteSimplyId, { title: 'Later', slug: 'later' })).pageSimplyId;
    await setDesign(server, admin, draftOnly, [text('y', 'Draft page')]);
    expect((await visit(server, `${live.base}/later`)).status).toBe(404);
    await publishPage(server, admin, draftOnly);
    expect((await until('the page published', async () => (await visit(server, `${live.base}/later`)).status === 200 || null))).toBe(true);
    expectOk(await call(server, admin, 'PUT', `/v1/website-pages/${draftOnly}`, { isPublished: false }));
    await until('the page unpublished', async () => (await visit(server, `${live.base}/later`)).status === 404 || null);
    for (const path of [`${live.base}/nope`, `${live.base}/Later`, `${live.base}/a%20b`, '/sites/no-such-site-here/', '/sites/']) expect((await visit(server, path)).status, path).toBe(404);
    const redirect = await visit(server, live.base);
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe(`${live.base}/`);
    expect((await server.request('POST', `${live.base}/`)).status).toBe(405);

    // taken offline: every page 404 at once
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${live.websiteSimplyId}`, { isPublished: false }));
    await until('the site offline', async () => (await visit(server, `${live.base}/`)).status === 404 || null);
  });

  it('shows the published header, footer, navigation to published pages and the live campaign chrome', async () => {
    const site = await publishedSite(server, admin, [text('body', 'Page body')]);
    const about = (await createPage(server, admin, site.websiteSimplyId, { title: 'About us', slug: 'about' })).pageSimplyId;
    const hidden = (await createPage(server, admin, site.websiteSimplyId, { title: 'Hidden' })).pageSimplyId;
    await setDesign(server, admin, about, [text('about', 'About text')]);
    await publishPage(server, admin, about);
    const team2 = (await createPage(server, admin, site.websiteSimplyId, { title: 'Team', slug: 'team', parentPageSimplyId: about })).pageSimplyId;
    await setDesign(server, admin, team2, [text('t', 'The team')]);
    await publishPage(server, admin, team2);
    expectOk(
      await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, {
        headerDesignJson: { components: [text('logo', 'Park logo', 'div')], styles: [{ selectors: ['#logo'], style: { color: 'green' } }] },
        footerDesignJson: { components: [text('legal', '© The park')], styles: [] },
        navigationJson: {
          version: 2,
          menus: [
            { name: 'Main', items: [{ type: 'PAGE', pageSimplyId: site.home, label: 'Start' }, { type: 'PAGE', pageSimplyId: about, children: [{ type: 'PAGE', pageSimplyId: team2 }] }, { type: 'PAGE', pageSimplyId: hidden }] },
            { name: 'Footer', items: [{ type: 'LINK', url: 'https://example.org/donate', label: 'Donate', openInNewTab: true }] },
          ],
        },
        campaignChromeConfig: {
          version: 2,
          popups: [
            { id: 'spring', type: 'BANNER', enabled: true, accessibleLabel: { en: 'Spring fair', de: 'Frühlingsfest' }, html: '<p>Spring fair on Sunday</p>' },
            { id: 'later', type: 'MODAL', enabled: true, accessibleLabel: 'Next year', html: '<p>Not yet</p>', startsAt: '2999-01-01T00:00:00Z' },
            { id: 'off', type: 'SLIDE_IN', enabled: false, html: '<p>Switched off</p>' },
            { id: 'chat', type: 'CONVERSATION', enabled: true, accessibleLabel: 'Chat with us' },
          ],
        },
      }),
    );
    // drafts only so far
    const drafts = await visit(server, `${site.base}/about/team`);
    expect(drafts.status).toBe(200);
    expect(drafts.text).not.toContain('Park logo');
    expect(drafts.text).not.toContain('Spring fair');
    expectOk(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/header-footer/publish`));
    expectOk(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/campaign-chrome/publish`));
    const page = await until('header, footer and chrome served', async () => {
      const r = await visit(server, `${site.base}/about/team`);
      return r.text.includes('Park logo') && r.text.includes('Spring fair') && r;
    });
    const base = site.base;
    expect(page.text).toContain('<header class="svc-header"><div id="logo">Park logo</div>');
    expect(page.text).toContain('#logo{color:green;}');
    expect(page.text).toContain('<footer class="svc-footer"><p id="legal">© The park</p>');
    expect(page.text).toContain(
      `<nav class="svc-nav" aria-label="Main"><ul><li><a href="${base}/">Start</a></li><li><a href="${base}/about">About us</a><ul><li><a href="${base}/about/team" aria-current="page">Team</a></li></ul></li></ul></nav>`,
    );
    expect(page.text).toContain('<nav class="svc-nav" aria-label="Footer"><ul><li><a href="https://example.org/donate" target="_blank" rel="noopener noreferrer">Donate</a></li></ul></nav>');
    expect(page.text).not.toContain('Hidden');
    expect(page.text).toContain('role="region" aria-label="Spring fair"');
    expect(page.text).toContain('aria-label="Close Spring fair"');
    expect(page.text).toContain('role="complementary" aria-label="Chat with us"><label class="svc-close" for="svc-chrome-chat-close" aria-hidden="true">×</label><div class="svc-chrome-body"><p>Chat with us</p></div>');
    expect(page.text).not.toContain('Not yet');
    expect(page.text).not.toContain('Switched off');
    expect(page.text).not.toMatch(/<script/i);
  });

  it('keeps serving the last good rendering when a design cannot be rendered, and logs it', async () => {
    const site = await publishedSite(server, admin, [text('good', 'The good page')]);
    const good = await visit(server, `${site.base}/`);
    expect(good.text).toContain('The good page');
    // a design stored before today's checks, which the renderer cannot read: a class that is no class
    const db = server.app.services.prisma;
    await db.websitePage.updateMany({
      where: { simplyId: site.home },
      data: { publishedDesign: { components: [{ tagName: 'p', attributes: { id: 'bad' }, classes: [null] }], styles: [] }, publishedRevision: 99, publishedAt: new Date() },
    });
    await until('the failed rendering recorded', async () => {
      const r = await visit(server, `${site.base}/`);
      expect(r.status).toBe(200);
      expect(r.text).toBe(good.text);
      return (await db.websiteRendering.count({ where: { page: { simplyId: site.home }, html: null, error: { not: null } } })) === 1;
    });
    expect((await visit(server, `${site.base}/`)).text).toBe(good.text);
  });
});

describe('a custom domain', () => {
  it('is a hostname, taken by one site at a time, and serves the site on its own host', async () => {
    const site = await publishedSite(server, admin, [text('d', 'On my own domain')]);
    const domain = `www.park-${site.slug}.example`;
    const bad = await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { customDomain: 'https://www.example.org/' });
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.error.details[0].field).toBe('customDomain');
    expectError(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { customDomain: 'localhost' }), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { customDomain: domain.toUpperCase() })).customDomain).toBe(domain);
    const other = await createSite(server, admin);
    expectError(await call(server, admin, 'PUT', `/v1/websites/${other.websiteSimplyId}`, { customDomain: domain }), 409, 'WEBSITE_DOMAIN_TAKEN');

    const onDomain = await until('the domain served', async () => {
      const r = await onHost(domain, '/');
      return r.status === 200 && r;
    });
    expect(onDomain.text).toContain('On my own domain');
    // links on the domain have no /sites/{slug} prefix, and the API is not served there
    expect(onDomain.text).not.toContain(`/sites/${site.slug}`);
    expect((await onHost(domain, '/v1/websites')).status).toBe(404);
    expect((await onHost(`${domain}:443`, '/missing')).status).toBe(404);

    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { customDomain: null }));
    // released: the host is the platform's again (its own front page, no site)
    await until('the domain released', async () => !(await onHost(domain, '/')).text.includes('On my own domain'));
  });
});

describe('previews', () => {
  it('show the drafts of pages, header, footer and chrome until they expire, never cached or indexed', async () => {
    const site = await publishedSite(server, admin, [text('p', 'Published words')]);
    const draft = (await createPage(server, admin, site.websiteSimplyId, { title: 'Draft page', slug: 'draft' })).pageSimplyId;
    await setDesign(server, admin, draft, [text('d', 'Draft page words')]);
    await setDesign(server, admin, site.home, [text('p', 'Draft home words')]);
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { headerDesignJson: { components: [text('h', 'Draft header')], styles: [] } }));

    const session = expectOk(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/preview-sessions`, { pageSimplyId: draft }), 201);
    expect(session.pageSimplyId).toBe(draft);
    expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    const url = new URL(session.previewUrl);
    expect(url.pathname).toMatch(/^\/sites\/preview\/wprv_[^/]+\/draft$/);
    const shown = await visit(server, url.pathname);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Draft page words');
    expect(shown.text).toContain('Draft header');
    expect(shown.headers.get('cache-control')).toBe('private, no-store');
    expect(shown.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
    const home = await visit(server, url.pathname.replace(/\/draft$/, '/'));
    expect(home.text).toContain('Draft home words');
    // the published site is untouched
    const published = await visit(server, `${site.base}/`);
    expect(published.text).toContain('Published words');
    expect(published.text).not.toContain('Draft');
    expect((await visit(server, `${site.base}/draft`)).status).toBe(404);

    // a forged or expired token is nothing
    const token = url.pathname.split('/')[3]!;
    const [body, signature] = token.slice(5).split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = `wprv_${Buffer.from(JSON.stringify({ ...claims, e: claims.e + 3600 })).toString('base64url')}.${signature}`;
    expect((await visit(server, `/sites/preview/${forged}/`)).status).toBe(404);
    const { issuePreviewToken } = await import('../../src/modules/websites/preview-token.ts');
    const expired = issuePreviewToken(server.app.services, BigInt(claims.t), site.websiteSimplyId, Date.now() - 31 * 60_000).token;
    const gone = await visit(server, `/sites/preview/${expired}/`);
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain('Draft');
  });

  it('need the EDITOR role and a page of the site', async () => {
    const site = await createSite(server, admin);
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    expectError(await call(server, viewer, 'POST', `/v1/websites/${site.websiteSimplyId}/preview-sessions`, {}), 403, 'PERMISSION_DENIED');
    expectError(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/preview-sessions`, { pageSimplyId: 'wpg-AAAA-BBBB-CCCC' }), 404, 'NOT_FOUND');
    expectError(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/preview-sessions`, { pageSimplyId: 'nope' }), 400, 'VALIDATION_ERROR');
  });
});
