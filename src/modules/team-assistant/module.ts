// The team assistant: a signed-in member asks about the team's data; durable runs with ordered
// events answer (docs/api/team-assistant.md, docs/ai.md).
import { defineModule } from '../../app/module.ts';
import * as schema from './team-assistant.schema.ts';
import { teamAssistantJobs } from './team-assistant.jobs.ts';
import { assistantFeedbackId, assistantHandoffId, assistantMessageId, assistantProposalId, assistantRunId, assistantSessionId } from './team-assistant.ids.ts';

export const teamAssistantModule = defineModule({
  name: 'team-assistant',
  description: 'The team assistant: questions about the team\'s data answered by an AI model through permission-checked tools, with durable runs and ordered events.',
  schema: { schema },
  ids: [assistantSessionId, assistantMessageId, assistantRunId, assistantProposalId, assistantFeedbackId, assistantHandoffId],
  jobs: (services) => teamAssistantJobs(services),
  topics: ['assistantRunEvents'],
});
