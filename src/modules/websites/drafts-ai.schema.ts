// GraphQL face of the AI drafts: a page, a site plan, blocks and text rewrites, each only an answer
// (nothing is written). REST: rest-adapter/routes/websites/ai.ts. The websites tier; the services
// check the role (EDITOR).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { type BlockDraft, draftBlocks, draftPage, draftSitePlan, draftTextRewrites, type PageDraft, type SitePlanDraft, type TextRewriteDraft } from './drafts-service.ts';

const write = tier.websites('websites:write');
const body = { type: 'JSON' as const, required: true, description: 'the body, as the REST route takes it' };
const json = (description: string) => ({ type: 'JSON' as const, description });

const PageDraftRef = builder.objectRef<PageDraft>('WebsitePageDraft').implement({
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    title: t.exposeString('title'),
    metaDescription: t.string({ nullable: true, resolve: (d) => d.metaDescription }),
    design: t.field({ ...json('the drafted design { components, styles }, with new component ids'), resolve: (d) => d.design as never }),
    operations: t.field({ ...json('design operations that put the draft on a page (PATCH …/design)'), resolve: (d) => d.operations as never }),
    removed: t.field({ ...json('what the design rules took out of the model’s answer: [{ field, message }]'), resolve: (d) => d.removed as never }),
  }),
});

const SitePlanRef = builder.objectRef<SitePlanDraft>('WebsiteSitePlanDraft').implement({
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    pages: t.field({ ...json('[{ title, slug, purpose, sections: [{ heading, purpose }], children }]'), resolve: (d) => d.pages as never }),
    totalPages: t.exposeInt('totalPages'),
  }),
});

const BlockDraftRef = builder.objectRef<BlockDraft>('WebsiteBlockDraft').implement({
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    pageSimplyId: t.exposeString('pageSimplyId'),
    draftRevision: t.exposeInt('draftRevision', { description: 'the draft it was made for: send as baseRevision' }),
    blocks: t.field({ ...json('the drafted components, with new ids'), resolve: (d) => d.blocks as never }),
    operations: t.field({ ...json('insert (and setRule) operations for PATCH …/design'), resolve: (d) => d.operations as never }),
    removed: t.field({ ...json('what the design rules took out: [{ field, message }]'), resolve: (d) => d.removed as never }),
  }),
});

const RewriteDraftRef = builder.objectRef<TextRewriteDraft>('WebsiteTextRewriteDraft').implement({
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    pageSimplyId: t.exposeString('pageSimplyId'),
    draftRevision: t.exposeInt('draftRevision'),
    rewrites: t.field({ ...json('[{ id, before, text }]'), resolve: (d) => d.rewrites as never }),
    operations: t.field({ ...json('setText operations for PATCH …/design'), resolve: (d) => d.operations as never }),
    removed: t.field({ ...json('what was taken out: [{ field, message }]'), resolve: (d) => d.removed as never }),
  }),
});

builder.mutationFields((t) => ({
  draftWebsitePage: t.field({
    type: PageDraftRef,
    description: 'A whole page drafted by the AI model from a brief; nothing is written (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => draftPage(ctx, a.websiteSimplyId, a.input),
  }),
  draftWebsiteSitePlan: t.field({
    type: SitePlanRef,
    description: 'A plan of pages (tree, titles, purposes, sections) drafted by the AI model; nothing is written (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => draftSitePlan(ctx, a.websiteSimplyId, a.input),
  }),
  draftWebsiteBlocks: t.field({
    type: BlockDraftRef,
    description: 'Blocks for a page drafted by the AI model; nothing is written (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), pageSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => draftBlocks(ctx, a.websiteSimplyId, a.pageSimplyId, a.input),
  }),
  draftWebsiteTextRewrites: t.field({
    type: RewriteDraftRef,
    description: 'Rewrites of components’ text drafted by the AI model; nothing is written (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), pageSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => draftTextRewrites(ctx, a.websiteSimplyId, a.pageSimplyId, a.input),
  }),
}));
