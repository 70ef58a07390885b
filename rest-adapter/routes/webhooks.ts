// /v1/webhooks → src/modules/webhooks/webhooks.schema.ts
import { createWebhookInput, updateWebhookInput } from '../../src/modules/webhooks/webhooks.input.ts';
import { CREATED_WEBHOOK, WEBHOOK, WEBHOOK_DELIVERY } from '../../src/modules/webhooks/webhooks.fragments.ts';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { pageQuery } from '../schemas.ts';

export const webhookRoutes = defineRoutes([
  route({
    method: 'POST',
    path: '/v1/webhooks',
    summary: 'Create a webhook subscription (TEAM_SETTINGS edit): { eventType, targetUrl, filterCriteria?, retryCount?, retryDelaySeconds?, timeoutSeconds? }; the secret is returned once',
    operation: operation`mutation CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { ${CREATED_WEBHOOK} } }`,
    body: createWebhookInput,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/v1/webhooks',
    summary: "The team's webhook subscriptions, newest first (TEAM_SETTINGS view): limit, offset",
    operation: operation`query Webhooks($limit: Int, $offset: Int) { webhooks(limit: $limit, offset: $offset) { nodes { ${WEBHOOK} } pagination { ${PAGINATION} } } }`,
    query: pageQuery,
    variables: ({ query }) => query,
    respond: respond.page,
  }),
  route({
    method: 'GET',
    path: '/v1/webhooks/{webhookSimplyId}',
    summary: 'One webhook subscription (no secret)',
    operation: operation`query Webhook($id: String!) { webhook(webhookSimplyId: $id) { ${WEBHOOK} } }`,
    variables: ({ params }) => ({ id: params.webhookSimplyId }),
  }),
  route({
    method: 'PUT',
    path: '/v1/webhooks/{webhookSimplyId}',
    summary: 'Update (TEAM_SETTINGS edit): any of targetUrl, filterCriteria, isActive, isPaused, retryCount, retryDelaySeconds, timeoutSeconds; fields left out stay',
    operation: operation`mutation UpdateWebhook($id: String!, $input: UpdateWebhookInput!) { updateWebhook(webhookSimplyId: $id, input: $input) { ${WEBHOOK} } }`,
    body: updateWebhookInput,
    variables: ({ params, body }) => ({ id: params.webhookSimplyId, input: body }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/webhooks/{webhookSimplyId}',
    summary: 'Delete a subscription and its delivery log (TEAM_SETTINGS edit)',
    operation: operation`mutation DeleteWebhook($id: String!) { deleteWebhook(webhookSimplyId: $id) }`,
    variables: ({ params }) => ({ id: params.webhookSimplyId }),
    respond: respond.deleted('webhookSimplyId'),
  }),
  route({
    method: 'GET',
    path: '/v1/webhooks/{webhookSimplyId}/deliveries',
    summary: 'The delivery log, newest first (limit 1-100, offset): one entry per delivery with its latest attempt flattened and every attempt',
    operation: operation`query WebhookDeliveries($id: String!, $limit: Int, $offset: Int) {
      webhookDeliveries(webhookSimplyId: $id, limit: $limit, offset: $offset) { nodes { ${WEBHOOK_DELIVERY} } pagination { ${PAGINATION} } } }`,
    query: pageQuery,
    variables: ({ params, query }) => ({ id: params.webhookSimplyId, ...query }),
    respond: respond.page,
  }),
]);
