// GraphQL face of the served sites: preview sessions, a data view's render payload for a site, and
// the site's custom domain. REST: rest-adapter/routes/websites/serving.ts. The websites tier; roles
// checked by the services. The pages themselves are served outside the API (serve-endpoint.ts).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { type DataViewColumn, dataViewRender, type DataViewTable } from './dataview-render.ts';
import { createPreviewSession, type PreviewSession } from './preview-sessions.ts';
import { WebsiteRef } from './websites.schema.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');

builder.objectField(WebsiteRef, 'customDomain', (t) =>
  t.string({ nullable: true, description: 'a hostname of the team’s own that serves the published site (point it at the platform with a CNAME record)', resolve: (w) => w.site.customDomain }),
);

const PreviewSessionRef = builder.objectRef<PreviewSession>('WebsitePreviewSession').implement({
  description: 'A short-lived URL showing the site’s drafts',
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    pageSimplyId: t.string({ nullable: true, resolve: (s) => s.pageSimplyId }),
    previewUrl: t.exposeString('previewUrl', { description: 'opens the drafts until expiresAt; whoever holds it can look' }),
    expiresAt: t.field({ type: 'DateTime', resolve: (s) => s.expiresAt }),
  }),
});

const ColumnRef = builder.objectRef<DataViewColumn>('WebsiteDataViewColumn').implement({
  fields: (t) => ({ dataFieldSimplyId: t.exposeString('dataFieldSimplyId'), label: t.exposeString('label'), dataType: t.exposeString('dataType') }),
});

const RenderRef = builder.objectRef<DataViewTable>('WebsiteDataViewRender').implement({
  description: 'A data view as a site shows it: its display fields and the first records, filtered and sorted as the view says',
  fields: (t) => ({
    dataViewSimplyId: t.exposeString('dataViewSimplyId'),
    title: t.exposeString('title'),
    columns: t.field({ type: [ColumnRef], resolve: (r) => r.columns }),
    rows: t.field({ type: 'JSON', description: 'one display text per column, per record', resolve: (r) => r.rows }),
    total: t.exposeInt('total', { description: 'the records the view matches' }),
    limit: t.exposeInt('limit'),
    sortShortened: t.exposeBoolean('sortShortened', { description: 'too many records to order by field values: a simpler order was used' }),
  }),
});

builder.queryFields((t) => ({
  websiteDataViewRender: t.field({
    type: RenderRef,
    description: 'A published, shareable data view of the team as the site shows it (VIEWER)',
    authScopes: read,
    args: { websiteSimplyId: t.arg.string({ required: true }), dataViewSimplyId: t.arg.string({ required: true }), limit: t.arg.int() },
    resolve: (_r, a, ctx) => dataViewRender(ctx, a.websiteSimplyId, a.dataViewSimplyId, a.limit),
  }),
}));

builder.mutationFields((t) => ({
  createWebsitePreviewSession: t.field({
    type: PreviewSessionRef,
    description: 'A short-lived URL showing the site’s drafts (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg({ type: 'JSON', required: false, description: 'the body, as the REST route takes it' }) },
    resolve: (_r, a, ctx) => createPreviewSession(ctx, a.websiteSimplyId, a.input),
  }),
}));
