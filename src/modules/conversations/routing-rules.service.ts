// Assignment rules (docs/api/conversations.md "Routing and staffing"): the team's ordered rules,
// created, changed, deleted and reordered by supervisors (DATA_CONVERSATION_INBOX_VIEW_ALL at edit
// level; the tier checks it). Every name a rule holds is checked when it is saved: pool agents and
// the named agent must be members who can work conversations, the role and the SLA policy must be
// the team's, the record condition's filters must fit the collection's fields.
import type pg from 'pg';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError, type ErrorDetail } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { inTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { normalizeFilters } from '../../kernel/index.ts';
import { actorOf } from './conversation-access.ts';
import { assignmentRuleId } from './routing.ids.ts';
import { RoutingLimitError } from './routing.errors.ts';
import { createRuleInput, reorderRulesInput, ROUTING_LIMITS, updateRuleInput, type RuleConditions } from './routing.input.ts';
import { deleteRule, findRule, findTeamRole, insertRule, lockTeamRules, setRuleOrder, teamRules, updateRule, type RuleRow, type RuleValues } from './routing-rules.sql.ts';
import { workingMemberIds } from './routing-people.sql.ts';
import { findPolicy } from './sla-policies.sql.ts';

export type { RuleRow };

export async function listRules(ctx: RequestContext): Promise<RuleRow[]> {
  return teamRules(ctx.services.pool, requireTeam(ctx).id);
}

export async function getRule(ctx: RequestContext, simplyId: string): Promise<RuleRow> {
  const team = requireTeam(ctx);
  assignmentRuleId.assert(simplyId, 'assignmentRuleSimplyId');
  const rule = await findRule(ctx.services.pool, team.id, simplyId);
  if (!rule) throw new NotFoundError('Assignment rule', simplyId);
  return rule;
}

interface RuleDraft {
  name: string;
  isEnabled: boolean;
  conditions: RuleConditions;
  actionType: RuleValues['actionType'];
  poolUserIds: string[];
  poolTeamRoleId: string | null;
  agentUserId: string | null;
  maxOpenPerAgent: number | null;
  slaPolicyId: string | null;
}

/** The draft's names as ids of the team, or 400 naming each field that names something else. */
async function resolveDraft(db: pg.PoolClient, ctx: RequestContext, d: RuleDraft): Promise<RuleValues> {
  const team = requireTeam(ctx);
  const details: ErrorDetail[] = [];
  const pool = d.actionType === 'POOL';
  if (pool && d.poolUserIds.length === 0 && d.poolTeamRoleId === null) details.push({ field: 'poolUserIds', message: 'a POOL rule names its agents (poolUserIds) or a team role (poolTeamRoleId)' });
  if (!pool && d.poolUserIds.length > 0) details.push({ field: 'poolUserIds', message: 'only a POOL rule has a pool' });
  if (!pool && d.poolTeamRoleId !== null) details.push({ field: 'poolTeamRoleId', message: 'only a POOL rule has a pool' });
  if (!pool && d.maxOpenPerAgent !== null) details.push({ field: 'maxOpenPerAgent', message: 'only a POOL rule has a per-agent limit' });
  if (d.actionType === 'AGENT' && d.agentUserId === null) details.push({ field: 'agentUserId', message: 'an AGENT rule names its agent' });
  if (d.actionType !== 'AGENT' && d.agentUserId !== null) details.push({ field: 'agentUserId', message: 'only an AGENT rule names an agent' });

  const members = await workingMemberIds(db, team.id, [...d.poolUserIds, ...(d.agentUserId ? [d.agentUserId] : [])]);
  d.poolUserIds.forEach((u, i) => {
    if (!members.has(u)) details.push({ field: `poolUserIds.${i}`, message: 'is not an active member of this team with a conversation permission' });
  });
  if (new Set(d.poolUserIds).size !== d.poolUserIds.length) details.push({ field: 'poolUserIds', message: 'names an agent twice' });
  if (d.agentUserId && !members.has(d.agentUserId)) details.push({ field: 'agentUserId', message: 'is not an active member of this team with a conversation permission' });
  const roleId = d.poolTeamRoleId === null ? null : await findTeamRole(db, team.id, d.poolTeamRoleId);
  if (d.poolTeamRoleId !== null && roleId === null) details.push({ field: 'poolTeamRoleId', message: 'is not a role of this team' });
  const policy = d.slaPolicyId === null ? null : await findPolicy(db, team.id, d.slaPolicyId);
  if (d.slaPolicyId !== null && policy === null) details.push({ field: 'slaPolicyId', message: 'is not an SLA policy of this team' });

  const record = d.conditions.record;
  if (record) {
    const schema = await ctx.services.schemas.get(team.id);
    const collection = schema.collectionsBySimplyId.get(record.dataCollectionSimplyId);
    if (!collection) details.push({ field: 'conditions.record.dataCollectionSimplyId', message: 'is not a collection of this team' });
    else {
      const normalized = normalizeFilters(schema.fieldsOf(collection), record.filters ?? []);
      if (!normalized.ok) details.push(...normalized.details.map((x) => ({ ...x, field: `conditions.record.${x.field ?? 'filters'}` })));
    }
  }
  if (details.length > 0) throw new ValidationError('Invalid assignment rule', details);
  return {
    name: d.name,
    isEnabled: d.isEnabled,
    conditions: d.conditions,
    actionType: d.actionType,
    poolUserIds: d.poolUserIds.map((u) => members.get(u)!),
    poolTeamRoleId: roleId,
    agentUserId: d.agentUserId ? members.get(d.agentUserId)! : null,
    maxOpenPerAgent: d.maxOpenPerAgent,
    slaPolicyId: policy?.id ?? null,
  };
}

export async function createRule(ctx: RequestContext, raw: unknown): Promise<RuleRow> {
  const team = requireTeam(ctx);
  const input = parseInput(createRuleInput, raw, 'Invalid assignment rule');
  const simplyId = assignmentRuleId.create();
  await inTransaction(ctx.services.pool, async (db) => {
    await lockTeamRules(db, team.id);
    const count = (await teamRules(db, team.id)).length;
    if (count >= ROUTING_LIMITS.rules) throw new RoutingLimitError('assignment rules', ROUTING_LIMITS.rules);
    const values = await resolveDraft(db, ctx, {
      name: input.name,
      isEnabled: input.isEnabled ?? true,
      conditions: input.conditions ?? {},
      actionType: input.actionType,
      poolUserIds: input.poolUserIds ?? [],
      poolTeamRoleId: input.poolTeamRoleId ?? null,
      agentUserId: input.agentUserId ?? null,
      maxOpenPerAgent: input.maxOpenPerAgent ?? null,
      slaPolicyId: input.slaPolicyId ?? null,
    });
    await insertRule(db, team.id, simplyId, Math.min(input.position ?? count + 1, count + 1), values, actorOf(ctx));
  });
  return getRule(ctx, simplyId);
}

export async function changeRule(ctx: RequestContext, simplyId: string, raw: unknown): Promise<RuleRow> {
  const team = requireTeam(ctx);
  assignmentRuleId.assert(simplyId, 'assignmentRuleSimplyId');
  const input = parseInput(updateRuleInput, raw, 'Invalid assignment rule change');
  await inTransaction(ctx.services.pool, async (db) => {
    await lockTeamRules(db, team.id);
    const before = await findRule(db, team.id, simplyId);
    if (!before) throw new NotFoundError('Assignment rule', simplyId);
    // a change of action drops what only the old action had, unless the change names it again
    const actionChanged = input.actionType !== undefined && input.actionType !== before.actionType;
    const keep = <T>(given: T | undefined, old: T, empty: T) => (given !== undefined ? given : actionChanged ? empty : old);
    const values = await resolveDraft(db, ctx, {
      name: input.name ?? before.name,
      isEnabled: input.isEnabled ?? before.isEnabled,
      conditions: input.conditions ?? before.conditions,
      actionType: input.actionType ?? before.actionType,
      poolUserIds: keep(input.poolUserIds, before.poolUserSimplyIds, []),
      poolTeamRoleId: keep(input.poolTeamRoleId, before.poolTeamRoleSimplyId, null),
      agentUserId: keep(input.agentUserId, before.agentUserSimplyId, null),
      maxOpenPerAgent: keep(input.maxOpenPerAgent, before.maxOpenPerAgent, null),
      slaPolicyId: input.slaPolicyId !== undefined ? input.slaPolicyId : before.slaPolicySimplyId,
    });
    await updateRule(db, team.id, before.id, values);
  });
  return getRule(ctx, simplyId);
}

export async function removeRule(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  assignmentRuleId.assert(simplyId, 'assignmentRuleSimplyId');
  return inTransaction(ctx.services.pool, async (db) => {
    await lockTeamRules(db, team.id);
    const rule = await findRule(db, team.id, simplyId);
    if (!rule) throw new NotFoundError('Assignment rule', simplyId);
    await deleteRule(db, team.id, rule.id, rule.position);
    return true;
  });
}

/** PUT …/assignment-rules/reorder { orderedRuleSimplyIds }: every rule of the team, each once, in the new order. */
export async function reorderRules(ctx: RequestContext, raw: unknown): Promise<RuleRow[]> {
  const team = requireTeam(ctx);
  const input = parseInput(reorderRulesInput, raw, 'Invalid rule order');
  return inTransaction(ctx.services.pool, async (db) => {
    await lockTeamRules(db, team.id);
    const rules = await teamRules(db, team.id);
    const bySimplyId = new Map(rules.map((r) => [r.simplyId, r]));
    const given = input.orderedRuleSimplyIds;
    const unknown = given.findIndex((id) => !bySimplyId.has(id));
    if (unknown >= 0) throw new ValidationError('Invalid rule order', [{ field: `orderedRuleSimplyIds.${unknown}`, message: 'is not a rule of this team' }]);
    if (new Set(given).size !== given.length || given.length !== rules.length) {
      throw new ValidationError('Invalid rule order', [{ field: 'orderedRuleSimplyIds', message: `must name each of the team's ${rules.length} rules exactly once` }]);
    }
    await setRuleOrder(db, team.id, given.map((id) => bySimplyId.get(id)!.id));
    return teamRules(db, team.id);
  });
}
