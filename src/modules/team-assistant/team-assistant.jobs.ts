// The assistant's queue: runs, each a pg-boss job. A worker that stops heartbeating for 10 s has
// its job handed to another (well within half a minute); the run resumes from what it stored
// (run-worker.ts). An unexpected error is retried a few times, then the run ends FAILED. Every
// minute, drafts nobody decided in time become EXPIRED.
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { RUN_ASSISTANT, type RunAssistantJob } from './run-job.ts';
import { RUN_RETRY_LIMIT, runAssistant } from './run-worker.ts';
import { expireProposals } from './proposals.service.ts';

const EXPIRE_PROPOSALS = 'team-assistant.expire-proposals';

export function teamAssistantJobs(services: Services): JobDefinition<never>[] {
  const runs: JobDefinition<RunAssistantJob> = {
    name: RUN_ASSISTANT,
    retryLimit: RUN_RETRY_LIMIT,
    // runs mostly wait on the model: several at once per process
    concurrency: 8,
    heartbeatSeconds: 10,
    expireInSeconds: 15 * 60,
    handler: async (jobs) => {
      for (const job of jobs) await runAssistant(services, job);
    },
  };
  const expiry: JobDefinition = { name: EXPIRE_PROPOSALS, schedule: '* * * * *', handler: async () => void (await expireProposals(services)) };
  return [runs as unknown as JobDefinition<never>, expiry as JobDefinition<never>];
}
