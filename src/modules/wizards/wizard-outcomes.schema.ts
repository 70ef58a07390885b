// GraphQL face of a wizard's outcomes (docs/api/data-wizards.md "Outcomes"): the automations its
// success and error trigger, a preset's preview and application, and turning one on or off.
// Signed-in team members only (API keys, session tokens and OAuth tokens: IDP_REQUIRED); the
// service checks TEAM_ADMIN_DATA_WIZARDS (view to read, edit for the rest) before the input.
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import type { OutcomeAutomation } from '../automations/index.ts';
import { WIZARD_ADMIN_FEATURE } from './wizards.service.ts';
import {
  applyOutcomePreset,
  getWizardOutcomes,
  type ManifestEntry,
  type OutcomeApplication,
  type OutcomeIssue,
  type OutcomePreview,
  previewOutcomePreset,
  setOutcomeEnabled,
  type WizardOutcomes,
} from './wizard-outcomes.service.ts';

const WHO = 'Signed-in team members only (API keys, session tokens and OAuth tokens: IDP_REQUIRED)';

/** A signed-in member of the selected team holding TEAM_ADMIN_DATA_WIZARDS at the level (team admins hold it): refused before the input. */
const signedInWizardAdmin = (level: 'VIEW' | 'EDIT') => ({ $all: { ...tier.signedInMember.$all, feature: { name: WIZARD_ADMIN_FEATURE, level } } }) as const;

export const DataWizardOutcomeAutomationRef = builder.objectRef<OutcomeAutomation>('DataWizardOutcomeAutomation').implement({
  description: "An automation a wizard's completion triggers (a summary; GET /v1/automations/{id} has the whole automation)",
  fields: (t) => ({
    automationSimplyId: t.string({ resolve: (a) => a.row.simplyId }),
    outcome: t.string({ description: 'SUCCESS (trigger WIZARD_COMPLETED) or ERROR (trigger WIZARD_COMPLETION_FAILED)', resolve: (a) => a.outcome }),
    name: t.string({ resolve: (a) => a.row.name }),
    description: t.string({ nullable: true, resolve: (a) => a.row.description }),
    triggerType: t.string({ resolve: (a) => a.row.triggerType }),
    isEnabled: t.boolean({ resolve: (a) => a.row.isEnabled }),
    actionCount: t.int({ resolve: (a) => a.actions.length }),
    actionTypes: t.stringList({ description: 'the action types in run order', resolve: (a) => a.actions.map((x) => x.actionType) }),
    lastRunAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.row.lastRunAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (a) => a.row.updatedAt }),
  }),
});

const DataWizardOutcomesRef = builder.objectRef<WizardOutcomes>('DataWizardOutcomes').implement({
  fields: (t) => ({
    dataWizardSimplyId: t.exposeString('dataWizardSimplyId'),
    success: t.field({ type: [DataWizardOutcomeAutomationRef], description: 'automations run when a run completes, oldest first', resolve: (o) => o.success }),
    error: t.field({ type: [DataWizardOutcomeAutomationRef], description: 'automations run when a run fails, oldest first', resolve: (o) => o.error }),
  }),
});

const DataWizardOutcomeChangeRef = builder.objectRef<ManifestEntry>('DataWizardOutcomeChange').implement({
  description: 'What applying a preset does to one outcome',
  fields: (t) => ({
    outcome: t.exposeString('outcome', { description: 'SUCCESS or ERROR' }),
    operation: t.exposeString('operation', { description: 'CREATE, UPDATE or UNCHANGED' }),
    automationSimplyId: t.exposeString('automationSimplyId', { nullable: true, description: 'null for CREATE in a preview' }),
    name: t.exposeString('name'),
    triggerType: t.exposeString('triggerType'),
    isEnabled: t.exposeBoolean('isEnabled'),
    actionCount: t.exposeInt('actionCount'),
    replacedActionCount: t.exposeInt('replacedActionCount', { description: 'actions of the existing automation the new ones replace' }),
    changes: t.exposeStringList('changes', { description: 'UPDATE: name, isEnabled, actions' }),
  }),
});

const DataWizardOutcomeIssueRef = builder.objectRef<OutcomeIssue>('DataWizardOutcomeIssue').implement({
  description: 'A blocker (apply refuses) or a warning (apply goes ahead)',
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    field: t.string({ nullable: true, description: 'where in the request, e.g. configuration.success.actions[0].actionConfig', resolve: (i) => i.field ?? null }),
    outcome: t.string({ nullable: true, description: 'SUCCESS or ERROR when it concerns one outcome', resolve: (i) => i.outcome ?? null }),
  }),
});

