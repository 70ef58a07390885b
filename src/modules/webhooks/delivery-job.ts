// The jobs of queues webhooks.deliver and webhooks.deliver-slow: one per attempt of a delivery, placed in its target's group
// and at its fair-order priority (delivery-order.ts); handled by webhook-delivery.ts.
import type { JobInsert } from 'pg-boss';

export const DELIVER_WEBHOOK = 'webhooks.deliver';
/** the slow lane: the jobs of targets that answer slowly (slow-targets.ts) */
export const DELIVER_WEBHOOK_SLOW = 'webhooks.deliver-slow';
export type DeliveryQueue = typeof DELIVER_WEBHOOK | typeof DELIVER_WEBHOOK_SLOW;
/** crash recovery only: a worker that dies holding a job is noticed after this many seconds */
const HEARTBEAT_SECONDS = 10;
/** crash recovery only: how often pg-boss may re-run one attempt's job whose worker died */
const CRASH_RETRIES = 5;

export interface DeliveryJobData {
  /** internal WebhookDelivery id (job data never leaves the server) */
  deliveryId: string;
  teamId: string;
  /** the attempt this job makes, from 1 */
  attempt: number;
  /** the fair-order priority of the delivery's first job, kept by its retries (delivery-order.ts) */
  priority?: number;
}


export interface JobPlacement {
  /** seconds from now, or a moment */
  startAfter?: number | Date;
  /** the target's pg-boss group (delivery-order.ts targetGroupId); none for a target URL that does not parse */
  groupId?: string | null;
}

export function deliveryJob(data: DeliveryJobData, timeoutSeconds: number, placement: JobPlacement = {}): JobInsert<DeliveryJobData> {
  const { startAfter, groupId } = placement;
  return {
    data,
    retryLimit: CRASH_RETRIES,
    retryDelay: 2,
    retryBackoff: false,
    // the attempt itself ends at timeoutSeconds; the rest is a margin for DNS and the database
    expireInSeconds: timeoutSeconds + 60,
    heartbeatSeconds: HEARTBEAT_SECONDS,
    ...(data.priority ? { priority: data.priority } : {}),
    ...(groupId ? { group: { id: groupId } } : {}),
    ...(startAfter instanceof Date || (typeof startAfter === 'number' && startAfter > 0) ? { startAfter } : {}),
  };
}

/** delivery statuses that take no more attempts */
export const FINISHED = new Set(['SUCCEEDED', 'FAILED']);
