// Saved layouts and how pages use them (docs/api/websites.md "Saved layouts", "Using a layout on a
// page"): the routes with their roles and refusals; a SNAPSHOT layout copied into a draft (ids
// renamed where the page has them); a SYNCED layout referenced by pages, whose change shows on every
// draft that uses it and on the published page from its next request; archiving that keeps pages
// showing it; and detaching, which turns a reference into the page's own copy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { until } from '../support/until.ts';
import { publishedSite, publishPage, text, visit } from './served-fixtures.ts';
import { adminOf, call, type Caller, createPage, createSite, memberWith } from './websites-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let admin: Caller;

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  admin = adminOf(team);
});
afterAll(() => server?.close());

const layouts = (site: string) => `/v1/websites/${site}/saved-layouts`;
const banner = (words: string) => ({
  components: [{ tagName: 'section', attributes: { id: 'banner' }, classes: ['banner'], components: [text('banner-text', words)] }],
  styles: [{ selectors: ['banner'], style: { padding: '24px', color: '#1f2328', 'background-color': '#ffffff' } }],
});
const saveLayout = async (site: string, body: Record<string, unknown> = {}) =>
  expectOk(await call(server, admin, 'POST', layouts(site), { name: 'Banner', category: 'banner', contentJson: banner('Spring fair on Saturday'), ...body }), 201);
const design = async (page: string, who = admin) => expectOk(await call(server, who, 'GET', `/v1/website-pages/${page}/design`));
const patch = (page: string, operations: unknown[]) => call(server, admin, 'PATCH', `/v1/website-pages/${page}/design`, { operations });
const ids = (components: any[]): string[] => components.flatMap((c) => [c.attributes?.id, ...ids(c.components ?? [])]).filter(Boolean);

