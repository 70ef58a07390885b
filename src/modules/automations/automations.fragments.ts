// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

export const AUTOMATION_ACTION = fragment(
  'AutomationActionFields',
  'AutomationAction',
  'id automationActionSimplyId actionType actionConfig executionRank continueOnError retryConfig onFailureActions createdAt updatedAt',
);

/** what lists show: everything but the actions */
export const AUTOMATION_SUMMARY = fragment(
  'AutomationSummaryFields',
  'Automation',
  'id name description isEnabled dataCollectionSimplyId triggerType triggerConfig filterConditions maxRecordsPerExecution lastRunAt createdAt updatedAt',
);

export const AUTOMATION = fragment('AutomationFields', 'Automation', selection`${AUTOMATION_SUMMARY} actions { ${AUTOMATION_ACTION} }`);

export const AUTOMATION_EXECUTION = fragment(
  'AutomationExecutionFields',
  'AutomationExecution',
  `id executionSimplyId automationSimplyId triggerType triggerEventId status depth startedAt completedAt recordsProcessed recordsFailed
   executionDurationMs errorDetails createdAt`,
);
