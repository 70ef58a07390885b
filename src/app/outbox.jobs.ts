// Queues of the data core: the outbox dispatcher (nudged after each record write, and swept every
// minute so nothing waits long after a missed nudge or a crash), and a daily purge of events that
// were dispatched more than OUTBOX_RETENTION_DAYS ago (consumers keep their own logs).
import type { Job } from 'pg-boss';
import type { Services } from './context.ts';
import type { JobDefinition } from './jobs.ts';
import { DISPATCH_DOMAIN_EVENTS } from './outbox.ts';

export const PURGE_DISPATCHED_EVENTS = 'data.purge-dispatched-events';
const OUTBOX_RETENTION_DAYS = 7;

export async function purgeDispatchedEvents(services: Services, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - OUTBOX_RETENTION_DAYS * 86_400_000);
  // an event a consumer has not yet taken stays, with its failure row, until it is resolved
  const { rowCount } = await services.pool.query(
    `DELETE FROM "DomainEvent" e WHERE e."dispatchedAt" < $1
        AND NOT EXISTS (SELECT 1 FROM "DomainEventFailure" f WHERE f."eventRowId" = e.id AND f."resolvedAt" IS NULL)`,
    [cutoff],
  );
  await services.pool.query(`DELETE FROM "DomainEventFailure" WHERE "resolvedAt" < $1`, [cutoff]);
  return rowCount ?? 0;
}

export const outboxJobs: JobDefinition<never>[] = [
  {
    name: DISPATCH_DOMAIN_EVENTS,
    schedule: '* * * * *',
    // one queued nudge at a time however many writes ask (policy short + singletonKey), and one
    // queued sweep: a burst of writes costs one dispatch, not one job each
    policy: 'short',
    handler: async (jobs: Job<{ nudge?: boolean }>[], { services }) => {
      await services.outbox.dispatchPending();
      // consumer failures wait for the minute sweep: a nudge follows every record write
      if (jobs.some((job) => !job.data?.nudge)) await services.outbox.retryFailures();
    },
  } as JobDefinition<never>,
  {
    name: PURGE_DISPATCHED_EVENTS,
    schedule: '41 3 * * *',
    handler: async (_jobs, { services }) => {
      await purgeDispatchedEvents(services);
    },
  },
];
