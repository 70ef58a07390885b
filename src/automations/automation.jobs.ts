// Queues of the automations area: the executions themselves, and the every-minute tick that
// claims SCHEDULE occurrences; plus the outbox consumer that claims record and wizard triggers.
import type { Services } from '../graphql/context.ts';
import { runExecution } from './automation-runner.ts';
import { SCHEDULE_TICK, scheduleTick } from './automation-schedule.ts';
import { automationTriggerConsumer } from './automation-triggers.ts';
import { EXECUTE_AUTOMATION, EXECUTION_RETRY_LIMIT, type ExecutionJobData } from './execution-claims.ts';

export function defineAutomationJobs(services: Services): void {
  services.outbox.register('automations', automationTriggerConsumer(services));
  services.jobs.define<ExecutionJobData>({
    name: EXECUTE_AUTOMATION,
    // the queue default; wizard-completion executions are sent with retryLimit 0
    retryLimit: EXECUTION_RETRY_LIMIT,
    handler: async (jobs) => {
      for (const job of jobs) await runExecution(services, job.data, { retryCount: job.retryCount });
    },
  });
  services.jobs.define({
    name: SCHEDULE_TICK,
    schedule: '* * * * *',
    retryLimit: 0,
    handler: async () => {
      await scheduleTick(services);
    },
  });
}
