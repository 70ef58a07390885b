// GraphQL face of the wizard administration surfaces (docs/api/data-wizards.md "Runs", "Studio
// readiness", "External-access links"): a wizard's runs, its studio readiness, and its
// external-access links. Privileged tier: TEAM_ADMIN_DATA_WIZARDS (view to read, edit to create or
// revoke a link) or a team admin, with an API key or as a signed-in user; never a scoped token.
import { builder } from '../../app/builder.ts';
import { byId, idArg, pageArgs } from '../../app/graphql/args.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { tier } from '../../app/auth/tiers.ts';
import { DataWizardRunErrorRef } from './wizards-types.schema.ts';
import { createExternalLink, type ExternalLinkView, listExternalLinks, revokeExternalLink } from './wizard-external-links.service.ts';
import { DEFAULT_LINK_LIFETIME_DAYS, MAX_LINK_LABEL, MAX_LINK_LIFETIME_DAYS, MAX_LINK_USES } from './wizard-external-links.input.ts';
import { getWizardInstance, listWizardInstances, type WizardInstanceView } from './wizard-instances.service.ts';
import { INSTANCE_STATUSES } from './wizard-instances.input.ts';
import { getWizardReadiness } from './wizard-readiness.service.ts';
import type { WizardReadiness, WizardReadinessIssue } from './wizard-readiness.ts';
import { WIZARD_ADMIN_FEATURE } from './wizards.service.ts';

const READ = 'Privileged: TEAM_ADMIN_DATA_WIZARDS view or team admin; never scoped tokens.';
const CHANGE = 'Privileged: TEAM_ADMIN_DATA_WIZARDS edit or team admin; never scoped tokens.';

// ------------------------------------------------------------------------------------------
// Runs

const DataWizardInstanceRef = builder.objectRef<WizardInstanceView>('DataWizardInstance').implement({
  description: 'One run of a wizard on a record',
  fields: (t) => ({
    ...simplyIdFields(t, 'dataWizardInstanceSimplyId'),
    dataWizardSimplyId: t.string({ resolve: (i) => i.dataWizardSimplyId }),
    dataRecordSimplyId: t.string({ nullable: true, description: 'the record the run worked on', resolve: (i) => i.dataRecordSimplyId }),
    status: t.string({ description: INSTANCE_STATUSES.join(', '), resolve: (i) => i.row.status }),
    formData: t.field({ type: 'JSON', description: "the values sent, keyed by dataFieldSimplyId; fields the caller's role cannot read are left out", resolve: (i) => i.formData }),
    errorDetails: t.field({
      type: [DataWizardRunErrorRef],
      nullable: true,
      description: 'why a FAILED run stopped (null otherwise); the message of a detail about a field the caller cannot read is withheld',
      resolve: (i) => i.errorDetails,
    }),
    actorKind: t.string({ description: 'who ran it: API_KEY, USER, AUTOMATION, PUBLIC_LINK (an external-access link), …', resolve: (i) => i.row.actorKind }),
    actorId: t.string({ nullable: true, description: 'the API key, user, automation or external-access link simplyId', resolve: (i) => i.row.actorId }),
    startedAt: t.field({ type: 'DateTime', resolve: (i) => i.row.startedAt }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (i) => i.row.completedAt }),
  }),
});

const DataWizardInstancePageRef = pageType('DataWizardInstancePage', DataWizardInstanceRef);

// ------------------------------------------------------------------------------------------
// Studio readiness

const DataWizardReadinessIssueRef = builder.objectRef<WizardReadinessIssue>('DataWizardReadinessIssue').implement({
  description: 'A readiness blocker or warning: a stable code, a message, and what it concerns',
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    field: t.exposeString('field', { nullable: true, description: 'where in the wizard detail (steps[0].tasks[1].fields[2]), when it has one place' }),
    dataWizardStepSimplyId: t.exposeString('dataWizardStepSimplyId', { nullable: true }),
    dataWizardStepTaskSimplyId: t.exposeString('dataWizardStepTaskSimplyId', { nullable: true }),
    dataFieldSimplyId: t.exposeString('dataFieldSimplyId', { nullable: true }),
    automationSimplyId: t.exposeString('automationSimplyId', { nullable: true }),
  }),
});

const DataWizardStudioReadinessRef = builder.objectRef<WizardReadiness>('DataWizardStudioReadiness').implement({
  fields: (t) => ({
    dataWizardSimplyId: t.exposeString('dataWizardSimplyId'),
    isReady: t.exposeBoolean('isReady', { description: 'no blockers' }),
    blockers: t.field({ type: [DataWizardReadinessIssueRef], description: 'what keeps the wizard from running as configured (external-access links are refused while there are any)', resolve: (r) => r.blockers }),
    warnings: t.field({ type: [DataWizardReadinessIssueRef], description: 'worth knowing; blocks nothing', resolve: (r) => r.warnings }),
  }),
});

// ------------------------------------------------------------------------------------------
// External-access links

const DataWizardExternalAccessLinkCreatorRef = builder.objectRef<{ kind: string; id: string | null }>('DataWizardExternalAccessLinkCreator').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'USER or API_KEY' }),
    id: t.exposeString('id', { nullable: true, description: 'the user or API key simplyId' }),
  }),
});

