// The delivery queues of the webhook area (one job per attempt, see webhook-delivery.ts): the main
// lane, and the slow lane of targets that answer slowly (slow-targets.ts).
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { DELIVER_WEBHOOK, DELIVER_WEBHOOK_SLOW, type DeliveryJobData } from './delivery-job.ts';
import { deliverBatch } from './webhook-delivery.ts';
import { secretBoxFor } from '../../app/secret-box.ts';

/**
 * Handler calls one instance runs at once (JOB_CONCURRENCY overrides). A call holds its slot until
 * its slowest attempt ends (at most timeoutSeconds), though its fast attempts are settled at once,
 * so there are more slots than a stalling target may hold.
 */
const DELIVERY_CONCURRENCY = 32;
/** jobs one handler call fetches and attempts at once */
const DELIVERY_BATCH = 25;
/** the slow lane's slots (slow-targets.ts): all that slow targets can hold of an instance */
const SLOW_LANE_CONCURRENCY = 8;

export function webhookJobs(services: Services): JobDefinition<DeliveryJobData>[] {
  // the secrets key is created on first start, not on the first webhook
  secretBoxFor(services.config.secretsKeyFile);
  return [
    {
      name: DELIVER_WEBHOOK,
      concurrency: DELIVERY_CONCURRENCY,
      batchSize: DELIVERY_BATCH,
      // a slow or dead receiver holds no more attempts than this (WEBHOOK_TARGET_CONCURRENCY)
      groupConcurrency: services.config.WEBHOOK_TARGET_CONCURRENCY,
      handler: (jobs, { logger }) => deliverBatch(services, DELIVER_WEBHOOK, jobs, logger),
    },
    {
      name: DELIVER_WEBHOOK_SLOW,
      concurrency: SLOW_LANE_CONCURRENCY,
      batchSize: DELIVERY_BATCH,
      groupConcurrency: services.config.WEBHOOK_TARGET_CONCURRENCY,
      handler: (jobs, { logger }) => deliverBatch(services, DELIVER_WEBHOOK_SLOW, jobs, logger),
    },
  ];
}
