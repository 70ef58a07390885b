// Websites and pages: settings, slugs, roles and who may call what, the page tree (paths, moves,
// reorder, the home page) and the refusals of each route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { adminOf, call, type Caller, createPage, createSite, memberWith, siteName } from './websites-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let admin: Caller;

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  admin = adminOf(team);
});
afterAll(() => server?.close());

describe('websites', () => {
  it('creates a site with a slug made from its name, owned by its creator', async () => {
    const name = siteName('Friends of the Park');
    const site = await createSite(server, admin, { name });
    expect(site.websiteSimplyId).toMatch(/^web-/);
    expect(site.slug).toBe(name.toLowerCase().replace(/ /g, '-'));
    expect(site).toMatchObject({ name, isPublished: false, publishedUrl: null, myRole: 'OWNER', members: [{ userSimplyId: team.userSimplyId, role: 'OWNER' }], pageCount: 0 });
    expect(site.campaignChromeHasUnpublishedChanges).toBe(false);
    // the same name again gets the next free slug
    const again = await createSite(server, admin, { name });
    expect(again.slug).toBe(`${site.slug}-2`);
  });

  it('refuses a taken or malformed slug', async () => {
    const site = await createSite(server, admin);
    expectError(await call(server, admin, 'POST', '/v1/websites', { name: 'x', slug: site.slug }), 409, 'WEBSITE_SLUG_TAKEN');
    const bad = expectError(await call(server, admin, 'POST', '/v1/websites', { name: 'x', slug: 'Not A Slug' }), 400, 'VALIDATION_ERROR');
    expect(bad.details?.[0]?.field).toBe('slug');
    expectError(await call(server, admin, 'POST', '/v1/websites', { name: 'x', slug: 'api' }), 400, 'VALIDATION_ERROR');
    expectError(await call(server, admin, 'POST', '/v1/websites', { slug: 'fine-slug' }), 400, 'VALIDATION_ERROR');
  });

  it('changes only the supplied settings, checking navigation against the site’s pages', async () => {
    const site = await createSite(server, admin);
    const page = await createPage(server, admin, site.websiteSimplyId, { title: 'Home' });
    const nav = { version: 2, menus: [{ name: 'Main', items: [{ type: 'PAGE', pageSimplyId: page.pageSimplyId }, { type: 'LINK', url: 'https://example.org', label: 'Elsewhere' }] }] };
    const changed = expectOk(
      await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { metaTitle: 'Park', navigationJson: nav, googleAnalyticsMeasurementId: 'G-ABC123DEF4', availableLanguageTagIds: ['en', 'de'] }),
    );
    expect(changed).toMatchObject({ name: site.name, metaTitle: 'Park', navigationJson: nav, googleAnalyticsMeasurementId: 'G-ABC123DEF4', availableLanguageTagIds: ['en', 'de'] });
    // the deprecated alias writes the same setting
    const alias = expectOk(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { navigationSettings: { ...nav, menus: [{ ...nav.menus[0], name: 'Top' }] } }));
    expect(alias.navigationJson.menus[0].name).toBe('Top');
    const foreign = expectError(
      await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { navigationJson: { version: 2, menus: [{ name: 'Main', items: [{ type: 'PAGE', pageSimplyId: 'wpg-AAAA-BBBB-CCCC' }] }] } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(foreign.details?.[0]?.field).toBe('navigationJson.menus.0.items.0.pageSimplyId');
    const menus = Array.from({ length: 21 }, (_, i) => ({ name: `Menu ${i}`, items: [] }));
    expect(expectError(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { navigationJson: { version: 2, menus } }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('navigationJson.menus');
    expectError(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { navigationJson: { version: 1, menus: [] } }), 400, 'VALIDATION_ERROR');
    expectError(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { googleAnalyticsMeasurementId: 'UA-1234-1' }), 400, 'VALIDATION_ERROR');
    expectError(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { surprise: true }), 400, 'VALIDATION_ERROR');
  });

  it('takes campaign chrome version 2 only, with at most ten entries and labelled, meaningful enabled entries', async () => {
    const site = await createSite(server, admin);
    const path = `/v1/websites/${site.websiteSimplyId}`;
    const banner = { id: 'b1', type: 'BANNER', enabled: true, accessibleLabel: { en: 'Announcement' }, html: '<p>Open day on Saturday</p>' };
    const saved = expectOk(await call(server, admin, 'PUT', path, { campaignChromeConfig: { version: 2, popups: [banner] } }));
    expect(saved.campaignChromeConfig.popups[0].id).toBe('b1');
    expect(saved.campaignChromeHasUnpublishedChanges).toBe(true);
    expectError(await call(server, admin, 'PUT', path, { campaignChromeConfig: { version: 1, popups: [] } }), 400, 'VALIDATION_ERROR');
    const eleven = Array.from({ length: 11 }, (_, i) => ({ ...banner, id: `b${i}` }));
    expectError(await call(server, admin, 'PUT', path, { campaignChromeConfig: { version: 2, popups: eleven } }), 400, 'VALIDATION_ERROR');
    const unlabelled = expectError(await call(server, admin, 'PUT', path, { campaignChromeConfig: { version: 2, popups: [{ ...banner, accessibleLabel: undefined }] } }), 400, 'VALIDATION_ERROR');
    expect(unlabelled.details?.[0]?.field).toBe('campaignChromeConfig.popups.0.accessibleLabel');
    const wizardInBanner = { ...banner, connectedComponent: { kind: 'WIZARD', dataWizardSimplyId: 'wiz-AAAA-BBBB-CCCC' } };
    expectError(await call(server, admin, 'PUT', path, { campaignChromeConfig: { version: 2, popups: [wizardInBanner] } }), 400, 'VALIDATION_ERROR');
    // clearing it
    expect(expectOk(await call(server, admin, 'PUT', path, { campaignChromeConfig: null })).campaignChromeConfig).toBeNull();
  });

  it('deletes a site with its pages; another team sees none of it', async () => {
    const site = await createSite(server, admin);
    const page = await createPage(server, admin, site.websiteSimplyId);
    const other = await createTeam(server);
    const stranger = adminOf(other);
    expectError(await call(server, stranger, 'GET', `/v1/websites/${site.websiteSimplyId}`), 404, 'NOT_FOUND');
    expectError(await call(server, stranger, 'GET', `/v1/website-pages/${page.pageSimplyId}`), 404, 'NOT_FOUND');
    expectError(await call(server, stranger, 'DELETE', `/v1/websites/${site.websiteSimplyId}`), 404, 'NOT_FOUND');
    expect(expectOk(await call(server, stranger, 'GET', '/v1/websites')).map((w: { websiteSimplyId: string }) => w.websiteSimplyId)).not.toContain(site.websiteSimplyId);
    expectOk(await call(server, admin, 'DELETE', `/v1/websites/${site.websiteSimplyId}`));
    expectError(await call(server, admin, 'GET', `/v1/website-pages/${page.pageSimplyId}`), 404, 'NOT_FOUND');
  });
});

