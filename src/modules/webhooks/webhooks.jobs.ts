// The delivery queue of the webhook area (one job per attempt, see webhook-delivery.ts).
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import type { DeliveryJobData } from './webhook-delivery.ts';
import { DELIVER_WEBHOOK, runDeliveryJob } from './webhook-delivery.ts';
import { secretBoxFor } from './secret-box.ts';

/** attempts one instance makes at once: a receiver that stalls until its timeout holds only one */
const DELIVERY_CONCURRENCY = 8;

export function webhookJobs(services: Services): JobDefinition<DeliveryJobData>[] {
  // the secrets key is created on first start, not on the first webhook
  secretBoxFor(services.config.secretsKeyFile);
  return [
    {
      name: DELIVER_WEBHOOK,
      concurrency: DELIVERY_CONCURRENCY,
      handler: async (jobs) => {
        for (const job of jobs) await runDeliveryJob(services, job);
      },
    },
  ];
}
