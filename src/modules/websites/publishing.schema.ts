// GraphQL face of publishing: a page's publish and review actions, its versions, the site's
// readiness, activation, header and footer, campaign chrome, and backups. REST:
// rest-adapter/routes/websites/publishing.ts. The websites tier; roles checked by the services.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageType } from '../../app/graphql/page.ts';
import { type BackupView, captureBackup, createBackup, getBackup, listBackups, restoreBackup } from './backups.service.ts';
import { publishPage, requestChanges, submitForReview } from './page-publishing.service.ts';
import { createCheckpoint, getVersion, listVersions, restoreVersion, updateVersionMetadata, VERSION_KINDS, type VersionView } from './page-versions.service.ts';
import { getPage } from './pages.service.ts';
import { type Activation, issueActivation, publishCampaignChrome, publishHeaderFooter, publishReadiness, type Readiness, type ReadinessItem } from './site-publishing.service.ts';
import { WebsitePageRef, WebsiteRef } from './websites.schema.ts';
import { getWebsite } from './websites.service.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');
const body = { type: 'JSON' as const, required: false, description: 'the body, as the REST route takes it' };

const VersionKindEnum = builder.enumType('WebsitePageVersionKind', {
  description: 'PUBLISHED: taken by a publish; CHECKPOINT: taken by hand; BEFORE_RESTORE: the draft a restore replaced',
  values: VERSION_KINDS,
});

const VersionRef = builder.objectRef<VersionView>('WebsitePageVersion').implement({
  description: 'An immutable snapshot of a page’s design; only its label and note change',
  fields: (t) => ({
    id: t.string({ resolve: (v) => v.version.simplyId }),
    versionSimplyId: t.string({ resolve: (v) => v.version.simplyId }),
    pageSimplyId: t.string({ resolve: (v) => v.pageSimplyId }),
    number: t.int({ description: 'counts the page’s versions from 1', resolve: (v) => v.version.number }),
    kind: t.field({ type: VersionKindEnum, resolve: (v) => v.version.kind as never }),
    label: t.string({ nullable: true, resolve: (v) => v.version.label }),
    note: t.string({ nullable: true, resolve: (v) => v.version.note }),
    draftRevision: t.int({ description: 'the draft revision it was taken from', resolve: (v) => v.version.draftRevision }),
    design: t.field({ type: 'JSON', resolve: (v) => v.version.design as never }),
    createdByUserSimplyId: t.string({ nullable: true, resolve: (v) => v.userSimplyId }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.version.createdAt }),
  }),
});
const VersionPageRef = pageType('WebsitePageVersionPage', VersionRef);

const ReadinessItemRef = builder.objectRef<ReadinessItem>('WebsitePublishReadinessItem').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    severity: t.exposeString('severity', { description: 'BLOCKER (publishing the site will be refused), WARNING or INFO' }),
    message: t.exposeString('message'),
    pageSimplyId: t.string({ nullable: true, resolve: (i) => i.pageSimplyId }),
  }),
});
const ReadinessRef = builder.objectRef<Readiness>('WebsitePublishReadiness').implement({
  description: 'An advisory checklist: the publishing routes enforce only their own hard requirements',
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    ready: t.exposeBoolean('ready', { description: 'no BLOCKER item' }),
    isPublished: t.exposeBoolean('isPublished'),
    needsActivation: t.exposeBoolean('needsActivation', { description: 'the first publish needs an activation token' }),
    items: t.field({ type: [ReadinessItemRef], resolve: (r) => r.items }),
  }),
});

const ActivationRef = builder.objectRef<Activation>('WebsitePublishActivation').implement({
  fields: (t) => ({
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    activationToken: t.exposeString('activationToken', { description: 'send it with PUT isPublished: true; for this user and site only' }),
    expiresAt: t.field({ type: 'DateTime', resolve: (a) => a.expiresAt }),
  }),
});

const BackupRef = builder.objectRef<BackupView>('WebsiteBackup').implement({
  fields: (t) => ({
    id: t.string({ resolve: (b) => b.backup.simplyId }),
    websiteBackupSimplyId: t.string({ resolve: (b) => b.backup.simplyId }),
    websiteSimplyId: t.string({ resolve: (b) => b.websiteSimplyId }),
    kind: t.string({ description: 'MANUAL, or AUTOMATIC (before a restore or a campaign chrome publish)', resolve: (b) => b.backup.kind }),
    summary: t.string({ nullable: true, resolve: (b) => b.backup.summary }),
    pageCount: t.int({ resolve: (b) => b.backup.pageCount }),
    byteSize: t.int({ resolve: (b) => b.backup.byteSize }),
    content: t.field({ type: 'JSON', nullable: true, description: 'the snapshot (settings, pages); on the backup’s detail only', resolve: (b) => b.backup.content as never }),
    createdByUserSimplyId: t.string({ nullable: true, resolve: (b) => b.userSimplyId }),
    createdAt: t.field({ type: 'DateTime', resolve: (b) => b.backup.createdAt }),
  }),
});
const BackupPageRef = pageType('WebsiteBackupPage', BackupRef);

