// Website imports (docs/api/websites.md "Import"): discovering a site, importing its pages as
// sanitized drafts through a WEBSITE_IMPORT background task, the per-page errors, the review of
// its suggestions, and the refusals: private and loopback targets without the test setting, bad
// input, roles. The source is a local site with hostile markup (import-fixtures.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilTaskDone } from '../support/background-task-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { startSourceSite, type SourceSite } from './import-fixtures.ts';
import { publishPage, setDesign, visit } from './served-fixtures.ts';
import { adminOf, call, type Caller, createPage, createSite, memberWith } from './websites-fixtures.ts';

// the import's workers must be this suite's (they alone may reach loopback): its own database
const suite = useServer({ teams: 1, runJobs: true, ownDatabase: 'website_import', env: { WEBSITE_IMPORT_ALLOW_LOOPBACK: true } });
let source: SourceSite;
let admin: Caller;

beforeAll(async () => {
  source = await startSourceSite();
  admin = adminOf(suite.teams[0]);
});
afterAll(() => source?.close());

const discover = (who: Caller, sourceUrl: string) => call(suite.server, who, 'POST', '/v1/websites/import/discover', { sourceUrl });
const start = (who: Caller, body: Record<string, unknown>) => call(suite.server, who, 'POST', '/v1/websites/import/start', body);
const review = (who: Caller, task: string, responses: unknown[]) => call(suite.server, who, 'POST', `/v1/websites/import/${task}/review`, { responses });
const done = (who: Caller, task: string) => untilTaskDone(suite.server, { token: who.token, teamId: who.teamId! }, task);
const designOf = async (who: Caller, page: string) => expectOk(await call(suite.server, who, 'GET', `/v1/website-pages/${page}/design`)).design;

/** every attribute, tag and text of a design, for what must never be in one */
function flatten(design: unknown): string {
  return JSON.stringify(design).toLowerCase();
}

describe('discover', () => {
  it('answers the title, favicon, same-site pages (links and sitemap, robots.txt respected) and sitemap sections', async () => {
    const found = expectOk(await discover(admin, `${source.base}/`));
    expect(found.title).toBe('Friends of the Park');
    expect(found.faviconUrl).toBe(`${source.base}/static/icon.png`);
    const paths = found.pages.map((p: { path: string }) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['/', '/about', '/contact', '/blog/first-post', '/blog/second-post']));
    // robots.txt closes /private; other hosts and script links are no pages of the site
    expect(paths.some((p: string) => p.startsWith('/private'))).toBe(false);
    expect(found.pages.every((p: { url: string }) => p.url.startsWith(source.base))).toBe(true);
    expect(found.pages.find((p: { path: string }) => p.path === '/about')).toMatchObject({ title: 'About us', inSitemap: true });
    expect(found.pages.find((p: { path: string }) => p.path === '/contact')).toMatchObject({ inSitemap: false });
    expect(found.sitemapUrl).toBe(`${source.base}/sitemap.xml`);
    expect(found.sitemapSections).toEqual(expect.arrayContaining([{ name: 'blog', path: '/blog', pageCount: 2 }, { name: 'about', path: '/about', pageCount: 1 }]));
    expect(found.pagesTruncated).toBe(false);
  });

  it('follows a redirect on the same checks, and answers 422 for pages that are not HTML or not there', async () => {
    expect(expectOk(await discover(admin, `${source.base}/moved`)).sourceUrl).toBe(`${source.base}/about`);
    const notHtml = expectError(await discover(admin, `${source.base}/json`), 422, 'WEBSITE_IMPORT_SOURCE_UNAVAILABLE');
    expect(notHtml.details?.[0]).toMatchObject({ field: 'sourceUrl' });
    expectError(await discover(admin, `${source.base}/nothing-here`), 422, 'WEBSITE_IMPORT_SOURCE_UNAVAILABLE');
    expectError(await discover(admin, `${source.base}/huge`), 422, 'WEBSITE_IMPORT_SOURCE_UNAVAILABLE');
    expectError(await discover(admin, `${source.base}/private/secret`), 422, 'WEBSITE_IMPORT_SOURCE_UNAVAILABLE');
    // nothing listens there
    expectError(await discover(admin, 'http://127.0.0.1:9/'), 422, 'WEBSITE_IMPORT_SOURCE_UNAVAILABLE');
  });

  it('refuses private, link-local and reserved targets even where loopback is allowed, and other schemes', async () => {
    for (const target of ['http://10.1.2.3/', 'http://169.254.169.254/latest/meta-data', 'http://[fd00::1]/', 'http://192.168.0.1/', 'http://0.0.0.0/']) {
      const error = expectError(await discover(admin, target), 400, 'WEBSITE_IMPORT_TARGET_REFUSED', target);
      expect(error.details?.[0]?.field).toBe('sourceUrl');
    }
    expectError(await discover(admin, 'file:///etc/passwd'), 400, 'WEBSITE_IMPORT_TARGET_REFUSED');
    expectError(await discover(admin, 'http://user:pw@example.org/'), 400, 'WEBSITE_IMPORT_TARGET_REFUSED');
    expectError(await call(suite.server, admin, 'POST', '/v1/websites/import/discover', {}), 400, 'VALIDATION_ERROR');
  });
});

