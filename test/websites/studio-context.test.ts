// The studio context of a site (docs/api/websites.md "Studio context"): settings, theme, the page
// tree, navigation and the active page's blocks, bounded by counts and in bytes, and its refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { websitePageId } from '../../src/modules/websites/websites.ids.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { adminOf, call, type Caller, createPage, createSite, memberWith } from './websites-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let admin: Caller;

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  admin = adminOf(team);
});
afterAll(() => server?.close());

const context = (who: Caller, site: string, query = '') => call(server, who, 'GET', `/v1/websites/${site}/studio-context${query}`);

describe('studio context', () => {
  it('summarizes the site: settings, theme, page tree with states and areas, menus, the active page’s blocks', async () => {
    const site = await createSite(server, admin, { name: 'Friends of the Park' });
    const id = site.websiteSimplyId as string;
    const home = (await createPage(server, admin, id, { title: 'Home' })).pageSimplyId as string;
    const about = (await createPage(server, admin, id, { title: 'About' })).pageSimplyId as string;
    const team_ = (await createPage(server, admin, id, { title: 'Team', parentPageSimplyId: about })).pageSimplyId as string;
    expectOk(await call(server, admin, 'PATCH', `/v1/website-pages/${about}/design`, { operations: [{ op: 'insert', parentId: null, component: { tagName: 'section', attributes: { id: 'hero' }, components: [{ tagName: 'h1', attributes: { id: 'title' }, components: [{ type: 'textnode', content: 'About the park' }] }] } }] }));
    expectOk(await call(server, admin, 'POST', `/v1/website-pages/${home}/publish`, {}));
    expectOk(
      await call(server, admin, 'PUT', `/v1/websites/${id}`, {
        metaTitle: 'Friends',
        themeSettings: { colors: { primary: '#225533' }, font: 'Inter' },
        navigationJson: { version: 2, menus: [{ name: 'Main', items: [{ type: 'PAGE', pageSimplyId: about, children: [{ type: 'PAGE', pageSimplyId: team_, label: 'Our team' }] }, { type: 'LINK', url: 'https://example.org/donate', label: 'Donate' }] }] },
      }),
    );
    const c = expectOk(await context(admin, id, `?activePageSimplyId=${about}`));
    expect(c.site).toMatchObject({ name: 'Friends of the Park', slug: site.slug, isPublished: false, publishedUrl: null, metaTitle: 'Friends', myRole: 'OWNER', restricted: false });
    expect(c.theme).toEqual({ colors: { primary: '#225533' }, font: 'Inter' });
    expect(c.themeTruncated).toBe(false);
    expect(c.pages.map((p: any) => [p.title, p.path, p.depth, p.publishState, p.accessAreaSimplyId])).toEqual([
      ['Home', '/', 1, 'PUBLISHED', null],
      ['About', '/about', 1, 'DRAFT', null],
      ['Team', '/about/team', 2, 'DRAFT', null],
    ]);
    expect(c).toMatchObject({ totalPages: 3, pagesTruncated: false, maxBytes: 65536 });
    expect(c.menus).toEqual([
      {
        name: 'Main',
        totalItems: 3,
        truncated: false,
        items: [
          { depth: 1, type: 'PAGE', label: 'About', pageSimplyId: about, path: '/about', url: null },
          { depth: 2, type: 'PAGE', label: 'Our team', pageSimplyId: team_, path: '/about/team', url: null },
          { depth: 1, type: 'LINK', label: 'Donate', pageSimplyId: null, path: null, url: 'https://example.org/donate' },
        ],
      },
    ]);
    expect(c.activePage).toMatchObject({ pageSimplyId: about, title: 'About', path: '/about', draftRevision: 2, publishState: 'DRAFT', totalComponents: 2, truncated: false });
    expect(c.activePage.blocks).toEqual([
      { id: 'hero', type: 'default', tagName: 'section', depth: 1, childCount: 1, label: 'About the park' },
      { id: 'title', type: 'default', tagName: 'h1', depth: 2, childCount: 0, label: 'About the park' },
    ]);
    // the size it reports is its own, give or take the digits of the figure itself
    expect(Math.abs(c.byteSize - Buffer.byteLength(JSON.stringify(c)))).toBeLessThan(8);
    // without an active page
    expect(expectOk(await context(admin, id)).activePage).toBeNull();
  });

  it('is bounded: at most 200 pages, the theme up to 16 KiB, and 64 KiB in all', async () => {
    const site = await createSite(server, admin);
    const id = site.websiteSimplyId as string;
    const first = await createPage(server, admin, id, { title: 'Home' });
    const row = await server.app.services.prisma.websitePage.findFirstOrThrow({ where: { simplyId: first.pageSimplyId, teamId: team.teamId } });
    // many pages with long titles, written directly: the route would take minutes
    await server.app.services.prisma.websitePage.createMany({
      data: Array.from({ length: 260 }, (_, i) => ({
        simplyId: websitePageId.create(),
        teamId: team.teamId,
        websiteId: row.websiteId,
        parentId: null,
        position: i + 1,
        title: `${'A long page title '.repeat(10)}${i}`,
        slug: `page-${i}`,
        draftDesign: { components: [], styles: [] },
      })),
    });
    // a draft of many blocks with long text
    const many = Array.from({ length: 120 }, (_, i) => ({ op: 'insert', parentId: null, component: { tagName: 'p', attributes: { id: `p${i}` }, components: [{ type: 'textnode', content: 'words '.repeat(40) }] } }));
    expectOk(await call(server, admin, 'PATCH', `/v1/website-pages/${first.pageSimplyId}/design`, { operations: many }));
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${id}`, { themeSettings: { css: 'x'.repeat(20_000) } }));
    const c = expectOk(await context(admin, id, `?activePageSimplyId=${first.pageSimplyId}`));
    expect(c.totalPages).toBe(261);
    expect(c.pagesTruncated).toBe(true);
    expect(c.pages.length).toBeLessThanOrEqual(200);
    expect(c.pages[0].title).toBe('Home');
    expect(c.theme).toBeNull();
    expect(c.themeTruncated).toBe(true);
    expect(c.activePage.totalComponents).toBe(120);
    expect(c.activePage.truncated).toBe(true);
    expect(c.activePage.blocks.length).toBeLessThan(120);
    expect(c.byteSize).toBeLessThanOrEqual(65536);
    expect(Buffer.byteLength(JSON.stringify(c))).toBeLessThanOrEqual(65536 + 16);
  });

  it('is for VIEWER and up; refuses pages of other sites and other callers', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId as string;
    const other = (await createSite(server, admin)).websiteSimplyId as string;
    const foreign = (await createPage(server, admin, other)).pageSimplyId as string;
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    expect(expectOk(await context(viewer, site)).site.myRole).toBe('VIEWER');
    expect(expectError(await context(admin, site, `?activePageSimplyId=${foreign}`), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('activePageSimplyId');
    expectError(await context(admin, site, '?activePageSimplyId=nope'), 400, 'VALIDATION_ERROR');
    expectError(await context(admin, site, '?other=1'), 400, 'VALIDATION_ERROR');
    expectError(await context(await memberWith(server, team, ['OUTGOING_MESSAGES_VIEW']), site), 403, 'PERMISSION_DENIED');
    expectError(await server.request('GET', `/v1/websites/${site}/studio-context`, { token: team.apiKey }), 403, 'IDP_REQUIRED');
    expectError(await context(adminOf(await createTeam(server)), site), 404, 'NOT_FOUND');
    expectError(await context(admin, 'web-AAAA-BBBB-CCCC'), 404, 'NOT_FOUND');
  });
});
