// Publishing and review of pages, versions, the site's readiness, activation and going live,
// header, footer and campaign chrome, and backups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
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

const insert = (id: string, text = id) => ({ op: 'insert', parentId: null, component: { tagName: 'p', attributes: { id }, components: [{ type: 'textnode', content: text }] } });
const edit = (page: string, ...operations: unknown[]) => call(server, admin, 'PATCH', `/v1/website-pages/${page}/design`, { operations });

describe('publishing and review of a page', () => {
  it('publishes the draft, keeps a version, and tells when the draft moves on', async () => {
    const site = await createSite(server, admin);
    const page = (await createPage(server, admin, site.websiteSimplyId)).pageSimplyId;
    expectOk(await edit(page, insert('one')));
    const published = expectOk(await call(server, admin, 'POST', `/v1/website-pages/${page}/publish`, { summary: 'first' }));
    expect(published).toMatchObject({ publishState: 'PUBLISHED', publishedRevision: 2, draftRevision: 2 });
    expectOk(await edit(page, insert('two')));
    expect(expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}`)).publishState).toBe('MODIFIED');
    const versions = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/versions`));
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ number: 1, kind: 'PUBLISHED', note: 'first', draftRevision: 2 });
    expect(versions[0].design.components.map((c: any) => c.attributes.id)).toEqual(['one']);
    const off = expectOk(await call(server, admin, 'PUT', `/v1/website-pages/${page}`, { isPublished: false }));
    expect(off).toMatchObject({ publishState: 'DRAFT', publishedRevision: null });
    const kinds = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/activity`)).map((a: { kind: string }) => a.kind);
    expect(kinds).toEqual(['UNPUBLISHED', 'EDITED', 'PUBLISHED', 'EDITED', 'CREATED']);
  });

  it('moves through the review states, each by the role it needs', async () => {
    const site = await createSite(server, admin);
    const page = (await createPage(server, admin, site.websiteSimplyId)).pageSimplyId;
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    const reviewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { members: [{ userSimplyId: reviewer.userSimplyId, role: 'REVIEWER' }] }));
    expectError(await call(server, viewer, 'POST', `/v1/website-pages/${page}/request-changes`, {}), 403, 'WEBSITE_ROLE_REQUIRED');
    expectError(await call(server, reviewer, 'POST', `/v1/website-pages/${page}/request-changes`, {}), 409, 'WEBSITE_PAGE_REVIEW_STATE');
    expectError(await call(server, reviewer, 'POST', `/v1/website-pages/${page}/submit-for-review`), 403, 'PERMISSION_DENIED');
    expect(expectOk(await call(server, admin, 'POST', `/v1/website-pages/${page}/submit-for-review`)).reviewState).toBe('IN_REVIEW');
    expectError(await call(server, admin, 'POST', `/v1/website-pages/${page}/submit-for-review`), 409, 'WEBSITE_PAGE_REVIEW_STATE');
    expect(expectOk(await call(server, reviewer, 'POST', `/v1/website-pages/${page}/request-changes`, { message: 'Shorter, please' })).reviewState).toBe('CHANGES_REQUESTED');
    expect(expectOk(await call(server, admin, 'POST', `/v1/website-pages/${page}/submit-for-review`)).reviewState).toBe('IN_REVIEW');
    expect(expectOk(await call(server, admin, 'POST', `/v1/website-pages/${page}/publish`, {})).reviewState).toBe('NONE');
    const activity = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/activity`));
    expect(activity.find((a: { kind: string }) => a.kind === 'CHANGES_REQUESTED')).toMatchObject({ summary: 'Shorter, please', userSimplyId: reviewer.userSimplyId });
  });
});

describe('versions', () => {
  it('checkpoints, labels and restores onto the draft without publishing, keeping the draft it replaces', async () => {
    const site = await createSite(server, admin);
    const page = (await createPage(server, admin, site.websiteSimplyId)).pageSimplyId;
    expectOk(await edit(page, insert('a')));
    expectOk(await call(server, admin, 'POST', `/v1/website-pages/${page}/publish`, {}));
    const checkpoint = expectOk(await call(server, admin, 'POST', `/v1/website-pages/${page}/versions`, { label: 'with a' }), 201);
    expect(checkpoint).toMatchObject({ number: 2, kind: 'CHECKPOINT', label: 'with a', createdByUserSimplyId: team.userSimplyId });
    expectOk(await edit(page, { op: 'remove', id: 'a' }, insert('b')));
    const labelled = expectOk(await call(server, admin, 'PATCH', `/v1/website-page-versions/${checkpoint.versionSimplyId}`, { label: 'Good state', note: 'checked' }));
    expect(labelled).toMatchObject({ label: 'Good state', note: 'checked', number: 2 });
    expectError(await call(server, admin, 'PATCH', `/v1/website-page-versions/${checkpoint.versionSimplyId}`, { design: {} }), 400, 'VALIDATION_ERROR');

    const restored = expectOk(await call(server, admin, 'POST', `/v1/website-page-versions/${checkpoint.versionSimplyId}/restore`));
    expect(restored).toMatchObject({ draftRevision: 4, publishedRevision: 2, publishState: 'MODIFIED' });
    const draft = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/design`));
    expect(draft.design.components.map((c: any) => c.attributes.id)).toEqual(['a']);
    const versions = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/versions`));
    expect(versions[0]).toMatchObject({ number: 3, kind: 'BEFORE_RESTORE' });
    expect(versions[0].design.components.map((c: any) => c.attributes.id)).toEqual(['b']);
  });
});

