// Queues of the automations area: the executions themselves, and the every-minute tick that
// claims SCHEDULE occurrences.
import type { Job } from 'pg-boss';
import type { JobDefinition } from '../../app/jobs.ts';
import { runExecution } from './automation-runner.ts';
import { SCHEDULE_TICK, scheduleTick } from './automation-schedule.ts';
import { EXECUTE_AUTOMATION, EXECUTION_RETRY_LIMIT, type ExecutionJobData } from './execution-claims.ts';

export const automationJobs: JobDefinition<never>[] = [
  {
    name: EXECUTE_AUTOMATION,
    // the queue default; wizard-completion executions are sent with retryLimit 0
    retryLimit: EXECUTION_RETRY_LIMIT,
    handler: async (jobs: Job<ExecutionJobData>[], { services }) => {
      for (const job of jobs) await runExecution(services, job.data, { retryCount: job.retryCount });
    },
  } as JobDefinition<never>,
  {
    name: SCHEDULE_TICK,
    schedule: '* * * * *',
    retryLimit: 0,
    handler: async (_jobs, { services }) => {
      await scheduleTick(services);
    },
  },
];
