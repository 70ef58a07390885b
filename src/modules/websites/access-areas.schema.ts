// GraphQL face of access areas. REST: rest-adapter/routes/websites/access-areas.ts. The websites
// tier; the role on the site (OWNER writes, VIEWER reads) is the service's check.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { type AccessAreaView, createAccessArea, createRootPageAccessArea, effectiveAccessArea, listAccessAreas, updateAccessArea } from './access-areas.service.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');

const RootPageRef = builder.objectRef<AccessAreaView['rootPages'][number]>('WebsiteAccessAreaRootPage').implement({
  fields: (t) => ({ pageSimplyId: t.exposeString('pageSimplyId'), title: t.exposeString('title'), path: t.exposeString('path') }),
});

export const AccessAreaRef = builder.objectRef<AccessAreaView>('WebsiteAccessArea').implement({
  description: 'A gated section of a website: its root pages and every page below them need a signed-in constituent the area lets in',
  fields: (t) => ({
    id: t.string({ resolve: (a) => a.area.simplyId }),
    accessAreaSimplyId: t.string({ resolve: (a) => a.area.simplyId }),
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    name: t.string({ resolve: (a) => a.area.name }),
    rootPageSimplyIds: t.stringList({ description: 'the pages the area is attached to, as set (a deleted page stays listed and covers nothing)', resolve: (a) => a.area.rootPageSimplyIds }),
    rootPages: t.field({ type: [RootPageRef], description: 'the root pages that exist, with their paths', resolve: (a) => a.rootPages }),
    admits: t.field({ type: 'JSON', description: '[{ dataCollectionSimplyId, filters }]: a constituent whose record meets one rule is let in', resolve: (a) => a.area.admits as never }),
    signInMessage: t.string({ nullable: true, resolve: (a) => a.area.signInMessage }),
    enabled: t.boolean({ description: 'false: the area gates nothing', resolve: (a) => a.area.enabled }),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.area.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (a) => a.area.updatedAt }),
  }),
});

const body = { type: 'JSON' as const, required: true, description: 'the body, as the REST route takes it' };

builder.queryFields((t) => ({
  websiteAccessAreas: t.field({
    type: [AccessAreaRef],
    description: 'The site’s access areas, oldest first (VIEWER)',
    authScopes: read,
    args: { websiteSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => listAccessAreas(ctx, a.websiteSimplyId),
  }),
  websiteEffectiveAccessArea: t.field({
    type: AccessAreaRef,
    nullable: true,
    description: 'The enabled area that applies to the page: its own or its nearest ancestor’s; null when the page is public (VIEWER)',
    authScopes: read,
    args: { websiteSimplyId: t.arg.string({ required: true }), pageSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => effectiveAccessArea(ctx, a.websiteSimplyId, a.pageSimplyId),
  }),
}));

builder.mutationFields((t) => ({
  createWebsiteAccessArea: t.field({
    type: AccessAreaRef,
    description: 'Creates an access area over existing root pages (OWNER)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => createAccessArea(ctx, a.websiteSimplyId, a.input),
  }),
  createWebsiteAccessAreaRootPage: t.field({
    type: AccessAreaRef,
    description: 'Creates a new root page and an access area covering it, together (OWNER)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => createRootPageAccessArea(ctx, a.websiteSimplyId, a.input),
  }),
  updateWebsiteAccessArea: t.field({
    type: AccessAreaRef,
    description: 'Changes the supplied fields of an access area; enabled: false turns it off (OWNER)',
    authScopes: write,
    args: { accessAreaSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => updateAccessArea(ctx, a.accessAreaSimplyId, a.input),
  }),
}));
