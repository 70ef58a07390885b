// GraphQL face of webhook subscriptions (Document 1 §2.9, §4.8, §6). REST:
// rest-adapter/routes/webhooks.ts. Every field needs TEAM_SETTINGS (view to read, edit to write;
// team admins pass) on the privileged tier (no scoped tokens); the data rule on filters is in
// webhooks.service.ts.
import { filter, pipe } from 'graphql-yoga';
import type { WebhookDeliveryAttempt, WebhookSubscription } from '../../generated/prisma/client.ts';
import { builder, type BuilderTypes } from '../../app/builder.ts';
import { byId, pageArgs, pageById } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { tier } from '../../app/auth/tiers.ts';
import type { WebhookDeliveryAttemptEvent } from './webhooks.events.ts';
import { readFilterCollections, WEBHOOK_EVENT_TYPES } from './webhooks.input.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  mayReceiveAttemptEvent,
  subscribeAttemptEvents,
  updateWebhook,
  type CreatedWebhook,
  type WebhookDeliveryWithAttempts,
} from './webhooks.service.ts';

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'PENDING (no attempt yet) → RETRYING (an attempt failed, another is scheduled) → SUCCEEDED | FAILED (final)',
  values: ['PENDING', 'RETRYING', 'SUCCEEDED', 'FAILED'] as const,
});

export const WebhookDeliveryWaitingReasonEnum = builder.enumType('WebhookDeliveryWaitingReason', {
  description: 'Why a delivery waits beyond its schedule. TARGET_PAUSED: its target (team and target origin) failed repeatedly and is paused until nextAttemptAt; the wait costs no attempt',
  values: ['TARGET_PAUSED'] as const,
});

type SubscriptionView = { row: WebhookSubscription; secret?: string; warnings?: string[] };

function subscriptionFields(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, SubscriptionView>) {
  return {
    ...simplyIdFields(t, 'webhookSimplyId'),
    eventType: t.string({ description: WEBHOOK_EVENT_TYPES.join(', '), resolve: (w) => w.row.eventType }),
    targetUrl: t.string({ resolve: (w) => w.row.targetUrl }),
    filterCriteria: t.field({
      type: 'JSON',
      nullable: true,
      description: '{ dataCollectionIds: [collection simplyId] }, or null for every collection',
      resolve: (w) => {
        const ids = readFilterCollections(w.row.filterCriteria);
        return ids ? { dataCollectionIds: ids } : null;
      },
    }),
    signatureHeader: t.string({ description: 'the header carrying the signature (X-SVC-Signature)', resolve: (w) => w.row.signatureHeader }),
    isActive: t.boolean({ resolve: (w) => w.row.isActive }),
    isPaused: t.boolean({ resolve: (w) => w.row.isPaused }),
    retryCount: t.int({ description: 'retries after a failed first attempt (0-10)', resolve: (w) => w.row.retryCount }),
    retryDelaySeconds: t.int({ description: 'seconds between attempts (1-3600)', resolve: (w) => w.row.retryDelaySeconds }),
    timeoutSeconds: t.int({ description: 'per attempt (1-60)', resolve: (w) => w.row.timeoutSeconds }),
    totalDeliveries: t.int({ description: 'deliveries created (one per matching event), finished or not', resolve: (w) => w.row.totalDeliveries }),
    successfulDeliveries: t.int({ resolve: (w) => w.row.successfulDeliveries }),
    failedDeliveries: t.int({ description: 'deliveries that ended FAILED', resolve: (w) => w.row.failedDeliveries }),
    lastDeliveryStatus: t.field({
      type: WebhookDeliveryStatusEnum,
      nullable: true,
      description: 'status of the delivery of the latest attempt, after that attempt',
      resolve: (w) => w.row.lastDeliveryStatus as never,
    }),
    lastDeliveryAt: t.field({ type: 'DateTime', nullable: true, description: 'when the latest attempt finished', resolve: (w) => w.row.lastDeliveryAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => w.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (w) => w.row.updatedAt }),
  };
}

export const WebhookRef = builder.objectRef<SubscriptionView>('Webhook').implement({
  description: 'A webhook subscription; its secret is never shown after creation.',
  fields: (t) => subscriptionFields(t),
});

const warningsField = (t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, SubscriptionView>) =>
  t.stringList({ description: 'what the change was accepted despite, e.g. a target host that does not resolve yet', resolve: (w) => w.warnings ?? [] });

