// /v1/webhooks → src/modules/webhooks/webhooks.schema.ts
import { createWebhookInput, updateWebhookInput } from '../../src/modules/webhooks/webhooks.input.ts';
import { CREATED_WEBHOOK, UPDATED_WEBHOOK, WEBHOOK, WEBHOOK_DELIVERY } from '../../src/modules/webhooks/webhooks.fragments.ts';
import { defineRoutes, respond } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';

const ONE = '/v1/webhooks/{webhookSimplyId}';

export const webhookRoutes = defineRoutes([
  createOne({
    path: '/v1/webhooks',
    summary: 'Create a webhook',
    description: 'Create a webhook subscription (TEAM_SETTINGS edit): { eventType, targetUrl, filterCriteria?, retryCount?, retryDelaySeconds?, timeoutSeconds? }; the secret is returned once; a target host that does not resolve yet is accepted with meta.warnings',
    name: 'CreateWebhook',
    inputType: 'CreateWebhookInput',
    body: createWebhookInput,
    example: {
      eventType: 'DATA_RECORD_CREATED',
      targetUrl: 'https://hooks.example.org/svc/records',
      filterCriteria: { dataCollectionIds: ['GH89-JK23-MN45'] },
      retryCount: 3,
      timeoutSeconds: 10,
    },
    select: CREATED_WEBHOOK,
    respond: respond.warningsToMeta,
  }),
  listPage({ path: '/v1/webhooks', summary: 'List webhooks', description: "The team's webhook subscriptions, newest first (TEAM_SETTINGS view): limit, offset", name: 'Webhooks', select: WEBHOOK }),
  getOne({ path: ONE, summary: 'Get a webhook', description: 'One webhook subscription (no secret)', name: 'Webhook', select: WEBHOOK }),
  updateOne({
    method: 'PUT',
    path: ONE,
    summary: 'Update a webhook',
    description: 'Update (TEAM_SETTINGS edit): any of targetUrl, filterCriteria, isActive, isPaused, retryCount, retryDelaySeconds, timeoutSeconds; fields left out stay',
    name: 'UpdateWebhook',
    inputType: 'UpdateWebhookInput',
    body: updateWebhookInput,
    example: { isPaused: true, retryDelaySeconds: 300 },
    select: UPDATED_WEBHOOK,
    respond: respond.warningsToMeta,
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Delete a webhook', description: 'Delete a subscription and its delivery log (TEAM_SETTINGS edit)', name: 'DeleteWebhook', field: 'deleteWebhook' }),
  listPage({
    path: `${ONE}/deliveries`,
    summary: 'List webhook deliveries',
    description: 'The delivery log, newest first (limit 1-100, offset): one entry per delivery with its latest attempt flattened and every attempt',
    name: 'WebhookDeliveries',
    select: WEBHOOK_DELIVERY,
  }),
]);
