// Access areas (docs/api/websites.md "Access areas"): the routes, their roles and refusals, the area
// a page inherits from the page tree, and the served site: gated pages answer the sign-in page to
// anyone the area does not let in, and the content (never cached for others) to a signed-in
// constituent whose record it admits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn, freshIp, mailOf, signedInConstituent } from '../constituent-auth/constituent-fixtures.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { until } from '../support/until.ts';
import { publishedSite, publishPage, setDesign, text, visit } from './served-fixtures.ts';
import { adminOf, call, type Caller, createPage, createSite, memberWith } from './websites-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let admin: Caller;
let people: CollectionFixture;

/** A PERSON collection (people sign in with its email field) with a membership level. */
async function personCollection(t: TeamFixture): Promise<CollectionFixture> {
  const c = await createCollection(server, t, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS', level: 'PLAIN_TEXT' } });
  await server.app.services.prisma.dataCollection.update({ where: { id: c.internalId }, data: { archetype: 'PERSON' } });
  server.app.services.schemas.invalidate(t.teamId);
  return c;
}

async function person(t: TeamFixture, c: CollectionFixture, name: string, email: string, level: string): Promise<void> {
  expectOk(await server.request('POST', '/v1/data-records', { token: t.apiKey, body: { dataCollectionSimplyId: c.id, fields: { [c.fields.name!]: name, [c.fields.email!]: email, [c.fields.level!]: level } } }), 201);
}

const goldOnly = () => [{ dataCollectionSimplyId: people.id, filters: [{ field: people.fields.level, operator: 'eq', value: 'Gold' }] }];
const areaBody = (rootPageSimplyIds: string[], extra: Record<string, unknown> = {}) => ({ name: 'Members', rootPageSimplyIds, admits: goldOnly(), ...extra });

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  admin = adminOf(team);
  people = await personCollection(team);
  await person(team, people, 'Pat', 'pat@example.org', 'Gold');
  await person(team, people, 'Sam', 'sam@example.org', 'Basic');
});
afterAll(() => server?.close());

/** a site with pages: home, members, members/news, about */
async function siteWithTree() {
  const site = (await createSite(server, admin)).websiteSimplyId as string;
  const home = (await createPage(server, admin, site, { title: 'Home' })).pageSimplyId as string;
  const members = (await createPage(server, admin, site, { title: 'Members' })).pageSimplyId as string;
  const news = (await createPage(server, admin, site, { title: 'News', parentPageSimplyId: members })).pageSimplyId as string;
  const about = (await createPage(server, admin, site, { title: 'About' })).pageSimplyId as string;
  return { site, home, members, news, about };
}