const CreatedWebhookRef = builder.objectRef<SubscriptionView>('CreatedWebhook').implement({
  description: 'A new webhook subscription with its signing secret: shown this once, never again.',
  fields: (t) => ({
    ...subscriptionFields(t),
    secret: t.string({ description: 'the HMAC-SHA-256 key for X-SVC-Signature (its UTF-8 bytes)', resolve: (w) => w.secret ?? '' }),
    warnings: warningsField(t),
  }),
});

const UpdatedWebhookRef = builder.objectRef<SubscriptionView>('UpdatedWebhook').implement({
  description: 'A webhook subscription as an update left it, with the warnings of the update.',
  fields: (t) => ({ ...subscriptionFields(t), warnings: warningsField(t) }),
});

const WebhookPageRef = pageType('WebhookPage', WebhookRef);

const AttemptRef = builder.objectRef<WebhookDeliveryAttempt>('WebhookDeliveryAttempt').implement({
  fields: (t) => ({
    attemptNumber: t.exposeInt('attemptNumber'),
    startedAt: t.field({ type: 'DateTime', resolve: (a) => a.startedAt }),
    completedAt: t.field({ type: 'DateTime', resolve: (a) => a.completedAt }),
    success: t.exposeBoolean('success'),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    responseTimeMs: t.exposeInt('responseTimeMs', { nullable: true }),
    responseBody: t.exposeString('responseBody', { nullable: true, description: 'the first 4 096 characters' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
  }),
});

const last = (d: WebhookDeliveryWithAttempts) => d.attempts[d.attempts.length - 1] ?? null;

const DeliveryRef = builder.objectRef<WebhookDeliveryWithAttempts>('WebhookDelivery').implement({
  description: 'One event for one subscription: its status, its latest attempt (flattened) and every attempt.',
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    deliverySimplyId: t.exposeString('simplyId'),
    webhookSimplyId: t.exposeString('webhookSimplyId'),
    eventId: t.exposeString('eventId', { description: 'X-Service-Event-Id: the idempotency key' }),
    eventType: t.exposeString('eventType'),
    eventOccurredAt: t.field({ type: 'DateTime', resolve: (d) => d.eventOccurredAt }),
    deliveryStatus: t.field({ type: WebhookDeliveryStatusEnum, resolve: (d) => d.deliveryStatus }),
    attemptNumber: t.int({ description: 'attempts made so far (0 while PENDING)', resolve: (d) => d.attemptCount }),
    responseStatus: t.int({ nullable: true, description: 'of the latest attempt', resolve: (d) => last(d)?.responseStatus ?? null }),
    responseTimeMs: t.int({ nullable: true, description: 'of the latest attempt', resolve: (d) => last(d)?.responseTimeMs ?? null }),
    responseBody: t.string({ nullable: true, description: 'of the latest attempt, first 4 096 characters', resolve: (d) => last(d)?.responseBody ?? null }),
    errorMessage: t.string({ nullable: true, description: 'of the latest attempt', resolve: (d) => last(d)?.errorMessage ?? null }),
    createdAt: t.field({ type: 'DateTime', description: 'when the event was matched to the subscription', resolve: (d) => d.createdAt }),
    lastAttemptAt: t.field({ type: 'DateTime', nullable: true, description: 'when the latest attempt started', resolve: (d) => last(d)?.startedAt ?? null }),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'when the next attempt is due: while RETRYING, or while waiting for a paused target (waitingReason)',
      resolve: (d) => d.nextAttemptAt,
    }),
    waitingReason: t.field({
      type: WebhookDeliveryWaitingReasonEnum,
      nullable: true,
      description: 'TARGET_PAUSED while the next attempt waits for the end of a target pause (until nextAttemptAt); null otherwise',
      resolve: (d) => (d.waitingReason === 'TARGET_PAUSED' ? 'TARGET_PAUSED' : null),
    }),
    completedAt: t.field({ type: 'DateTime', nullable: true, description: 'when it became SUCCEEDED or FAILED', resolve: (d) => d.completedAt }),
    attempts: t.field({ type: [AttemptRef], resolve: (d) => d.attempts }),
  }),
});

export const WebhookDeliveryPageRef = pageType('WebhookDeliveryPage', DeliveryRef);