describe('without the test setting', () => {
  let plain: TestServer;
  let team: TeamFixture;
  beforeAll(async () => {
    plain = await startTestServer({ runJobs: false });
    team = await createTeam(plain);
  });
  afterAll(() => plain?.close());

  it('refuses loopback targets, by address and by name, for discover and start', async () => {
    const who = adminOf(team);
    for (const target of [`${source.base}/`, `http://localhost:${new URL(source.base).port}/`, 'http://[::1]/']) {
      expectError(await call(plain, who, 'POST', '/v1/websites/import/discover', { sourceUrl: target }), 400, 'WEBSITE_IMPORT_TARGET_REFUSED', target);
    }
    expectError(await call(plain, who, 'POST', '/v1/websites/import/start', { sourceUrl: `${source.base}/`, targetMode: 'NEW_WEBSITE' }), 400, 'WEBSITE_IMPORT_TARGET_REFUSED');
    expect(source.hits.get('/robots.txt') ?? 0).toBeGreaterThan(0);
  });
});

describe('start and the task', () => {
  it('imports the pages as sanitized drafts of a new site, with errors for pages that cannot be read', async () => {
    const started = expectOk(
      await start(admin, { sourceUrl: `${source.base}/`, targetMode: 'NEW_WEBSITE', selectedPages: [`${source.base}/`, '/about', `${source.base}/contact`, '/nothing-here', '/huge', '/private/secret'] }),
      201,
    );
    expect(started).toMatchObject({ status: 'QUEUED', websiteSimplyId: null, pageCount: 6 });
    const task = await done(admin, started.backgroundTaskSimplyId);
    expect(task.enumBackgroundTaskTypeId ?? task.taskType).toBe('WEBSITE_IMPORT');
    expect(task.status).toBe('PARTIAL_SUCCESS');
    expect(task.result).toMatchObject({ pageCount: 6, successCount: 3, failureCount: 3, imagesImported: 2, imagesFailed: 1 });
    const errors = task.errors.map((e: { errorType: string; errorContext: { pageUrl: string } }) => [e.errorType, new URL(e.errorContext.pageUrl).pathname]);
    expect(errors).toEqual(expect.arrayContaining([['PAGE_NOT_AVAILABLE', '/nothing-here'], ['PAGE_TOO_LARGE', '/huge'], ['ROBOTS_DISALLOWED', '/private/secret']]));

    const site = task.result.websiteSimplyId as string;
    const pages = expectOk(await call(suite.server, admin, 'GET', `/v1/websites/${site}/pages`));
    expect(pages.map((p: { path: string }) => p.path)).toEqual(['/', '/about', '/contact']);
    expect(pages[0].isHomePage).toBe(true);
    expect(pages.every((p: { publishState: string }) => p.publishState === 'DRAFT')).toBe(true);
    expect(pages[0]).toMatchObject({ title: 'Friends of the Park', metaDescription: 'A park and its friends' });

    const home = await designOf(admin, pages[0].pageSimplyId);
    const text = flatten(home);
    for (const bad of ['<script', 'script', 'onerror', 'onload', 'onclick', 'javascript:', 'iframe', 'expression(', 'behavior', 'svg', '"object"', '@import', 'stolen', 'tracker.example']) expect(text, bad).not.toContain(bad);
    expect(text).toContain('welcome to the park');
    // links: imported pages relative, other pages and sites absolute, the script link without href
    expect(text).toContain('"href":"about"');
    expect(text).toContain('"href":"contact"');
    expect(text).toContain(`"href":"${source.base}/blog/first-post#top"`);
    expect(home.components.some((c: { type: string }) => c.type === 'textnode')).toBe(false);
    expect(text).toContain('"href":"https://elsewhere.example.org/page"');
    expect(text).toContain('"colspan":"2"');
    // the image is a team file now, the broken one a placeholder, the form a placeholder
    const image = JSON.stringify(home).match(/"src":"\/v1\/files\/(file-[A-Z0-9-]+)\/download"/);
    expect(image).not.toBeNull();
    expectOk(await call(suite.server, admin, 'GET', `/v1/files/${image![1]}`));
    expect(text).toContain('data-import-missing-image');
    expect(text).toContain('data-import-form');
    // styles: only safe declarations of plain selectors
    expect(home.styles).toEqual(expect.arrayContaining([expect.objectContaining({ selectors: ['hero'], style: { color: '#225522', padding: '12px' } })]));
    const about = await designOf(admin, pages[1].pageSimplyId);
    expect(flatten(about)).toContain('"href":"./"');

    // the suggestions are on the task's detail
    const kinds = task.result.suggestions.map((s: { kind: string }) => s.kind).sort();
    expect(kinds).toEqual(['FORM_TO_WIZARD', 'MISSING_IMAGES', 'STYLE_CONFLICTS']);
    expect(task.result.suggestions.find((s: { kind: string }) => s.kind === 'FORM_TO_WIZARD')).toMatchObject({ pageSimplyId: pages[0].pageSimplyId, status: 'OPEN' });
    expect(task.result.suggestions.find((s: { kind: string }) => s.kind === 'MISSING_IMAGES').message).toMatch(/^1 image could not be fetched/);

    // review: unknown ids refused as a whole, then the answers change the drafts (never publish)
    const unknown = expectError(await review(admin, started.backgroundTaskSimplyId, [{ suggestionId: 'missing-images', action: 'ACCEPT' }, { suggestionId: 'nope', action: 'SKIP' }]), 400, 'VALIDATION_ERROR');
    expect(unknown.details).toEqual([expect.objectContaining({ field: 'responses.1.suggestionId' })]);
    expect(flatten(await designOf(admin, pages[0].pageSimplyId))).toContain('data-import-missing-image');
    expectError(await review(admin, started.backgroundTaskSimplyId, [{ suggestionId: 'missing-images', action: 'MODIFY' }]), 400, 'VALIDATION_ERROR');
    const formId = task.result.suggestions.find((s: { kind: string }) => s.kind === 'FORM_TO_WIZARD').suggestionId;
    const reviewed = expectOk(
      await review(admin, started.backgroundTaskSimplyId, [
        { suggestionId: 'missing-images', action: 'ACCEPT' },
        { suggestionId: formId, action: 'MODIFY', modifications: { text: 'Join us with the <b>volunteer</b> wizard' } },
        { suggestionId: 'style-conflicts', action: 'SKIP' },
      ]),
    );
    expect(reviewed.suggestions.map((s: { status: string }) => s.status).sort()).toEqual(['ACCEPTED', 'MODIFIED', 'SKIPPED']);
    expect(reviewed.changedPageSimplyIds).toEqual(expect.arrayContaining([pages[0].pageSimplyId, pages[1].pageSimplyId]));
    const after = await designOf(admin, pages[0].pageSimplyId);
    expect(flatten(after)).not.toContain('data-import-missing-image');
    expect(JSON.stringify(after)).toContain('Join us with the <b>volunteer</b> wizard');
    expect(after.styles).toEqual([]);
    const again = expectOk(await call(suite.server, admin, 'GET', `/v1/websites/${site}/pages`));
    expect(again.every((p: { publishState: string }) => p.publishState === 'DRAFT')).toBe(true);

    // once someone publishes it, the imported page is served like any other, with nothing that runs
    await publishPage(suite.server, admin, pages[0].pageSimplyId);
    const { activationToken } = expectOk(await call(suite.server, admin, 'POST', `/v1/websites/${site}/publish-activation`), 201);
    const live = expectOk(await call(suite.server, admin, 'PUT', `/v1/websites/${site}`, { isPublished: true, activationToken }));
    const served = await visit(suite.server, `/sites/${live.slug}/`);
    expect(served.status).toBe(200);
    expect(served.text).toContain('Welcome to the park');
    expect(served.text).toContain('href="about"');
    for (const bad of ['<script', 'onerror', 'onload', 'onclick', 'javascript:', '<iframe', 'expression(', 'tracker.example']) expect(served.text.toLowerCase(), bad).not.toContain(bad);

    // the imported image shows to visitors: the site serves it at its own address while a published page references it
    const picture = `/sites/${live.slug}/files/${image![1]}`;
    expect(served.text).toContain(`src="${picture}"`);
    expect(served.text).not.toContain('/v1/files/');
    const shown = await visit(suite.server, picture);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(shown.headers.get('cache-control')).toBe('public, max-age=3600');
    expect((await visit(suite.server, picture, { 'if-none-match': shown.headers.get('etag')! })).status).toBe(304);
    expect((await visit(suite.server, `/sites/${live.slug}/files/file-2222-3333-4444`)).status).toBe(404);
    await setDesign(suite.server, admin, pages[0].pageSimplyId, [{ tagName: 'p', attributes: { id: 'plain' }, components: [{ type: 'textnode', content: 'No pictures' }] }]);
    await publishPage(suite.server, admin, pages[0].pageSimplyId);
    expect((await visit(suite.server, picture)).status).toBe(404);
  });

  it('adds pages to an existing site beside its own, for an EDITOR; the task fails when no page can be read', async () => {
    const site = (await createSite(suite.server, admin)).websiteSimplyId as string;
    await createPage(suite.server, admin, site, { title: 'Contact', slug: 'contact' });
    const started = expectOk(await start(admin, { sourceUrl: `${source.base}/contact`, targetMode: 'EXISTING_WEBSITE', existingWebsiteSimplyId: site, styleSource: 'EXISTING_WEBSITE' }), 201);
    expect(started.websiteSimplyId).toBe(site);
    const task = await done(admin, started.backgroundTaskSimplyId);
    expect(task.status).toBe('COMPLETED');
    const pages = expectOk(await call(suite.server, admin, 'GET', `/v1/websites/${site}/pages`));
    expect(pages.map((p: { slug: string }) => p.slug)).toEqual(['contact', 'contact-2']);
    expect(pages[1].isHomePage).toBe(false);
    expect(flatten(await designOf(admin, pages[1].pageSimplyId))).toContain('"href":"mailto:hello@example.org"');

    const failed = expectOk(await start(admin, { sourceUrl: `${source.base}/`, targetMode: 'EXISTING_WEBSITE', existingWebsiteSimplyId: site, selectedPages: ['/nothing-here'] }), 201);
    const finished = await done(admin, failed.backgroundTaskSimplyId);
    expect(finished.status).toBe('FAILED');
    expect(finished.errors[0]).toMatchObject({ errorType: 'PAGE_NOT_AVAILABLE' });
  });

  it('answers 409 to a review while the task runs', async () => {
    const started = expectOk(await start(admin, { sourceUrl: `${source.base}/slow`, targetMode: 'NEW_WEBSITE' }), 201);
    expectError(await review(admin, started.backgroundTaskSimplyId, [{ suggestionId: 'missing-images', action: 'ACCEPT' }]), 409, 'WEBSITE_IMPORT_NOT_FINISHED');
    expect((await done(admin, started.backgroundTaskSimplyId)).status).toBe('COMPLETED');
    expectError(await review(admin, 'btk-2222-3333-4444', [{ suggestionId: 'x', action: 'ACCEPT' }]), 404, 'NOT_FOUND');
  });

  it('refuses bad input naming the field, STYLE_KIT, and callers without the role', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const error = expectError(await start(admin, body), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((d) => d.field)).toContain(field);
    };
    await bad({ sourceUrl: `${source.base}/` }, 'targetMode');
    await bad({ sourceUrl: `${source.base}/`, targetMode: 'EXISTING_WEBSITE' }, 'existingWebsiteSimplyId');
    await bad({ sourceUrl: `${source.base}/`, targetMode: 'NEW_WEBSITE', styleSource: 'STYLE_KIT', teamStyleKitSimplyId: 'kit-1' }, 'styleSource');
    await bad({ sourceUrl: `${source.base}/`, targetMode: 'NEW_WEBSITE', selectedPages: ['https://elsewhere.example.org/'] }, 'selectedPages.0');

    const site = (await createSite(suite.server, admin)).websiteSimplyId as string;
    const viewer = await memberWith(suite.server, suite.teams[0], ['TEAM_WEBSITES:VIEW']);
    expectError(await start(viewer, { sourceUrl: `${source.base}/`, targetMode: 'NEW_WEBSITE' }), 403, 'PERMISSION_DENIED');
    expectError(await discover(viewer, `${source.base}/`), 403, 'PERMISSION_DENIED');
    const outsider = await memberWith(suite.server, suite.teams[0], []);
    expectError(await start(outsider, { sourceUrl: `${source.base}/`, targetMode: 'EXISTING_WEBSITE', existingWebsiteSimplyId: site }), 403, 'PERMISSION_DENIED');
    // the task type is not started through the generic route
    expectError(await call(suite.server, admin, 'POST', '/v1/background-tasks', { enumBackgroundTaskTypeId: 'WEBSITE_IMPORT', queueData: {} }), 400, 'TASK_TYPE_NOT_SUPPORTED');
  });
});
