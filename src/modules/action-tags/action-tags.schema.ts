// GraphQL face of action tags and the team plan (docs/api/action-tags.md). REST:
// rest-adapter/routes/action-tags.ts. Privileged tier with TEAM_ADMIN_SVC_TAGS (team admins hold
// every feature); the plan's API-key rule is the service's check (action-tag-plan.ts).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { PaginationRef } from '../../app/graphql/page.ts';
import type { ActionTagCapabilities, SetPlanResult } from './action-tag-plan.service.ts';
import { actionTagCapabilities, setActionTagPlan } from './action-tag-plan.service.ts';
import { type BulkGenerateResult, bulkGenerateActionTags } from './action-tag-bulk.service.ts';
import { type ActionTagPage, type ActionTagView, createActionTag, deleteActionTag, getActionTag, listActionTags, updateActionTag } from './action-tags.service.ts';

export const actionTagsRead = tier.privileged('TEAM_ADMIN_SVC_TAGS', 'VIEW');
export const actionTagsWrite = tier.privileged('TEAM_ADMIN_SVC_TAGS', 'EDIT');

const qrSettingsOut = (v: unknown) => {
  if (!v || typeof v !== 'object') return null;
  const { logoImageBase64, ...rest } = v as Record<string, unknown>;
  return { ...rest, hasLogo: typeof logoImageBase64 === 'string' && logoImageBase64.length > 0 };
};

export const ActionTagRef = builder.objectRef<ActionTagView>('ActionTag').implement({
  description: 'A QR code, NFC chip or link whose destination the team changes after printing',
  fields: (t) => ({
    id: t.string({ resolve: (v) => v.tag.simplyId }),
    simplyActionTagSimplyId: t.string({ description: 'opaque, printed in the code or chip, never changes', resolve: (v) => v.tag.simplyId }),
    name: t.string({ resolve: (v) => v.tag.name }),
    notes: t.string({ nullable: true, resolve: (v) => v.tag.notes }),
    status: t.string({ description: 'DRAFT, ACTIVE, INACTIVE, ARCHIVED or ARCHIVED_BY_DOWNGRADE; only ACTIVE resolves', resolve: (v) => v.tag.status }),
    actionType: t.string({ description: 'URL, LINK_PAGE, DATA_WIZARD or DATA_RECORD', resolve: (v) => v.tag.actionType }),
    actionUrl: t.string({ nullable: true, resolve: (v) => v.tag.actionUrl }),
    destinationDomain: t.string({ nullable: true, description: 'the host of actionUrl', resolve: (v) => v.tag.destinationDomain }),
    linkPageSettings: t.field({ type: 'JSON', nullable: true, description: '{ title, theme, callsToAction: [{ label, url }] }', resolve: (v) => v.tag.linkPageSettings as never }),
    qrCodeSettings: t.field({ type: 'JSON', nullable: true, description: '{ foregroundColor, backgroundColor, errorCorrection, hasLogo }', resolve: (v) => qrSettingsOut(v.tag.qrCodeSettings) as never }),
    labelSimplyIds: t.stringList({ resolve: (v) => v.tag.labelSimplyIds }),
    dataWizardSimplyId: t.string({ nullable: true, resolve: (v) => v.tag.dataWizardSimplyId }),
    dataRecordSimplyId: t.string({ nullable: true, resolve: (v) => v.tag.dataRecordSimplyId }),
    dataCollectionSimplyId: t.string({ nullable: true, resolve: (v) => v.tag.dataCollectionSimplyId }),
    requireFreshScan: t.boolean({ resolve: (v) => v.tag.requireFreshScan }),
    publicUrl: t.exposeString('publicUrl', { description: 'the URL printed in the code or chip' }),
    lifetimeScans: t.int({ description: 'every scan since the tag was made (kept past scan retention)', resolve: (v) => v.tag.lifetimeScans }),
    lastScannedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.tag.lastScannedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.tag.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.tag.updatedAt }),
  }),
});

const ActionTagPageRef = builder.objectRef<ActionTagPage>('ActionTagPage').implement({
  fields: (t) => ({ nodes: t.expose('nodes', { type: [ActionTagRef] }), pagination: t.expose('pagination', { type: PaginationRef }) }),
});

const CapabilitiesRef = builder.objectRef<ActionTagCapabilities>('ActionTagCapabilities').implement({
  description: 'The team’s action-tag plan and what it opens',
  fields: (t) => ({
    contract: t.string({ description: 'STANDALONE or POWERED', resolve: (c) => c.plan.contract }),
    billing: t.string({ description: 'FREE or PAID', resolve: (c) => c.plan.billing }),
    band: t.int({ description: 'the capacity band (100, 500, 1000, …); features open at 500', resolve: (c) => c.plan.band }),
    managedCapacity: t.int({ description: 'tags that are not archived, at most', resolve: (c) => c.plan.managedCapacity }),
    tagsInUse: t.exposeInt('tagsInUse'),
    domainAllowance: t.int({ resolve: (c) => c.plan.domainAllowance }),
    planIsDefault: t.boolean({ description: 'true: no administrator has set a plan; the platform default applies', resolve: (c) => !c.plan.isSet }),
    retention: t.field({ type: 'JSON', description: '{ scanDetailDays, userAgentMaskedAfterDays, abuseHashDays }', resolve: (c) => c.retention as never }),
    features: t.field({ type: 'JSON', description: '{ apiKeyAccess, csvImportExport, lifecycleWebhooks, customDomains, poweredActions, bulkGenerate }', resolve: (c) => c.features as never }),
  }),
});

