// Reading and setting a team's action-tag plan (docs/api/action-tags.md "Plans and gates").
// Capabilities are for a signed-in Team Admin; setting a plan is a system administrator's (GraphQL,
// `svc teams plan`). A plan that no longer covers a team's tags archives the surplus as
// ARCHIVED_BY_DOWNGRADE (powered tags on a plan without them, then the newest beyond capacity), in
// the same transaction, so a team is never over its plan.
import { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import {
  ABUSE_HASH_DAYS,
  ACTION_TAG_BANDS,
  type ActionTagFeatures,
  type ActionTagPlan,
  planFeatures,
  presetPlan,
  readActionTagPlan,
  teamActionTagPlan,
  USER_AGENT_MASK_DAYS,
} from './action-tag-plan.ts';
import { ARCHIVED_STATUSES } from './action-tag-status.ts';
import { POWERED_TYPES } from './action-tags.input.ts';

export interface ActionTagCapabilities {
  plan: ActionTagPlan;
  features: ActionTagFeatures;
  tagsInUse: number;
  retention: { scanDetailDays: number; userAgentMaskedAfterDays: number; abuseHashDays: number };
}

export async function capabilitiesOf(db: Pick<PrismaClient, 'actionTag'>, plan: ActionTagPlan, teamId: bigint): Promise<ActionTagCapabilities> {
  const tagsInUse = await db.actionTag.count({ where: { teamId, status: { notIn: [...ARCHIVED_STATUSES] } } });
  return {
    plan,
    features: planFeatures(plan),
    tagsInUse,
    retention: { scanDetailDays: plan.detailRetentionDays, userAgentMaskedAfterDays: USER_AGENT_MASK_DAYS, abuseHashDays: ABUSE_HASH_DAYS },
  };
}

/** GET /v1/action-tags/capabilities: a signed-in Team Admin (the tier refuses API keys and tokens). */
export async function actionTagCapabilities(ctx: RequestContext): Promise<ActionTagCapabilities> {
  if (!ctx.principal.isTeamAdmin) throw new PermissionDeniedError('The action-tag capabilities are for a Team Admin');
  const plan = await teamActionTagPlan(ctx);
  return capabilitiesOf(ctx.services.prisma, plan, requireTeam(ctx).id);
}

const band = z.number({ message: 'must be a number' }).refine((b) => (ACTION_TAG_BANDS as readonly number[]).includes(b), `must be one of ${ACTION_TAG_BANDS.join(', ')}`);
export const setActionTagPlanInput = z
  .strictObject({
    preset: z.string().regex(/^(standalone|paid)-(100|500|1000|5000|10000|50000)$/, 'must be standalone-<band> or paid-<band>').optional(),
    contract: z.enum(['STANDALONE', 'POWERED'], { message: 'must be STANDALONE or POWERED' }).optional(),
    billing: z.enum(['FREE', 'PAID'], { message: 'must be FREE or PAID' }).optional(),
    band: band.optional(),
    managedCapacity: z.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'at least 0').max(1_000_000, 'at most 1000000').optional(),
    detailRetentionDays: z.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'at least 1').max(3650, 'at most 3650').optional(),
    domainAllowance: z.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'at least 0').max(100, 'at most 100').optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'name a preset or at least one property');
export type SetActionTagPlanInput = z.infer<typeof setActionTagPlanInput>;

export interface SetPlanResult {
  capabilities: ActionTagCapabilities;
  archivedByDowngrade: number;
}

/** Sets a team's plan (a preset, then the given properties over it, or over the current plan). */
export async function setActionTagPlan(services: Pick<RequestContext['services'], 'prisma' | 'config'>, teamSimplyId: string, raw: unknown, actorUserId: bigint | null): Promise<SetPlanResult> {
  const input = parseInput(setActionTagPlanInput, raw, 'Invalid plan');
  const team = await services.prisma.team.findUnique({ where: { simplyId: teamSimplyId }, select: { id: true } });
  if (!team) throw new NotFoundError('Team', teamSimplyId);
  return runTransaction(services.prisma, async (tx) => {
    const base = input.preset ? presetPlan(input.preset) : await readActionTagPlan(tx, services.config.ACTION_TAGS_DEFAULT_PLAN, team.id);
    const next = {
      contract: input.contract ?? base.contract,
      billing: input.billing ?? base.billing,
      band: input.band ?? base.band,
      managedCapacity: input.managedCapacity ?? (input.band !== undefined && !input.preset ? input.band : base.managedCapacity),
      detailRetentionDays: input.detailRetentionDays ?? (input.billing ? presetPlan(`${input.billing === 'PAID' ? 'paid' : 'standalone'}-500`).detailRetentionDays : base.detailRetentionDays),
      domainAllowance: input.domainAllowance ?? base.domainAllowance,
    };
    await tx.actionTagTeamPlan.upsert({ where: { teamId: team.id }, create: { teamId: team.id, ...next, updatedByUserId: actorUserId }, update: { ...next, updatedByUserId: actorUserId } });
    const plan: ActionTagPlan = { ...next, isSet: true };
    await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext(\'action-tags\'), $1::int)', Number(team.id % 2147483647n));
    let archived = 0;
    if (!planFeatures(plan).poweredActions) {
      const r = await tx.actionTag.updateMany({
        where: { teamId: team.id, actionType: { in: [...POWERED_TYPES] }, status: { notIn: [...ARCHIVED_STATUSES] } },
        data: { status: 'ARCHIVED_BY_DOWNGRADE' },
      });
      archived += r.count;
    }
    const inUse = await tx.actionTag.findMany({ where: { teamId: team.id, status: { notIn: [...ARCHIVED_STATUSES] } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true } });
    const surplus = inUse.length - plan.managedCapacity;
    if (surplus > 0) {
      const r = await tx.actionTag.updateMany({ where: { teamId: team.id, id: { in: inUse.slice(0, surplus).map((t) => t.id) } }, data: { status: 'ARCHIVED_BY_DOWNGRADE' } });
      archived += r.count;
    }
    return { capabilities: await capabilitiesOf(tx as never, plan, team.id), archivedByDowngrade: archived };
  });
}
