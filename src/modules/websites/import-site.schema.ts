// GraphQL face of website imports: discover a site, start an import (a WEBSITE_IMPORT background
// task) and answer its review suggestions. REST: rest-adapter/routes/websites/import.ts. The
// websites tier; the services check the feature and the role on the target site.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { type DiscoveredPage, type Discovery, discoverImport, type SitemapSection } from './import-discover.ts';
import { type ImportReview, reviewImport } from './import-review.ts';
import { type ImportStarted, startImport } from './import-start.ts';
import type { Suggestion } from './import-suggestions.ts';

const write = tier.websites('websites:write');
const body = { type: 'JSON' as const, required: true, description: 'the body, as the REST route takes it' };

const DiscoveredPageRef = builder.objectRef<DiscoveredPage>('WebsiteImportDiscoveredPage').implement({
  fields: (t) => ({
    url: t.exposeString('url'),
    path: t.exposeString('path', { description: 'the path (and query) on the source site' }),
    title: t.string({ nullable: true, description: 'the page’s title, or the text of a link to it', resolve: (p) => p.title }),
    inSitemap: t.exposeBoolean('inSitemap'),
  }),
});

const SitemapSectionRef = builder.objectRef<SitemapSection>('WebsiteImportSitemapSection').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    path: t.exposeString('path'),
    pageCount: t.exposeInt('pageCount'),
  }),
});

const DiscoveryRef = builder.objectRef<Discovery>('WebsiteImportDiscovery').implement({
  fields: (t) => ({
    sourceUrl: t.exposeString('sourceUrl', { description: 'the page read, after redirects' }),
    title: t.string({ nullable: true, resolve: (d) => d.title }),
    faviconUrl: t.string({ nullable: true, resolve: (d) => d.faviconUrl }),
    pages: t.field({ type: [DiscoveredPageRef], resolve: (d) => d.pages }),
    pagesTruncated: t.exposeBoolean('pagesTruncated'),
    sitemapUrl: t.string({ nullable: true, resolve: (d) => d.sitemapUrl }),
    sitemapSections: t.field({ type: [SitemapSectionRef], resolve: (d) => d.sitemapSections }),
  }),
});

const StartedRef = builder.objectRef<ImportStarted>('WebsiteImportStarted').implement({
  fields: (t) => ({
    backgroundTaskSimplyId: t.exposeString('backgroundTaskSimplyId'),
    status: t.exposeString('status'),
    websiteSimplyId: t.string({ nullable: true, description: 'EXISTING_WEBSITE: the site; a new site is named in the task’s result', resolve: (s) => s.websiteSimplyId }),
    pageCount: t.exposeInt('pageCount'),
  }),
});

const SuggestionRef = builder.objectRef<Suggestion>('WebsiteImportSuggestion').implement({
  fields: (t) => ({
    suggestionId: t.exposeString('suggestionId'),
    kind: t.exposeString('kind', { description: 'FORM_TO_WIZARD, MISSING_IMAGES, STYLE_CONFLICTS or PAGE_TRUNCATED' }),
    message: t.exposeString('message'),
    pageSimplyId: t.string({ nullable: true, resolve: (s) => s.pageSimplyId }),
    status: t.exposeString('status', { description: 'OPEN, ACCEPTED, SKIPPED or MODIFIED' }),
    modifications: t.field({ type: 'JSON', nullable: true, resolve: (s) => (s.modifications ?? null) as never }),
  }),
});

const ReviewRef = builder.objectRef<ImportReview>('WebsiteImportReview').implement({
  fields: (t) => ({
    backgroundTaskSimplyId: t.exposeString('backgroundTaskSimplyId'),
    websiteSimplyId: t.string({ nullable: true, resolve: (r) => r.websiteSimplyId }),
    suggestions: t.field({ type: [SuggestionRef], resolve: (r) => r.suggestions }),
    changedPageSimplyIds: t.exposeStringList('changedPageSimplyIds'),
  }),
});

builder.mutationFields((t) => ({
  discoverWebsiteImport: t.field({
    type: DiscoveryRef,
    description: 'Reads a public site’s page: its title, favicon, pages on the same site and sitemap sections (websites feature at edit level)',
    authScopes: write,
    args: { input: t.arg(body) },
    resolve: (_r, a, ctx) => discoverImport(ctx, a.input),
  }),
  startWebsiteImport: t.field({
    type: StartedRef,
    description: 'Queues a WEBSITE_IMPORT background task that makes the selected pages draft pages of a new or existing site',
    authScopes: write,
    args: { input: t.arg(body) },
    resolve: (_r, a, ctx) => startImport(ctx, a.input),
  }),
  reviewWebsiteImport: t.field({
    type: ReviewRef,
    description: 'Answers a finished import’s suggestions: ACCEPT, SKIP or MODIFY each (EDITOR on the imported site)',
    authScopes: write,
    args: { backgroundTaskSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => reviewImport(ctx, a.backgroundTaskSimplyId, a.input),
  }),
}));