const BackupRestoreRef = builder.objectRef<{ restored: BackupView; replaced: BackupView }>('WebsiteBackupRestore').implement({
  fields: (t) => ({
    restored: t.field({ type: BackupRef, resolve: (r) => r.restored }),
    replaced: t.field({ type: BackupRef, description: 'the backup of what the restore replaced (restore it to undo)', resolve: (r) => r.replaced }),
  }),
});

builder.queryFields((t) => ({
  websitePageVersions: t.field({
    type: VersionPageRef,
    description: 'The page’s versions, newest first',
    authScopes: read,
    args: { pageSimplyId: t.arg.string({ required: true }), limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_r, a, ctx) => listVersions(ctx, a.pageSimplyId, a),
  }),
  websitePageVersion: t.field({ type: VersionRef, authScopes: read, args: { versionSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => getVersion(ctx, a.versionSimplyId) }),
  websitePublishReadiness: t.field({ type: ReadinessRef, authScopes: read, args: { websiteSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => publishReadiness(ctx, a.websiteSimplyId) }),
  websiteBackups: t.field({
    type: BackupPageRef,
    description: 'The site’s backups, newest first (without their content)',
    authScopes: read,
    args: { websiteSimplyId: t.arg.string({ required: true }), limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_r, a, ctx) => listBackups(ctx, a.websiteSimplyId, a),
  }),
  websiteBackup: t.field({ type: BackupRef, authScopes: read, args: { websiteBackupSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => getBackup(ctx, a.websiteBackupSimplyId) }),
}));

builder.mutationFields((t) => ({
  publishWebsitePage: t.field({
    type: WebsitePageRef,
    description: 'The published design becomes the draft; a PUBLISHED version is kept (EDITOR)',
    authScopes: write,
    args: { pageSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: async (_r, a, ctx) => (await publishPage(ctx, a.pageSimplyId, a.input), getPage(ctx, a.pageSimplyId)),
  }),
  submitWebsitePageForReview: t.field({
    type: WebsitePageRef,
    authScopes: write,
    args: { pageSimplyId: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => (await submitForReview(ctx, a.pageSimplyId), getPage(ctx, a.pageSimplyId)),
  }),
  requestWebsitePageChanges: t.field({
    type: WebsitePageRef,
    authScopes: write,
    args: { pageSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: async (_r, a, ctx) => (await requestChanges(ctx, a.pageSimplyId, a.input), getPage(ctx, a.pageSimplyId)),
  }),
  createWebsitePageVersion: t.field({ type: VersionRef, description: 'A manual checkpoint of the draft (EDITOR)', authScopes: write, args: { pageSimplyId: t.arg.string({ required: true }), input: t.arg(body) }, resolve: (_r, a, ctx) => createCheckpoint(ctx, a.pageSimplyId, a.input) }),
  updateWebsitePageVersion: t.field({ type: VersionRef, authScopes: write, args: { versionSimplyId: t.arg.string({ required: true }), input: t.arg({ type: 'JSON', required: true }) }, resolve: (_r, a, ctx) => updateVersionMetadata(ctx, a.versionSimplyId, a.input) }),
  restoreWebsitePageVersion: t.field({
    type: WebsitePageRef,
    description: 'Puts the version’s design on the draft; never publishes (EDITOR)',
    authScopes: write,
    args: { versionSimplyId: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => getPage(ctx, (await restoreVersion(ctx, a.versionSimplyId)).page.simplyId),
  }),
  createWebsitePublishActivation: t.field({ type: ActivationRef, authScopes: write, args: { websiteSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => issueActivation(ctx, a.websiteSimplyId) }),
  publishWebsiteHeaderFooter: t.field({
    type: WebsiteRef,
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => getWebsite(ctx, await publishHeaderFooter(ctx, a.websiteSimplyId)),
  }),
  publishWebsiteCampaignChrome: t.field({
    type: WebsiteRef,
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => getWebsite(ctx, await publishCampaignChrome(ctx, a.websiteSimplyId, (tx, site, summary) => captureBackup(tx, site, summary, 'AUTOMATIC', ctx.principal.userId))),
  }),
  createWebsiteBackup: t.field({ type: BackupRef, authScopes: write, args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg(body) }, resolve: (_r, a, ctx) => createBackup(ctx, a.websiteSimplyId, a.input) }),
  restoreWebsiteBackup: t.field({ type: BackupRestoreRef, description: 'Puts the backup’s content back as drafts (OWNER)', authScopes: write, args: { websiteBackupSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => restoreBackup(ctx, a.websiteBackupSimplyId) }),
}));
