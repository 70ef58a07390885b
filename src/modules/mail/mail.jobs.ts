// Queues of outgoing mail: `mail.send` delivers one message per job (retry policy per job, see
// mail-queue.ts), taking jobs in batches that share a transaction and the pooled SMTP transport;
// `mail.send-failed` receives the jobs pg-boss gave up on without the worker having recorded the
// outcome, so that no message stays QUEUED for ever.
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { deliverMails, settleDeadLetters } from './mail-delivery.ts';
import { SEND_MAIL, SEND_MAIL_FAILED, type SendMailJob } from './mail-queue.ts';
import { createSmtpTransport } from './smtp-transport.ts';

/** handler slots per process (JOB_CONCURRENCY overrides); each holds one database connection while its batch is at the SMTP server */
const SEND_SLOTS = 4;
/** messages one slot locks and sends at once (over the transport's pooled connections) */
const MESSAGES_PER_BATCH = 20;

export function mailJobs(services: Services): JobDefinition<SendMailJob>[] {
  const transport = services.config.SMTP_URL ? createSmtpTransport(services.config.SMTP_URL) : null;
  // the pooled connections end with the job system (a stopping worker has finished its sends)
  if (transport) services.jobs.boss.once('stopped', () => transport.close());
  return [
    {
      name: SEND_MAIL_FAILED,
      batchSize: MESSAGES_PER_BATCH,
      handler: async (jobs: Job<SendMailJob>[]) => {
        await settleDeadLetters(services, jobs.map((job) => job.data));
      },
    },
    {
      name: SEND_MAIL,
      // the job's own options (set when it is queued) decide its retries; this is the queue default
      retryLimit: 0,
      concurrency: SEND_SLOTS,
      batchSize: MESSAGES_PER_BATCH,
      handler: async (jobs: Job<SendMailJob>[], { queue }) => {
        const retries = await deliverMails(services, transport, jobs);
        // after the commit, fenced to the attempt fetched; pg-boss then completes the rest of the batch
        for (const [i, retry] of retries.entries()) if (retry) await services.jobs.boss.fail(queue, [jobs[i]!], { message: retry.message });
      },
    },
  ];
}
