// Automations: triggers (record events, wizard completion, schedules), ordered actions, executions.
import { defineModule } from '../../app/module.ts';
import * as schema from './automation.schema.ts';
import { automationJobs } from './automation.jobs.ts';
import { automationTriggerConsumer } from './automation-triggers.ts';

export const automationsModule = defineModule({
  name: 'automations',
  schema,
  jobs: () => automationJobs,
  outboxConsumers: (services) => ({ automations: automationTriggerConsumer(services) }),
  topics: ['automationExecutions'],
});
