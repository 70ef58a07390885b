// SLA policies (docs/api/conversations.md "SLA"): CRUD by supervisors (DATA_CONVERSATION_INBOX_VIEW_ALL,
// edit level to write), and the SLA state of conversations, read through a per-request loader so a
// page of conversations costs one statement for all their clocks.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { requestLoader } from '../../app/request-loader.ts';
import { requireTeam } from '../../app/require-team.ts';
import { inTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { ConversationRow } from './conversations.sql.ts';
import { RoutingLimitError } from './routing.errors.ts';
import { slaPolicyId } from './routing.ids.ts';
import { createPolicyInput, ROUTING_LIMITS, updatePolicyInput } from './routing.input.ts';
import { slaFacts } from './sla-facts.sql.ts';
import { deletePolicy, findPolicy, insertPolicy, lockTeamPolicies, policiesById, teamPolicies, updatePolicy, type PolicyRow } from './sla-policies.sql.ts';
import { slaClocks, type ClockState } from './sla-state.ts';

export type { PolicyRow };

export async function listPolicies(ctx: RequestContext): Promise<PolicyRow[]> {
  return teamPolicies(ctx.services.pool, requireTeam(ctx).id);
}

export async function getPolicy(ctx: RequestContext, simplyId: string): Promise<PolicyRow> {
  const team = requireTeam(ctx);
  slaPolicyId.assert(simplyId, 'slaPolicySimplyId');
  const policy = await findPolicy(ctx.services.pool, team.id, simplyId);
  if (!policy) throw new NotFoundError('SLA policy', simplyId);
  return policy;
}

export async function createPolicy(ctx: RequestContext, raw: unknown): Promise<PolicyRow> {
  const team = requireTeam(ctx);
  const input = parseInput(createPolicyInput, raw, 'Invalid SLA policy');
  const simplyId = slaPolicyId.create();
  await inTransaction(ctx.services.pool, async (db) => {
    await lockTeamPolicies(db, team.id);
    if ((await teamPolicies(db, team.id)).length >= ROUTING_LIMITS.policies) throw new RoutingLimitError('SLA policies', ROUTING_LIMITS.policies);
    await insertPolicy(db, team.id, simplyId, {
      name: input.name,
      description: input.description ?? null,
      isDefault: input.isDefault ?? false,
      timeZone: input.timeZone ?? 'UTC',
      targets: input.targets,
      businessHours: input.businessHours ?? [],
      holidays: [...new Set(input.holidays ?? [])].sort(),
      warningPercent: input.warningPercent ?? 80,
    });
  });
  return getPolicy(ctx, simplyId);
}

export async function changePolicy(ctx: RequestContext, simplyId: string, raw: unknown): Promise<PolicyRow> {
  const team = requireTeam(ctx);
  slaPolicyId.assert(simplyId, 'slaPolicySimplyId');
  const input = parseInput(updatePolicyInput, raw, 'Invalid SLA policy change');
  await inTransaction(ctx.services.pool, async (db) => {
    await lockTeamPolicies(db, team.id);
    const before = await findPolicy(db, team.id, simplyId);
    if (!before) throw new NotFoundError('SLA policy', simplyId);
    await updatePolicy(db, team.id, before.id, {
      name: input.name ?? before.name,
      description: input.description !== undefined ? input.description : before.description,
      isDefault: input.isDefault ?? before.isDefault,
      timeZone: input.timeZone ?? before.timeZone,
      targets: input.targets ?? before.targets,
      businessHours: input.businessHours ?? before.businessHours,
      holidays: input.holidays ? [...new Set(input.holidays)].sort() : before.holidays,
      warningPercent: input.warningPercent ?? before.warningPercent,
    });
  });
  return getPolicy(ctx, simplyId);
}

export async function removePolicy(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  slaPolicyId.assert(simplyId, 'slaPolicySimplyId');
  return inTransaction(ctx.services.pool, async (db) => {
    await lockTeamPolicies(db, team.id);
    const policy = await findPolicy(db, team.id, simplyId);
    if (!policy) throw new NotFoundError('SLA policy', simplyId);
    await deletePolicy(db, team.id, policy.id);
    return true;
  });
}

export interface SlaState {
  policy: PolicyRow;
  clocks: ClockState[];
}

/** The conversation's SLA state now (null: it follows no policy), batched over the request. */
export async function conversationSla(ctx: RequestContext, c: ConversationRow): Promise<SlaState | null> {
  const loader = requestLoader<bigint, SlaState | null>(
    ctx,
    `conversations.sla:${c.teamId}`,
    async (ids) => {
      const facts = await slaFacts(ctx.services.pool, c.teamId, ids);
      const policies = await policiesById(ctx.services.pool, c.teamId, [...facts.values()].map((f) => f.policyId));
      const now = new Date();
      return ids.map((id) => {
        const f = facts.get(id);
        const policy = f && policies.get(f.policyId);
        return f && policy ? { policy, clocks: slaClocks(policy, f, now) } : null;
      });
    },
    (id) => String(id),
  );
  return loader.load(c.id);
}