describe('publishing a site', () => {
  it('needs an activation token and a published home page the first time, then goes live and offline', async () => {
    const site = await createSite(server, admin);
    const home = (await createPage(server, admin, site.websiteSimplyId, { title: 'Home' })).pageSimplyId;
    const readiness = expectOk(await call(server, admin, 'GET', `/v1/websites/${site.websiteSimplyId}/publish-readiness`));
    expect(readiness).toMatchObject({ ready: false, isPublished: false, needsActivation: true });
    expect(readiness.items.map((i: { code: string }) => i.code)).toEqual(expect.arrayContaining(['HOME_PAGE_NOT_PUBLISHED', 'PAGE_EMPTY', 'NO_NAVIGATION']));

    const path = `/v1/websites/${site.websiteSimplyId}`;
    expect(expectError(await call(server, admin, 'PUT', path, { isPublished: true }), 403, 'WEBSITE_ACTIVATION_REQUIRED').details?.[0]?.field).toBe('activationToken');
    const activation = expectOk(await call(server, admin, 'POST', `${path}/publish-activation`), 201);
    expect(activation.activationToken).toMatch(/^wact_/);
    expect(new Date(activation.expiresAt).getTime()).toBeGreaterThan(Date.now() + 500_000);
    expectError(await call(server, admin, 'PUT', path, { isPublished: true, activationToken: activation.activationToken }), 409, 'WEBSITE_NOT_READY');
    expectError(await call(server, admin, 'PUT', path, { isPublished: true, activationToken: `${activation.activationToken}x` }), 403, 'WEBSITE_ACTIVATION_REQUIRED');

    expectOk(await edit(home, insert('hello', 'Hello')));
    expectOk(await call(server, admin, 'POST', `/v1/website-pages/${home}/publish`, {}));
    // someone else's token does not activate
    const owner = await memberWith(server, team, ['TEAM_ADMIN_WEBSITES']);
    const theirs = expectOk(await call(server, owner, 'POST', `${path}/publish-activation`), 201);
    expect(expectError(await call(server, admin, 'PUT', path, { isPublished: true, activationToken: theirs.activationToken }), 403, 'WEBSITE_ACTIVATION_REQUIRED').details?.[0]?.message).toContain('another user');
    const live = expectOk(await call(server, admin, 'PUT', path, { isPublished: true, activationToken: activation.activationToken }));
    expect(live).toMatchObject({ isPublished: true, publishedUrl: expect.stringMatching(new RegExp(`/sites/${site.slug}/$`)) });
    expect(live.firstPublishedAt).not.toBeNull();
    expect(expectOk(await call(server, admin, 'PUT', path, { isPublished: false })).isPublished).toBe(false);
    // after the first time, no token
    expect(expectOk(await call(server, admin, 'PUT', path, { isPublished: true })).isPublished).toBe(true);
    expect(expectOk(await call(server, admin, 'GET', `${path}/publish-readiness`))).toMatchObject({ needsActivation: false, isPublished: true });
  });

  it('publishes the header and footer, and the campaign chrome after checking its references and taking a backup', async () => {
    const site = await createSite(server, admin);
    const path = `/v1/websites/${site.websiteSimplyId}`;
    const page = (await createPage(server, admin, site.websiteSimplyId)).pageSimplyId;
    const header = { components: [{ tagName: 'nav', attributes: { id: 'top' } }], styles: [] };
    const saved = expectOk(await call(server, admin, 'PUT', path, { headerDesignJson: header }));
    expect(saved.headerFooterHasUnpublishedChanges).toBe(true);
    expectError(await call(server, admin, 'PUT', path, { footerDesignJson: { components: [{ tagName: 'script' }], styles: [] } }), 400, 'VALIDATION_ERROR');
    const afterHf = expectOk(await call(server, admin, 'POST', `${path}/header-footer/publish`));
    expect(afterHf.headerFooterHasUnpublishedChanges).toBe(false);
    expect(afterHf.headerFooterPublishedAt).not.toBeNull();

    expectError(await call(server, admin, 'POST', `${path}/campaign-chrome/publish`), 400, 'VALIDATION_ERROR');
    const banner = { id: 'b1', type: 'BANNER', enabled: true, accessibleLabel: 'Notice', html: '<p>Open day</p>', pageSimplyIds: [page] };
    expectOk(await call(server, admin, 'PUT', path, { campaignChromeConfig: { version: 2, popups: [banner] } }));
    const other = (await createPage(server, admin, site.websiteSimplyId)).pageSimplyId;
    expectOk(await call(server, admin, 'PUT', path, { campaignChromeConfig: { version: 2, popups: [{ ...banner, pageSimplyIds: [page, other] }] } }));
    expectOk(await call(server, admin, 'DELETE', `/v1/website-pages/${other}`));
    const blocked = expectError(await call(server, admin, 'POST', `${path}/campaign-chrome/publish`), 400, 'VALIDATION_ERROR');
    expect(blocked.details?.[0]?.field).toBe('campaignChromeConfig.popups.0.pageSimplyIds.1');
    expectOk(await call(server, admin, 'PUT', path, { campaignChromeConfig: { version: 2, popups: [banner] } }));
    const published = expectOk(await call(server, admin, 'POST', `${path}/campaign-chrome/publish`));
    expect(published).toMatchObject({ campaignChromeHasUnpublishedChanges: false, isPublished: false });
    expect(published.campaignChromePublishedAt).not.toBeNull();
    const backups = expectOk(await call(server, admin, 'GET', `${path}/backups`));
    expect(backups[0]).toMatchObject({ kind: 'AUTOMATIC', summary: 'Before publishing the campaign chrome', pageCount: 1, content: null });
  });
});

