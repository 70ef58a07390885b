// Automations (Document 1 §2.7, §4.6): privileged CRUD of an automation and its ordered actions.
// They are part of the team schema, so every write goes through schemaWrite (a new schema
// version, every instance's cache dropped). Actions keep contiguous ranks 1..n: a new or moved
// action takes the rank it asks for and the others shift.
import { type Automation, type AutomationAction, Prisma } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { parsePaging, type PageInput, type PaginationShape, paginationOf, byCreation } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { CollectionDefinition, TeamSchema } from '../../kernel/index.ts';
import { schemaWrite } from '../team-schema/index.ts';
import { type ErrorDetail, NotFoundError, ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { automationId, automationActionId } from './automations.ids.ts';
import { AutomationNotFoundError } from './automations.errors.ts';
import { parseInput } from '../../app/validate.ts';
import { requireDataReach } from './author-reach.ts';
import {
  actionCreateInput,
  actionUpdateInput,
  automationCreateInput,
  automationUpdateInput,
  LIMITS,
  requireEmailPermission,
  throwIfAny,
  type TriggerType,
  validateAction,
  validateFilterConditions,
  validateParsedAction,
  validateTrigger,
  type ValidatedAction,
  type ValidationEnv,
  zodDetails,
} from './automations.input.ts';
import { type Tx } from '../../app/transaction.ts';

/** Reads need it at VIEW level, writes at EDIT (the fields' privileged tier). */
export const AUTOMATION_ADMIN_FEATURE = 'TEAM_ADMIN_DATA_WIZARDS';

export interface AutomationItem {
  row: Automation;
  dataCollectionSimplyId: string | null;
  /** loaded for the detail; lists leave it to the `actions` field's loader */
  actions?: AutomationAction[];
}

export interface AutomationPage {
  nodes: AutomationItem[];
  pagination: PaginationShape;
}

const ORDER_ACTIONS = [{ executionRank: 'asc' as const }, { id: 'asc' as const }];

function item(schema: TeamSchema, row: Automation, actions?: AutomationAction[]): AutomationItem {
  return { row, dataCollectionSimplyId: row.collectionId === null ? null : (schema.collectionsById.get(row.collectionId)?.simplyId ?? null), actions };
}

async function envFor(ctx: RequestContext, collection: CollectionDefinition | null): Promise<ValidationEnv> {
  const team = requireTeam(ctx);
  return { schema: await ctx.services.schemas.get(team.id), teamId: team.id, db: ctx.services.prisma, principal: ctx.principal, collection };
}

function collectionOf(schema: TeamSchema, simplyId: string | null): CollectionDefinition | null {
  if (simplyId === null) return null;
  const collection = schema.collectionsBySimplyId.get(simplyId);
  if (!collection) throw new NotFoundError('Data collection', simplyId);
  if (collection.isArchived) throw new ValidationError(`Collection ${simplyId} is archived`, [{ field: 'dataCollectionSimplyId', message: 'is archived' }]);
  return collection;
}

type Db = Tx | RequestContext['services']['prisma'];

async function findAutomation(db: Db, teamId: bigint, simplyId: string): Promise<Automation> {
  const row = await db.automation.findUnique({ where: { teamId_simplyId: { teamId, simplyId } } });
  if (!row) throw new AutomationNotFoundError(simplyId);
  return row;
}

export async function loadActions(ctx: RequestContext, automationId: bigint): Promise<AutomationAction[]> {
  return ctx.services.prisma.automationAction.findMany({ where: { teamId: requireTeam(ctx).id, automationId }, orderBy: ORDER_ACTIONS });
}

/** The actions of several automations of the caller's team (one query for a whole list), each in executionRank order. */
export async function loadActionsOfMany(ctx: RequestContext, automationIds: readonly bigint[]): Promise<AutomationAction[][]> {
  const rows = await ctx.services.prisma.automationAction.findMany({
    where: { teamId: requireTeam(ctx).id, automationId: { in: [...automationIds] } },
    orderBy: ORDER_ACTIONS,
  });
  return automationIds.map((id) => rows.filter((r) => r.automationId === id));
}

// ------------------------------------------------------------------------------------------
// Reads

export interface ListAutomationsArgs extends PageInput {
  dataCollectionSimplyId?: string | null;
}

/** Newest first; optionally the automations of one collection. */
export async function listAutomations(ctx: RequestContext, args: ListAutomationsArgs): Promise<AutomationPage> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const schema = await ctx.services.schemas.get(team.id);
  const where: { teamId: bigint; collectionId?: bigint } = { teamId: team.id };
  if (args.dataCollectionSimplyId !== undefined && args.dataCollectionSimplyId !== null) {
    assertDataSimplyId(args.dataCollectionSimplyId, 'dataCollectionSimplyId', 'collection');
    const collection = schema.collectionsBySimplyId.get(args.dataCollectionSimplyId);
    if (!collection) throw new NotFoundError('Data collection', args.dataCollectionSimplyId);
    where.collectionId = collection.id;
  }
  const rows = await ctx.services.prisma.automation.findMany({ where, ...byCreation(paging, 'desc') });
  return { nodes: rows.map((row) => item(schema, row)), pagination: await paginationOf(rows.length, paging, () => ctx.services.prisma.automation.count({ where })) };
}

