// Webhooks: subscriptions, signed deliveries with retries, and the delivery log.
import { defineModule } from '../../app/module.ts';
import * as schema from './webhook.schema.ts';
import { webhookJobs } from './webhook.jobs.ts';
import { webhookFanOut } from './webhook-fanout.ts';

export const webhooksModule = defineModule({
  name: 'webhooks',
  schema,
  jobs: (services) => webhookJobs(services) as never[],
  outboxConsumers: (services) => ({ webhooks: webhookFanOut(services) }),
  topics: ['webhookDeliveryAttempts'],
});
