// Automations: triggers (record events, wizard completion, schedules), ordered actions, executions.
import { defineModule } from '../../app/module.ts';
import { automationsConfig } from './automations.config.ts';
import * as schema from './automations.schema.ts';
import { automationJobs } from './automations.jobs.ts';
import { automationTriggerConsumer } from './automation-triggers.ts';
import { automationActionId, automationExecutionId, automationId, paymentChargeId } from './automations.ids.ts';

export const automationsModule = defineModule({
  name: 'automations',
  description: 'Automations: a trigger (record created or updated, a field value changed, a wizard completed, a schedule), filter conditions and ordered actions; their executions and logs.',
  config: automationsConfig,
  schema,
  ids: [automationId, automationActionId, automationExecutionId, paymentChargeId],
  jobs: () => automationJobs,
  outboxConsumers: (services) => ({ automations: automationTriggerConsumer(services) }),
  topics: ['automationExecutions'],
});
