// GraphQL face of the studio's helpers: the bounded studio context of a site (for the studio and AI
// assistants) and the blog set-up. REST: rest-adapter/routes/websites/studio.ts. The websites tier;
// the role on the site is the service's check.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { type BlogSetup, setupBlog } from './blog-setup.service.ts';
import type { OutlineBlock } from './designs.service.ts';
import { type StudioContext, type StudioMenuItem, type StudioPage, studioContext } from './studio-context.service.ts';
import { WebsitePageRef, WebsiteRoleEnum } from './websites.schema.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');

const SiteSummaryRef = builder.objectRef<StudioContext['site']>('WebsiteStudioSiteSummary').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    isPublished: t.exposeBoolean('isPublished'),
    publishedUrl: t.string({ nullable: true, resolve: (s) => s.publishedUrl }),
    metaTitle: t.string({ nullable: true, resolve: (s) => s.metaTitle }),
    metaDescription: t.string({ nullable: true, resolve: (s) => s.metaDescription }),
    defaultLanguageTagId: t.string({ nullable: true, resolve: (s) => s.defaultLanguageTagId }),
    availableLanguageTagIds: t.exposeStringList('availableLanguageTagIds'),
    restricted: t.exposeBoolean('restricted'),
    myRole: t.field({ type: WebsiteRoleEnum, resolve: (s) => s.myRole }),
  }),
});

const StudioPageRef = builder.objectRef<StudioPage>('WebsiteStudioPage').implement({
  fields: (t) => ({
    pageSimplyId: t.exposeString('pageSimplyId'),
    parentPageSimplyId: t.string({ nullable: true, resolve: (p) => p.parentPageSimplyId }),
    title: t.exposeString('title'),
    path: t.exposeString('path'),
    depth: t.exposeInt('depth', { description: '1 for a root page' }),
    isHomePage: t.exposeBoolean('isHomePage'),
    publishState: t.exposeString('publishState', { description: 'DRAFT, PUBLISHED or MODIFIED' }),
    reviewState: t.exposeString('reviewState', { description: 'NONE, IN_REVIEW or CHANGES_REQUESTED' }),
    accessAreaSimplyId: t.string({ nullable: true, description: 'the enabled access area that gates the page; null: public', resolve: (p) => p.accessAreaSimplyId }),
  }),
});

const MenuItemRef = builder.objectRef<StudioMenuItem>('WebsiteStudioMenuItem').implement({
  fields: (t) => ({
    depth: t.exposeInt('depth', { description: '1 at the top of the menu' }),
    type: t.exposeString('type', { description: 'PAGE or LINK' }),
    label: t.exposeString('label'),
    pageSimplyId: t.string({ nullable: true, resolve: (i) => i.pageSimplyId }),
    path: t.string({ nullable: true, description: 'the page’s path, when the item names a page that exists', resolve: (i) => i.path }),
    url: t.string({ nullable: true, resolve: (i) => i.url }),
  }),
});

const MenuRef = builder.objectRef<StudioContext['menus'][number]>('WebsiteStudioMenu').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    items: t.field({ type: [MenuItemRef], description: 'depth-first', resolve: (m) => m.items }),
    totalItems: t.exposeInt('totalItems'),
    truncated: t.exposeBoolean('truncated'),
  }),
});

const StudioBlockRef = builder.objectRef<OutlineBlock>('WebsiteStudioBlock').implement({
  fields: (t) => ({
    id: t.string({ nullable: true, resolve: (b) => b.id }),
    type: t.exposeString('type'),
    tagName: t.string({ nullable: true, resolve: (b) => b.tagName }),
    depth: t.exposeInt('depth'),
    childCount: t.exposeInt('childCount'),
    label: t.exposeString('label'),
  }),
});

const ActivePageRef = builder.objectRef<NonNullable<StudioContext['activePage']>>('WebsiteStudioActivePage').implement({
  fields: (t) => ({
    pageSimplyId: t.exposeString('pageSimplyId'),
    title: t.exposeString('title'),
    path: t.exposeString('path'),
    draftRevision: t.exposeInt('draftRevision'),
    publishState: t.exposeString('publishState'),
    blocks: t.field({ type: [StudioBlockRef], description: 'the draft’s components in document order (text nodes left out)', resolve: (a) => a.blocks }),
    totalComponents: t.exposeInt('totalComponents'),
    truncated: t.exposeBoolean('truncated', { description: 'more components than blocks listed' }),
  }),
});

const StudioContextRef = builder.objectRef<StudioContext>('WebsiteStudioContext').implement({
  description: 'What the studio or an AI assistant needs to know about a site, bounded in size',
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    site: t.field({ type: SiteSummaryRef, resolve: (c) => c.site }),
    theme: t.field({ type: 'JSON', nullable: true, description: 'the site’s themeSettings; null when it has none or it is over 16 KiB (themeTruncated)', resolve: (c) => c.theme as never }),
    themeTruncated: t.exposeBoolean('themeTruncated'),
    pages: t.field({ type: [StudioPageRef], description: 'in tree order, at most 200', resolve: (c) => c.pages }),
    totalPages: t.exposeInt('totalPages'),
    pagesTruncated: t.exposeBoolean('pagesTruncated'),
    menus: t.field({ type: [MenuRef], resolve: (c) => c.menus }),
    activePage: t.field({ type: ActivePageRef, nullable: true, resolve: (c) => c.activePage }),
    byteSize: t.exposeInt('byteSize', { description: 'the size of this context as JSON' }),
    maxBytes: t.exposeInt('maxBytes'),
  }),
});

const BlogSetupRef = builder.objectRef<BlogSetup>('WebsiteBlogSetup').implement({
  fields: (t) => ({
    created: t.exposeBoolean('created', { description: 'false: the site had a blog already, and nothing was made' }),
    blogPage: t.field({ type: WebsitePageRef, resolve: (b) => b.blogPage }),
    posts: t.field({ type: [WebsitePageRef], description: 'the pages under the blog page', resolve: (b) => b.posts }),
  }),
});

builder.queryFields((t) => ({
  websiteStudioContext: t.field({
    type: StudioContextRef,
    description: 'A bounded summary of a site for the studio or an AI assistant, with the outline of the active page (VIEWER)',
    authScopes: read,
    args: { websiteSimplyId: t.arg.string({ required: true }), activePageSimplyId: t.arg.string() },
    resolve: (_r, a, ctx) => studioContext(ctx, a.websiteSimplyId, a.activePageSimplyId),
  }),
}));

builder.mutationFields((t) => ({
  setupWebsiteBlog: t.field({
    type: BlogSetupRef,
    description: 'Creates the default blog pages, once (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => setupBlog(ctx, a.websiteSimplyId),
  }),
}));
