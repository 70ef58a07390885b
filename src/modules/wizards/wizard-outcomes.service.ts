// A wizard's outcomes (docs/api/data-wizards.md "Outcomes"): the automations its completion
// triggers, WIZARD_COMPLETED for the success outcome and WIZARD_COMPLETION_FAILED for the error
// outcome (the automations area owns them; this file asks it through its index.ts).
//
// Signed-in team members only (the fields' scope); reading needs TEAM_ADMIN_DATA_WIZARDS at view
// level, preview, apply and enabling at edit level (team admins hold both), checked here before the
// input. A preset is reviewed before it is applied:
// - preview canonicalizes the configuration (defaults filled in, action settings as they would be
//   stored), plans what apply would create or change (the manifest), lists blockers and warnings,
//   and fingerprints the canonical configuration together with the outcome automations as they are;
// - apply takes the reviewed configuration, the fingerprint and an idempotency key. In one schema
//   write it claims the key (a keyed effect, src/app/effects.ts), plans again, refuses a fingerprint
//   that no longer matches (409 OUTCOME_PRESET_STALE) or a plan with blockers (409
//   OUTCOME_PRESET_BLOCKED), and makes every change or none. The same key again answers the first
//   application and changes nothing (with another fingerprint: 409 IDEMPOTENCY_KEY_REUSED).
import { createHash } from 'node:crypto';
import type { Automation } from '../../generated/prisma/client.ts';
import { hasFeature } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { claimEffect, findEffect } from '../../app/effects.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { loadSchemaTx, type TeamSchema } from '../../kernel/index.ts';
import {
  automationId,
  checkOutcomeAutomation,
  findAutomationBySimplyId,
  OUTCOME_TRIGGERS,
  type OutcomeAutomation,
  type OutcomeKind,
  setAutomationEnabled,
  wizardOutcomeAutomations,
  writeOutcomeAutomation,
  type CheckedOutcome,
} from '../automations/index.ts';
import { schemaWrite } from '../team-schema/index.ts';
import { labelOf } from '../views/index.ts';
import { loadWizardConfig, type WizardConfig } from './wizard-config.ts';
import { applyInput, enabledInput, type OutcomeConfigurationInput, type OutcomePresetInput, previewInput } from './wizard-outcomes.input.ts';
import { IdempotencyKeyReusedError, OutcomePresetBlockedError, OutcomePresetStaleError, WizardNotFoundError } from './wizards.errors.ts';
import { dataWizardId } from './wizards.ids.ts';
import { WIZARD_ADMIN_FEATURE } from './wizards.service.ts';

const OUTCOMES: readonly OutcomeKind[] = ['SUCCESS', 'ERROR'];
const KEY_OF: Record<OutcomeKind, 'success' | 'error'> = { SUCCESS: 'success', ERROR: 'error' };
const WORD: Record<OutcomeKind, string> = { SUCCESS: 'success', ERROR: 'error' };

export interface WizardOutcomes {
  dataWizardSimplyId: string;
  success: OutcomeAutomation[];
  error: OutcomeAutomation[];
}

export interface CanonicalAction {
  actionType: string;
  actionConfig: unknown;
  continueOnError: boolean;
  retryConfig: unknown;
  onFailureActions: unknown;
}

export interface CanonicalPreset {
  automationSimplyId: string | null;
  name: string;
  isEnabled: boolean;
  actions: CanonicalAction[];
}

export interface CanonicalConfiguration {
  success: CanonicalPreset | null;
  error: CanonicalPreset | null;
}

/** One line of the manifest: what apply does to one outcome. */
export interface ManifestEntry {
  outcome: OutcomeKind;
  /** CREATE a new automation, UPDATE the named one, or leave it UNCHANGED (it already is so) */
  operation: 'CREATE' | 'UPDATE' | 'UNCHANGED';
  /** null for CREATE until applied */
  automationSimplyId: string | null;
  name: string;
  triggerType: string;
  isEnabled: boolean;
  actionCount: number;
  /** actions of the existing automation that its new ones replace (UPDATE) */
  replacedActionCount: number;
  /** what an UPDATE changes: name, isEnabled, actions */
  changes: string[];
}

