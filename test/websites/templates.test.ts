// Team website templates (docs/api/websites.md "Templates"): a release snapshots the source site;
// a site made from the template is filled by a WEBSITE_COPY task (with its stats); a later release
// reaches AUTO sites through a WEBSITE_TEMPLATE_RELEASE task (local edits kept, detached pages
// untouched, new pages added, removed ones left and reported, managedPublish publishing what
// changed) and REVIEW sites as a pending release an editor applies; disconnecting; the refusals.
import { beforeAll, describe, expect, it } from 'vitest';
import { untilTaskDone } from '../support/background-task-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { useServer } from '../support/use-server.ts';
import { setDesign, text } from './served-fixtures.ts';
import { adminOf, call, type Caller, createPage, createSite, siteName } from './websites-fixtures.ts';

const suite = useServer({ teams: 2, runJobs: true });
let admin: Caller;
let source: string;
/** the source site's pages by role */
const src: Record<'home' | 'about' | 'contact' | 'old', string> = { home: '', about: '', contact: '', old: '' };
let template: string;

const as = (who: Caller, method: string, path: string, body?: unknown) => call(suite.server, who, method, path, body);
const done = (task: string) => untilTaskDone(suite.server, { token: admin.token, teamId: admin.teamId! }, task);
const pagesOf = async (site: string) => expectOk(await as(admin, 'GET', `/v1/websites/${site}/pages`)) as any[];
const byTitle = (pages: any[], title: string) => pages.find((p) => p.title === title);
const wordsOf = async (page: string) => JSON.stringify(expectOk(await as(admin, 'GET', `/v1/website-pages/${page}/design`)).design);

async function fromTemplate(templateSyncMode: 'AUTO' | 'REVIEW') {
  const made = expectOk(await as(admin, 'POST', `/v1/website-templates/${template}/websites`, { name: siteName('Chapter'), templateSyncMode, defaultLanguageTagId: 'en' }), 201);
  expect(made).toMatchObject({ status: 'QUEUED', releaseNumber: 1, connection: { connected: true, templateSyncMode, teamWebsiteTemplateSimplyId: template, appliedReleaseNumber: null } });
  const task = await done(made.backgroundTaskSimplyId);
  return { site: made.website.websiteSimplyId as string, task };
}

beforeAll(async () => {
  admin = adminOf(suite.teams[0]);
  source = (await createSite(suite.server, admin)).websiteSimplyId;
  for (const title of ['Home', 'About', 'Contact', 'Old'] as const) {
    const page = (await createPage(suite.server, admin, source, { title })).pageSimplyId;
    src[title.toLowerCase() as keyof typeof src] = page;
    await setDesign(suite.server, admin, page, [text('t', `${title} v1`, 'h1')]);
  }
  expectOk(
    await as(admin, 'PUT', `/v1/websites/${source}`, {
      themeSettings: { primaryColor: '#225522' },
      navigationJson: { version: 2, menus: [{ name: 'Main', items: [{ type: 'PAGE', pageSimplyId: src.about, label: 'About' }, { type: 'LINK', url: 'https://example.org/', label: 'Elsewhere' }] }] },
    }),
  );
  template = expectOk(await as(admin, 'POST', '/v1/website-templates', { name: 'Chapter site', sourceWebsiteSimplyId: source }), 201).teamWebsiteTemplateSimplyId;
  const released = expectOk(await as(admin, 'POST', `/v1/website-templates/${template}/release`, { releaseNotes: 'First' }), 201);
  expect(released.release).toMatchObject({ number: 1, pageCount: 4, releaseNotes: 'First', backgroundTaskSimplyId: null });
});