describe('who may call what', () => {
  it('refuses API keys and session tokens with IDP_REQUIRED', async () => {
    expectError(await server.request('GET', '/v1/websites', { token: team.apiKey }), 403, 'IDP_REQUIRED');
    expectError(await server.request('POST', '/v1/websites', { token: team.apiKey, body: { name: 'x' } }), 403, 'IDP_REQUIRED');
  });

  it('needs TEAM_WEBSITES or TEAM_ADMIN_WEBSITES, and a role on the site for each action', async () => {
    const site = await createSite(server, admin);
    const page = await createPage(server, admin, site.websiteSimplyId);
    const nobody = await memberWith(server, team, ['DATA_EXPORT']);
    expectError(await call(server, nobody, 'GET', '/v1/websites'), 403, 'PERMISSION_DENIED');

    const editor = await memberWith(server, team, ['TEAM_WEBSITES']);
    const asEditor = expectOk(await call(server, editor, 'GET', `/v1/websites/${site.websiteSimplyId}`));
    expect(asEditor.myRole).toBe('EDITOR');
    expect(expectOk(await call(server, editor, 'PUT', `/v1/website-pages/${page.pageSimplyId}`, { title: 'Edited' })).title).toBe('Edited');
    expectError(await call(server, editor, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { name: 'Mine now' }), 403, 'WEBSITE_ROLE_REQUIRED');
    expectError(await call(server, editor, 'DELETE', `/v1/websites/${site.websiteSimplyId}`), 403, 'WEBSITE_ROLE_REQUIRED');

    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    expect(expectOk(await call(server, viewer, 'GET', `/v1/websites/${site.websiteSimplyId}`)).myRole).toBe('VIEWER');
    expectError(await call(server, viewer, 'POST', `/v1/websites/${site.websiteSimplyId}/pages`, { title: 'No' }), 403, 'PERMISSION_DENIED');
    expectError(await call(server, viewer, 'POST', '/v1/websites', { name: 'No' }), 403, 'PERMISSION_DENIED');

    const websiteAdmin = await memberWith(server, team, ['TEAM_ADMIN_WEBSITES']);
    expect(expectOk(await call(server, websiteAdmin, 'GET', `/v1/websites/${site.websiteSimplyId}`)).myRole).toBe('OWNER');
  });

  it('keeps a restricted site to its members: others get 404', async () => {
    const site = await createSite(server, admin);
    const member = await memberWith(server, team, ['TEAM_WEBSITES']);
    const outsider = await memberWith(server, team, ['TEAM_WEBSITES']);
    const restricted = expectOk(
      await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { restricted: true, members: [{ userSimplyId: team.userSimplyId, role: 'OWNER' }, { userSimplyId: member.userSimplyId, role: 'REVIEWER' }] }),
    );
    expect(restricted.members).toEqual([{ userSimplyId: team.userSimplyId, role: 'OWNER' }, { userSimplyId: member.userSimplyId, role: 'REVIEWER' }]);
    expect(expectOk(await call(server, member, 'GET', `/v1/websites/${site.websiteSimplyId}`)).myRole).toBe('REVIEWER');
    expectError(await call(server, member, 'POST', `/v1/websites/${site.websiteSimplyId}/pages`, { title: 'No' }), 403, 'WEBSITE_ROLE_REQUIRED');
    expectError(await call(server, outsider, 'GET', `/v1/websites/${site.websiteSimplyId}`), 404, 'NOT_FOUND');
    expect(expectOk(await call(server, outsider, 'GET', '/v1/websites')).map((w: { websiteSimplyId: string }) => w.websiteSimplyId)).not.toContain(site.websiteSimplyId);
    const notMember = expectError(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { members: [{ userSimplyId: 'usr-AAAA-BBBB-CCCC', role: 'EDITOR' }] }), 400, 'VALIDATION_ERROR');
    expect(notMember.details?.[0]?.field).toBe('members.0.userSimplyId');
  });

  it('accepts OAuth tokens within websites:read and websites:write', async () => {
    const site = await createSite(server, admin);
    const reader = await oauthToken(server, team, 'websites:read');
    expect(expectOk(await server.request('GET', `/v1/websites/${site.websiteSimplyId}`, { token: reader })).websiteSimplyId).toBe(site.websiteSimplyId);
    expectError(await server.request('POST', `/v1/websites/${site.websiteSimplyId}/pages`, { token: reader, body: { title: 'No' } }), 403, 'PERMISSION_DENIED');
    const writer = await oauthToken(server, team, 'websites:read websites:write');
    expectOk(await server.request('POST', `/v1/websites/${site.websiteSimplyId}/pages`, { token: writer, body: { title: 'Yes' } }), 201);
    const records = await oauthToken(server, team, 'records:read');
    expectError(await server.request('GET', '/v1/websites', { token: records }), 403, 'PERMISSION_DENIED');
  });
});

