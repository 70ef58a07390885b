// GraphQL face of action-tag lifecycle webhooks (docs/api/action-tags.md "Lifecycle webhooks").
// REST: rest-adapter/routes/action-tags/webhooks.ts. Privileged TEAM_ADMIN_SVC_TAGS (view to read,
// edit to write); the 500 band, in the service.
import { builder, type BuilderTypes } from '../../app/builder.ts';
import { byId, pageArgs, pageById, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { tier } from '../../app/auth/tiers.ts';
import { ACTION_TAG_EVENT_TYPES, WebhookDeliveryPageRef } from '../webhooks/index.ts';
import {
  createActionTagWebhook,
  deleteActionTagWebhook,
  getActionTagWebhook,
  listActionTagWebhookDeliveries,
  listActionTagWebhooks,
  updateActionTagWebhook,
  type ActionTagWebhookView,
} from './action-tag-webhooks.service.ts';

const READ = tier.privileged('TEAM_ADMIN_SVC_TAGS', 'VIEW');
const WRITE = tier.privileged('TEAM_ADMIN_SVC_TAGS', 'EDIT');

const ActionTagWebhookEventTypeEnum = builder.enumType('ActionTagWebhookEventType', {
  description:
    'ACTION_TAG_CREATED, ACTION_TAG_UPDATED (any field but the status), ACTION_TAG_STATUS_CHANGED, ACTION_TAG_DELETED, ACTION_TAG_SCANNED (one event per tag per recorded batch of scans, with counts)',
  values: ACTION_TAG_EVENT_TYPES,
});

function subscriptionFields(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, ActionTagWebhookView>) {
  return {
    ...simplyIdFields(t, 'actionTagWebhookSimplyId'),
    eventType: t.field({ type: ActionTagWebhookEventTypeEnum, resolve: (w) => w.row.eventType as never }),
    targetUrl: t.string({ resolve: (w) => w.row.targetUrl }),
    signatureHeader: t.string({ description: 'the header carrying the signature (X-SVC-Signature)', resolve: (w) => w.row.signatureHeader }),
    isActive: t.boolean({ resolve: (w) => w.row.isActive }),
    isPaused: t.boolean({ resolve: (w) => w.row.isPaused }),
    retryCount: t.int({ description: 'retries after a failed first attempt (0-10)', resolve: (w) => w.row.retryCount }),
    retryDelaySeconds: t.int({ description: 'seconds between attempts (1-3600)', resolve: (w) => w.row.retryDelaySeconds }),
    timeoutSeconds: t.int({ description: 'per attempt (1-60)', resolve: (w) => w.row.timeoutSeconds }),
    totalDeliveries: t.int({ resolve: (w) => w.row.totalDeliveries }),
    successfulDeliveries: t.int({ resolve: (w) => w.row.successfulDeliveries }),
    failedDeliveries: t.int({ resolve: (w) => w.row.failedDeliveries }),
    lastDeliveryStatus: t.string({ nullable: true, description: 'PENDING, RETRYING, SUCCEEDED or FAILED', resolve: (w) => w.row.lastDeliveryStatus }),
    lastDeliveryAt: t.field({ type: 'DateTime', nullable: true, resolve: (w) => w.row.lastDeliveryAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => w.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (w) => w.row.updatedAt }),
  };
}

const warnings = (t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, ActionTagWebhookView>) =>
  t.stringList({ description: 'what the change was accepted despite, e.g. a target host that does not resolve yet', resolve: (w) => w.warnings ?? [] });

const ActionTagWebhookRef = builder.objectRef<ActionTagWebhookView>('ActionTagWebhook').implement({
  description: 'A subscription to one action-tag lifecycle event; its secret is never shown after creation.',
  fields: (t) => subscriptionFields(t),
});

const CreatedActionTagWebhookRef = builder.objectRef<ActionTagWebhookView>('CreatedActionTagWebhook').implement({
  description: 'A new action-tag webhook with its signing secret: shown this once, never again.',
  fields: (t) => ({
    ...subscriptionFields(t),
    secret: t.string({ description: 'the HMAC-SHA-256 key for X-SVC-Signature (its UTF-8 bytes)', resolve: (w) => w.secret ?? '' }),
    warnings: warnings(t),
  }),
});

const UpdatedActionTagWebhookRef = builder.objectRef<ActionTagWebhookView>('UpdatedActionTagWebhook').implement({
  description: 'An action-tag webhook as an update left it, with the warnings of the update.',
  fields: (t) => ({ ...subscriptionFields(t), warnings: warnings(t) }),
});

const ActionTagWebhookPageRef = pageType('ActionTagWebhookPage', ActionTagWebhookRef);

const CreateActionTagWebhookInput = builder.inputType('CreateActionTagWebhookInput', {
  fields: (t) => ({
    eventType: t.string({ required: true, description: ACTION_TAG_EVENT_TYPES.join(', ') }),
    targetUrl: t.string({ required: true, description: 'a public https:// URL' }),
    retryCount: t.int({ description: '0-10, default 3' }),
    retryDelaySeconds: t.int({ description: '1-3600, default 60' }),
    timeoutSeconds: t.int({ description: '1-60, default 30' }),
  }),
});

const UpdateActionTagWebhookInput = builder.inputType('UpdateActionTagWebhookInput', {
  description: 'Fields left out stay as they are.',
  fields: (t) => ({
    targetUrl: t.string(),
    isActive: t.boolean(),
    isPaused: t.boolean(),
    retryCount: t.int(),
    retryDelaySeconds: t.int(),
    timeoutSeconds: t.int(),
  }),
});

builder.queryFields((t) => ({
  actionTagWebhooks: t.field({
    type: ActionTagWebhookPageRef,
    description: "The team's action-tag lifecycle webhooks, newest first (TEAM_ADMIN_SVC_TAGS view; 500 band).",
    authScopes: READ,
    args: pageArgs(t.arg),
    resolve: withArgs(listActionTagWebhooks),
  }),
  actionTagWebhook: t.field({
    type: ActionTagWebhookRef,
    description: 'One action-tag webhook (no secret).',
    authScopes: READ,
    ...byId(t.arg, 'actionTagWebhookSimplyId', getActionTagWebhook),
  }),
  actionTagWebhookDeliveries: t.field({
    type: WebhookDeliveryPageRef,
    description: 'The delivery log of an action-tag webhook: one entry per event, newest first, with its attempts.',
    authScopes: READ,
    ...pageById(t.arg, 'actionTagWebhookSimplyId', listActionTagWebhookDeliveries),
  }),
}));

builder.mutationFields((t) => ({
  createActionTagWebhook: t.field({
    type: CreatedActionTagWebhookRef,
    description: 'Subscribes a public HTTPS URL to one action-tag lifecycle event; returns the signing secret once (TEAM_ADMIN_SVC_TAGS edit; 500 band).',
    authScopes: WRITE,
    args: { input: t.arg({ type: CreateActionTagWebhookInput, required: true }) },
    resolve: (_root, args, ctx) => createActionTagWebhook(ctx, givenFields(args.input)),
  }),
  updateActionTagWebhook: t.field({
    type: UpdatedActionTagWebhookRef,
    description: 'Re-point, pause, deactivate or retune an action-tag webhook (TEAM_ADMIN_SVC_TAGS edit).',
    authScopes: WRITE,
    args: { actionTagWebhookSimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdateActionTagWebhookInput, required: true }) },
    resolve: (_root, args, ctx) => updateActionTagWebhook(ctx, args.actionTagWebhookSimplyId, givenFields(args.input)),
  }),
  deleteActionTagWebhook: t.boolean({
    description: 'Deletes an action-tag webhook and its delivery log (TEAM_ADMIN_SVC_TAGS edit).',
    authScopes: WRITE,
    ...byId(t.arg, 'actionTagWebhookSimplyId', deleteActionTagWebhook),
  }),
}));
