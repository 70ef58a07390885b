// GraphQL face of team website templates: templates and their releases, sites made from them, and
// a site's or page's connection to its template. REST: rest-adapter/routes/websites/templates.ts.
// The websites tier; the services check the feature and the roles on the sites.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageType } from '../../app/graphql/page.ts';
import type { SiteOutcome } from './templates-apply.ts';
import {
  type ApplyResult,
  applyTemplate,
  archiveTemplate,
  type ConnectedSite,
  type ConnectionView,
  createTemplate,
  createWebsiteFromTemplate,
  detachPageFromTemplate,
  disconnectTemplate,
  getConnection,
  getTemplate,
  listTemplates,
  type PageTemplateState,
  type ReleaseRow,
  type ReleaseView,
  releaseTemplate,
  type TemplateView,
  updateTemplate,
  type WebsiteFromTemplate,
} from './website-templates.service.ts';
import { WebsiteRef } from './websites.schema.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');
const body = { type: 'JSON' as const, required: true, description: 'the body, as the REST route takes it' };
const optionalBody = { type: 'JSON' as const, required: false, description: 'the body, as the REST route takes it' };

const ReleaseRef = builder.objectRef<ReleaseRow>('WebsiteTemplateRelease').implement({
  description: 'An immutable, numbered snapshot of a template’s source site',
  fields: (t) => ({
    releaseSimplyId: t.exposeString('simplyId'),
    number: t.exposeInt('number'),
    releaseNotes: t.string({ nullable: true, resolve: (r) => r.releaseNotes }),
    pageCount: t.exposeInt('pageCount'),
    applyAutoSites: t.exposeBoolean('applyAutoSites'),
    managedPublish: t.exposeBoolean('managedPublish'),
    backgroundTaskSimplyId: t.string({ nullable: true, description: 'the WEBSITE_TEMPLATE_RELEASE task applying it to the AUTO sites', resolve: (r) => r.backgroundTaskSimplyId }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
  }),
});

const ConnectedSiteRef = builder.objectRef<ConnectedSite>('WebsiteTemplateConnectedSite').implement({
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    templateSyncMode: t.exposeString('templateSyncMode', { description: 'AUTO or REVIEW' }),
    appliedReleaseNumber: t.int({ nullable: true, description: 'null while the site is being copied', resolve: (s) => s.appliedReleaseNumber }),
    pendingReleaseNumber: t.int({ nullable: true, resolve: (s) => s.pendingReleaseNumber }),
  }),
});

const TemplateRef = builder.objectRef<TemplateView>('TeamWebsiteTemplate').implement({
  description: 'A team’s website template: a source site released as numbered snapshots that connected sites follow',
  fields: (t) => ({
    id: t.string({ resolve: (v) => v.template.simplyId }),
    teamWebsiteTemplateSimplyId: t.string({ resolve: (v) => v.template.simplyId }),
    name: t.string({ resolve: (v) => v.template.name }),
    description: t.string({ nullable: true, resolve: (v) => v.template.description }),
    sourceWebsiteSimplyId: t.string({ nullable: true, description: 'null once the source site was deleted', resolve: (v) => v.sourceWebsiteSimplyId }),
    status: t.string({ description: 'ACTIVE or ARCHIVED', resolve: (v) => (v.template.archivedAt ? 'ARCHIVED' : 'ACTIVE') }),
    archivedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.template.archivedAt }),
    latestReleaseNumber: t.int({ nullable: true, description: 'null before the first release', resolve: (v) => v.template.latestReleaseNumber || null }),
    connectedWebsiteCount: t.exposeInt('connectedWebsiteCount'),
    releases: t.field({ type: [ReleaseRef], description: 'detail only: the newest 50, newest first', resolve: (v) => v.releases }),
    websites: t.field({ type: [ConnectedSiteRef], description: 'detail only: the connected sites', resolve: (v) => v.websites }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.template.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.template.updatedAt }),
  }),
});
const TemplatePageRef = pageType('TeamWebsiteTemplatePage', TemplateRef);

const ReleasedRef = builder.objectRef<ReleaseView>('WebsiteTemplateReleased').implement({
  fields: (t) => ({
    teamWebsiteTemplateSimplyId: t.exposeString('teamWebsiteTemplateSimplyId'),
    release: t.field({ type: ReleaseRef, resolve: (r) => r.release }),
    autoWebsiteCount: t.exposeInt('autoWebsiteCount', { description: 'AUTO sites the release task applies it to' }),
    pendingWebsiteCount: t.exposeInt('pendingWebsiteCount', { description: 'sites that got it as a pending update for an editor' }),
  }),
});

const ConnectionRef = builder.objectRef<ConnectionView>('WebsiteTemplateConnection').implement({
  description: 'The template a website follows, and how',
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    teamWebsiteTemplateSimplyId: t.string({ nullable: true, resolve: (c) => c.teamWebsiteTemplateSimplyId }),
    connected: t.exposeBoolean('connected'),
    templateSyncMode: t.string({ nullable: true, description: 'AUTO or REVIEW', resolve: (c) => c.templateSyncMode }),
    enumAppBrandId: t.string({ nullable: true, resolve: (c) => c.enumAppBrandId }),
    appliedReleaseNumber: t.int({ nullable: true, resolve: (c) => c.appliedReleaseNumber }),
    pendingReleaseNumber: t.int({ nullable: true, description: 'a release an editor may apply with template/apply', resolve: (c) => c.pendingReleaseNumber }),
    connectedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.connectedAt }),
  }),
});

