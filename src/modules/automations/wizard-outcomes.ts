// What the wizards area needs of automations for a wizard's outcomes (docs/api/data-wizards.md
// "Outcomes"): the automations a wizard's completion triggers (WIZARD_COMPLETED for its success
// outcome, WIZARD_COMPLETION_FAILED for its error outcome, `triggerConfig.dataWizardSimplyId`
// naming the wizard), the check of a would-be outcome automation by the same rules as an
// automation body, and writing one inside the caller's transaction (a schema write of the caller:
// automations are team schema).
import type { Automation, AutomationAction, PrismaClient } from '../../generated/prisma/client.ts';
import type { Principal } from '../../app/auth/principal.ts';
import type { CollectionDefinition, TeamSchema } from '../../kernel/index.ts';
import { type ErrorDetail, PermissionDeniedError } from '../../app/errors.ts';
import { type Tx } from '../../app/transaction.ts';
import { automationActionId, automationId } from './automations.ids.ts';
import { requireEmailPermission, validateAction, validateTrigger, type ValidatedAction, type ValidationEnv } from './automations.input.ts';
import { requireDataReach } from './author-reach.ts';

export const OUTCOME_TRIGGERS = { SUCCESS: 'WIZARD_COMPLETED', ERROR: 'WIZARD_COMPLETION_FAILED' } as const;
export type OutcomeKind = keyof typeof OUTCOME_TRIGGERS;
export type OutcomeTrigger = (typeof OUTCOME_TRIGGERS)[OutcomeKind];


export interface OutcomeAutomation {
  row: Automation;
  outcome: OutcomeKind;
  /** in executionRank order */
  actions: AutomationAction[];
}

type Db = PrismaClient | Tx;
const ORDER_ACTIONS = [{ executionRank: 'asc' as const }, { id: 'asc' as const }];

/** The automations a wizard's completion triggers, oldest first, with their actions. */
export async function wizardOutcomeAutomations(db: Db, teamId: bigint, wizardSimplyId: string): Promise<OutcomeAutomation[]> {
  const rows = await db.automation.findMany({
    where: { teamId, triggerType: { in: ['WIZARD_COMPLETED', 'WIZARD_COMPLETION_FAILED'] }, triggerConfig: { path: ['dataWizardSimplyId'], equals: wizardSimplyId } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const actions = rows.length > 0 ? await db.automationAction.findMany({ where: { teamId, automationId: { in: rows.map((r) => r.id) } }, orderBy: ORDER_ACTIONS }) : [];
  return rows.map((row) => ({
    row,
    outcome: row.triggerType === 'WIZARD_COMPLETED' ? 'SUCCESS' : 'ERROR',
    actions: actions.filter((a) => a.automationId === row.id),
  }));
}

/** An automation of the team by its simplyId (any trigger), or null. */
export async function findAutomationBySimplyId(db: Db, teamId: bigint, simplyId: string): Promise<Automation | null> {
  return db.automation.findUnique({ where: { teamId_simplyId: { teamId, simplyId } } });
}

export interface OutcomeCheckEnv {
  schema: TeamSchema;
  teamId: bigint;
  db: Db;
  principal: Principal;
}

export interface CheckedOutcome {
  /** the wizard's collection (the records the actions work on) */
  collection: CollectionDefinition | null;
  triggerConfig: Record<string, unknown>;
  /** the actions as they would be stored (only those that passed) */
  actions: ValidatedAction[];
  /** what the automation rules refuse, each naming its place (`actions[0].actionConfig.fields.fld-…`) */
  invalid: ErrorDetail[];
  /** what the caller may not make this automation do (the author's reach, mail to fixed recipients) */
  denied: string[];
}

/**
 * Checks an outcome automation of `wizardSimplyId` with `actions` (create shape, without
 * executionRank: their order is the run order) as creating the automation would. Problems are
 * returned, not thrown, so a preview can list them all.
 */
export async function checkOutcomeAutomation(env: OutcomeCheckEnv, outcome: OutcomeKind, wizardSimplyId: string, actions: readonly unknown[]): Promise<CheckedOutcome> {
  const details: ErrorDetail[] = [];
  const validation: ValidationEnv = { ...env, collection: null };
  const trigger = await validateTrigger(validation, OUTCOME_TRIGGERS[outcome], { dataWizardSimplyId: wizardSimplyId }, details);
  validation.collection = trigger.impliedCollectionId === null ? null : (env.schema.collectionsById.get(trigger.impliedCollectionId) ?? null);
  const valid: ValidatedAction[] = [];
  for (const [i, raw] of actions.entries()) {
    const action = await validateAction(validation, raw, `actions[${i}].`, details);
    if (action) valid.push(action);
  }
  const denied: string[] = [];
  for (const check of [() => requireEmailPermission(validation, valid), () => requireDataReach(validation, valid)]) {
    try {
      check();
    } catch (error) {
      if (error instanceof PermissionDeniedError) denied.push(error.message);
      else throw error;
    }
  }
  return { collection: validation.collection, triggerConfig: trigger.triggerConfig, actions: valid, invalid: details, denied };
}

export interface OutcomeWrite {
  outcome: OutcomeKind;
  /** null: a new automation */
  existing: Automation | null;
  name: string;
  isEnabled: boolean;
  checked: CheckedOutcome;
}

/**
 * Creates the outcome automation, or updates the existing one (name, isEnabled, trigger) and
 * replaces its actions, in the caller's transaction. Answers the automation's simplyId.
 */
export async function writeOutcomeAutomation(tx: Tx, teamId: bigint, principal: Principal, write: OutcomeWrite): Promise<string> {
  const definition = {
    name: write.name,
    isEnabled: write.isEnabled,
    collectionId: write.checked.collection?.id ?? null,
    triggerType: OUTCOME_TRIGGERS[write.outcome],
    triggerConfig: write.checked.triggerConfig as never,
  };
  let row: Automation;
  if (write.existing) {
    row = await tx.automation.update({ where: { id: write.existing.id }, data: definition });
    await tx.automationAction.deleteMany({ where: { teamId, automationId: row.id } });
  } else {
    row = await tx.automation.create({
      data: { ...definition, teamId, simplyId: automationId.create(), createdByKind: principal.kind, createdById: principal.credentialId },
    });
  }
  if (write.checked.actions.length > 0) {
    await tx.automationAction.createMany({
      data: write.checked.actions.map((action, i) => ({
        teamId,
        automationId: row.id,
        simplyId: automationActionId.create(),
        actionType: action.actionType,
        actionConfig: action.actionConfig as never,
        executionRank: i + 1,
        continueOnError: action.continueOnError,
        retryConfig: (action.retryConfig ?? undefined) as never,
        onFailureActions: (action.onFailureActions ?? undefined) as never,
      })),
    });
  }
  return row.simplyId;
}

/** Turns an automation on or off (in the caller's transaction). */
export async function setAutomationEnabled(tx: Tx, automation: Automation, isEnabled: boolean): Promise<Automation> {
  return tx.automation.update({ where: { id: automation.id }, data: { isEnabled } });
}
