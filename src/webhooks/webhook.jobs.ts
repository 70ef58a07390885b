// Queues of the webhook area: the outbox consumer that turns record events into deliveries, and
// the delivery queue (one job per attempt, see webhook-delivery.ts).
import type { Services } from '../graphql/context.ts';
import type { DeliveryJobData } from './webhook-delivery.ts';
import { DELIVER_WEBHOOK, runDeliveryJob } from './webhook-delivery.ts';
import { webhookFanOut } from './webhook-fanout.ts';
import { secretBoxFor } from './secret-box.ts';

/** attempts one instance makes at once: a receiver that stalls until its timeout holds only one */
const DELIVERY_CONCURRENCY = 8;

export function defineWebhookJobs(services: Services): void {
  // the secrets key is created on first start, not on the first webhook
  secretBoxFor(services.config.secretsKeyFile);
  services.outbox.register('webhooks', webhookFanOut(services));
  services.jobs.define<DeliveryJobData>({
    name: DELIVER_WEBHOOK,
    localConcurrency: DELIVERY_CONCURRENCY,
    handler: async (jobs) => {
      for (const job of jobs) await runDeliveryJob(services, job);
    },
  });
}