export async function getAutomation(ctx: RequestContext, simplyId: string): Promise<AutomationItem> {
  const team = requireTeam(ctx);
  automationId.assert(simplyId, 'automationSimplyId');
  const row = await findAutomation(ctx.services.prisma, team.id, simplyId);
  const [schema, actions] = await Promise.all([ctx.services.schemas.get(team.id), loadActions(ctx, row.id)]);
  return item(schema, row, actions);
}

// ------------------------------------------------------------------------------------------
// Automation writes

interface ResolvedDefinition {
  collection: CollectionDefinition | null;
  triggerConfig: Record<string, unknown>;
  filterConditions: unknown;
}

/** Trigger, collection and filter conditions checked together (each depends on the others). */
async function resolveDefinition(
  ctx: RequestContext,
  triggerType: TriggerType,
  collectionSimplyId: string | null,
  triggerConfig: unknown,
  filterConditions: unknown,
  details: ErrorDetail[],
): Promise<{ env: ValidationEnv; definition: ResolvedDefinition }> {
  const env = await envFor(ctx, null);
  env.collection = collectionOf(env.schema, collectionSimplyId);
  const trigger = await validateTrigger(env, triggerType, triggerConfig, details);
  if (!env.collection && trigger.impliedCollectionId !== null) env.collection = env.schema.collectionsById.get(trigger.impliedCollectionId) ?? null;
  const filters = validateFilterConditions(env, filterConditions, details);
  return { env, definition: { collection: env.collection, triggerConfig: trigger.triggerConfig, filterConditions: filters } };
}

/** Actions without executionRank keep the body's order; each ranked one is then put at its rank. */
function rankedInput(actions: ValidatedAction[]): ValidatedAction[] {
  let ordered = actions.filter((a) => a.executionRank === undefined);
  for (const action of actions) if (action.executionRank !== undefined) ordered = insertAt(ordered, action, action.executionRank);
  return ordered;
}

function actionData(teamId: bigint, automationId: bigint, action: ValidatedAction, rank: number) {
  return {
    teamId,
    automationId,
    simplyId: automationActionId.create(),
    actionType: action.actionType,
    actionConfig: action.actionConfig as never,
    executionRank: rank,
    continueOnError: action.continueOnError,
    retryConfig: (action.retryConfig ?? undefined) as never,
    onFailureActions: (action.onFailureActions ?? undefined) as never,
  };
}