const DataWizardExternalAccessLinkRef = builder.objectRef<ExternalLinkView>('DataWizardExternalAccessLink').implement({
  description: 'A link that lets a person outside the team fill in the wizard for one record',
  fields: (t) => ({
    ...simplyIdFields(t, 'dataWizardExternalAccessLinkSimplyId'),
    dataWizardSimplyId: t.string({ resolve: (l) => l.dataWizardSimplyId }),
    dataRecordSimplyId: t.string({ nullable: true, description: 'the record the link fills in', resolve: (l) => l.dataRecordSimplyId }),
    label: t.string({ nullable: true, resolve: (l) => l.row.label }),
    status: t.string({ description: 'ACTIVE, EXPIRED, REVOKED or USED_UP', resolve: (l) => l.status }),
    createdAt: t.field({ type: 'DateTime', resolve: (l) => l.row.createdAt }),
    createdBy: t.field({ type: DataWizardExternalAccessLinkCreatorRef, resolve: (l) => ({ kind: l.row.createdByKind, id: l.row.createdById }) }),
    expiresAt: t.field({ type: 'DateTime', resolve: (l) => l.row.expiresAt }),
    useCount: t.int({ description: 'completed submissions', resolve: (l) => l.row.useCount }),
    maxUses: t.int({ nullable: true, description: 'null: no limit until it expires', resolve: (l) => l.row.maxUses }),
    revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (l) => l.row.revokedAt }),
    lastUsedAt: t.field({ type: 'DateTime', nullable: true, description: 'the last completed submission', resolve: (l) => l.row.lastUsedAt }),
    url: t.string({ nullable: true, description: 'the form for the outsider, with the secret: only in the answer that created the link, null ever after', resolve: (l) => l.url ?? null }),
  }),
});

const DataWizardExternalAccessLinkPageRef = pageType('DataWizardExternalAccessLinkPage', DataWizardExternalAccessLinkRef);

const ExternalLinkInput = builder.inputType('DataWizardExternalAccessLinkInput', {
  fields: (t) => ({
    dataRecordSimplyId: t.string({ required: true, description: "the record the link fills in: a record of the wizard's collection" }),
    expiresAt: t.string({ description: `ISO 8601 date-time with an offset; default ${DEFAULT_LINK_LIFETIME_DAYS} days from now; at most ${MAX_LINK_LIFETIME_DAYS} days from now` }),
    maxUses: t.int({ description: `completed submissions after which the link stops working (1-${MAX_LINK_USES}); default no limit until it expires` }),
    label: t.string({ description: `who or what it is for (at most ${MAX_LINK_LABEL} characters)` }),
  }),
});

builder.queryFields((t) => ({
  dataWizardInstances: t.field({
    type: DataWizardInstancePageRef,
    description: `The wizard's runs, newest first; status (${INSTANCE_STATUSES.join(', ')}) and dataRecordSimplyId narrow them. ${READ}`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'VIEW'),
    args: { ...idArg(t.arg, 'dataWizardSimplyId'), ...pageArgs(t.arg), status: t.arg.string(), dataRecordSimplyId: t.arg.string() },
    resolve: (_root, args, ctx) => listWizardInstances(ctx, args.dataWizardSimplyId, args),
  }),
  dataWizardInstance: t.field({
    type: DataWizardInstanceRef,
    description: `One run of the wizard. ${READ}`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'VIEW'),
    args: { ...idArg(t.arg, 'dataWizardSimplyId'), ...idArg(t.arg, 'dataWizardInstanceSimplyId') },
    resolve: (_root, args, ctx) => getWizardInstance(ctx, args.dataWizardSimplyId, args.dataWizardInstanceSimplyId),
  }),
  dataWizardStudioReadiness: t.field({
    type: DataWizardStudioReadinessRef,
    description: `What keeps the wizard from running as configured (blockers) and what is worth a look (warnings). ${READ}`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'VIEW'),
    ...byId(t.arg, 'dataWizardSimplyId', getWizardReadiness),
  }),
  dataWizardExternalAccessLinks: t.field({
    type: DataWizardExternalAccessLinkPageRef,
    description: `The wizard's external-access links, newest first, without their secrets. ${READ}`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'VIEW'),
    args: { ...idArg(t.arg, 'dataWizardSimplyId'), ...pageArgs(t.arg) },
    resolve: (_root, args, ctx) => listExternalLinks(ctx, args.dataWizardSimplyId, args),
  }),
}));

builder.mutationFields((t) => ({
  createDataWizardExternalAccessLink: t.field({
    type: DataWizardExternalAccessLinkRef,
    description: `A link that lets a person outside the team fill in the wizard for one record; the answer's url holds the secret, shown once. Also needs RUN on the wizard's collection and read access to the fields it collects. ${CHANGE}`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    args: { ...idArg(t.arg, 'dataWizardSimplyId'), input: t.arg({ type: ExternalLinkInput, required: true }) },
    // absent and null are alike here: the service fills in the defaults
    resolve: (_root, args, ctx) => createExternalLink(ctx, args.dataWizardSimplyId, Object.fromEntries(Object.entries(args.input).filter(([, v]) => v !== null && v !== undefined))),
  }),
  revokeDataWizardExternalAccessLink: t.boolean({
    description: `The link stops working at once; revoking a revoked link changes nothing. ${CHANGE}`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    args: { ...idArg(t.arg, 'dataWizardSimplyId'), ...idArg(t.arg, 'dataWizardExternalAccessLinkSimplyId') },
    resolve: (_root, args, ctx) => revokeExternalLink(ctx, args.dataWizardSimplyId, args.dataWizardExternalAccessLinkSimplyId),
  }),
}));