describe('templates', () => {
  it('copies the newest release into a new site with a WEBSITE_COPY task and its stats', async () => {
    const { site, task } = await fromTemplate('REVIEW');
    expect(task).toMatchObject({ status: 'COMPLETED', enumBackgroundTaskTypeId: 'WEBSITE_COPY' });
    expect(task.result).toMatchObject({ websiteSimplyId: site, releaseNumber: 1, successCount: 4, failureCount: 0, stats: { pagesCopied: 4, componentsCopied: 8, navigationMenusCopied: 1 } });
    expect(task.result.stats.settingsCopied).toBeGreaterThanOrEqual(2);
    const pages = await pagesOf(site);
    expect(pages.map((p) => p.title)).toEqual(['Home', 'About', 'Contact', 'Old']);
    expect(byTitle(pages, 'Home').isHomePage).toBe(true);
    expect(await wordsOf(byTitle(pages, 'About').pageSimplyId)).toContain('About v1');
    const settings = expectOk(await as(admin, 'GET', `/v1/websites/${site}`));
    expect(settings.themeSettings).toEqual({ primaryColor: '#225522' });
    expect(settings.defaultLanguageTagId).toBe('en');
    // the navigation points at the copy's own page
    expect(settings.navigationJson.menus[0].items[0].pageSimplyId).toBe(byTitle(pages, 'About').pageSimplyId);
    const detail = expectOk(await as(admin, 'GET', `/v1/website-templates/${template}`));
    expect(detail.websites).toContainEqual({ websiteSimplyId: site, templateSyncMode: 'REVIEW', appliedReleaseNumber: 1, pendingReleaseNumber: null });
  });

  it('applies a release to AUTO sites (local edits kept, detached pages untouched) and leaves it pending on REVIEW sites', async () => {
    const auto = await fromTemplate('AUTO');
    const review = await fromTemplate('REVIEW');
    const autoPages = await pagesOf(auto.site);
    // on the AUTO site: About edited locally, Contact detached
    await setDesign(suite.server, admin, byTitle(autoPages, 'About').pageSimplyId, [text('t', 'Our own about', 'h1')]);
    expect(expectOk(await as(admin, 'POST', `/v1/website-pages/${byTitle(autoPages, 'Contact').pageSimplyId}/template/detach`))).toMatchObject({ followsTemplate: false });
    expectError(await as(admin, 'POST', `/v1/website-pages/${byTitle(autoPages, 'Contact').pageSimplyId}/template/detach`), 409, 'WEBSITE_PAGE_NOT_FROM_TEMPLATE');

    // the source changes: every page's text, Old deleted, News added
    for (const key of ['home', 'about', 'contact'] as const) await setDesign(suite.server, admin, src[key], [text('t', `${key} v2`, 'h1')]);
    expectOk(await as(admin, 'DELETE', `/v1/website-pages/${src.old}`));
    const news = (await createPage(suite.server, admin, source, { title: 'News' })).pageSimplyId;
    await setDesign(suite.server, admin, news, [text('t', 'News v2', 'h1')]);

    const released = expectOk(await as(admin, 'POST', `/v1/website-templates/${template}/release`, { releaseNotes: 'Second', managedPublish: true }), 201);
    expect(released.release.number).toBe(2);
    expect(released.autoWebsiteCount).toBeGreaterThanOrEqual(1);
    const task = await done(released.release.backgroundTaskSimplyId);
    expect(task).toMatchObject({ status: 'COMPLETED', enumBackgroundTaskTypeId: 'WEBSITE_TEMPLATE_RELEASE', result: { releaseNumber: 2, failureCount: 0 } });
    expect(task.progress).toMatchObject({ processedCount: released.autoWebsiteCount, totalCount: released.autoWebsiteCount });
    const outcome = task.result.sites.find((s: { websiteSimplyId: string }) => s.websiteSimplyId === auto.site);
    const after = await pagesOf(auto.site);
    const id = (title: string) => byTitle(after, title).pageSimplyId;
    expect(outcome).toMatchObject({
      status: 'APPLIED',
      pagesUpdated: [id('Home')],
      pagesAdded: [id('News')],
      keptLocal: [id('About')],
      detached: [id('Contact')],
      removedFromTemplate: [id('Old')],
      settings: 'UNCHANGED',
      pagesPublished: 2,
    });
    expect(await wordsOf(id('Home'))).toContain('home v2');
    expect(await wordsOf(id('About'))).toContain('Our own about');
    expect(await wordsOf(id('Contact'))).toContain('Contact v1');
    expect(byTitle(after, 'Home').publishState).not.toBe(byTitle(autoPages, 'Home').publishState);
    expect(byTitle(after, 'News').publishedRevision).toBe(byTitle(after, 'News').draftRevision);

    // the REVIEW site waits for an editor
    const reviewPages = await pagesOf(review.site);
    expect(await wordsOf(byTitle(reviewPages, 'Home').pageSimplyId)).toContain('Home v1');
    const applied = expectOk(await as(admin, 'POST', `/v1/websites/${review.site}/template/apply`));
    expect(applied.connection).toMatchObject({ appliedReleaseNumber: 2, pendingReleaseNumber: null, templateSyncMode: 'REVIEW' });
    expect(applied.outcome).toMatchObject({ pagesUpdated: expect.arrayContaining([byTitle(reviewPages, 'About').pageSimplyId]), keptLocal: [], pagesPublished: 0 });
    expect(applied.outcome.pagesUpdated).toHaveLength(3);
    expect(applied.outcome.pagesAdded).toHaveLength(1);
    expect(await wordsOf(byTitle(reviewPages, 'Contact').pageSimplyId)).toContain('contact v2');
    expectError(await as(admin, 'POST', `/v1/websites/${review.site}/template/apply`), 409, 'WEBSITE_TEMPLATE_NOTHING_TO_APPLY');

    // disconnected, the site keeps its pages and follows nothing
    expect(expectOk(await as(admin, 'POST', `/v1/websites/${review.site}/template/disconnect`))).toMatchObject({ connected: false, templateSyncMode: null });
    expect(await pagesOf(review.site)).toHaveLength(5);
    expectError(await as(admin, 'POST', `/v1/websites/${review.site}/template/apply`), 409, 'WEBSITE_NOT_FROM_TEMPLATE');
    expectError(await as(admin, 'POST', `/v1/websites/${review.site}/template/disconnect`), 409, 'WEBSITE_NOT_FROM_TEMPLATE');
    expectError(await as(admin, 'POST', `/v1/website-pages/${byTitle(reviewPages, 'Home').pageSimplyId}/template/detach`), 409, 'WEBSITE_PAGE_NOT_FROM_TEMPLATE');
  });

  it('refuses bad input naming the field, another team’s template, and new sites from an archived template', async () => {
    const bad = expectError(await as(admin, 'POST', '/v1/website-templates', { sourceWebsiteSimplyId: source }), 400, 'VALIDATION_ERROR');
    expect(bad.details?.map((d) => d.field)).toContain('name');
    const mode = expectError(await as(admin, 'POST', `/v1/website-templates/${template}/websites`, { name: 'X', templateSyncMode: 'SOMETIMES' }), 400, 'VALIDATION_ERROR');
    expect(mode.details?.map((d) => d.field)).toContain('templateSyncMode');
    const noName = expectError(await as(admin, 'POST', `/v1/website-templates/${template}/websites`, {}), 400, 'VALIDATION_ERROR');
    expect(noName.details?.map((d) => d.field)).toContain('name');
    const id = expectError(await as(admin, 'GET', '/v1/website-templates/42'), 400, 'VALIDATION_ERROR');
    expect(id.details?.map((d) => d.field)).toContain('teamWebsiteTemplateSimplyId');

    const other = adminOf(suite.teams[1]);
    expectError(await as(other, 'GET', `/v1/website-templates/${template}`), 404, 'NOT_FOUND');
    expectError(await as(other, 'POST', `/v1/website-templates/${template}/websites`, { name: 'Theirs' }), 404, 'NOT_FOUND');
    expectError(await as(other, 'POST', '/v1/website-templates', { name: 'Theirs', sourceWebsiteSimplyId: source }), 404, 'NOT_FOUND');
    expect(expectOk(await as(other, 'GET', '/v1/website-templates'))).toEqual([]);
    expectError(await as(other, 'PUT', `/v1/website-templates/${template}`, { name: 'Theirs' }), 404, 'NOT_FOUND');
    expectError(await as(other, 'POST', `/v1/website-templates/${template}/release`, {}), 404, 'NOT_FOUND');
    expectError(await as(other, 'DELETE', `/v1/website-templates/${template}`), 404, 'NOT_FOUND');
    const connected = expectOk(await as(admin, 'GET', `/v1/website-templates/${template}`)).websites[0].websiteSimplyId;
    expectError(await as(other, 'POST', `/v1/websites/${connected}/template/apply`), 404, 'NOT_FOUND');
    expectError(await as(other, 'POST', `/v1/websites/${connected}/template/disconnect`), 404, 'NOT_FOUND');
    const [connectedPage] = await pagesOf(connected);
    expectError(await as(other, 'POST', `/v1/website-pages/${connectedPage.pageSimplyId}/template/detach`), 404, 'NOT_FOUND');

    const unreleased = expectOk(await as(admin, 'POST', '/v1/website-templates', { name: 'Empty', sourceWebsiteSimplyId: source }), 201).teamWebsiteTemplateSimplyId;
    expectError(await as(admin, 'POST', `/v1/website-templates/${unreleased}/websites`, { name: 'Too early' }), 409, 'WEBSITE_TEMPLATE_NOT_RELEASED');
    // a release that does not apply itself: every connected site, AUTO ones too, gets it as pending
    const quiet = expectOk(await as(admin, 'POST', `/v1/website-templates/${template}/release`, { applyAutoSites: false }), 201);
    expect(quiet).toMatchObject({ autoWebsiteCount: 0, release: { number: 3, backgroundTaskSimplyId: null, applyAutoSites: false } });
    const waiting = expectOk(await as(admin, 'GET', `/v1/website-templates/${template}`)).websites;
    expect(quiet.pendingWebsiteCount).toBe(waiting.length);
    expect(waiting.every((w: { pendingReleaseNumber: number }) => w.pendingReleaseNumber === 3)).toBe(true);
    expectOk(await as(admin, 'DELETE', `/v1/website-templates/${template}`));
    expectError(await as(admin, 'POST', `/v1/website-templates/${template}/websites`, { name: 'Too late' }), 409, 'WEBSITE_TEMPLATE_ARCHIVED');
    expectError(await as(admin, 'POST', `/v1/website-templates/${template}/release`, {}), 409, 'WEBSITE_TEMPLATE_ARCHIVED');
    expect(expectOk(await as(admin, 'GET', `/v1/website-templates/${template}`))).toMatchObject({ status: 'ARCHIVED', latestReleaseNumber: 3 });
    const listed = expectOk(await as(admin, 'GET', '/v1/website-templates')).map((t: { teamWebsiteTemplateSimplyId: string }) => t.teamWebsiteTemplateSimplyId);
    expect(listed).toEqual([unreleased]);
  });
});