describe('saved layout routes', () => {
  it('saves, lists, reads, changes and archives a layout', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId;
    const saved = await saveLayout(site, { description: 'For events' });
    expect(saved).toMatchObject({ name: 'Banner', category: 'banner', description: 'For events', designFormat: 'GRAPESJS_WEB', syncMode: 'SNAPSHOT', contentRevision: 1, archivedAt: null, websiteSimplyId: site });
    expect(saved.savedLayoutSimplyId).toMatch(/^wsl-/);
    const email = await saveLayout(site, { name: 'Mail header', designFormat: 'GRAPESJS_EMAIL', syncMode: 'SYNCED' });
    expect(email).toMatchObject({ designFormat: 'GRAPESJS_EMAIL', syncMode: 'SYNCED' });

    expect(expectOk(await call(server, admin, 'GET', layouts(site))).map((l: any) => l.name)).toEqual(['Banner', 'Mail header']);
    expect(expectOk(await call(server, admin, 'GET', `${layouts(site)}?designFormat=GRAPESJS_EMAIL`)).map((l: any) => l.name)).toEqual(['Mail header']);
    expectError(await call(server, admin, 'GET', `${layouts(site)}?designFormat=PDF`), 400, 'VALIDATION_ERROR');

    const changed = expectOk(await call(server, admin, 'PATCH', `${layouts(site)}/${saved.savedLayoutSimplyId}`, { name: 'Event banner', description: null, contentJson: banner('Autumn fair') }));
    expect(changed).toMatchObject({ name: 'Event banner', category: 'banner', description: null, contentRevision: 2 });
    expect(changed.contentJson.components[0].components[0].components[0].content).toBe('Autumn fair');
    expect(expectOk(await call(server, admin, 'PATCH', `${layouts(site)}/${saved.savedLayoutSimplyId}`, { category: 'events' })).contentRevision).toBe(2);

    expect(expectOk(await call(server, admin, 'DELETE', `${layouts(site)}/${saved.savedLayoutSimplyId}`))).toMatchObject({ deleted: true });
    expect(expectOk(await call(server, admin, 'GET', layouts(site))).map((l: any) => l.name)).toEqual(['Mail header']);
    expect(expectOk(await call(server, admin, 'GET', `${layouts(site)}/${saved.savedLayoutSimplyId}`)).archivedAt).not.toBeNull();
    expectError(await call(server, admin, 'PATCH', `${layouts(site)}/${saved.savedLayoutSimplyId}`, { name: 'Again' }), 404, 'NOT_FOUND');
    expectError(await call(server, admin, 'DELETE', `${layouts(site)}/${saved.savedLayoutSimplyId}`), 404, 'NOT_FOUND');
  });

  it('checks the content with the design rules and names the field', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId;
    const bad = (contentJson: unknown) => call(server, admin, 'POST', layouts(site), { name: 'X', category: 'x', contentJson });
    const script = expectError(await bad({ components: [{ tagName: 'script', attributes: { id: 's' } }], styles: [] }), 400, 'VALIDATION_ERROR');
    expect(script.details?.[0]?.field).toBe('contentJson.components.0.tagName');
    const handler = expectError(await bad({ components: [{ tagName: 'div', attributes: { onclick: 'x()' } }] }), 400, 'VALIDATION_ERROR');
    expect(handler.details?.[0]?.field).toBe('contentJson.components.0.attributes.onclick');
    expect(expectError(await bad({ components: [] }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('contentJson.components');
    const nested = expectError(await bad({ components: [{ type: 'synced-layout', attributes: { id: 'r', 'data-layout-id': 'wsl-AAAA-BBBB-CCCC' } }] }), 400, 'VALIDATION_ERROR');
    expect(nested.details?.[0]?.field).toBe('contentJson.components.0.type');
    expect(expectError(await call(server, admin, 'POST', layouts(site), { name: 'X', contentJson: banner('x') }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('category');
    expect(expectError(await call(server, admin, 'POST', layouts(site), { name: 'X', category: 'x', contentJson: banner('x'), syncMode: 'LIVE' }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('syncMode');
    // the sync mode is the layout's for good: pages rely on it
    const saved = await saveLayout(site);
    expect(expectError(await call(server, admin, 'PATCH', `${layouts(site)}/${saved.savedLayoutSimplyId}`, { syncMode: 'SYNCED' }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('syncMode');
  });

  it('lets a VIEWER read and an EDITOR write; another team sees nothing', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId;
    const saved = await saveLayout(site);
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    expectOk(await call(server, viewer, 'GET', layouts(site)));
    expectOk(await call(server, viewer, 'GET', `${layouts(site)}/${saved.savedLayoutSimplyId}`));
    expectError(await call(server, viewer, 'POST', layouts(site), { name: 'X', category: 'x', contentJson: banner('x') }), 403, 'PERMISSION_DENIED');
    const editor = await memberWith(server, team, ['TEAM_WEBSITES']);
    expectOk(await call(server, editor, 'PATCH', `${layouts(site)}/${saved.savedLayoutSimplyId}`, { name: 'By the editor' }));
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site}`, { members: [{ userSimplyId: editor.userSimplyId, role: 'VIEWER' }], restricted: true }));
    expectError(await call(server, editor, 'DELETE', `${layouts(site)}/${saved.savedLayoutSimplyId}`), 403, 'WEBSITE_ROLE_REQUIRED');

    const other = await createTeam(server);
    const otherAdmin = adminOf(other);
    expectError(await call(server, otherAdmin, 'GET', `${layouts(site)}/${saved.savedLayoutSimplyId}`), 404, 'NOT_FOUND');
    const otherSite = (await createSite(server, otherAdmin)).websiteSimplyId;
    expectError(await call(server, otherAdmin, 'GET', `${layouts(otherSite)}/${saved.savedLayoutSimplyId}`), 404, 'NOT_FOUND');
    // a layout of another site of the same team is not this site's
    const secondSite = (await createSite(server, admin)).websiteSimplyId;
    expectError(await call(server, admin, 'GET', `${layouts(secondSite)}/${saved.savedLayoutSimplyId}`), 404, 'NOT_FOUND');
  });
});

describe('using a layout on a page', () => {
  it('copies a SNAPSHOT layout into the draft, renaming ids the page has; the page keeps its copy when the layout changes', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId;
    const page = (await createPage(server, admin, site)).pageSimplyId;
    const layout = await saveLayout(site);
    expectOk(await patch(page, [{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: layout.savedLayoutSimplyId }, { op: 'insertLayout', parentId: null, index: 0, savedLayoutSimplyId: layout.savedLayoutSimplyId }]));
    const draft = (await design(page)).design;
    expect(draft.components).toHaveLength(2);
    expect(draft.components[1].attributes.id).toBe('banner');
    const second = draft.components[0];
    expect(second.attributes.id).not.toBe('banner');
    expect(new Set(ids(draft.components)).size).toBe(4);
    expect(second.components[0].components[0].content).toBe('Spring fair on Saturday');
    // the layout's rule came along once
    expect(draft.styles.filter((r: any) => JSON.stringify(r.selectors) === '["banner"]')).toHaveLength(1);

    expectOk(await call(server, admin, 'PATCH', `${layouts(site)}/${layout.savedLayoutSimplyId}`, { contentJson: banner('Changed') }));
    expect((await design(page)).design.components[1].components[0].components[0].content).toBe('Spring fair on Saturday');
  });

  it('refuses layouts that are not the site’s, archived, or for email, and references made by hand', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId;
    const page = (await createPage(server, admin, site)).pageSimplyId;
    const otherSite = (await createSite(server, admin)).websiteSimplyId;
    const foreign = await saveLayout(otherSite);
    const refusal = async (operations: unknown[]) => expectError(await patch(page, operations), 400, 'VALIDATION_ERROR').details?.[0];
    expect(await refusal([{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: foreign.savedLayoutSimplyId }])).toMatchObject({ field: 'operations.0.savedLayoutSimplyId' });
    const email = await saveLayout(site, { designFormat: 'GRAPESJS_EMAIL' });
    expect(await refusal([{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: email.savedLayoutSimplyId }])).toMatchObject({ field: 'operations.0.savedLayoutSimplyId', message: expect.stringContaining('email') });
    const archived = await saveLayout(site);
    expectOk(await call(server, admin, 'DELETE', `${layouts(site)}/${archived.savedLayoutSimplyId}`));
    expect(await refusal([{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: archived.savedLayoutSimplyId }])).toMatchObject({ field: 'operations.0.savedLayoutSimplyId' });
    expect(await refusal([{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: 'banner' }])).toMatchObject({ field: 'operations.0.savedLayoutSimplyId' });
    const synced = await saveLayout(site, { syncMode: 'SYNCED' });
    expect(await refusal([{ op: 'insert', parentId: null, component: { type: 'synced-layout', attributes: { 'data-layout-id': synced.savedLayoutSimplyId } } }])).toMatchObject({ field: 'operations.0.component.type' });
    expect(await refusal([{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: synced.savedLayoutSimplyId }, { op: 'insertLayout', parentId: null, savedLayoutSimplyId: synced.savedLayoutSimplyId }])).toMatchObject({ field: 'operations.1.savedLayoutSimplyId' });
    expect((await design(page)).draftRevision).toBe(1);
  });

  it('shows a SYNCED layout’s current content on every draft that uses it, and on the published page from its next request', async () => {
    const site = await publishedSite(server, admin, [text('intro', 'Welcome')]);
    const layout = await saveLayout(site.websiteSimplyId, { syncMode: 'SYNCED' });
    const second = (await createPage(server, admin, site.websiteSimplyId, { title: 'Events' })).pageSimplyId;
    for (const page of [site.home, second]) expectOk(await patch(page, [{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: layout.savedLayoutSimplyId }]));
    const stored = await server.app.services.prisma.websitePage.findFirstOrThrow({ where: { simplyId: site.home } });
    const reference = (stored.draftDesign as any).components[1];
    // the draft keeps only the reference
    expect(reference).toMatchObject({ type: 'synced-layout', attributes: { 'data-layout-id': layout.savedLayoutSimplyId } });
    expect(reference.components).toBeUndefined();
    const read = (await design(site.home)).design.components[1];
    expect(read).toMatchObject({ type: 'synced-layout', layoutName: 'Banner', layoutRevision: 1 });
    expect(read.components[0].components[0].components[0].content).toBe('Spring fair on Saturday');
    await publishPage(server, admin, site.home);
    const before = await visit(server, `${site.base}/`);
    expect(before.text).toContain('Spring fair on Saturday');
    expect(before.text).toMatch(/\.banner\{[^}]*padding:24px;/);

    const revisions = [(await design(site.home)).draftRevision, (await design(second)).draftRevision];
    expectOk(await call(server, admin, 'PATCH', `${layouts(site.websiteSimplyId)}/${layout.savedLayoutSimplyId}`, { contentJson: banner('Summer fair, bring a friend') }));
    for (const page of [site.home, second]) {
      const after = await design(page);
      expect(after.design.components.at(-1).components[0].components[0].components[0].content).toBe('Summer fair, bring a friend');
      expect(after.design.components.at(-1).layoutRevision).toBe(2);
    }
    // nothing of the pages was rewritten
    expect([(await design(site.home)).draftRevision, (await design(second)).draftRevision]).toEqual(revisions);
    await until('the served page shows the layout’s change', async () => (await visit(server, `${site.base}/`)).text.includes('Summer fair, bring a friend'));
    const after = await visit(server, `${site.base}/`);
    expect(after.text).not.toContain('Spring fair on Saturday');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));

    // archived, it stays on the pages that use it
    expectOk(await call(server, admin, 'DELETE', `${layouts(site.websiteSimplyId)}/${layout.savedLayoutSimplyId}`));
    expect((await visit(server, `${site.base}/`)).text).toContain('Summer fair, bring a friend');
    expect((await design(second)).design.components.at(-1).components).toHaveLength(1);
  });

  it('detaches a synced layout: the page gets its own copy and stops following the layout', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId;
    const page = (await createPage(server, admin, site)).pageSimplyId;
    const layout = await saveLayout(site, { syncMode: 'SYNCED' });
    expectOk(await patch(page, [{ op: 'insert', parentId: null, component: text('banner', 'The page’s own banner id') }, { op: 'insertLayout', parentId: null, savedLayoutSimplyId: layout.savedLayoutSimplyId }]));
    const before = await design(page);
    const detach = `/v1/website-pages/${page}/synced-layouts/${layout.savedLayoutSimplyId}/detach`;
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    expectError(await call(server, viewer, 'POST', detach), 403, 'PERMISSION_DENIED');
    const detached = expectOk(await call(server, admin, 'POST', detach));
    expect(detached.draftRevision).toBe(before.draftRevision + 1);
    const [own, copy] = detached.design.components;
    expect(own.attributes.id).toBe('banner');
    expect(copy.type).toBeUndefined();
    expect(copy.tagName).toBe('section');
    expect(copy.attributes.id).not.toBe('banner');
    expect(copy.components[0].components[0].content).toBe('Spring fair on Saturday');
    // the copy's rule came along
    expect(detached.design.styles.some((r: any) => JSON.stringify(r.selectors) === '["banner"]')).toBe(true);

    expectOk(await call(server, admin, 'PATCH', `${layouts(site)}/${layout.savedLayoutSimplyId}`, { contentJson: banner('Changed later') }));
    expect(JSON.stringify((await design(page)).design)).not.toContain('Changed later');
    expectError(await call(server, admin, 'POST', detach), 409, 'WEBSITE_SYNCED_LAYOUT_NOT_ON_PAGE');
    expectError(await call(server, admin, 'POST', `/v1/website-pages/${page}/synced-layouts/wsl-AAAA-BBBB-CCCC/detach`), 404, 'NOT_FOUND');
    expectError(await call(server, admin, 'POST', `/v1/website-pages/${page}/synced-layouts/nonsense/detach`), 400, 'VALIDATION_ERROR');
    const activity = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/activity?limit=1`));
    expect(activity[0]).toMatchObject({ kind: 'EDITED', details: { detachedLayout: layout.savedLayoutSimplyId, references: 1 } });
  });
});