/** A blocker or a warning (a type, not an interface: it is also an error detail). */
export type OutcomeIssue = {
  code: string;
  message: string;
  field?: string;
  outcome?: OutcomeKind;
};

export interface OutcomePreview {
  dataWizardSimplyId: string;
  configuration: CanonicalConfiguration;
  manifest: ManifestEntry[];
  blockers: OutcomeIssue[];
  warnings: OutcomeIssue[];
  fingerprint: string;
}

/** What an application stored under its key, and answers again for the same key. */
interface StoredApplication {
  dataWizardSimplyId: string;
  fingerprint: string;
  appliedAt: string;
  manifest: ManifestEntry[];
}

export interface OutcomeApplication extends StoredApplication {
  idempotencyKey: string;
  /** true: the key was applied before; this is that application's answer and nothing changed now */
  replayed: boolean;
}

interface Plan extends OutcomePreview {
  writes: { entry: ManifestEntry; existing: Automation | null; checked: CheckedOutcome }[];
}

// ------------------------------------------------------------------------------------------
// Helpers

function requireWizardFeature(ctx: RequestContext, level: 'VIEW' | 'EDIT'): void {
  if (!hasFeature(ctx.principal, WIZARD_ADMIN_FEATURE, level)) {
    throw new PermissionDeniedError(
      level === 'VIEW'
        ? `Reading a wizard's outcomes needs ${WIZARD_ADMIN_FEATURE} (view) or team admin`
        : `Changing a wizard's outcomes needs ${WIZARD_ADMIN_FEATURE} at edit level or team admin`,
    );
  }
}

async function findWizard(db: RequestContext['services']['prisma'] | Tx, schema: TeamSchema, simplyId: string): Promise<WizardConfig> {
  const config = await loadWizardConfig(db, schema, simplyId);
  if (!config) throw new WizardNotFoundError(simplyId);
  return config;
}

/** JSON with object keys sorted at every depth: equal values, equal text. */
function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (v instanceof Date) return v.toISOString();
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    return v ?? null;
  };
  return JSON.stringify(sort(value));
}

function canonicalAction(a: { actionType: string; actionConfig?: unknown; continueOnError?: boolean; retryConfig?: unknown; onFailureActions?: unknown }): CanonicalAction {
  return {
    actionType: a.actionType,
    actionConfig: a.actionConfig ?? null,
    continueOnError: a.continueOnError ?? false,
    retryConfig: a.retryConfig ?? null,
    onFailureActions: a.onFailureActions ?? null,
  };
}

/** The outcome automations as they are: any change to one of them (or a new one) changes the fingerprint. */
function outcomeState(existing: readonly OutcomeAutomation[]): unknown {
  return existing.map((a) => ({
    automationSimplyId: a.row.simplyId,
    triggerType: a.row.triggerType,
    name: a.row.name,
    isEnabled: a.row.isEnabled,
    updatedAt: a.row.updatedAt,
    actions: a.actions.map((x) => ({ id: x.simplyId, updatedAt: x.updatedAt, ...canonicalAction(x) })),
  }));
}

function defaultName(wizard: WizardConfig, outcome: OutcomeKind): string {
  return `${labelOf(wizard.row.name).slice(0, 150)}: on ${WORD[outcome]}`;
}

// ------------------------------------------------------------------------------------------
// The plan: canonical configuration, manifest, blockers, warnings, fingerprint