describe('access areas', () => {
  it('creates an area over root pages; the pages below inherit it; disabling makes them public', async () => {
    const { site, members, news, about } = await siteWithTree();
    const area = expectOk(await call(server, admin, 'POST', `/v1/websites/${site}/access-areas`, areaBody([members], { signInMessage: 'For members only.' })), 201);
    expect(area.accessAreaSimplyId).toMatch(/^waa-/);
    expect(area).toMatchObject({ websiteSimplyId: site, name: 'Members', rootPageSimplyIds: [members], rootPages: [{ pageSimplyId: members, title: 'Members', path: '/members' }], enabled: true, signInMessage: 'For members only.' });
    expect(area.admits).toEqual(goldOnly());
    expect(expectOk(await call(server, admin, 'GET', `/v1/websites/${site}/access-areas`)).map((a: any) => a.accessAreaSimplyId)).toEqual([area.accessAreaSimplyId]);

    const effective = async (page: string) => expectOk(await call(server, admin, 'GET', `/v1/websites/${site}/access-areas/effective/${page}`));
    expect((await effective(members)).accessAreaSimplyId).toBe(area.accessAreaSimplyId);
    expect((await effective(news)).accessAreaSimplyId).toBe(area.accessAreaSimplyId);
    expect(await effective(about)).toBeNull();

    // a page moved under the area is in it; the nearest area wins
    expectOk(await call(server, admin, 'PUT', `/v1/website-pages/${about}`, { parentPageSimplyId: news }));
    expect((await effective(about)).accessAreaSimplyId).toBe(area.accessAreaSimplyId);
    const inner = expectOk(await call(server, admin, 'POST', `/v1/websites/${site}/access-areas`, areaBody([news], { name: 'News readers' })), 201);
    expect((await effective(about)).accessAreaSimplyId).toBe(inner.accessAreaSimplyId);
    expect((await effective(members)).accessAreaSimplyId).toBe(area.accessAreaSimplyId);

    // disabled areas are as if they were not there
    const off = expectOk(await call(server, admin, 'PUT', `/v1/website-access-areas/${inner.accessAreaSimplyId}`, { enabled: false }));
    expect(off).toMatchObject({ enabled: false, name: 'News readers', rootPageSimplyIds: [news] });
    expect((await effective(about)).accessAreaSimplyId).toBe(area.accessAreaSimplyId);
    expectOk(await call(server, admin, 'PUT', `/v1/website-access-areas/${area.accessAreaSimplyId}`, { enabled: false }));
    expect(await effective(news)).toBeNull();
    const renamed = expectOk(await call(server, admin, 'PUT', `/v1/website-access-areas/${area.accessAreaSimplyId}`, { name: 'Friends', signInMessage: null, enabled: true }));
    expect(renamed).toMatchObject({ name: 'Friends', signInMessage: null, enabled: true, rootPageSimplyIds: [members] });
  });

  it('creates an area together with a new root page it covers', async () => {
    const { site } = await siteWithTree();
    const area = expectOk(await call(server, admin, 'POST', `/v1/websites/${site}/access-areas/root-page`, { name: 'Donors', admits: goldOnly(), page: { title: 'Donor corner' } }), 201);
    expect(area.rootPages).toEqual([{ pageSimplyId: area.rootPageSimplyIds[0], title: 'Donor corner', path: '/donor-corner' }]);
    const page = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${area.rootPageSimplyIds[0]}`));
    expect(page).toMatchObject({ parentPageSimplyId: null, position: 3, publishState: 'DRAFT', isHomePage: false });
    expect(expectOk(await call(server, admin, 'GET', `/v1/websites/${site}/access-areas/effective/${page.pageSimplyId}`)).accessAreaSimplyId).toBe(area.accessAreaSimplyId);
    // a slug a sibling has: nothing is made
    expectError(await call(server, admin, 'POST', `/v1/websites/${site}/access-areas/root-page`, { name: 'Again', admits: goldOnly(), page: { title: 'X', slug: 'donor-corner' } }), 409, 'WEBSITE_PAGE_PATH_TAKEN');
    expect(expectOk(await call(server, admin, 'GET', `/v1/websites/${site}/access-areas`))).toHaveLength(1);
    const bad = expectError(await call(server, admin, 'POST', `/v1/websites/${site}/access-areas/root-page`, { name: 'Again', admits: goldOnly(), page: {} }), 400, 'VALIDATION_ERROR');
    expect(bad.details?.[0]?.field).toBe('page.title');
  });

  it('refuses bodies that do not fit, naming the field', async () => {
    const { site, members, news } = await siteWithTree();
    const other = await siteWithTree();
    const post = (body: unknown) => call(server, admin, 'POST', `/v1/websites/${site}/access-areas`, body);
    const field = async (body: unknown) => expectError(await post(body), 400, 'VALIDATION_ERROR').details?.[0]?.field;
    expect(await field(areaBody([other.members]))).toBe('rootPageSimplyIds.0');
    expect(await field(areaBody([]))).toBe('rootPageSimplyIds');
    expect(await field(areaBody([members, members]))).toBe('rootPageSimplyIds');
    expect(await field({ ...areaBody([members]), admits: [] })).toBe('admits');
    expect(await field({ ...areaBody([members]), admits: [{ dataCollectionSimplyId: 'K7QM-2WXP-9HTC' }] })).toBe('admits.0.dataCollectionSimplyId');
    expect(await field({ ...areaBody([members]), admits: [{ dataCollectionSimplyId: people.id, filters: [{ field: 'NOPE-NOPE-NOPE', operator: 'eq', value: 'x' }] }] })).toBe('admits.0.filters.0.field');
    expect(await field({ rootPageSimplyIds: [members], admits: goldOnly() })).toBe('name');
    expect(await field({ ...areaBody([members]), extra: 1 })).toBeDefined();
    // a page is the root of one area at most
    const area = expectOk(await post(areaBody([members])), 201);
    expect(expectError(await post(areaBody([news, members])), 409, 'WEBSITE_ACCESS_AREA_PAGE_TAKEN').details?.[0]?.field).toBe('rootPageSimplyIds.1');
    const second = expectOk(await post(areaBody([news])), 201);
    expectError(await call(server, admin, 'PUT', `/v1/website-access-areas/${second.accessAreaSimplyId}`, { rootPageSimplyIds: [members] }), 409, 'WEBSITE_ACCESS_AREA_PAGE_TAKEN');
    // its own root pages again are fine
    expectOk(await call(server, admin, 'PUT', `/v1/website-access-areas/${area.accessAreaSimplyId}`, { rootPageSimplyIds: [members] }));
    expectError(await call(server, admin, 'PUT', `/v1/website-access-areas/${area.accessAreaSimplyId}`, { enabled: 'no' }), 400, 'VALIDATION_ERROR');
    // ids
    expectError(await call(server, admin, 'PUT', '/v1/website-access-areas/waa-AAAA-BBBB-CCCC', { enabled: false }), 404, 'NOT_FOUND');
    expectError(await call(server, admin, 'PUT', '/v1/website-access-areas/nope', { enabled: false }), 400, 'VALIDATION_ERROR');
    expectError(await call(server, admin, 'GET', `/v1/websites/${site}/access-areas/effective/${other.members}`), 404, 'NOT_FOUND');
    expectError(await call(server, admin, 'GET', `/v1/websites/${site}/access-areas/effective/nope`), 400, 'VALIDATION_ERROR');
  });

  it('lets OWNER manage and VIEWER read; other callers are refused', async () => {
    const { site, members } = await siteWithTree();
    const area = expectOk(await call(server, admin, 'POST', `/v1/websites/${site}/access-areas`, areaBody([members])), 201);
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    const editor = await memberWith(server, team, ['TEAM_WEBSITES']);
    const outsider = await memberWith(server, team, ['OUTGOING_MESSAGES_VIEW']);
    expect(expectOk(await call(server, viewer, 'GET', `/v1/websites/${site}/access-areas`))).toHaveLength(1);
    expect(expectOk(await call(server, viewer, 'GET', `/v1/websites/${site}/access-areas/effective/${members}`)).accessAreaSimplyId).toBe(area.accessAreaSimplyId);
    expectError(await call(server, viewer, 'PUT', `/v1/website-access-areas/${area.accessAreaSimplyId}`, { enabled: false }), 403, 'PERMISSION_DENIED');
    expectError(await call(server, editor, 'PUT', `/v1/website-access-areas/${area.accessAreaSimplyId}`, { enabled: false }), 403, 'WEBSITE_ROLE_REQUIRED');
    expectError(await call(server, editor, 'POST', `/v1/websites/${site}/access-areas`, areaBody([members])), 403, 'WEBSITE_ROLE_REQUIRED');
    expectError(await call(server, editor, 'POST', `/v1/websites/${site}/access-areas/root-page`, { name: 'x', admits: goldOnly(), page: { title: 'x' } }), 403, 'WEBSITE_ROLE_REQUIRED');
    expectError(await call(server, outsider, 'GET', `/v1/websites/${site}/access-areas`), 403, 'PERMISSION_DENIED');
    expectError(await server.request('GET', `/v1/websites/${site}/access-areas`, { token: team.apiKey }), 403, 'IDP_REQUIRED');
    // an OWNER member of the site manages it
    const owner = await memberWith(server, team, ['TEAM_WEBSITES']);
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site}`, { members: [{ userSimplyId: owner.userSimplyId, role: 'OWNER' }] }));
    expect(expectOk(await call(server, owner, 'PUT', `/v1/website-access-areas/${area.accessAreaSimplyId}`, { enabled: false })).enabled).toBe(false);
    // another team sees nothing of it
    const otherTeam = await createTeam(server);
    const stranger = adminOf(otherTeam);
    expectError(await call(server, stranger, 'GET', `/v1/websites/${site}/access-areas`), 404, 'NOT_FOUND');
    expectError(await call(server, stranger, 'PUT', `/v1/website-access-areas/${area.accessAreaSimplyId}`, { enabled: true }), 404, 'NOT_FOUND');
    // a collection the caller cannot read is not a collection for them
    const collectionless = await memberWith(server, team, ['TEAM_ADMIN_WEBSITES']);
    expect(expectError(await call(server, collectionless, 'POST', `/v1/websites/${site}/access-areas`, areaBody([members])), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('admits.0.dataCollectionSimplyId');
  });
});