const AttemptEventRef = builder.objectRef<WebhookDeliveryAttemptEvent>('WebhookDeliveryAttemptEvent').implement({
  fields: (t) => ({
    webhookSimplyId: t.exposeString('webhookSimplyId'),
    deliverySimplyId: t.exposeString('deliverySimplyId'),
    eventId: t.exposeString('eventId'),
    eventType: t.exposeString('eventType'),
    attemptNumber: t.exposeInt('attemptNumber'),
    deliveryStatus: t.field({ type: WebhookDeliveryStatusEnum, resolve: (e) => e.deliveryStatus as never }),
    success: t.exposeBoolean('success'),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    responseTimeMs: t.exposeInt('responseTimeMs', { nullable: true }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    attemptedAt: t.exposeString('attemptedAt'),
  }),
});

const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    eventType: t.string({ required: true, description: WEBHOOK_EVENT_TYPES.join(', ') }),
    targetUrl: t.string({ required: true, description: 'a public https:// URL' }),
    filterCriteria: t.field({ type: 'JSON', description: '{ dataCollectionIds: [collection simplyId] } (1-100), or null for every collection (full data access only)' }),
    retryCount: t.int({ description: '0-10, default 3' }),
    retryDelaySeconds: t.int({ description: '1-3600, default 60' }),
    timeoutSeconds: t.int({ description: '1-60, default 30' }),
  }),
});

const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  description: 'Fields left out stay as they are; filterCriteria null means every collection.',
  fields: (t) => ({
    targetUrl: t.string(),
    filterCriteria: t.field({ type: 'JSON' }),
    isActive: t.boolean(),
    isPaused: t.boolean(),
    retryCount: t.int(),
    retryDelaySeconds: t.int(),
    timeoutSeconds: t.int(),
  }),
});

builder.queryFields((t) => ({
  webhooks: t.field({
    type: WebhookPageRef,
    description: "The team's webhook subscriptions, newest first (TEAM_SETTINGS view).",
    authScopes: tier.privileged('TEAM_SETTINGS', 'VIEW'),
    args: pageArgs(t.arg),
    resolve: async (_root, args, ctx) => {
      const page = await listWebhooks(ctx, args);
      return { nodes: page.nodes.map((row) => ({ row })), pagination: page.pagination };
    },
  }),
  webhook: t.field({
    type: WebhookRef,
    authScopes: tier.privileged('TEAM_SETTINGS', 'VIEW'),
    args: { webhookSimplyId: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => ({ row: await getWebhook(ctx, args.webhookSimplyId) }),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryPageRef,
    description: 'The delivery log of a subscription: one entry per delivery, newest first, with its attempts.',
    authScopes: tier.privileged('TEAM_SETTINGS', 'VIEW'),
    ...pageById(t.arg, 'webhookSimplyId', listDeliveries),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: CreatedWebhookRef,
    description: 'TEAM_SETTINGS edit. Returns the signing secret once.',
    authScopes: tier.privileged('TEAM_SETTINGS', 'EDIT'),
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: async (_root, args, ctx): Promise<CreatedWebhook> => createWebhook(ctx, givenFields(args.input)),
  }),
  updateWebhook: t.field({
    type: UpdatedWebhookRef,
    description: 'TEAM_SETTINGS edit. Pause (isPaused), deactivate (isActive), re-point or re-filter a subscription.',
    authScopes: tier.privileged('TEAM_SETTINGS', 'EDIT'),
    args: { webhookSimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: async (_root, args, ctx) => updateWebhook(ctx, args.webhookSimplyId, givenFields(args.input, ['filterCriteria'])),
  }),
  deleteWebhook: t.boolean({
    description: 'TEAM_SETTINGS edit. Deletes the subscription and its delivery log.',
    authScopes: tier.privileged('TEAM_SETTINGS', 'EDIT'),
    ...byId(t.arg, 'webhookSimplyId', deleteWebhook),
  }),
}));

builder.subscriptionFields((t) => ({
  webhookDeliveryAttempts: t.field({
    type: AttemptEventRef,
    description: "Each finished delivery attempt of the team's webhooks (optionally of one), from every instance (TEAM_SETTINGS view).",
    authScopes: tier.privileged('TEAM_SETTINGS', 'VIEW'),
    args: { webhookSimplyId: t.arg.string() },
    subscribe: (_root, args, ctx) =>
      pipe(
        subscribeAttemptEvents(ctx, args.webhookSimplyId),
        filter((event: WebhookDeliveryAttemptEvent) => mayReceiveAttemptEvent(ctx, event, args.webhookSimplyId)),
      ),
    resolve: (event) => event,
  }),
}));