async function plan(ctx: RequestContext, db: RequestContext['services']['prisma'] | Tx, schema: TeamSchema, wizard: WizardConfig, input: OutcomeConfigurationInput): Promise<Plan> {
  const teamId = schema.teamId;
  const wizardSimplyId = wizard.row.simplyId;
  const existing = await wizardOutcomeAutomations(db, teamId, wizardSimplyId);
  const blockers: OutcomeIssue[] = [];
  const warnings: OutcomeIssue[] = [];
  const configuration: CanonicalConfiguration = { success: null, error: null };
  const manifest: ManifestEntry[] = [];
  const writes: Plan['writes'] = [];

  if (!wizard.collection || wizard.collection.isArchived) {
    blockers.push({ code: 'COLLECTION_UNAVAILABLE', message: `The wizard's collection ${wizard.collection ? `${wizard.collection.simplyId} is archived` : 'no longer exists'}: its outcomes cannot be changed` });
  }
  if (wizard.steps.length === 0) {
    warnings.push({ code: 'WIZARD_HAS_NO_STEPS', message: 'The wizard has no steps: it cannot be run yet, so its outcomes do not fire until it has one' });
  }

  for (const outcome of OUTCOMES) {
    const key = KEY_OF[outcome];
    const preset: OutcomePresetInput | null | undefined = input[key];
    if (!preset) continue;
    const at = `configuration.${key}`;
    let target: OutcomeAutomation | null = null;
    if (preset.automationSimplyId) {
      const found = existing.find((a) => a.row.simplyId === preset.automationSimplyId);
      if (!found && !(await findAutomationBySimplyId(db, teamId, preset.automationSimplyId))) throw new NotFoundError('Automation', preset.automationSimplyId);
      if (!found || found.outcome !== outcome) {
        blockers.push({
          code: 'NOT_AN_OUTCOME',
          outcome,
          field: `${at}.automationSimplyId`,
          message: `Automation ${preset.automationSimplyId} does not run on this wizard's ${WORD[outcome]} (its trigger must be ${OUTCOME_TRIGGERS[outcome]} of ${wizardSimplyId})`,
        });
      } else {
        target = found;
      }
    }
    const checked = await checkOutcomeAutomation({ schema, teamId, db, principal: ctx.principal }, outcome, wizardSimplyId, preset.actions);
    for (const d of checked.invalid) blockers.push({ code: 'INVALID_ACTION', outcome, field: d.field ? `${at}.${d.field}` : `${at}.actions`, message: d.message });
    for (const message of checked.denied) blockers.push({ code: 'PERMISSION_DENIED', outcome, field: `${at}.actions`, message });
    const actions = checked.invalid.length === 0 ? checked.actions.map(canonicalAction) : preset.actions.map(canonicalAction);
    const name = preset.name ?? target?.row.name ?? defaultName(wizard, outcome);
    const isEnabled = preset.isEnabled ?? target?.row.isEnabled ?? true;
    configuration[key] = { automationSimplyId: target?.row.simplyId ?? preset.automationSimplyId ?? null, name, isEnabled, actions };

    const before = target?.actions.map((a) => canonicalAction(a)) ?? [];
    const changes = target
      ? [...(target.row.name !== name ? ['name'] : []), ...(target.row.isEnabled !== isEnabled ? ['isEnabled'] : []), ...(stableJson(before) !== stableJson(actions) ? ['actions'] : [])]
      : [];
    const entry: ManifestEntry = {
      outcome,
      operation: target ? (changes.length > 0 ? 'UPDATE' : 'UNCHANGED') : 'CREATE',
      automationSimplyId: target?.row.simplyId ?? null,
      name,
      triggerType: OUTCOME_TRIGGERS[outcome],
      isEnabled,
      actionCount: actions.length,
      replacedActionCount: target && changes.includes('actions') ? target.actions.length : 0,
      changes,
    };
    manifest.push(entry);
    writes.push({ entry, existing: target?.row ?? null, checked });

    if (!isEnabled) warnings.push({ code: 'OUTCOME_DISABLED', outcome, message: `The ${WORD[outcome]} automation is saved disabled: it runs once it is enabled` });
    if (entry.replacedActionCount > 0) {
      warnings.push({ code: 'ACTIONS_REPLACED', outcome, message: `Automation ${target!.row.simplyId} has ${entry.replacedActionCount} action(s); the configuration's ${actions.length} replace them` });
    }
    const others = existing.filter((a) => a.outcome === outcome && a.row.isEnabled && a !== target);
    if (others.length > 0) {
      warnings.push({
        code: 'OTHER_OUTCOME_AUTOMATIONS',
        outcome,
        message: `${others.length} other enabled automation(s) also run on this wizard's ${WORD[outcome]}: ${others.map((a) => a.row.simplyId).join(', ')}`,
      });
    }
  }

  const fingerprint = createHash('sha256')
    .update(stableJson({ version: 1, dataWizardSimplyId: wizardSimplyId, dataCollectionSimplyId: wizard.collection?.simplyId ?? null, configuration, outcomes: outcomeState(existing) }))
    .digest('hex');
  return { dataWizardSimplyId: wizardSimplyId, configuration, manifest, blockers, warnings, fingerprint, writes };
}