/** a live site: a public home page, a published members page and a page below it, gated for Gold members */
async function gatedSite() {
  const site = await publishedSite(server, admin, [text('welcome', 'Welcome, everyone', 'h1')]);
  const members = (await createPage(server, admin, site.websiteSimplyId, { title: 'Members' })).pageSimplyId as string;
  await setDesign(server, admin, members, [text('secret', 'Secret member news', 'h1')]);
  await publishPage(server, admin, members);
  const news = (await createPage(server, admin, site.websiteSimplyId, { title: 'News', parentPageSimplyId: members })).pageSimplyId as string;
  await setDesign(server, admin, news, [text('inner', 'Inner news', 'h1')]);
  await publishPage(server, admin, news);
  // the public pages were served (and kept in memory) before the area exists
  expect((await visit(server, `${site.base}/members`)).status).toBe(200);
  const area = expectOk(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/access-areas`, areaBody([members], { signInMessage: 'Members: sign in with your email.' })), 201);
  return { ...site, members, news, area: area.accessAreaSimplyId as string };
}

const withCookies = (tokens: { accessToken?: string; refreshToken?: string }) => ({
  cookie: [tokens.accessToken ? `svc_site_at=${tokens.accessToken}` : '', tokens.refreshToken ? `svc_site_rt=${tokens.refreshToken}` : ''].filter(Boolean).join('; '),
});
const setCookies = (headers: Headers): string[] => (headers as unknown as { getSetCookie(): string[] }).getSetCookie();

describe('the served site', () => {
  it('answers gated pages with the sign-in page to anonymous visitors, never the content, also once cached', async () => {
    const site = await gatedSite();
    for (const path of [`${site.base}/members`, `${site.base}/members/news`, `${site.base}/members`]) {
      const answer = await until(`${path} to be gated`, async () => { const a = await visit(server, path); return a.status === 401 && a; });
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      expect(answer.text).not.toContain('Secret member news');
      expect(answer.text).not.toContain('Inner news');
      expect(answer.text).toContain('Members: sign in with your email.');
      expect(answer.text).toContain(`action="${site.base}/_signin"`);
      expect(answer.headers.get('content-security-policy')).toContain("form-action 'self'");
    }
    // the public page stays public and shared-cacheable
    const home = await visit(server, `${site.base}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('cache-control')).toBe('public, no-cache');
    // a constituent token is not a team credential: a cookie holding something else is not looked at
    expect((await visit(server, `${site.base}/members`, withCookies({ accessToken: team.apiKey }))).status).toBe(401);
  });

  it('signs a visitor in with a mailed code and serves the content privately to one the area admits', async () => {
    const site = await gatedSite();
    const next = `${site.base}/members/news`;
    const form = (fields: Record<string, string>) => ({ rawBody: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' as const });
    const emailForm = await visit(server, `${site.base}/_signin?next=${encodeURIComponent(next)}`);
    expect(emailForm.status).toBe(200);
    expect(emailForm.text).toContain(`name="next" value="${next}"`);
    const codeForm = await server.request('POST', `${site.base}/_signin`, form({ step: 'email', email: 'pat@example.org', next }));
    expect(codeForm.status).toBe(200);
    const verificationSimplyId = /name="verificationSimplyId" value="([^"]+)"/.exec(codeForm.text)![1]!;
    const code = codeIn((await mailOf(server, verificationSimplyId))!.textBody);
    const wrong = await server.request('POST', `${site.base}/_signin`, form({ step: 'code', verificationSimplyId, code: code === '000000' ? '111111' : '000000', next }));
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('That code is not right');
    const signedIn = await server.request('POST', `${site.base}/_signin`, form({ step: 'code', verificationSimplyId, code, next }));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(next);
    const cookies = setCookies(signedIn.headers);
    expect(cookies.find((c) => c.startsWith('svc_site_at=svc_cat_'))).toMatch(new RegExp(`; Path=${site.base}/; Max-Age=\\d+; HttpOnly; Secure; SameSite=Lax$`));
    expect(cookies.find((c) => c.startsWith('svc_site_rt=svc_crt_'))).toBeDefined();
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
    const page = await visit(server, next, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Inner news');
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    // the same page to the next anonymous visitor: the sign-in page again
    expect((await visit(server, next)).status).toBe(401);
    // a posted form from elsewhere, a next outside the site
    expect((await server.request('POST', `${site.base}/_signin`, { ...form({ step: 'email', email: 'pat@example.org' }), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' } })).status).toBe(403);
    expect((await visit(server, `${site.base}/_signin?next=${encodeURIComponent('https://evil.example/')}`)).text).toContain(`name="next" value="${site.base}/"`);
    // signing out ends the session: its token no longer opens the page
    const out = await server.request('POST', `${site.base}/_signin`, { ...form({ step: 'signout' }), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie } });
    expect(out.status).toBe(303);
    expect(setCookies(out.headers).every((c) => c.includes('Max-Age=0'))).toBe(true);
    expect((await visit(server, next, { cookie: cookie.split('; ')[0]! })).status).toBe(401);
  });

  it('answers 403 to a signed-in constituent the area does not admit, and to none of another team', async () => {
    const site = await gatedSite();
    const sam = await signedInConstituent(server, team, 'sam@example.org');
    const denied = await visit(server, `${site.base}/members`, withCookies(sam));
    expect(denied.status).toBe(403);
    expect(denied.text).not.toContain('Secret member news');
    expect(denied.text).toContain('not open to your account');
    // the record changes: the same session is let in at once
    const record = await server.app.services.prisma.dataRecord.findFirstOrThrow({ where: { teamId: team.teamId, calculatedName: 'Sam' } });
    expectOk(await server.request('PATCH', `/v1/data-records/${record.simplyId}`, { token: team.apiKey, body: { fields: { [people.fields.level!]: 'Gold' } } }));
    expect((await visit(server, `${site.base}/members`, withCookies(sam))).text).toContain('Secret member news');
    expectOk(await server.request('PATCH', `/v1/data-records/${record.simplyId}`, { token: team.apiKey, body: { fields: { [people.fields.level!]: 'Basic' } } }));
    // another team's constituent is not signed in here
    const otherTeam = await createTeam(server);
    const theirPeople = await personCollection(otherTeam);
    await person(otherTeam, theirPeople, 'Pat', 'pat@example.org', 'Gold');
    const theirs = await signedInConstituent(server, otherTeam, 'pat@example.org');
    expect((await visit(server, `${site.base}/members`, withCookies(theirs))).status).toBe(401);
  });

  it('renews an expired access token with the refresh cookie, and makes pages public when the area is disabled', async () => {
    const site = await gatedSite();
    const pat = await signedInConstituent(server, team, 'pat@example.org');
    const renewed = await visit(server, `${site.base}/members`, withCookies({ refreshToken: pat.refreshToken }));
    expect(renewed.status).toBe(303);
    expect(renewed.headers.get('location')).toBe(`${site.base}/members`);
    const cookie = setCookies(renewed.headers).map((c) => c.split(';')[0]).join('; ');
    expect((await visit(server, `${site.base}/members`, { cookie })).text).toContain('Secret member news');
    // the refresh token was used up: presented again, it ends the session and the visitor signs in again
    const reused = await visit(server, `${site.base}/members`, withCookies({ refreshToken: pat.refreshToken }));
    expect(reused.status).toBe(401);
    expect(setCookies(reused.headers).every((c) => c.includes('Max-Age=0'))).toBe(true);

    expectOk(await call(server, admin, 'PUT', `/v1/website-access-areas/${site.area}`, { enabled: false }));
    const open = await until('the page to be public', async () => { const a = await visit(server, `${site.base}/members/news`); return a.status === 200 && a; });
    expect(open.text).toContain('Inner news');
    expect(open.headers.get('cache-control')).toBe('public, no-cache');
    expectOk(await call(server, admin, 'PUT', `/v1/website-access-areas/${site.area}`, { enabled: true }));
    expect((await until('the page to be gated again', async () => { const a = await visit(server, `${site.base}/members/news`); return a.status === 401 && a; })).text).not.toContain('Inner news');
  });

  it('tells the serving handler, in-process, who may see which page', async () => {
    const site = await gatedSite();
    const { servedPageAccess } = await import('../../src/modules/websites/served-access.ts');
    const { siteBySlug, sitePages } = await import('../../src/modules/websites/serve-site.ts');
    const served = (await siteBySlug(server.app.services, site.slug))!;
    const pages = await sitePages(server.app.services, served);
    const news = pages.find((p) => p.simplyId === site.news)!;
    const home = pages.find((p) => p.isHomePage)!;
    const request = { url: `${site.base}/members/news`, headers: {}, socket: { remoteAddress: freshIp() } } as never;
    expect(await servedPageAccess(server.app.services, request, served, home)).toEqual({ allowed: true });
    expect(await servedPageAccess(server.app.services, request, served, news)).toMatchObject({ allowed: false, status: 401 });
    const pat = await signedInConstituent(server, team, 'pat@example.org');
    const signed = { url: `${site.base}/members/news`, headers: { cookie: `svc_site_at=${pat.accessToken}` }, socket: { remoteAddress: freshIp() } } as never;
    expect(await servedPageAccess(server.app.services, signed, served, news)).toEqual({ allowed: true, private: true });
  });
});