describe('backups', () => {
  it('restores a site’s content as drafts, bringing back deleted pages and removing new ones, after backing up what it replaces', async () => {
    const site = await createSite(server, admin);
    const path = `/v1/websites/${site.websiteSimplyId}`;
    const keep = (await createPage(server, admin, site.websiteSimplyId, { title: 'Keep' })).pageSimplyId;
    const child = (await createPage(server, admin, site.websiteSimplyId, { title: 'Child', parentPageSimplyId: keep })).pageSimplyId;
    expectOk(await edit(keep, insert('original')));
    expectOk(await call(server, admin, 'POST', `/v1/website-pages/${keep}/publish`, {}));
    expectOk(await call(server, admin, 'PUT', path, { metaTitle: 'Before' }));
    const backup = expectOk(await call(server, admin, 'POST', `${path}/backups`, { summary: 'good' }), 201);
    expect(backup).toMatchObject({ kind: 'MANUAL', summary: 'good', pageCount: 2 });

    expectOk(await edit(keep, { op: 'remove', id: 'original' }));
    expectOk(await call(server, admin, 'DELETE', `/v1/website-pages/${child}`));
    const added = (await createPage(server, admin, site.websiteSimplyId, { title: 'Added' })).pageSimplyId;
    expectOk(await call(server, admin, 'PUT', path, { metaTitle: 'After' }));

    const detail = expectOk(await call(server, admin, 'GET', `/v1/website-backups/${backup.websiteBackupSimplyId}`));
    expect(detail.content.pages).toHaveLength(2);
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES']);
    expectError(await call(server, viewer, 'POST', `/v1/website-backups/${backup.websiteBackupSimplyId}/restore`), 403, 'WEBSITE_ROLE_REQUIRED');
    const result = expectOk(await call(server, admin, 'POST', `/v1/website-backups/${backup.websiteBackupSimplyId}/restore`));
    expect(result.replaced).toMatchObject({ kind: 'AUTOMATIC', pageCount: 2 });

    const pages = expectOk(await call(server, admin, 'GET', `${path}/pages`));
    expect(pages.map((p: { pageSimplyId: string; path: string }) => [p.pageSimplyId, p.path])).toEqual([[keep, '/'], [child, '/keep/child']]);
    expectError(await call(server, admin, 'GET', `/v1/website-pages/${added}`), 404, 'NOT_FOUND');
    const draft = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${keep}/design`));
    expect(draft.design.components.map((c: any) => c.attributes.id)).toEqual(['original']);
    // the restore made drafts: the page's published design is as it was, its state MODIFIED by the new revision
    expect(expectOk(await call(server, admin, 'GET', `/v1/website-pages/${keep}`))).toMatchObject({ publishState: 'MODIFIED', publishedRevision: 2 });
    expect(expectOk(await call(server, admin, 'GET', path)).metaTitle).toBe('Before');
    // and the restore can be undone
    expectOk(await call(server, admin, 'POST', `/v1/website-backups/${result.replaced.websiteBackupSimplyId}/restore`));
    expect(expectOk(await call(server, admin, 'GET', `${path}/pages`)).map((p: { title: string }) => p.title).sort()).toEqual(['Added', 'Keep']);
  });
});