function requireApplicable(p: Plan, fingerprint: string): void {
  if (p.fingerprint !== fingerprint) throw new OutcomePresetStaleError();
  if (p.blockers.length > 0) throw new OutcomePresetBlockedError(p.blockers);
}

// ------------------------------------------------------------------------------------------
// Operations

/** The automations the wizard's success and error trigger, oldest first. */
export async function getWizardOutcomes(ctx: RequestContext, wizardSimplyId: string): Promise<WizardOutcomes> {
  const team = requireTeam(ctx);
  requireWizardFeature(ctx, 'VIEW');
  dataWizardId.assert(wizardSimplyId, 'dataWizardSimplyId');
  await findWizard(ctx.services.prisma, await ctx.services.schemas.get(team.id), wizardSimplyId);
  const all = await wizardOutcomeAutomations(ctx.services.prisma, team.id, wizardSimplyId);
  return { dataWizardSimplyId: wizardSimplyId, success: all.filter((a) => a.outcome === 'SUCCESS'), error: all.filter((a) => a.outcome === 'ERROR') };
}

/** What applying `configuration` would do; changes nothing. */
export async function previewOutcomePreset(ctx: RequestContext, wizardSimplyId: string, configuration: unknown): Promise<OutcomePreview> {
  const team = requireTeam(ctx);
  requireWizardFeature(ctx, 'EDIT');
  dataWizardId.assert(wizardSimplyId, 'dataWizardSimplyId');
  const input = parseInput(previewInput, { configuration }, 'Invalid outcome configuration');
  const schema = await ctx.services.schemas.get(team.id);
  const wizard = await findWizard(ctx.services.prisma, schema, wizardSimplyId);
  const { writes: _writes, ...preview } = await plan(ctx, ctx.services.prisma, schema, wizard, input.configuration);
  return preview;
}

