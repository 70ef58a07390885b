// Queues of composed messages (send-pipeline.ts): resolving recipients, the batches that hand them
// to the mail transport, the start of a scheduled message at its time, and the every-minute tick
// (due scheduled messages, repair of sends whose jobs were lost).
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import {
  BATCH_RETRIES,
  repairStalledSends,
  RESOLVE_RECIPIENTS,
  RESOLVE_RETRIES,
  resolveGaveUp,
  resolveRecipients,
  SEND_BATCH,
  SEND_TICK,
  sendBatch,
  START_DUE,
  startDueMessages,
  type MessageJob,
} from './send-pipeline.ts';

/** batch handler slots per process (JOB_CONCURRENCY overrides): each holds one connection for its batch's transaction */
const BATCH_SLOTS = 4;

export function outgoingMessageJobs(services: Services): JobDefinition<never>[] {
  const definitions: JobDefinition<MessageJob>[] = [
    {
      name: RESOLVE_RECIPIENTS,
      retryLimit: RESOLVE_RETRIES,
      // one INSERT … SELECT over the whole selection: time for a large collection
      expireInSeconds: 30 * 60,
      handler: async (jobs: Job<MessageJob>[]) => {
        for (const job of jobs) {
          try {
            await resolveRecipients(services, job.data);
          } catch (error) {
            if (job.retryCount < RESOLVE_RETRIES) throw error;
            await resolveGaveUp(services, job.data, error);
          }
        }
      },
    },
    {
      name: SEND_BATCH,
      retryLimit: BATCH_RETRIES,
      concurrency: BATCH_SLOTS,
      handler: async (jobs: Job<MessageJob>[]) => {
        for (const job of jobs) await sendBatch(services, job.data);
      },
    },
    {
      name: START_DUE,
      retryLimit: 3,
      handler: async (jobs: Job<MessageJob>[]) => {
        for (const job of jobs) await startDueMessages(services, job.data);
      },
    },
  ];
  const tick: JobDefinition = {
    name: SEND_TICK,
    schedule: '* * * * *',
    retryLimit: 0,
    handler: async () => {
      await startDueMessages(services);
      await repairStalledSends(services);
    },
  };
  return [...definitions, tick] as JobDefinition<never>[];
}
