// A team's action-tag plan (docs/api/action-tags.md "Plans and gates"): its capacity band, how many
// tags it manages, how long scan detail is kept, how many resolver domains it may add, and the
// features those open. A system administrator sets it (setActionTagPlan); a team without a row has
// the plan ACTION_TAGS_DEFAULT_PLAN names. The gates every route of the area (and A2's CSV,
// domains and webhooks parts) call are here, so one rule decides each.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Tx } from '../../app/transaction.ts';
import { ActionTagBandRequiredError, ActionTagPaidPlanRequiredError } from './action-tags.errors.ts';

export const ACTION_TAG_BANDS = [100, 500, 1000, 5000, 10000, 50000] as const;
/** the band from which CSV, lifecycle webhooks and standalone API-key use open */
export const FEATURE_BAND = 500;
export const FREE_DETAIL_RETENTION_DAYS = 30;
export const PAID_DETAIL_RETENTION_DAYS = 730;
export const USER_AGENT_MASK_DAYS = 7;
export const ABUSE_HASH_DAYS = 30;

export type ActionTagContract = 'STANDALONE' | 'POWERED';
export type ActionTagBilling = 'FREE' | 'PAID';

export interface ActionTagPlan {
  contract: ActionTagContract;
  billing: ActionTagBilling;
  band: number;
  managedCapacity: number;
  detailRetentionDays: number;
  domainAllowance: number;
  /** false: the team has no row and the ACTION_TAGS_DEFAULT_PLAN plan applies */
  isSet: boolean;
}

export interface ActionTagFeatures {
  /** API keys may use the standalone routes */
  apiKeyAccess: boolean;
  csvImportExport: boolean;
  lifecycleWebhooks: boolean;
  /** resolver domains of the team's own (up to domainAllowance) */
  customDomains: boolean;
  /** DATA_WIZARD and DATA_RECORD tags, record links, fresh scan, attribution */
  poweredActions: boolean;
  /** one tag per record (first-party only) */
  bulkGenerate: boolean;
}

/** A named plan: `standalone-<band>` (free retention, no domains) or `paid-<band>` (powered, 24 months, domains). */
export function presetPlan(name: string): ActionTagPlan {
  const [kind, bandText] = name.split('-');
  const band = Number(bandText);
  const paid = kind === 'paid';
  return {
    contract: paid ? 'POWERED' : 'STANDALONE',
    billing: paid ? 'PAID' : 'FREE',
    band,
    managedCapacity: band,
    detailRetentionDays: paid ? PAID_DETAIL_RETENTION_DAYS : FREE_DETAIL_RETENTION_DAYS,
    domainAllowance: paid ? 3 : 0,
    isSet: false,
  };
}

export function planFeatures(plan: ActionTagPlan): ActionTagFeatures {
  const banded = plan.band >= FEATURE_BAND;
  const powered = plan.contract === 'POWERED' && plan.billing === 'PAID';
  return {
    apiKeyAccess: banded,
    csvImportExport: banded,
    lifecycleWebhooks: banded,
    customDomains: plan.billing === 'PAID' && plan.domainAllowance > 0,
    poweredActions: powered,
    bulkGenerate: powered,
  };
}

type PlanDb = Pick<PrismaClient | Tx, 'actionTagTeamPlan'>;

/** The team's plan: its row, or the configured default. */
export async function readActionTagPlan(db: PlanDb, defaultPlan: string, teamId: bigint): Promise<ActionTagPlan> {
  const row = await db.actionTagTeamPlan.findUnique({ where: { teamId } });
  if (!row) return presetPlan(defaultPlan);
  return {
    contract: row.contract as ActionTagContract,
    billing: row.billing as ActionTagBilling,
    band: row.band,
    managedCapacity: row.managedCapacity,
    detailRetentionDays: row.detailRetentionDays,
    domainAllowance: row.domainAllowance,
    isSet: true,
  };
}

/** The caller's team's plan. */
export function teamActionTagPlan(ctx: RequestContext, db: PlanDb = ctx.services.prisma): Promise<ActionTagPlan> {
  return readActionTagPlan(db, ctx.services.config.ACTION_TAGS_DEFAULT_PLAN, requireTeam(ctx).id);
}

/**
 * Every route of the area: an API key reaches them only on the 500 band or higher (standalone
 * API-key use, Document 3 §4.3). Signed-in members and session tokens are not band-gated here.
 */
export async function requireActionTagAccess(ctx: RequestContext, db?: PlanDb): Promise<ActionTagPlan> {
  const plan = await teamActionTagPlan(ctx, db);
  if (ctx.principal.kind === 'API_KEY' && plan.band < FEATURE_BAND) throw new ActionTagBandRequiredError('API-key use of action tags', plan.band);
  return plan;
}

/** CSV import/export and lifecycle webhooks: the 500 band or higher (plus the API-key rule). */
export async function requireBand500(ctx: RequestContext, what: string, db?: PlanDb): Promise<ActionTagPlan> {
  const plan = await requireActionTagAccess(ctx, db);
  if (plan.band < FEATURE_BAND) throw new ActionTagBandRequiredError(what, plan.band);
  return plan;
}

/** Resolver domains: a paid plan with a domain allowance (plus the API-key rule). */
export async function requirePaidPlan(ctx: RequestContext, what: string, db?: PlanDb): Promise<ActionTagPlan> {
  const plan = await requireActionTagAccess(ctx, db);
  if (plan.billing !== 'PAID') throw new ActionTagPaidPlanRequiredError(what);
  return plan;
}

/** Powered actions (wizards, record links, bulk generation): an eligible paid base contract. */
export async function requirePoweredPlan(ctx: RequestContext, what: string, db?: PlanDb): Promise<ActionTagPlan> {
  const plan = await requireActionTagAccess(ctx, db);
  if (!planFeatures(plan).poweredActions) throw new ActionTagPaidPlanRequiredError(what);
  return plan;
}
