// /v1/webhooks → src/webhooks/webhook.schema.ts
import { bodyObject, defineRoutes, intParam, pageVariables, respondPage } from '../legacy-route.ts';

const WEBHOOK = `id eventType targetUrl filterCriteria signatureHeader isActive isPaused retryCount retryDelaySeconds timeoutSeconds
  totalDeliveries successfulDeliveries failedDeliveries lastDeliveryStatus lastDeliveryAt createdAt updatedAt`;
const ATTEMPT = `attemptNumber startedAt completedAt success responseStatus responseTimeMs responseBody errorMessage`;
const DELIVERY = `id eventId eventType eventOccurredAt deliveryStatus attemptNumber responseStatus responseTimeMs responseBody errorMessage
  createdAt lastAttemptAt nextAttemptAt completedAt attempts { ${ATTEMPT} }`;
const PAGINATION = `pagination { total limit offset hasMore }`;

export const webhookRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/v1/webhooks',
    summary: 'Create a webhook subscription (TEAM_SETTINGS edit): { eventType, targetUrl, filterCriteria?, retryCount?, retryDelaySeconds?, timeoutSeconds? }; the secret is returned once',
    operation: `mutation CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { ${WEBHOOK} secret } }`,
    body: 'required',
    variables: (req) => ({ input: bodyObject(req) }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/webhooks',
    summary: "The team's webhook subscriptions, newest first (TEAM_SETTINGS view): limit, offset",
    operation: `query Webhooks($limit: Int, $offset: Int) { webhooks(limit: $limit, offset: $offset) { nodes { ${WEBHOOK} } ${PAGINATION} } }`,
    variables: pageVariables,
    respond: respondPage,
  },
  {
    method: 'GET',
    path: '/v1/webhooks/{webhookSimplyId}',
    summary: 'One webhook subscription (no secret)',
    operation: `query Webhook($id: String!) { webhook(webhookSimplyId: $id) { ${WEBHOOK} } }`,
    variables: (req) => ({ id: req.params.webhookSimplyId }),
  },
  {
    method: 'PUT',
    path: '/v1/webhooks/{webhookSimplyId}',
    summary: 'Update (TEAM_SETTINGS edit): any of targetUrl, filterCriteria, isActive, isPaused, retryCount, retryDelaySeconds, timeoutSeconds; fields left out stay',
    operation: `mutation UpdateWebhook($id: String!, $input: UpdateWebhookInput!) { updateWebhook(webhookSimplyId: $id, input: $input) { ${WEBHOOK} } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.webhookSimplyId, input: bodyObject(req) }),
  },
  {
    method: 'DELETE',
    path: '/v1/webhooks/{webhookSimplyId}',
    summary: 'Delete a subscription and its delivery log (TEAM_SETTINGS edit)',
    operation: `mutation DeleteWebhook($id: String!) { deleteWebhook(webhookSimplyId: $id) }`,
    variables: (req) => ({ id: req.params.webhookSimplyId }),
    respond: (_deleted, req) => ({ data: { id: req.params.webhookSimplyId, deleted: true } }),
  },
  {
    method: 'GET',
    path: '/v1/webhooks/{webhookSimplyId}/deliveries',
    summary: 'The delivery log, newest first (limit 1-100, offset): one entry per delivery with its latest attempt flattened and every attempt',
    operation: `query WebhookDeliveries($id: String!, $limit: Int, $offset: Int) {
      webhookDeliveries(webhookSimplyId: $id, limit: $limit, offset: $offset) { nodes { ${DELIVERY} } ${PAGINATION} } }`,
    variables: (req) => ({ id: req.params.webhookSimplyId, limit: intParam(req, 'limit'), offset: intParam(req, 'offset') }),
    respond: respondPage,
  },
]);