export async function createAutomation(ctx: RequestContext, raw: unknown): Promise<AutomationItem> {
  const team = requireTeam(ctx);
  const input = parseInput(automationCreateInput, raw, 'Invalid automation');
  const details: ErrorDetail[] = [];
  const { env, definition } = await resolveDefinition(ctx, input.triggerType, input.dataCollectionSimplyId, input.triggerConfig, input.filterConditions, details);
  const actions: ValidatedAction[] = [];
  for (const [i, rawAction] of input.actions.entries()) {
    const action = await validateAction(env, rawAction, `actions[${i}].`, details);
    if (action) actions.push(action);
  }
  throwIfAny(details, 'Invalid automation');
  requireEmailPermission(env, actions);
  requireDataReach(env, actions);
  const simplyId = automationId.create();
  const { row, created } = await schemaWrite(ctx, `automation created: ${input.name} (${simplyId})`, async (tx) => {
    const row = await tx.automation.create({
      data: {
        teamId: team.id,
        simplyId,
        name: input.name,
        description: input.description,
        isEnabled: input.isEnabled,
        collectionId: definition.collection?.id ?? null,
        triggerType: input.triggerType,
        triggerConfig: definition.triggerConfig as never,
        filterConditions: (definition.filterConditions ?? undefined) as never,
        maxRecordsPerExecution: input.maxRecordsPerExecution,
        createdByKind: ctx.principal.kind,
        createdById: ctx.principal.credentialId,
      },
    });
    const ordered = rankedInput(actions);
    const created: AutomationAction[] = [];
    for (const [i, action] of ordered.entries()) created.push(await tx.automationAction.create({ data: actionData(team.id, row.id, action, i + 1) }));
    return { row, created };
  });
  return item(env.schema, row, created);
}

export async function updateAutomation(ctx: RequestContext, simplyId: string, raw: unknown): Promise<AutomationItem> {
  const team = requireTeam(ctx);
  automationId.assert(simplyId, 'automationSimplyId');
  const input = parseInput(automationUpdateInput, raw, 'Invalid automation');
  const current = await findAutomation(ctx.services.prisma, team.id, simplyId);
  const schema = await ctx.services.schemas.get(team.id);
  const currentCollection = current.collectionId === null ? null : (schema.collectionsById.get(current.collectionId)?.simplyId ?? null);
  const collectionChanged = input.dataCollectionSimplyId !== undefined && input.dataCollectionSimplyId !== currentCollection;
  const triggerChanged = input.triggerType !== undefined && input.triggerType !== current.triggerType;
  const triggerType = input.triggerType ?? current.triggerType;
  // a new trigger type starts from empty settings unless new ones are given
  const triggerConfig = input.triggerConfig !== undefined ? input.triggerConfig : triggerChanged ? {} : current.triggerConfig;
  const filterConditions = input.filterConditions !== undefined ? input.filterConditions : current.filterConditions;
  const recheck = collectionChanged || triggerChanged || input.triggerConfig !== undefined || input.filterConditions !== undefined;
  const data: Record<string, unknown> = {};
  for (const key of ['name', 'description', 'isEnabled', 'maxRecordsPerExecution'] as const) if (input[key] !== undefined) data[key] = input[key];
  if (recheck) {
    const details: ErrorDetail[] = [];
    const resolved = await resolveDefinition(ctx, triggerType, collectionChanged ? (input.dataCollectionSimplyId ?? null) : currentCollection, triggerConfig, filterConditions, details);
    // actions read the collection's fields: a new collection re-checks every one of them
    const checked: ValidatedAction[] = [];
    if (collectionChanged || (resolved.definition.collection?.id ?? null) !== current.collectionId) {
      const actions = await ctx.services.prisma.automationAction.findMany({ where: { teamId: team.id, automationId: current.id }, orderBy: ORDER_ACTIONS });
      for (const [i, action] of actions.entries()) {
        const valid = await validateAction(resolved.env, { actionType: action.actionType, actionConfig: action.actionConfig, continueOnError: action.continueOnError, retryConfig: action.retryConfig, onFailureActions: action.onFailureActions }, `actions[${i}].`, details);
        if (valid) checked.push(valid);
      }
    }
    throwIfAny(details, 'Invalid automation');
    requireDataReach(resolved.env, checked);
    Object.assign(data, {
      triggerType,
      collectionId: resolved.definition.collection?.id ?? null,
      triggerConfig: resolved.definition.triggerConfig,
      filterConditions: resolved.definition.filterConditions ?? Prisma.DbNull,
    });
  }
  const row = await schemaWrite(ctx, `automation updated: ${input.name ?? current.name} (${simplyId})`, async (tx) => {
    const fresh = await findAutomation(tx, team.id, simplyId);
    return tx.automation.update({ where: { id: fresh.id }, data: data as never });
  });
  return item(await ctx.services.schemas.get(team.id), row, await loadActions(ctx, row.id));
}

export async function deleteAutomation(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  automationId.assert(simplyId, 'automationSimplyId');
  await schemaWrite(
    ctx,
    (row: Automation) => `automation deleted: ${row.name} (${simplyId})`,
    async (tx) => {
      const row = await findAutomation(tx, team.id, simplyId);
      await tx.automation.delete({ where: { id: row.id } });
      return row;
    },
  );
  return true;
}

