// GraphQL face of websites and their pages. REST: rest-adapter/routes/websites.ts. Every field is the
// websites tier (a signed-in user, or an OAuth token with websites:read to read and websites:write
// to write; API keys and session tokens: IDP_REQUIRED); the feature permissions and the role on the
// site are the service's check (website-roles.ts). Bodies are JSON checked by zod in the services,
// so both faces name the same fields in their 400s.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { publicBaseUrl } from '../../app/public-address.ts';
import { isDeepStrictEqual } from 'node:util';
import { publishState, type PageView, createPage, deletePage, getPage, listPages, reorderPages, updatePage } from './pages.service.ts';
import { WEBSITE_ROLES } from './website-roles.ts';
import { createWebsite, deleteWebsite, getWebsite, listWebsites, updateWebsite, type WebsiteView } from './websites.service.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');

export const WebsiteRoleEnum = builder.enumType('WebsiteRole', { values: WEBSITE_ROLES });
const PublishStateEnum = builder.enumType('WebsitePagePublishState', {
  description: 'DRAFT: not on the published site; PUBLISHED: the published design is the draft; MODIFIED: published, with draft changes since',
  values: ['DRAFT', 'PUBLISHED', 'MODIFIED'] as const,
});
const ReviewStateEnum = builder.enumType('WebsitePageReviewState', { values: ['NONE', 'IN_REVIEW', 'CHANGES_REQUESTED'] as const });

const MemberRef = builder.objectRef<{ userSimplyId: string; role: string }>('WebsiteMember').implement({
  description: 'A person with an explicit role on the website',
  fields: (t) => ({
    userSimplyId: t.exposeString('userSimplyId'),
    role: t.field({ type: WebsiteRoleEnum, resolve: (m) => m.role as never }),
  }),
});

export const WebsiteRef = builder.objectRef<WebsiteView>('Website').implement({
  description: 'A team website: its settings, and the caller’s role on it',
  fields: (t) => ({
    id: t.string({ resolve: (w) => w.site.simplyId }),
    websiteSimplyId: t.string({ resolve: (w) => w.site.simplyId }),
    name: t.string({ resolve: (w) => w.site.name }),
    slug: t.string({ description: 'the site’s address under /sites/{slug}/, unique on the platform', resolve: (w) => w.site.slug }),
    isPublished: t.boolean({ resolve: (w) => w.site.isPublished }),
    publishedUrl: t.string({ nullable: true, description: 'where the published site is served; null while it is not published', resolve: (w, _a, ctx) => (w.site.isPublished ? `${publicBaseUrl(ctx.services)}/sites/${w.site.slug}/` : null) }),
    firstPublishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (w) => w.site.firstPublishedAt }),
    metaTitle: t.string({ nullable: true, resolve: (w) => w.site.metaTitle }),
    metaDescription: t.string({ nullable: true, resolve: (w) => w.site.metaDescription }),
    socialImageUrl: t.string({ nullable: true, resolve: (w) => w.site.socialImageUrl }),
    faviconFileSimplyId: t.string({ nullable: true, resolve: (w) => w.site.faviconFileSimplyId }),
    themeSettings: t.field({ type: 'JSON', nullable: true, resolve: (w) => w.site.themeSettings as never }),
    navigationJson: t.field({ type: 'JSON', nullable: true, description: '{ version: 2, menus }', resolve: (w) => w.site.navigationJson as never }),
    headerDesignJson: t.field({ type: 'JSON', nullable: true, description: 'the draft header design', resolve: (w) => w.site.headerDesignJson as never }),
    footerDesignJson: t.field({ type: 'JSON', nullable: true, description: 'the draft footer design', resolve: (w) => w.site.footerDesignJson as never }),
    headerFooterHasUnpublishedChanges: t.boolean({
      resolve: (w) => !isDeepStrictEqual(w.site.headerDesignJson ?? null, w.site.publishedHeaderDesignJson ?? null) || !isDeepStrictEqual(w.site.footerDesignJson ?? null, w.site.publishedFooterDesignJson ?? null),
    }),
    headerFooterPublishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (w) => w.site.headerFooterPublishedAt }),
    campaignChromeConfig: t.field({ type: 'JSON', nullable: true, description: 'the draft { version: 2, popups }', resolve: (w) => w.site.campaignChromeConfig as never }),
    campaignChromeHasUnpublishedChanges: t.boolean({ resolve: (w) => !isDeepStrictEqual(w.site.campaignChromeConfig ?? null, w.site.publishedCampaignChromeConfig ?? null) }),
    campaignChromePublishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (w) => w.site.campaignChromePublishedAt }),
    googleAnalyticsMeasurementId: t.string({ nullable: true, resolve: (w) => w.site.googleAnalyticsMeasurementId }),
    defaultLanguageTagId: t.string({ nullable: true, resolve: (w) => w.site.defaultLanguageTagId }),
    availableLanguageTagIds: t.stringList({ resolve: (w) => w.site.availableLanguageTagIds }),
    redirectSettings: t.field({ type: 'JSON', nullable: true, resolve: (w) => w.site.redirectSettings as never }),
    restricted: t.boolean({ description: 'true: only its members (and website administrators) reach it', resolve: (w) => w.site.restricted }),
    myRole: t.field({ type: WebsiteRoleEnum, description: 'the caller’s role on the site', resolve: (w) => w.role }),
    members: t.field({ type: [MemberRef], description: 'explicit roles (on the site’s detail; empty in lists)', resolve: (w) => w.members }),
    pageCount: t.int({ resolve: (w) => w.pageCount }),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => w.site.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (w) => w.site.updatedAt }),
  }),
});

