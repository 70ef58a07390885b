// Webhook subscriptions (Document 1 §2.9, §4.8): TEAM_SETTINGS guards every route (schema face);
// this service adds the data rule: a subscription may only carry what its author can read, so an
// unfiltered one needs full data access and a filtered one READ on every listed collection. The
// rule is checked on create and on every update (which may re-point the URL), against the filter
// the subscription has after the update.
import { hasFeature, hasFullDataAccess, isScopedToken, type Principal } from '../../app/auth/principal.ts';
import { canReadCollection } from '../../kernel/index.ts';
import type { Prisma, WebhookDelivery, WebhookDeliveryAttempt, WebhookSubscription } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { pagination, parsePaging, type PageInput, type PaginationShape, byCreation } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { ConflictError, type ErrorDetail, NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { randomSecret } from '../../app/ids.ts';
import { parseInput } from '../../app/validate.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import { runTransaction } from '../../app/transaction.ts';
import { secretBoxFor } from '../../app/secret-box.ts';
import { checkTargetAtCreation, parseTargetUrl, TargetRefused } from './target-guard.ts';
import { secretContext } from './webhook-delivery.ts';
import { webhookId } from './webhooks.ids.ts';
import type { WebhookDeliveryAttemptEvent } from './webhooks.events.ts';
import { createWebhookInput, parseFilterCriteria, readFilterCollections, updateWebhookInput, WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS } from './webhooks.input.ts';

export type WebhookDeliveryWithAttempts = WebhookDelivery & { attempts: WebhookDeliveryAttempt[]; webhookSimplyId: string };

/** A page of a list (the GraphQL `<Thing>Page` and the REST `data` + `meta.pagination`). */
export interface WebhookPage<T> {
  nodes: T[];
  pagination: PaginationShape;
}

export interface CreatedWebhook {
  row: WebhookSubscription;
  /** shown once */
  secret: string;
  /** e.g. a target host that does not resolve yet */
  warnings: string[];
}

export interface UpdatedWebhook {
  row: WebhookSubscription;
  warnings: string[];
}

/** the subscriptions these routes manage: action-tag lifecycle ones belong to /v1/action-tags/webhooks (Document 1 §4.8) */
const GENERIC_EVENT_TYPES: string[] = [...WEBHOOK_EVENT_TYPES];
/** record-event subscriptions, whichever route made them (space bookings' registrations too) */
export const GENERIC_SURFACE: SubscriptionSurface = { eventTypes: GENERIC_EVENT_TYPES, limit: WEBHOOK_LIMITS.perTeam, what: 'webhook subscriptions' };

/** The subscription in the caller's team; anything else (other teams' and action-tag ones included) is 404. */
async function findWebhook(ctx: RequestContext, simplyId: string): Promise<WebhookSubscription> {
  const team = requireTeam(ctx);
  webhookId.assert(simplyId, 'webhookSimplyId');
  const row = await ctx.services.prisma.webhookSubscription.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!row || !GENERIC_EVENT_TYPES.includes(row.eventType)) throw new NotFoundError('Webhook subscription', simplyId);
  return row;
}

/**
 * The URL to store, and a warning when its host does not resolve yet (target-guard.ts,
 * checkTargetAtCreation); 400 for a URL that is not a public HTTPS target (resolved now, and again
 * before every attempt).
 */
export async function checkWebhookTarget(ctx: RequestContext, raw: string): Promise<{ url: string; warning: string | null }> {
  try {
    const url = parseTargetUrl(raw.trim());
    const warning = await checkTargetAtCreation(url, { allowLoopback: ctx.services.config.WEBHOOK_ALLOW_LOOPBACK });
    return { url: url.toString(), warning };
  } catch (error) {
    if (error instanceof TargetRefused) throw new ValidationError(`targetUrl ${error.message}`, [{ field: 'targetUrl', message: error.message }]);
    throw error;
  }
}

/**
 * The caller may subscribe to what the filter lets through (null: every collection). A stored
 * filter may name collections deleted since (`ignoreMissing`): they deliver nothing, so they
 * must not block e.g. pausing the subscription.
 */