// ------------------------------------------------------------------------------------------
// Action writes

async function envForAutomation(ctx: RequestContext, row: Automation): Promise<ValidationEnv> {
  const env = await envFor(ctx, null);
  env.collection = row.collectionId === null ? null : (env.schema.collectionsById.get(row.collectionId) ?? null);
  return env;
}

/** Writes ranks 1..n in the given order (only rows whose rank changes). */
async function writeRanks(tx: Tx, ordered: readonly AutomationAction[]): Promise<AutomationAction[]> {
  const out: AutomationAction[] = [];
  for (const [i, action] of ordered.entries()) {
    out.push(action.executionRank === i + 1 ? action : await tx.automationAction.update({ where: { id: action.id }, data: { executionRank: i + 1 } }));
  }
  return out;
}

function insertAt<T>(list: readonly T[], value: T, rank: number | undefined): T[] {
  const at = Math.min(Math.max((rank ?? list.length + 1) - 1, 0), list.length);
  return [...list.slice(0, at), value, ...list.slice(at)];
}

export async function createAction(ctx: RequestContext, automationSimplyId: string, raw: unknown): Promise<AutomationAction> {
  const team = requireTeam(ctx);
  automationId.assert(automationSimplyId, 'automationSimplyId');
  const automation = await findAutomation(ctx.services.prisma, team.id, automationSimplyId);
  const env = await envForAutomation(ctx, automation);
  const details: ErrorDetail[] = [];
  const action = await validateAction(env, raw, '', details);
  throwIfAny(details, 'Invalid automation action');
  requireEmailPermission(env, [action!]);
  requireDataReach(env, [action!]);
  return schemaWrite(ctx, `automation action added: ${action!.actionType} to ${automationSimplyId}`, async (tx) => {
    const fresh = await findAutomation(tx, team.id, automationSimplyId);
    const existing = await tx.automationAction.findMany({ where: { teamId: team.id, automationId: fresh.id }, orderBy: ORDER_ACTIONS });
    if (existing.length >= LIMITS.actions) throw new ValidationError(`An automation has at most ${LIMITS.actions} actions`, [{ field: 'actionType', message: `at most ${LIMITS.actions} actions` }]);
    const created = await tx.automationAction.create({ data: actionData(team.id, fresh.id, action!, existing.length + 1) });
    const ranked = await writeRanks(tx, insertAt(existing, created, action!.executionRank));
    return ranked.find((a) => a.id === created.id)!;
  });
}

async function findAction(tx: Db, teamId: bigint, automation: Automation, simplyId: string): Promise<AutomationAction> {
  const row = await tx.automationAction.findUnique({ where: { teamId_simplyId: { teamId, simplyId } } });
  if (!row || row.automationId !== automation.id) throw new NotFoundError('Automation action', simplyId);
  return row;
}