/** A repeat of the key: the first application's answer, or 409 when it came with another review. */
function replay(stored: StoredApplication | null, fingerprint: string, idempotencyKey: string): OutcomeApplication {
  if (!stored || stored.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
  return { ...stored, idempotencyKey, replayed: true };
}

/** Thrown inside the transaction when the key was applied meanwhile: rolls back, then answered as a replay. */
class AppliedBefore extends Error {
  readonly stored: StoredApplication | null;
  constructor(stored: StoredApplication | null) {
    super('idempotency key applied before');
    this.stored = stored;
  }
}

/** Applies a reviewed configuration: all of it or nothing, once per idempotency key. */
export async function applyOutcomePreset(ctx: RequestContext, wizardSimplyId: string, raw: unknown): Promise<OutcomeApplication> {
  const team = requireTeam(ctx);
  requireWizardFeature(ctx, 'EDIT');
  dataWizardId.assert(wizardSimplyId, 'dataWizardSimplyId');
  const input = parseInput(applyInput, raw, 'Invalid outcome preset');
  const prisma = ctx.services.prisma;
  const schema = await ctx.services.schemas.get(team.id);
  const wizard = await findWizard(prisma, schema, wizardSimplyId);
  // keys belong to the member (two members never meet) and to the wizard
  const key = `wizard-outcomes:${wizardSimplyId}:${ctx.principal.userSimplyId ?? ctx.principal.credentialId ?? ''}:${input.idempotencyKey}`;
  const earlier = await findEffect<StoredApplication>(prisma, team.id, key);
  if (earlier) return replay(earlier.result, input.fingerprint, input.idempotencyKey);

  // checked first outside the transaction (a stale or blocked review costs no schema lock), then again inside
  const first = await plan(ctx, prisma, schema, wizard, input.configuration);
  requireApplicable(first, input.fingerprint);
  const writes = first.manifest.some((e) => e.operation !== 'UNCHANGED');

  const work = async (tx: Tx): Promise<StoredApplication> => {
    const claim = await claimEffect<StoredApplication>(tx, team.id, key);
    if (!claim.claimed) throw new AppliedBefore(claim.result);
    const current = await loadSchemaTx(tx, team.id);
    const p = await plan(ctx, tx, current, await findWizard(tx, current, wizardSimplyId), input.configuration);
    requireApplicable(p, input.fingerprint);
    // nothing to write was planned, and nothing may be written without the schema write's version
    if (!writes && p.manifest.some((e) => e.operation !== 'UNCHANGED')) throw new OutcomePresetStaleError();
    const manifest: ManifestEntry[] = [];
    for (const w of p.writes) {
      if (w.entry.operation === 'UNCHANGED') {
        manifest.push(w.entry);
        continue;
      }
      const simplyId = await writeOutcomeAutomation(tx, team.id, ctx.principal, { outcome: w.entry.outcome, existing: w.existing, name: w.entry.name, isEnabled: w.entry.isEnabled, checked: w.checked });
      manifest.push({ ...w.entry, automationSimplyId: simplyId });
    }
    const stored: StoredApplication = { dataWizardSimplyId: wizardSimplyId, fingerprint: input.fingerprint, appliedAt: new Date().toISOString(), manifest };
    await claim.settle(stored);
    return stored;
  };

  try {
    const stored = writes
      ? await schemaWrite(ctx, (s: StoredApplication) => `wizard outcomes applied: ${wizardSimplyId} (${s.manifest.map((e) => `${e.operation.toLowerCase()} ${e.automationSimplyId}`).join(', ')})`, work)
      : await runTransaction(prisma, work);
    return { ...stored, idempotencyKey: input.idempotencyKey, replayed: false };
  } catch (error) {
    if (error instanceof AppliedBefore) return replay(error.stored, input.fingerprint, input.idempotencyKey);
    throw error;
  }
}

/** Turns one of the wizard's outcome automations on or off. */
export async function setOutcomeEnabled(ctx: RequestContext, wizardSimplyId: string, automationSimplyId: string, isEnabled: unknown): Promise<OutcomeAutomation> {
  const team = requireTeam(ctx);
  requireWizardFeature(ctx, 'EDIT');
  dataWizardId.assert(wizardSimplyId, 'dataWizardSimplyId');
  automationId.assert(automationSimplyId, 'automationSimplyId');
  const input = parseInput(enabledInput, { isEnabled }, 'Invalid isEnabled');
  await findWizard(ctx.services.prisma, await ctx.services.schemas.get(team.id), wizardSimplyId);
  return schemaWrite(ctx, `wizard outcome ${input.isEnabled ? 'enabled' : 'disabled'}: ${automationSimplyId} of ${wizardSimplyId}`, async (tx) => {
    const found = (await wizardOutcomeAutomations(tx, team.id, wizardSimplyId)).find((a) => a.row.simplyId === automationSimplyId);
    if (!found) throw new NotFoundError('Outcome automation', automationSimplyId);
    return { ...found, row: await setAutomationEnabled(tx, found.row, input.isEnabled) };
  });
}
