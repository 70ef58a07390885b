// The selections of the action-tag webhook types that the REST table and tests use.
import { fragment } from '../../app/graphql/fragments.ts';

// a new subscription is another type (it carries the secret), so the fragments share the fields
const FIELDS = `id eventType targetUrl signatureHeader isActive isPaused retryCount retryDelaySeconds timeoutSeconds
  totalDeliveries successfulDeliveries failedDeliveries lastDeliveryStatus lastDeliveryAt createdAt updatedAt`;

export const ACTION_TAG_WEBHOOK = fragment('ActionTagWebhookFields', 'ActionTagWebhook', FIELDS);

/** shown once: the subscription with its signing secret */
export const CREATED_ACTION_TAG_WEBHOOK = fragment('CreatedActionTagWebhookFields', 'CreatedActionTagWebhook', `${FIELDS} secret warnings`);

export const UPDATED_ACTION_TAG_WEBHOOK = fragment('UpdatedActionTagWebhookFields', 'UpdatedActionTagWebhook', `${FIELDS} warnings`);
