// GraphQL face of saved layouts, the layout catalog and detaching a synced layout from a page.
// REST: rest-adapter/routes/websites/layouts.ts. The websites tier; the role on the site (EDITOR
// writes, VIEWER reads) is the service's check.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { PageDesignRef } from './designs.schema.ts';
import { type CatalogLayout, catalogFor } from './layout-catalog.ts';
import { archiveSavedLayout, createSavedLayout, detachSyncedLayout, getSavedLayout, listSavedLayouts, type SavedLayoutView, updateSavedLayout } from './saved-layouts.service.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');

const SavedLayoutRef = builder.objectRef<SavedLayoutView>('WebsiteSavedLayout').implement({
  description: 'A design fragment a website keeps for its pages: copied into a page (SNAPSHOT) or followed by the pages that use it (SYNCED)',
  fields: (t) => ({
    id: t.string({ resolve: (l) => l.layout.simplyId }),
    savedLayoutSimplyId: t.string({ resolve: (l) => l.layout.simplyId }),
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    name: t.string({ resolve: (l) => l.layout.name }),
    category: t.string({ resolve: (l) => l.layout.category }),
    description: t.string({ nullable: true, resolve: (l) => l.layout.description }),
    designFormat: t.string({ description: 'GRAPESJS_WEB or GRAPESJS_EMAIL', resolve: (l) => l.layout.designFormat }),
    syncMode: t.string({ description: 'SNAPSHOT or SYNCED', resolve: (l) => l.layout.syncMode }),
    contentJson: t.field({ type: 'JSON', description: '{ components, styles }', resolve: (l) => l.layout.contentJson as never }),
    contentRevision: t.int({ description: 'grows with every change of contentJson', resolve: (l) => l.layout.contentRevision }),
    archivedAt: t.field({ type: 'DateTime', nullable: true, description: 'set when deleted: kept for the pages that use it', resolve: (l) => l.layout.archivedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (l) => l.layout.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (l) => l.layout.updatedAt }),
  }),
});

const CatalogLayoutRef = builder.objectRef<CatalogLayout>('WebsiteCatalogLayout').implement({
  description: 'A layout of the platform’s catalog',
  fields: (t) => ({
    catalogLayoutId: t.exposeString('catalogLayoutId'),
    name: t.exposeString('name'),
    category: t.exposeString('category'),
    description: t.exposeString('description'),
    designFormat: t.exposeString('designFormat'),
    contentJson: t.field({ type: 'JSON', description: '{ components, styles }', resolve: (l) => l.contentJson as never }),
  }),
});

const body = { type: 'JSON' as const, required: true, description: 'the body, as the REST route takes it' };

builder.queryFields((t) => ({
  websiteSavedLayouts: t.field({
    type: [SavedLayoutRef],
    description: 'The site’s saved layouts (not archived), oldest first; designFormat filters (VIEWER)',
    authScopes: read,
    args: { websiteSimplyId: t.arg.string({ required: true }), designFormat: t.arg.string() },
    resolve: (_r, a, ctx) => listSavedLayouts(ctx, a.websiteSimplyId, a.designFormat),
  }),
  websiteSavedLayout: t.field({
    type: SavedLayoutRef,
    description: 'One saved layout, archived ones too (VIEWER)',
    authScopes: read,
    args: { websiteSimplyId: t.arg.string({ required: true }), savedLayoutSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => getSavedLayout(ctx, a.websiteSimplyId, a.savedLayoutSimplyId),
  }),
  websiteLayoutCatalog: t.field({
    type: [CatalogLayoutRef],
    description: 'The platform’s layout catalog',
    authScopes: read,
    resolve: (_r, _a, ctx) => catalogFor(ctx),
  }),
}));

builder.mutationFields((t) => ({
  createWebsiteSavedLayout: t.field({
    type: SavedLayoutRef,
    description: 'Saves a layout for the site’s pages (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => createSavedLayout(ctx, a.websiteSimplyId, a.input),
  }),
  updateWebsiteSavedLayout: t.field({
    type: SavedLayoutRef,
    description: 'Changes the supplied fields; a SYNCED layout’s new content shows on every page that uses it (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), savedLayoutSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => updateSavedLayout(ctx, a.websiteSimplyId, a.savedLayoutSimplyId, a.input),
  }),
  deleteWebsiteSavedLayout: t.boolean({
    description: 'Archives the layout: out of the lists, kept for the pages that use it (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), savedLayoutSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => archiveSavedLayout(ctx, a.websiteSimplyId, a.savedLayoutSimplyId),
  }),
  detachWebsitePageSyncedLayout: t.field({
    type: PageDesignRef,
    description: 'Replaces the draft’s references to the synced layout with a copy of its content (EDITOR)',
    authScopes: write,
    args: { pageSimplyId: t.arg.string({ required: true }), savedLayoutSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => detachSyncedLayout(ctx, a.pageSimplyId, a.savedLayoutSimplyId),
  }),
}));