describe('pages', () => {
  it('builds a tree with paths; the first page is the home page at /', async () => {
    const site = await createSite(server, admin);
    const home = await createPage(server, admin, site.websiteSimplyId, { title: 'Welcome' });
    expect(home).toMatchObject({ isHomePage: true, path: '/', slug: 'welcome', position: 0, publishState: 'DRAFT', reviewState: 'NONE', draftRevision: 1 });
    const about = await createPage(server, admin, site.websiteSimplyId, { title: 'Über uns!' });
    expect(about).toMatchObject({ isHomePage: false, path: '/uber-uns', position: 1 });
    const team2 = await createPage(server, admin, site.websiteSimplyId, { title: 'Team', parentPageSimplyId: about.pageSimplyId });
    expect(team2.path).toBe('/uber-uns/team');
    const dup = await createPage(server, admin, site.websiteSimplyId, { title: 'Über uns' });
    expect(dup.slug).toBe('uber-uns-2');
    expectError(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/pages`, { title: 'Clash', slug: 'uber-uns' }), 409, 'WEBSITE_PAGE_PATH_TAKEN');
    expectError(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/pages`, { title: 'Home 2', isHomePage: true, parentPageSimplyId: about.pageSimplyId }), 400, 'VALIDATION_ERROR');
    const list = expectOk(await call(server, admin, 'GET', `/v1/websites/${site.websiteSimplyId}/pages`));
    expect(list.map((p: { path: string }) => p.path)).toEqual(['/', '/uber-uns', '/uber-uns/team', '/uber-uns-2']);
  });

  it('moves pages, refuses cycles, keeps positions dense and makes another page the home page', async () => {
    const site = await createSite(server, admin);
    const a = await createPage(server, admin, site.websiteSimplyId, { title: 'A' });
    const b = await createPage(server, admin, site.websiteSimplyId, { title: 'B' });
    const c = await createPage(server, admin, site.websiteSimplyId, { title: 'C', parentPageSimplyId: b.pageSimplyId });
    const cycle = expectError(await call(server, admin, 'PUT', `/v1/website-pages/${b.pageSimplyId}`, { parentPageSimplyId: c.pageSimplyId }), 400, 'VALIDATION_ERROR');
    expect(cycle.details?.[0]?.field).toBe('parentPageSimplyId');
    const moved = expectOk(await call(server, admin, 'PUT', `/v1/website-pages/${c.pageSimplyId}`, { parentPageSimplyId: null, slug: 'see' }));
    expect(moved).toMatchObject({ path: '/see', parentPageSimplyId: null, position: 2 });
    const home = expectOk(await call(server, admin, 'PUT', `/v1/website-pages/${b.pageSimplyId}`, { isHomePage: true }));
    expect(home.path).toBe('/');
    expect(expectOk(await call(server, admin, 'GET', `/v1/website-pages/${a.pageSimplyId}`))).toMatchObject({ isHomePage: false, path: '/a' });
    expectError(await call(server, admin, 'PUT', `/v1/website-pages/${a.pageSimplyId}`, { isPublished: true }), 400, 'VALIDATION_ERROR');
  });

  it('reorders the whole tree, naming every page once', async () => {
    const site = await createSite(server, admin);
    const [a, b, c] = [await createPage(server, admin, site.websiteSimplyId, { title: 'A' }), await createPage(server, admin, site.websiteSimplyId, { title: 'B' }), await createPage(server, admin, site.websiteSimplyId, { title: 'C' })];
    const path = `/v1/websites/${site.websiteSimplyId}/pages/reorder`;
    const reordered = expectOk(await call(server, admin, 'PUT', path, { tree: [{ pageSimplyId: a.pageSimplyId }, { pageSimplyId: c.pageSimplyId, children: [{ pageSimplyId: b.pageSimplyId }] }] }));
    expect(reordered.map((p: { path: string; position: number }) => [p.path, p.position])).toEqual([['/', 0], ['/c', 1], ['/c/b', 0]]);
    const missing = expectError(await call(server, admin, 'PUT', path, { tree: [{ pageSimplyId: a.pageSimplyId }, { pageSimplyId: c.pageSimplyId }] }), 400, 'VALIDATION_ERROR');
    expect(missing.details?.some((d: { message: string }) => d.message.includes(b.pageSimplyId))).toBe(true);
    const twice = expectError(await call(server, admin, 'PUT', path, { tree: [{ pageSimplyId: a.pageSimplyId }, { pageSimplyId: b.pageSimplyId }, { pageSimplyId: c.pageSimplyId, children: [{ pageSimplyId: b.pageSimplyId }] }] }), 400, 'VALIDATION_ERROR');
    expect(twice.details?.[0]?.field).toBe('tree.2.children.0.pageSimplyId');
    expectError(await call(server, admin, 'PUT', path, { tree: [{ pageSimplyId: b.pageSimplyId, children: [{ pageSimplyId: a.pageSimplyId }] }, { pageSimplyId: c.pageSimplyId }] }), 400, 'VALIDATION_ERROR');
  });

  it('refuses to delete a page with pages under it', async () => {
    const site = await createSite(server, admin);
    const parent = await createPage(server, admin, site.websiteSimplyId, { title: 'Parent' });
    const child = await createPage(server, admin, site.websiteSimplyId, { title: 'Child', parentPageSimplyId: parent.pageSimplyId });
    expectError(await call(server, admin, 'DELETE', `/v1/website-pages/${parent.pageSimplyId}`), 409, 'WEBSITE_PAGE_HAS_CHILDREN');
    expectOk(await call(server, admin, 'DELETE', `/v1/website-pages/${child.pageSimplyId}`));
    expectOk(await call(server, admin, 'DELETE', `/v1/website-pages/${parent.pageSimplyId}`));
    expect(expectOk(await call(server, admin, 'GET', `/v1/websites/${site.websiteSimplyId}`)).pageCount).toBe(0);
  });
});
