// The AI's queue: one job per visitor message of an AI-handled conversation, at most one active
// per conversation over every worker (its group), so each reply sees the one before. A worker that
// dies mid-job stops heartbeating and pg-boss hands the job to another within about 15 s; its row
// is still PENDING, so the answer is asked again and written once. An unexpected error is retried
// a few times, then hands back; a minute's sweep hands back what no job will settle any more.
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { AI_REPLY, AI_REPLY_RETRY_LIMIT, type AiReplyJob } from './ai-reply-queue.ts';
import { handBackAbandoned, runAiReply } from './ai-reply.service.ts';

const AI_REPLY_SWEEP = 'conversations.ai-reply-sweep';
/** a reply still PENDING after this long has lost its job (the job's expiry and retries are well within it) */
const ABANDONED_AFTER_MINUTES = 30;

export function aiReplyJobs(services: Services): JobDefinition<never>[] {
  const replies: JobDefinition<AiReplyJob> = {
    name: AI_REPLY,
    retryLimit: AI_REPLY_RETRY_LIMIT,
    // replies mostly wait on the model: several conversations at once per process
    concurrency: 4,
    groupConcurrency: 1,
    heartbeatSeconds: 10,
    expireInSeconds: 5 * 60,
    handler: async (jobs, context) => {
      for (const job of jobs) await runAiReply(services, context.logger, job.data, job.retryCount >= AI_REPLY_RETRY_LIMIT);
    },
  };
  const sweep: JobDefinition = {
    name: AI_REPLY_SWEEP,
    schedule: '* * * * *',
    handler: async (_jobs, context) => {
      await handBackAbandoned(services, context.logger, ABANDONED_AFTER_MINUTES);
    },
  };
  return [replies as unknown as JobDefinition<never>, sweep as JobDefinition<never>];
}
