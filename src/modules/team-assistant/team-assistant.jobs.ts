// The assistant's queue: runs, each a pg-boss job. A worker that stops heartbeating for 10 s has
// its job handed to another (well within half a minute); the run resumes from what it stored
// (run-worker.ts). An unexpected error is retried a few times, then the run ends FAILED. Every
// minute, drafts nobody decided in time become EXPIRED, and runs no job will finish any more end
// FAILED (WORKER_LOST).
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { RUN_ASSISTANT, type RunAssistantJob } from './run-job.ts';
import { failAbandonedRuns, RUN_RETRY_LIMIT, runAssistant } from './run-worker.ts';
import { expireProposals } from './proposals.service.ts';

const SWEEP = 'team-assistant.sweep';

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
  const sweep: JobDefinition = {
    name: SWEEP,
    schedule: '* * * * *',
    handler: async () => {
      await expireProposals(services);
      await failAbandonedRuns(services);
    },
  };
  return [runs as unknown as JobDefinition<never>, sweep as JobDefinition<never>];
}
