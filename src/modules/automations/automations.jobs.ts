// Queues of the automations area: the executions themselves, and the every-minute tick that
// claims SCHEDULE occurrences.
//
// Executions are taken in batches and run side by side (automation-runner.ts runExecutions): a
// batch's bookkeeping costs a few statements, and the runs overlap their round trips. A run whose
// outcome could not be recorded fails its own job only; the others complete.
import type { Job } from 'pg-boss';
import type { JobDefinition } from '../../app/jobs.ts';
import { traceWithinJob } from '../../app/telemetry/tracing.ts';
import { runExecutions } from './automation-runner.ts';
import { SCHEDULE_TICK, scheduleTick } from './automation-schedule.ts';
import { EXECUTE_AUTOMATION, EXECUTION_RETRY_LIMIT, type ExecutionJobData } from './execution-claims.ts';

/** handler slots per process (JOB_CONCURRENCY overrides) and executions per slot */
const EXECUTION_SLOTS = 4;
const EXECUTIONS_PER_BATCH = 8;

export const automationJobs: JobDefinition<never>[] = [
  {
    name: EXECUTE_AUTOMATION,
    // the queue default; wizard-completion executions are sent with retryLimit 0
    retryLimit: EXECUTION_RETRY_LIMIT,
    concurrency: EXECUTION_SLOTS,
    batchSize: EXECUTIONS_PER_BATCH,
    handler: async (jobs: Job<ExecutionJobData>[], { services, queue }) => {
      const errors = await runExecutions(
        services,
        jobs.map((job) => ({ data: job.data, retryCount: job.retryCount, inJobTrace: (work) => traceWithinJob(services, job, work) })),
      );
      // fenced to the attempt fetched; pg-boss then completes the rest of the batch
      for (const [i, error] of errors.entries()) if (error) await services.jobs.boss.fail(queue, [jobs[i]!], { message: error.message });
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