export async function updateAction(ctx: RequestContext, automationSimplyId: string, actionSimplyId: string, raw: unknown): Promise<AutomationAction> {
  const team = requireTeam(ctx);
  automationId.assert(automationSimplyId, 'automationSimplyId');
  automationActionId.assert(actionSimplyId, 'automationActionSimplyId');
  const input = parseInput(actionUpdateInput, raw, 'Invalid automation action');
  const automation = await findAutomation(ctx.services.prisma, team.id, automationSimplyId);
  const current = await findAction(ctx.services.prisma, team.id, automation, actionSimplyId);
  const env = await envForAutomation(ctx, automation);
  const details: ErrorDetail[] = [];
  // the merged action is checked as a whole: a new type needs a config of its own
  const typeChanged = input.actionType !== undefined && input.actionType !== current.actionType;
  if (typeChanged && input.actionConfig === undefined) details.push({ field: 'actionConfig', message: `is required when actionType changes (the ${input.actionType} settings)` });
  const merged = zodDetails(
    actionCreateInput,
    {
      actionType: input.actionType ?? current.actionType,
      actionConfig: input.actionConfig !== undefined ? input.actionConfig : current.actionConfig,
      continueOnError: input.continueOnError ?? current.continueOnError,
      retryConfig: input.retryConfig !== undefined ? input.retryConfig : current.retryConfig,
      onFailureActions: input.onFailureActions !== undefined ? input.onFailureActions : current.onFailureActions,
    },
    '',
  );
  if (!merged.ok) details.push(...merged.details);
  throwIfAny(details, 'Invalid automation action');
  if (!merged.ok) return Promise.reject(new ValidationError('Invalid automation action', merged.details));
  const action = await validateParsedAction(env, merged.value, '', details);
  throwIfAny(details, 'Invalid automation action');
  requireEmailPermission(env, [action]);
  requireDataReach(env, [action]);
  return schemaWrite(ctx, `automation action updated: ${actionSimplyId} of ${automationSimplyId}`, async (tx) => {
    const fresh = await findAutomation(tx, team.id, automationSimplyId);
    const row = await findAction(tx, team.id, fresh, actionSimplyId);
    const updated = await tx.automationAction.update({
      where: { id: row.id },
      data: {
        actionType: action.actionType,
        actionConfig: action.actionConfig as never,
        continueOnError: action.continueOnError,
        retryConfig: (action.retryConfig ?? Prisma.DbNull) as never,
        onFailureActions: (action.onFailureActions ?? Prisma.DbNull) as never,
      },
    });
    if (input.executionRank === undefined) return updated;
    const others = (await tx.automationAction.findMany({ where: { teamId: team.id, automationId: fresh.id }, orderBy: ORDER_ACTIONS })).filter((a) => a.id !== row.id);
    const ranked = await writeRanks(tx, insertAt(others, updated, input.executionRank));
    return ranked.find((a) => a.id === row.id)!;
  });
}

export async function deleteAction(ctx: RequestContext, automationSimplyId: string, actionSimplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  automationId.assert(automationSimplyId, 'automationSimplyId');
  automationActionId.assert(actionSimplyId, 'automationActionSimplyId');
  await schemaWrite(ctx, `automation action deleted: ${actionSimplyId} of ${automationSimplyId}`, async (tx) => {
    const automation = await findAutomation(tx, team.id, automationSimplyId);
    const row = await findAction(tx, team.id, automation, actionSimplyId);
    await tx.automationAction.delete({ where: { id: row.id } });
    await writeRanks(tx, await tx.automationAction.findMany({ where: { teamId: team.id, automationId: automation.id }, orderBy: ORDER_ACTIONS }));
  });
  return true;
}

/** Every action of the automation, each exactly once, in the new order. */
export async function reorderActions(ctx: RequestContext, automationSimplyId: string, ordered: unknown): Promise<AutomationItem> {
  const team = requireTeam(ctx);
  automationId.assert(automationSimplyId, 'automationSimplyId');
  if (!Array.isArray(ordered) || ordered.some((id) => typeof id !== 'string')) {
    throw new ValidationError('orderedActionSimplyIds must be an array of action simplyIds', [{ field: 'orderedActionSimplyIds', message: 'must be an array of strings' }]);
  }
  const ids = ordered as string[];
  const { row, actions } = await schemaWrite(ctx, `automation actions reordered: ${automationSimplyId}`, async (tx) => {
    const row = await findAutomation(tx, team.id, automationSimplyId);
    const existing = await tx.automationAction.findMany({ where: { teamId: team.id, automationId: row.id }, orderBy: ORDER_ACTIONS });
    const bySimplyId = new Map(existing.map((a) => [a.simplyId, a]));
    const details: ErrorDetail[] = [];
    ids.forEach((id, i) => {
      if (!bySimplyId.has(id)) details.push({ field: `orderedActionSimplyIds[${i}]`, message: `${id} is not an action of automation ${automationSimplyId}` });
      else if (ids.indexOf(id) !== i) details.push({ field: `orderedActionSimplyIds[${i}]`, message: `${id} is listed more than once` });
    });
    const missing = existing.filter((a) => !ids.includes(a.simplyId)).map((a) => a.simplyId);
    if (missing.length > 0) details.push({ field: 'orderedActionSimplyIds', message: `must list every action of the automation; missing ${missing.join(', ')}` });
    throwIfAny(details, 'Invalid action order');
    return { row, actions: await writeRanks(tx, ids.map((id) => bySimplyId.get(id)!)) };
  });
  return item(await ctx.services.schemas.get(team.id), row, actions);
}