const DataWizardOutcomePresetPreviewRef = builder.objectRef<OutcomePreview>('DataWizardOutcomePresetPreview').implement({
  fields: (t) => ({
    dataWizardSimplyId: t.exposeString('dataWizardSimplyId'),
    configuration: t.field({ type: 'JSON', description: 'the canonical configuration: send it back to apply', resolve: (p) => p.configuration }),
    manifest: t.field({ type: [DataWizardOutcomeChangeRef], resolve: (p) => p.manifest }),
    blockers: t.field({ type: [DataWizardOutcomeIssueRef], description: 'empty when apply can go ahead', resolve: (p) => p.blockers }),
    warnings: t.field({ type: [DataWizardOutcomeIssueRef], resolve: (p) => p.warnings }),
    fingerprint: t.exposeString('fingerprint', { description: 'of the canonical configuration and the outcomes as they are (64 hex characters)' }),
  }),
});

const DataWizardOutcomePresetApplicationRef = builder.objectRef<OutcomeApplication>('DataWizardOutcomePresetApplication').implement({
  fields: (t) => ({
    dataWizardSimplyId: t.exposeString('dataWizardSimplyId'),
    fingerprint: t.exposeString('fingerprint'),
    idempotencyKey: t.exposeString('idempotencyKey'),
    replayed: t.exposeBoolean('replayed', { description: 'true: the key was applied before; this is that answer, and nothing changed now' }),
    appliedAt: t.field({ type: 'DateTime', resolve: (a) => new Date(a.appliedAt) }),
    manifest: t.field({ type: [DataWizardOutcomeChangeRef], description: 'what was done, with the automations created', resolve: (a) => a.manifest }),
  }),
});

const ApplyInput = builder.inputType('DataWizardOutcomePresetApplyInput', {
  fields: (t) => ({
    configuration: t.field({ type: 'JSON', required: true, description: "the preview's canonical configuration, as reviewed" }),
    fingerprint: t.string({ required: true, description: "the preview's fingerprint" }),
    idempotencyKey: t.string({ required: true, description: '1-64 characters, one per application (normally a UUID)' }),
  }),
});

builder.queryFields((t) => ({
  dataWizardOutcomes: t.field({
    type: DataWizardOutcomesRef,
    description: `The automations a wizard's success and error trigger. ${WHO}; TEAM_ADMIN_DATA_WIZARDS view or team admin.`,
    authScopes: signedInWizardAdmin('VIEW'),
    args: { dataWizardSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getWizardOutcomes(ctx, args.dataWizardSimplyId),
  }),
  dataWizardOutcomePresetPreview: t.field({
    type: DataWizardOutcomePresetPreviewRef,
    description: `What applying an outcome configuration would do; changes nothing. ${WHO}; TEAM_ADMIN_DATA_WIZARDS edit or team admin.`,
    authScopes: signedInWizardAdmin('EDIT'),
    args: { dataWizardSimplyId: t.arg.string({ required: true }), configuration: t.arg({ type: 'JSON', required: true, description: '{ success?, error? }' }) },
    resolve: (_root, args, ctx) => previewOutcomePreset(ctx, args.dataWizardSimplyId, args.configuration),
  }),
}));

builder.mutationFields((t) => ({
  applyDataWizardOutcomePreset: t.field({
    type: DataWizardOutcomePresetApplicationRef,
    description: `Applies a reviewed outcome configuration atomically, once per idempotency key. ${WHO}; TEAM_ADMIN_DATA_WIZARDS edit or team admin.`,
    authScopes: signedInWizardAdmin('EDIT'),
    args: { dataWizardSimplyId: t.arg.string({ required: true }), input: t.arg({ type: ApplyInput, required: true }) },
    resolve: (_root, args, ctx) => applyOutcomePreset(ctx, args.dataWizardSimplyId, args.input),
  }),
  setDataWizardOutcomeEnabled: t.field({
    type: DataWizardOutcomeAutomationRef,
    description: `Turns one of the wizard's outcome automations on or off. ${WHO}; TEAM_ADMIN_DATA_WIZARDS edit or team admin.`,
    authScopes: signedInWizardAdmin('EDIT'),
    args: { dataWizardSimplyId: t.arg.string({ required: true }), automationSimplyId: t.arg.string({ required: true }), isEnabled: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => setOutcomeEnabled(ctx, args.dataWizardSimplyId, args.automationSimplyId, args.isEnabled),
  }),
}));