async function checkFilterAccess(ctx: RequestContext, collections: string[] | null, ignoreMissing = false): Promise<void> {
  const p: Principal = ctx.principal;
  if (collections === null) {
    if (!hasFullDataAccess(p, 'READ')) {
      throw new PermissionDeniedError('Only credentials with full data access may subscribe to every collection; set filterCriteria.dataCollectionIds to collections you can read');
    }
    return;
  }
  const schema = await ctx.services.schemas.get(requireTeam(ctx).id);
  const unknown: ErrorDetail[] = [];
  const unreadable: string[] = [];
  collections.forEach((id, i) => {
    const collection = schema.collectionsBySimplyId.get(id);
    if (!collection) {
      if (!ignoreMissing) unknown.push({ field: `filterCriteria.dataCollectionIds[${i}]`, message: `no collection ${id} in this team` });
    } else if (!canReadCollection(p, collection)) unreadable.push(id);
  });
  if (unknown.length > 0) throw new ValidationError('filterCriteria names unknown collections', unknown);
  if (unreadable.length > 0) throw new PermissionDeniedError(`The credential's team role cannot read collection(s) ${unreadable.join(', ')}, so it cannot subscribe to them`);
}

export async function listWebhooks(ctx: RequestContext, args: PageInput): Promise<WebhookPage<WebhookSubscription>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const where = { teamId: team.id, eventType: { in: GENERIC_EVENT_TYPES } };
  const [nodes, total] = await Promise.all([
    ctx.services.prisma.webhookSubscription.findMany({ where, ...byCreation(paging, 'desc') }),
    ctx.services.prisma.webhookSubscription.count({ where }),
  ]);
  return { nodes, pagination: pagination(total, paging) };
}

export async function getWebhook(ctx: RequestContext, simplyId: string): Promise<WebhookSubscription> {
  return findWebhook(ctx, simplyId);
}

/** Which subscriptions a surface manages (the generic routes, or action tags' own) and how many a team may have. */
export interface SubscriptionSurface {
  eventTypes: readonly string[];
  limit: number;
  /** the surface's name for them, in the refusal */
  what: string;
}

/**
 * New subscriptions of a surface, one per event type, sharing one secret, their target checked by
 * the caller: the team's creates take turns, so concurrent ones cannot all pass the count and
 * overrun the limit; the secret is sealed and returned once.
 */
export async function insertSubscriptions(
  ctx: RequestContext,
  surface: SubscriptionSurface,
  fields: { eventTypes: readonly string[]; targetUrl: string; filterCriteria?: { dataCollectionIds: string[] } | null; retryCount?: number; retryDelaySeconds?: number; timeoutSeconds?: number },
): Promise<{ rows: WebhookSubscription[]; secret: string }> {
  const team = requireTeam(ctx);
  const secret = `whsec_${randomSecret(32)}`;
  const box = secretBoxFor(ctx.services.config.secretsKeyFile);
  const rows = await runTransaction(ctx.services.prisma, async (tx) => {
    const lock = advisoryLock('webhookSubscriptions', String(team.id));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    const held = await tx.webhookSubscription.count({ where: { teamId: team.id, eventType: { in: [...surface.eventTypes] } } });
    if (held + fields.eventTypes.length > surface.limit) {
      throw new ConflictError(`A team may have at most ${surface.limit} ${surface.what}${fields.eventTypes.length > 1 ? ` and this adds ${fields.eventTypes.length}` : ''}; delete one first`);
    }
    const created: WebhookSubscription[] = [];
    for (const eventType of fields.eventTypes) {
      const simplyId = webhookId.create();
      created.push(
        await tx.webhookSubscription.create({
          data: {
            simplyId,
            teamId: team.id,
            eventType,
            targetUrl: fields.targetUrl,
            filterCriteria: (fields.filterCriteria ?? null) as never,
            secretCiphertext: box.seal(secret, secretContext(team.id, simplyId)) as Uint8Array<ArrayBuffer>,
            retryCount: fields.retryCount ?? WEBHOOK_LIMITS.retryCount.default,
            retryDelaySeconds: fields.retryDelaySeconds ?? WEBHOOK_LIMITS.retryDelaySeconds.default,
            timeoutSeconds: fields.timeoutSeconds ?? WEBHOOK_LIMITS.timeoutSeconds.default,
            createdByKind: ctx.principal.kind,
            createdById: ctx.principal.credentialId,
          },
        }),
      );
    }
    return created;
  });
  return { rows, secret };
}

export async function createWebhook(ctx: RequestContext, raw: unknown): Promise<CreatedWebhook> {
  const input = parseInput(createWebhookInput, raw, 'Invalid webhook subscription');
  const collections = parseFilterCriteria(input.filterCriteria);
  const target = await checkWebhookTarget(ctx, input.targetUrl);
  await checkFilterAccess(ctx, collections);
  const { rows, secret } = await insertSubscriptions(ctx, GENERIC_SURFACE, {
    ...input,
    eventTypes: [input.eventType],
    targetUrl: target.url,
    filterCriteria: collections ? { dataCollectionIds: collections } : null,
  });
  return { row: rows[0]!, secret, warnings: target.warning ? [target.warning] : [] };
}