const OutcomeRef = builder.objectRef<SiteOutcome>('WebsiteTemplateApplyOutcome').implement({
  description: 'What applying a release did to one site',
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    releaseNumber: t.exposeInt('releaseNumber'),
    status: t.exposeString('status'),
    pagesAdded: t.exposeStringList('pagesAdded'),
    pagesUpdated: t.exposeStringList('pagesUpdated'),
    pagesUnchanged: t.exposeInt('pagesUnchanged'),
    keptLocal: t.exposeStringList('keptLocal', { description: 'pages edited on the site since the template last wrote them: their drafts stay' }),
    detached: t.exposeStringList('detached'),
    removedFromTemplate: t.exposeStringList('removedFromTemplate', { description: 'pages the release no longer has: left in place' }),
    deletedOnSite: t.exposeInt('deletedOnSite'),
    settings: t.exposeString('settings', { description: 'UPDATED, UNCHANGED or KEPT_LOCAL (theme, header and footer)' }),
    pagesPublished: t.exposeInt('pagesPublished'),
  }),
});

const ApplyResultRef = builder.objectRef<ApplyResult>('WebsiteTemplateApplied').implement({
  fields: (t) => ({
    connection: t.field({ type: ConnectionRef, resolve: (r) => r.connection }),
    outcome: t.field({ type: OutcomeRef, resolve: (r) => r.outcome }),
  }),
});

const FromTemplateRef = builder.objectRef<WebsiteFromTemplate>('WebsiteFromTemplate').implement({
  fields: (t) => ({
    website: t.field({ type: WebsiteRef, resolve: (r) => r.website }),
    connection: t.field({ type: ConnectionRef, resolve: (r) => r.connection }),
    releaseNumber: t.exposeInt('releaseNumber', { description: 'the newest release when the copy was queued' }),
    backgroundTaskSimplyId: t.exposeString('backgroundTaskSimplyId', { description: 'the WEBSITE_COPY task: follow it at GET /v1/background-tasks/{backgroundTaskSimplyId}' }),
    status: t.exposeString('status'),
  }),
});

const PageStateRef = builder.objectRef<PageTemplateState>('WebsitePageTemplateState').implement({
  fields: (t) => ({
    pageSimplyId: t.exposeString('pageSimplyId'),
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    followsTemplate: t.exposeBoolean('followsTemplate'),
    detachedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.detachedAt }),
  }),
});

builder.queryFields((t) => ({
  websiteTemplates: t.field({
    type: TemplatePageRef,
    description: 'The team’s website templates, newest first; archived ones with includeArchived',
    authScopes: read,
    args: { limit: t.arg.int(), offset: t.arg.int(), includeArchived: t.arg.boolean() },
    resolve: (_r, a, ctx) => listTemplates(ctx, a),
  }),
  websiteTemplate: t.field({
    type: TemplateRef,
    description: 'One template with its newest releases and connected sites',
    authScopes: read,
    args: { teamWebsiteTemplateSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => getTemplate(ctx, a.teamWebsiteTemplateSimplyId),
  }),
  websiteTemplateConnection: t.field({
    type: ConnectionRef,
    description: 'The template a website follows (VIEWER)',
    authScopes: read,
    args: { websiteSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => getConnection(ctx, a.websiteSimplyId),
  }),
}));

builder.mutationFields((t) => ({
  createWebsiteTemplate: t.field({
    type: TemplateRef,
    description: 'A template of a source site the caller edits',
    authScopes: write,
    args: { input: t.arg(body) },
    resolve: (_r, a, ctx) => createTemplate(ctx, a.input),
  }),
  updateWebsiteTemplate: t.field({
    type: TemplateRef,
    description: 'Changes the supplied fields: name, description, sourceWebsiteSimplyId',
    authScopes: write,
    args: { teamWebsiteTemplateSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => updateTemplate(ctx, a.teamWebsiteTemplateSimplyId, a.input),
  }),
  deleteWebsiteTemplate: t.boolean({
    description: 'Archives the template: connected sites keep following its releases; no new sites or releases',
    authScopes: write,
    args: { teamWebsiteTemplateSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => archiveTemplate(ctx, a.teamWebsiteTemplateSimplyId),
  }),
  releaseWebsiteTemplate: t.field({
    type: ReleasedRef,
    description: 'A new numbered release of the source site as it is now; AUTO sites get it through a WEBSITE_TEMPLATE_RELEASE task',
    authScopes: write,
    args: { teamWebsiteTemplateSimplyId: t.arg.string({ required: true }), input: t.arg(optionalBody) },
    resolve: (_r, a, ctx) => releaseTemplate(ctx, a.teamWebsiteTemplateSimplyId, a.input),
  }),
  createWebsiteFromTemplate: t.field({
    type: FromTemplateRef,
    description: 'A new website connected to the template; a WEBSITE_COPY task copies the newest release into it',
    authScopes: write,
    args: { teamWebsiteTemplateSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => createWebsiteFromTemplate(ctx, a.teamWebsiteTemplateSimplyId, a.input),
  }),
  applyWebsiteTemplate: t.field({
    type: ApplyResultRef,
    description: 'Applies the site’s pending template release (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => applyTemplate(ctx, a.websiteSimplyId),
  }),
  disconnectWebsiteTemplate: t.field({
    type: ConnectionRef,
    description: 'The site stops following its template; its pages stay (OWNER)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => disconnectTemplate(ctx, a.websiteSimplyId),
  }),
  detachWebsitePageTemplate: t.field({
    type: PageStateRef,
    description: 'The page stops following template releases (EDITOR)',
    authScopes: write,
    args: { pageSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => detachPageFromTemplate(ctx, a.pageSimplyId),
  }),
}));
