// The blog set-up (docs/api/websites.md "Blog"): the default blog pages with valid designs, made
// once (a second call answers what exists), served once published, and its refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
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

const setup = (who: Caller, site: string) => call(server, who, 'POST', `/v1/websites/${site}/blog/setup`);

describe('blog set-up', () => {
  it('creates a Blog page with a listing and a first post under it, once', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId as string;
    await createPage(server, admin, site, { title: 'Home' });
    const made = expectOk(await setup(admin, site), 201);
    expect(made.created).toBe(true);
    expect(made.blogPage).toMatchObject({ title: 'Blog', slug: 'blog', path: '/blog', parentPageSimplyId: null, isHomePage: false, publishState: 'DRAFT' });
    expect(made.posts).toHaveLength(1);
    expect(made.posts[0]).toMatchObject({ title: 'Welcome to our blog', path: '/blog/welcome-to-our-blog', parentPageSimplyId: made.blogPage.pageSimplyId });
    const design = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${made.blogPage.pageSimplyId}/design`)).design;
    expect(JSON.stringify(design)).toContain('"data-blog-listing":"true"');
    expect(JSON.stringify(design)).toContain('"href":"blog/welcome-to-our-blog"');
    const outline = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${made.posts[0].pageSimplyId}/blocks`));
    expect(outline.blocks[0]).toMatchObject({ tagName: 'article', depth: 1 });
    expect(outline.blocks.every((b: { id: string }) => /^c[0-9a-f]{10}$/.test(b.id))).toBe(true);
    const kinds = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${made.blogPage.pageSimplyId}/activity`)).map((a: { kind: string }) => a.kind);
    expect(kinds).toEqual(['CREATED']);

    // again: nothing new, the same pages (also after a post is added by hand)
    const post = (await createPage(server, admin, site, { title: 'Spring cleanup', parentPageSimplyId: made.blogPage.pageSimplyId })).pageSimplyId;
    const again = expectOk(await setup(admin, site), 200);
    expect(again.created).toBe(false);
    expect(again.blogPage.pageSimplyId).toBe(made.blogPage.pageSimplyId);
    expect(again.posts.map((p: { pageSimplyId: string }) => p.pageSimplyId)).toEqual([made.posts[0].pageSimplyId, post]);
    expect(expectOk(await call(server, admin, 'GET', `/v1/websites/${site}/pages`))).toHaveLength(4);
  });

  it('serves the blog once published, its links leading to the post and back', async () => {
    const site = await publishedSite(server, admin, [text('hi', 'Hello')]);
    const made = expectOk(await setup(admin, site.websiteSimplyId), 201);
    await publishPage(server, admin, made.blogPage.pageSimplyId);
    await publishPage(server, admin, made.posts[0].pageSimplyId);
    const listing = await visit(server, `${site.base}/blog`);
    expect(listing.status).toBe(200);
    expect(listing.text).toContain('<h1');
    expect(listing.text).toContain('href="blog/welcome-to-our-blog"');
    const target = new URL('blog/welcome-to-our-blog', `https://x${site.base}/blog`).pathname;
    const postPage = await visit(server, target);
    expect(postPage.status).toBe(200);
    expect(postPage.text).toContain('Welcome to our blog');
    expect(new URL('../blog', `https://x${target}`).pathname).toBe(`${site.base}/blog`);
  });

  it('on an empty site the blog becomes the home page, and links still resolve', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId as string;
    const made = expectOk(await setup(admin, site), 201);
    expect(made.blogPage).toMatchObject({ isHomePage: true, path: '/' });
    expect(made.posts[0].path).toBe('/blog/welcome-to-our-blog');
    const design = JSON.stringify(expectOk(await call(server, admin, 'GET', `/v1/website-pages/${made.posts[0].pageSimplyId}/design`)).design);
    expect(design).toContain('"href":"../"');
  });

  it('needs EDITOR; refuses other callers', async () => {
    const site = (await createSite(server, admin)).websiteSimplyId as string;
    const outsider = await memberWith(server, team, ['TEAM_WEBSITES']);
    const member = await memberWith(server, team, ['TEAM_WEBSITES']);
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site}`, { restricted: true, members: [{ userSimplyId: member.userSimplyId, role: 'REVIEWER' }] }));
    // a restricted site is not there for whoever has no role on it
    expectError(await setup(outsider, site), 404, 'NOT_FOUND');
    expectError(await setup(member, site), 403, 'WEBSITE_ROLE_REQUIRED');
    expectError(await setup(await memberWith(server, team, ['TEAM_WEBSITES:VIEW']), (await createSite(server, admin)).websiteSimplyId), 403, 'PERMISSION_DENIED');
    expectError(await server.request('POST', `/v1/websites/${site}/blog/setup`, { token: team.apiKey }), 403, 'IDP_REQUIRED');
    expectError(await setup(adminOf(await createTeam(server)), site), 404, 'NOT_FOUND');
    expectError(await call(server, admin, 'POST', `/v1/websites/${site}/blog/setup`, { extra: true }), 400, 'VALIDATION_ERROR');
    expect(expectOk(await call(server, admin, 'GET', `/v1/websites/${site}/pages`))).toHaveLength(0);
    // an EDITOR member sets it up
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site}`, { members: [{ userSimplyId: member.userSimplyId, role: 'EDITOR' }] }));
    expect(expectOk(await setup(member, site), 201).created).toBe(true);
  });
});
