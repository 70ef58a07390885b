// Lifecycle webhook subscriptions (docs/api/action-tags.md "Lifecycle webhooks"; Document 3 §4.3,
// §6.2): the only surface for action-tag events. A subscription is a row of the webhooks area's
// table whose eventType is an action-tag event, so the area's machinery signs (X-SVC-Signature,
// Document 1 §6), delivers, retries and logs it, and /v1/webhooks neither lists nor accepts it.
// The 500 band or higher (requireBand500); the tier (TEAM_ADMIN_SVC_TAGS) is the schema's.
import type { Prisma, WebhookSubscription } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { byCreation, pagination, parsePaging, type PageInput, type PaginationShape } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { ACTION_TAG_EVENT_TYPES, checkWebhookTarget, deliveriesOf, insertSubscriptions, webhookId, type WebhookDeliveryWithAttempts } from '../webhooks/index.ts';
import { requireBand500 } from './action-tag-plan.ts';
// lifecycle events reach these subscriptions through the emitter it registers
import './action-tag-events.ts';
import { ACTION_TAG_WEBHOOKS_PER_TEAM, createActionTagWebhookInput, updateActionTagWebhookInput } from './action-tag-webhooks.input.ts';

const LABEL = 'Action-tag webhook';
const WHAT = 'Action-tag lifecycle webhooks';
const EVENT_TYPES: string[] = [...ACTION_TAG_EVENT_TYPES];
const OF_THIS_SURFACE = { in: EVENT_TYPES };

export interface ActionTagWebhookView {
  row: WebhookSubscription;
  /** shown once, at creation */
  secret?: string;
  warnings?: string[];
}

async function findSubscription(ctx: RequestContext, simplyId: string): Promise<WebhookSubscription> {
  const team = requireTeam(ctx);
  await requireBand500(ctx, WHAT);
  webhookId.assert(simplyId, 'actionTagWebhookSimplyId');
  const row = await ctx.services.prisma.webhookSubscription.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  // a record-event subscription is /v1/webhooks' own: not found here, as another team's would be
  if (!row || !EVENT_TYPES.includes(row.eventType)) throw new NotFoundError(LABEL, simplyId);
  return row;
}

export async function listActionTagWebhooks(ctx: RequestContext, args: PageInput): Promise<{ nodes: ActionTagWebhookView[]; pagination: PaginationShape }> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  await requireBand500(ctx, WHAT);
  const where = { teamId: team.id, eventType: OF_THIS_SURFACE };
  const { prisma } = ctx.services;
  const [rows, total] = await Promise.all([prisma.webhookSubscription.findMany({ where, ...byCreation(paging, 'desc') }), prisma.webhookSubscription.count({ where })]);
  return { nodes: rows.map((row) => ({ row })), pagination: pagination(total, paging) };
}

export async function getActionTagWebhook(ctx: RequestContext, simplyId: string): Promise<ActionTagWebhookView> {
  return { row: await findSubscription(ctx, simplyId) };
}

export async function createActionTagWebhook(ctx: RequestContext, raw: unknown): Promise<ActionTagWebhookView> {
  await requireBand500(ctx, WHAT);
  const input = parseInput(createActionTagWebhookInput, raw, 'Invalid action-tag webhook');
  const target = await checkWebhookTarget(ctx, input.targetUrl);
  const { rows, secret } = await insertSubscriptions(ctx, { eventTypes: EVENT_TYPES, limit: ACTION_TAG_WEBHOOKS_PER_TEAM, what: 'action-tag webhooks' }, { ...input, eventTypes: [input.eventType], targetUrl: target.url });
  return { row: rows[0]!, secret, warnings: target.warning ? [target.warning] : [] };
}

export async function updateActionTagWebhook(ctx: RequestContext, simplyId: string, raw: unknown): Promise<ActionTagWebhookView> {
  const current = await findSubscription(ctx, simplyId);
  const input = parseInput(updateActionTagWebhookInput, raw, 'Invalid action-tag webhook update');
  const data: Prisma.WebhookSubscriptionUpdateManyMutationInput = {};
  const warnings: string[] = [];
  if (input.targetUrl !== undefined) {
    const target = await checkWebhookTarget(ctx, input.targetUrl);
    data.targetUrl = target.url;
    if (target.warning) warnings.push(target.warning);
  }
  for (const key of ['isActive', 'isPaused', 'retryCount', 'retryDelaySeconds', 'timeoutSeconds'] as const) {
    if (input[key] !== undefined) (data as Record<string, unknown>)[key] = input[key];
  }
  const [row] = await ctx.services.prisma.webhookSubscription.updateManyAndReturn({ where: { teamId: current.teamId, id: current.id }, data });
  // deleted meanwhile
  if (!row) throw new NotFoundError(LABEL, simplyId);
  return { row, warnings };
}

/** Deletes the subscription and its delivery log; queued attempts find nothing and stop. */
export async function deleteActionTagWebhook(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const row = await findSubscription(ctx, simplyId);
  const { count } = await ctx.services.prisma.webhookSubscription.deleteMany({ where: { teamId: row.teamId, id: row.id } });
  if (count === 0) throw new NotFoundError(LABEL, simplyId);
  return true;
}

/** The delivery log: one entry per event, newest first, each with its attempts. */
export async function listActionTagWebhookDeliveries(
  ctx: RequestContext,
  simplyId: string,
  args: PageInput,
): Promise<{ nodes: WebhookDeliveryWithAttempts[]; pagination: PaginationShape }> {
  return deliveriesOf(ctx, await findSubscription(ctx, simplyId), args);
}
