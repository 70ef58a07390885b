// Queues of outgoing mail: `mail.send` delivers one message per job (retry policy per job, see
// mail-queue.ts); `mail.send-failed` receives the jobs pg-boss gave up on without the worker
// having recorded the outcome, so that no message stays QUEUED for ever.
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { deliverMail, settleDeadLetter } from './mail-delivery.ts';
import { SEND_MAIL, SEND_MAIL_FAILED, type SendMailJob } from './mail-queue.ts';
import { createSmtpTransport } from './smtp-transport.ts';

export function mailJobs(services: Services): JobDefinition<SendMailJob>[] {
  const transport = services.config.SMTP_URL ? createSmtpTransport(services.config.SMTP_URL) : null;
  return [
    {
      name: SEND_MAIL_FAILED,
      handler: async (jobs: Job<SendMailJob>[]) => {
        for (const job of jobs) await settleDeadLetter(services, job.data);
      },
    },
    {
      name: SEND_MAIL,
      // the job's own options (set when it is queued) decide its retries; this is the queue default
      retryLimit: 0,
      handler: async (jobs: Job<SendMailJob>[]) => {
        for (const job of jobs) await deliverMail(services, transport, job);
      },
    },
  ];
}
