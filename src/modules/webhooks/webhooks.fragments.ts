// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

// a new subscription is another type (it carries the secret), so both fragments share the fields
const SUBSCRIPTION_FIELDS = `id eventType targetUrl filterCriteria signatureHeader isActive isPaused retryCount retryDelaySeconds timeoutSeconds
  totalDeliveries successfulDeliveries failedDeliveries lastDeliveryStatus lastDeliveryAt createdAt updatedAt`;

export const WEBHOOK = fragment('WebhookFields', 'Webhook', SUBSCRIPTION_FIELDS);

/** shown once: the subscription with its signing secret */
export const CREATED_WEBHOOK = fragment('CreatedWebhookFields', 'CreatedWebhook', `${SUBSCRIPTION_FIELDS} secret warnings`);

/** after an update: the subscription and the update's warnings */
export const UPDATED_WEBHOOK = fragment('UpdatedWebhookFields', 'UpdatedWebhook', `${SUBSCRIPTION_FIELDS} warnings`);

export const WEBHOOK_DELIVERY_ATTEMPT = fragment(
  'WebhookDeliveryAttemptFields',
  'WebhookDeliveryAttempt',
  'attemptNumber startedAt completedAt success responseStatus responseTimeMs responseBody errorMessage',
);

export const WEBHOOK_DELIVERY = fragment(
  'WebhookDeliveryFields',
  'WebhookDelivery',
  selection`id eventId eventType eventOccurredAt deliveryStatus attemptNumber responseStatus responseTimeMs responseBody errorMessage
    createdAt lastAttemptAt nextAttemptAt waitingReason completedAt attempts { ${WEBHOOK_DELIVERY_ATTEMPT} }`,
);
