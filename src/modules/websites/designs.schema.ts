// GraphQL face of page designs: the draft, design operations, the blocks outline and the page's
// activity. REST: rest-adapter/routes/websites/designs.ts. The websites tier, and the role on the
// site (VIEWER to read, EDITOR to patch) checked by the service.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageType } from '../../app/graphql/page.ts';
import { type ActivityEntry, type BlocksOutline, blocksOutline, getDesign, type OutlineBlock, type PageDesign, pageActivity, patchDesign } from './designs.service.ts';
import { ACTIVITY_KINDS } from './page-activity.ts';
import { draftAsRead } from './synced-layout-draft.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');

export const PageDesignRef = builder.objectRef<PageDesign>('WebsitePageDesign').implement({
  description: 'A page’s draft design: a GrapesJS document { components, styles }',
  fields: (t) => ({
    pageSimplyId: t.string({ resolve: (d) => d.page.simplyId }),
    websiteSimplyId: t.string({ resolve: (d) => d.websiteSimplyId }),
    draftRevision: t.int({ description: 'send it as baseRevision to be told (409) when the draft moved on', resolve: (d) => d.page.draftRevision }),
    publishedRevision: t.int({ nullable: true, resolve: (d) => d.page.publishedRevision }),
    design: t.field({ type: 'JSON', description: 'synced layouts show their current content (synced-layout.ts)', resolve: (d, _a, ctx) => draftAsRead(ctx, d.page) as never }),
    updatedAt: t.field({ type: 'DateTime', resolve: (d) => d.page.updatedAt }),
  }),
});

const BlockRef = builder.objectRef<OutlineBlock>('WebsitePageBlock').implement({
  fields: (t) => ({
    id: t.string({ nullable: true, description: 'the component id (attributes.id) design operations address', resolve: (b) => b.id }),
    type: t.exposeString('type'),
    tagName: t.string({ nullable: true, resolve: (b) => b.tagName }),
    depth: t.exposeInt('depth', { description: '1 for a top-level block' }),
    childCount: t.exposeInt('childCount'),
    label: t.exposeString('label', { description: 'its text, at most 80 characters' }),
  }),
});

const OutlineRef = builder.objectRef<BlocksOutline>('WebsitePageBlocks').implement({
  description: 'The draft’s components in document order (text nodes left out), at most 500',
  fields: (t) => ({
    pageSimplyId: t.string({ resolve: (o) => o.page.simplyId }),
    draftRevision: t.int({ resolve: (o) => o.page.draftRevision }),
    blocks: t.field({ type: [BlockRef], resolve: (o) => o.blocks }),
    totalComponents: t.exposeInt('totalComponents'),
    truncated: t.exposeBoolean('truncated'),
  }),
});

const ActivityKindEnum = builder.enumType('WebsitePageActivityKind', { values: ACTIVITY_KINDS });
const ActivityRef = builder.objectRef<ActivityEntry>('WebsitePageActivity').implement({
  fields: (t) => ({
    kind: t.field({ type: ActivityKindEnum, resolve: (a) => a.kind as never }),
    userSimplyId: t.string({ nullable: true, description: 'who; null for the platform', resolve: (a) => a.userSimplyId }),
    summary: t.string({ nullable: true, resolve: (a) => a.summary }),
    revision: t.int({ nullable: true, description: 'the draft revision it left', resolve: (a) => a.revision }),
    details: t.field({ type: 'JSON', nullable: true, resolve: (a) => a.details as never }),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.createdAt }),
  }),
});
const ActivityPageRef = pageType('WebsitePageActivityPage', ActivityRef);

builder.queryFields((t) => ({
  websitePageDesign: t.field({ type: PageDesignRef, authScopes: read, args: { pageSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => getDesign(ctx, a.pageSimplyId) }),
  websitePageBlocks: t.field({ type: OutlineRef, authScopes: read, args: { pageSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => blocksOutline(ctx, a.pageSimplyId) }),
  websitePageActivity: t.field({
    type: ActivityPageRef,
    description: 'Edits, publishes, review events and restores, newest first',
    authScopes: read,
    args: { pageSimplyId: t.arg.string({ required: true }), limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_r, a, ctx) => pageActivity(ctx, a.pageSimplyId, a),
  }),
}));

builder.mutationFields((t) => ({
  patchWebsitePageDesign: t.field({
    type: PageDesignRef,
    description: 'Applies design operations to the draft, all or nothing (EDITOR)',
    authScopes: write,
    args: { pageSimplyId: t.arg.string({ required: true }), input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, a, ctx) => patchDesign(ctx, a.pageSimplyId, a.input),
  }),
}));
