// Webhooks: subscriptions, signed deliveries with retries, and the delivery log.
import { defineModule } from '../../app/module.ts';
import { webhooksConfig } from './webhooks.config.ts';
import * as schema from './webhooks.schema.ts';
import { webhookDeliveryId, webhookId } from './webhooks.ids.ts';
import { webhookJobs } from './webhooks.jobs.ts';
import { webhookFanOut } from './webhook-fanout.ts';

export const webhooksModule = defineModule({
  name: 'webhooks',
  description: 'Webhook subscriptions: signed deliveries of record events with retries, and the delivery log.',
  config: webhooksConfig,
  schema,
  ids: [webhookId, webhookDeliveryId],
  jobs: (services) => webhookJobs(services) as never[],
  outboxConsumers: (services) => ({ webhooks: webhookFanOut(services) }),
  topics: ['webhookDeliveryAttempts'],
});
