// /v1/action-tags/webhooks → src/modules/action-tags/action-tag-webhooks.schema.ts (docs/api/action-tags.md
// "Lifecycle webhooks"). The documents name the collection only; the item routes mirror /v1/webhooks.
import { createActionTagWebhookInput, updateActionTagWebhookInput } from '../../../src/modules/action-tags/action-tag-webhooks.input.ts';
import { ACTION_TAG_WEBHOOK, CREATED_ACTION_TAG_WEBHOOK, UPDATED_ACTION_TAG_WEBHOOK } from '../../../src/modules/action-tags/action-tag-webhooks.fragments.ts';
import { WEBHOOK_DELIVERY } from '../../../src/modules/webhooks/webhooks.fragments.ts';
import { respond, type RouteExtension } from '../../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../../route-shapes.ts';

const LIST = '/v1/action-tags/webhooks';
const ONE = `${LIST}/{actionTagWebhookSimplyId}`;
const WHO = 'TEAM_ADMIN_SVC_TAGS; the 500 band or higher';

export const actionTagWebhookRoutes = [
  createOne({
    path: LIST,
    summary: 'Create an action-tag webhook',
    description: `Subscribe a public https:// URL to one action-tag lifecycle event: { eventType, targetUrl, retryCount?, retryDelaySeconds?, timeoutSeconds? }; deliveries are signed (X-SVC-Signature) and the secret is returned once (${WHO}, edit)`,
    name: 'CreateActionTagWebhook',
    inputType: 'CreateActionTagWebhookInput',
    body: createActionTagWebhookInput,
    example: { eventType: 'ACTION_TAG_STATUS_CHANGED', targetUrl: 'https://hooks.example.org/svc/tags', retryCount: 3, timeoutSeconds: 10 },
    select: CREATED_ACTION_TAG_WEBHOOK,
    respond: respond.warningsToMeta,
  }),
  listPage({ path: LIST, summary: 'List action-tag webhooks', description: `The team's action-tag lifecycle webhooks, newest first: limit, offset (${WHO}, view)`, name: 'ActionTagWebhooks', select: ACTION_TAG_WEBHOOK }),
  getOne({ path: ONE, summary: 'Get an action-tag webhook', description: `One action-tag webhook, without its secret (${WHO}, view)`, name: 'ActionTagWebhook', select: ACTION_TAG_WEBHOOK }),
  updateOne({
    method: 'PUT',
    path: ONE,
    summary: 'Update an action-tag webhook',
    description: `Any of targetUrl, isActive, isPaused, retryCount, retryDelaySeconds, timeoutSeconds; fields left out stay (${WHO}, edit)`,
    name: 'UpdateActionTagWebhook',
    inputType: 'UpdateActionTagWebhookInput',
    body: updateActionTagWebhookInput,
    example: { isPaused: true },
    select: UPDATED_ACTION_TAG_WEBHOOK,
    respond: respond.warningsToMeta,
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Delete an action-tag webhook', description: `Delete the subscription and its delivery log (${WHO}, edit)`, name: 'DeleteActionTagWebhook', field: 'deleteActionTagWebhook' }),
  listPage({
    path: `${ONE}/deliveries`,
    summary: 'List action-tag webhook deliveries',
    description: `The delivery log, newest first (limit 1-100, offset): one entry per event with every attempt (${WHO}, view)`,
    name: 'ActionTagWebhookDeliveries',
    select: WEBHOOK_DELIVERY,
  }),
];

const ITEM = 'the documents name the collection /v1/action-tags/webhooks only; reading, changing and deleting one subscription, and its delivery log, mirror /v1/webhooks';

export const actionTagWebhookExtensions: Record<string, RouteExtension> = {
  [`GET ${ONE}`]: { reason: ITEM },
  [`PUT ${ONE}`]: { reason: ITEM },
  [`DELETE ${ONE}`]: { reason: ITEM },
  [`GET ${ONE}/deliveries`]: { reason: ITEM },
};