export async function updateWebhook(ctx: RequestContext, simplyId: string, raw: unknown): Promise<UpdatedWebhook> {
  const current = await findWebhook(ctx, simplyId);
  const input = parseInput(updateWebhookInput, raw, 'Invalid webhook subscription update');
  const data: Prisma.WebhookSubscriptionUpdateInput = {};
  let collections = readFilterCollections(current.filterCriteria);
  if (input.filterCriteria !== undefined) {
    collections = parseFilterCriteria(input.filterCriteria);
    data.filterCriteria = collections ? { dataCollectionIds: collections } : (null as never);
  }
  const warnings: string[] = [];
  if (input.targetUrl !== undefined) {
    const target = await checkWebhookTarget(ctx, input.targetUrl);
    data.targetUrl = target.url;
    if (target.warning) warnings.push(target.warning);
  }
  await checkFilterAccess(ctx, collections, input.filterCriteria === undefined);
  for (const key of ['isActive', 'isPaused', 'retryCount', 'retryDelaySeconds', 'timeoutSeconds'] as const) {
    if (input[key] !== undefined) (data as Record<string, unknown>)[key] = input[key];
  }
  return { row: await ctx.services.prisma.webhookSubscription.update({ where: { id: current.id }, data }), warnings };
}

/** Deletes the subscription with its delivery log; queued attempts find nothing and stop. */
export async function deleteWebhook(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const row = await findWebhook(ctx, simplyId);
  // of concurrent deletes one removes the row; the others find it gone, as a later delete would (404)
  const { count } = await ctx.services.prisma.webhookSubscription.deleteMany({ where: { teamId: row.teamId, id: row.id } });
  if (count === 0) throw new NotFoundError('Webhook subscription', simplyId);
  return true;
}

/** The delivery log: one entry per delivery (event), newest first, each with all its attempts. */
export async function listDeliveries(ctx: RequestContext, simplyId: string, args: PageInput): Promise<WebhookPage<WebhookDeliveryWithAttempts>> {
  return deliveriesOf(ctx, await findWebhook(ctx, simplyId), args);
}

/** A subscription's delivery log: one entry per event, newest first, each with its attempts. */
export async function deliveriesOf(ctx: RequestContext, webhook: WebhookSubscription, args: PageInput): Promise<WebhookPage<WebhookDeliveryWithAttempts>> {
  const paging = parsePaging(args);
  const where = { teamId: webhook.teamId, subscriptionId: webhook.id };
  const { prisma } = ctx.services;
  const [rows, total] = await Promise.all([
    prisma.webhookDelivery.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: paging.offset,
      take: paging.limit,
      include: { attempts: { orderBy: { attemptNumber: 'asc' } } },
    }),
    prisma.webhookDelivery.count({ where }),
  ]);
  return { nodes: rows.map((r) => ({ ...r, webhookSimplyId: webhook.simplyId })), pagination: pagination(total, paging) };
}

/** The team's finished delivery attempts from every instance (the webhookDeliveryAttempts subscription). */
export function subscribeAttemptEvents(ctx: RequestContext, webhookSimplyId?: string | null): AsyncIterable<WebhookDeliveryAttemptEvent> {
  if (webhookSimplyId != null) webhookId.assert(webhookSimplyId, 'webhookSimplyId');
  return ctx.services.events.pubsub.subscribe('webhookDeliveryAttempts', requireTeam(ctx).simplyId) as AsyncIterable<WebhookDeliveryAttemptEvent>;
}

/**
 * Whether a subscriber still gets this attempt: of the subscription it asked for (if any), and its
 * credential, read again now, still has TEAM_SETTINGS; one that lost it (or was revoked) hears nothing more.
 */
export async function mayReceiveAttemptEvent(ctx: RequestContext, event: WebhookDeliveryAttemptEvent, webhookSimplyId?: string | null): Promise<boolean> {
  if (webhookSimplyId != null && event.webhookSimplyId !== webhookSimplyId) return false;
  if (ctx.refreshPrincipal) {
    const fresh = await ctx.refreshPrincipal().catch(() => null);
    if (!fresh) return false;
    ctx.principal = fresh;
  }
  return !isScopedToken(ctx.principal) && hasFeature(ctx.principal, 'TEAM_SETTINGS', 'VIEW');
}