const SetPlanRef = builder.objectRef<SetPlanResult>('ActionTagPlanChange').implement({
  fields: (t) => ({
    capabilities: t.expose('capabilities', { type: CapabilitiesRef }),
    archivedByDowngrade: t.exposeInt('archivedByDowngrade', { description: 'tags the new plan no longer covers, now ARCHIVED_BY_DOWNGRADE' }),
  }),
});

const body = { type: 'JSON' as const, required: true, description: 'the body, as the REST route takes it' };

builder.queryFields((t) => ({
  actionTags: t.field({
    type: ActionTagPageRef,
    description: 'The team’s action tags: filters and column:direction sorts as the REST list (TEAM_ADMIN_SVC_TAGS)',
    authScopes: actionTagsRead,
    args: {
      limit: t.arg.int(),
      offset: t.arg.int(),
      status: t.arg.string(),
      actionType: t.arg.string(),
      dataRecordSimplyId: t.arg.string(),
      dataCollectionSimplyId: t.arg.string(),
      hasLinkedRecord: t.arg.string(),
      labelSimplyIds: t.arg.string(),
      search: t.arg.string(),
      destinationDomain: t.arg.string(),
      createdFrom: t.arg.string(),
      createdTo: t.arg.string(),
      lastScannedFrom: t.arg.string(),
      lastScannedTo: t.arg.string(),
      sort: t.arg.string(),
    },
    resolve: (_r, a, ctx) => listActionTags(ctx, a),
  }),
  actionTag: t.field({
    type: ActionTagRef,
    description: 'One action tag (TEAM_ADMIN_SVC_TAGS)',
    authScopes: actionTagsRead,
    args: { simplyActionTagSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => getActionTag(ctx, a.simplyActionTagSimplyId),
  }),
  actionTagCapabilities: t.field({
    type: CapabilitiesRef,
    description: 'The team’s plan: band, managed capacity, retention, domain allowance, feature gates (a signed-in Team Admin)',
    authScopes: tier.signedInMember,
    resolve: (_r, _a, ctx) => actionTagCapabilities(ctx),
  }),
}));

builder.mutationFields((t) => ({
  createActionTag: t.field({
    type: ActionTagRef,
    description: 'Creates an action tag; its id is minted once and never changes (TEAM_ADMIN_SVC_TAGS edit)',
    authScopes: actionTagsWrite,
    args: { input: t.arg(body) },
    resolve: (_r, a, ctx) => createActionTag(ctx, a.input),
  }),
  updateActionTag: t.field({
    type: ActionTagRef,
    description: 'Changes the properties present; null clears the optional ones (TEAM_ADMIN_SVC_TAGS edit)',
    authScopes: actionTagsWrite,
    args: { simplyActionTagSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => updateActionTag(ctx, a.simplyActionTagSimplyId, a.input),
  }),
  deleteActionTag: t.boolean({
    description: 'Deletes the tag and its scan detail; daily aggregates remain (TEAM_ADMIN_SVC_TAGS edit)',
    authScopes: actionTagsWrite,
    args: { simplyActionTagSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => deleteActionTag(ctx, a.simplyActionTagSimplyId),
  }),
  setActionTagPlan: t.field({
    type: SetPlanRef,
    description: 'Sets a team’s action-tag plan: a preset (standalone-<band>, paid-<band>) and/or properties (a system administrator)',
    authScopes: tier.systemAdmin,
    args: { teamSimplyId: t.arg.string({ required: true }), input: t.arg(body) },
    resolve: (_r, a, ctx) => setActionTagPlan(ctx.services, a.teamSimplyId, a.input, ctx.principal.userId),
  }),
}));

const BulkRef = builder.objectRef<BulkGenerateResult>('ActionTagBulkGenerateResult').implement({
  fields: (t) => ({
    created: t.expose('created', { type: [ActionTagRef] }),
    skipped: t.exposeInt('skipped', { description: 'records of the collection that already had a tag' }),
  }),
});

builder.mutationFields((t) => ({
  bulkGenerateActionTags: t.field({
    type: BulkRef,
    description: 'One tag per record of a collection that has none yet (powered; a signed-in member with TEAM_ADMIN_SVC_TAGS edit)',
    authScopes: tier.signedInMember,
    args: { input: t.arg(body) },
    resolve: (_r, a, ctx) => bulkGenerateActionTags(ctx, a.input),
  }),
}));