export const WebsitePageRef = builder.objectRef<PageView>('WebsitePage').implement({
  description: 'A page of a website: metadata, its place in the page tree, its path and its publish and review states',
  fields: (t) => ({
    id: t.string({ resolve: (p) => p.page.simplyId }),
    pageSimplyId: t.string({ resolve: (p) => p.page.simplyId }),
    websiteSimplyId: t.string({ resolve: (p) => p.site.simplyId }),
    title: t.string({ resolve: (p) => p.page.title }),
    slug: t.string({ description: 'the page’s own path segment', resolve: (p) => p.page.slug }),
    path: t.string({ description: 'its address on the site: "/" for the home page, else the slugs from the root ("/about/team")', resolve: (p) => p.path }),
    parentPageSimplyId: t.string({ nullable: true, resolve: (p) => p.parentSimplyId }),
    position: t.int({ description: '0-based place among its siblings', resolve: (p) => p.page.position }),
    isHomePage: t.boolean({ resolve: (p) => p.page.isHomePage }),
    metaTitle: t.string({ nullable: true, resolve: (p) => p.page.metaTitle }),
    metaDescription: t.string({ nullable: true, resolve: (p) => p.page.metaDescription }),
    publishState: t.field({ type: PublishStateEnum, resolve: (p) => publishState(p.page) }),
    reviewState: t.field({ type: ReviewStateEnum, resolve: (p) => p.page.reviewState as never }),
    draftRevision: t.int({ description: 'grows with every change of the draft design', resolve: (p) => p.page.draftRevision }),
    publishedRevision: t.int({ nullable: true, description: 'the draft revision the published design came from', resolve: (p) => p.page.publishedRevision }),
    publishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.page.publishedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (p) => p.page.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (p) => p.page.updatedAt }),
  }),
});

const body = { type: 'JSON' as const, required: true, description: 'the body, as the REST route takes it' };

builder.queryFields((t) => ({
  websites: t.field({ type: [WebsiteRef], description: 'The websites the caller has a role on, newest first', authScopes: read, resolve: (_r, _a, ctx) => listWebsites(ctx) }),
  website: t.field({ type: WebsiteRef, authScopes: read, args: { websiteSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => getWebsite(ctx, a.websiteSimplyId) }),
  websitePages: t.field({ type: [WebsitePageRef], description: 'The site’s pages in tree order', authScopes: read, args: { websiteSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => listPages(ctx, a.websiteSimplyId) }),
  websitePage: t.field({ type: WebsitePageRef, authScopes: read, args: { pageSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => getPage(ctx, a.pageSimplyId) }),
}));

builder.mutationFields((t) => ({
  createWebsite: t.field({ type: WebsiteRef, description: 'Creates a website: { name, slug? }; the creator owns it', authScopes: write, args: { input: t.arg(body) }, resolve: (_r, a, ctx) => createWebsite(ctx, a.input) }),
  updateWebsite: t.field({
    type: WebsiteRef,
    description: 'Changes the supplied settings (OWNER)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => updateWebsite(ctx, a.websiteSimplyId, a.input),
  }),
  deleteWebsite: t.boolean({ description: 'Deletes the website and its pages (OWNER)', authScopes: write, args: { websiteSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => deleteWebsite(ctx, a.websiteSimplyId) }),
  createWebsitePage: t.field({
    type: WebsitePageRef,
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => createPage(ctx, a.websiteSimplyId, a.input),
  }),
  reorderWebsitePages: t.field({
    type: [WebsitePageRef],
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => reorderPages(ctx, a.websiteSimplyId, a.input),
  }),
  updateWebsitePage: t.field({ type: WebsitePageRef, authScopes: write, args: { pageSimplyId: t.arg.string({ required: true }), input: t.arg(body) }, resolve: (_r, a, ctx) => updatePage(ctx, a.pageSimplyId, a.input) }),
  deleteWebsitePage: t.boolean({ authScopes: write, args: { pageSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => deletePage(ctx, a.pageSimplyId) }),
}));
