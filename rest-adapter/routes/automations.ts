// /v1/automations → src/automations/automation.schema.ts (Document 1 §4.6; privileged tier)
import { bodyObject, defineRoutes, intParam, pageVariables, respondPage } from '../legacy-route.ts';

const SUMMARY = `id name description isEnabled dataCollectionSimplyId triggerType triggerConfig filterConditions maxRecordsPerExecution lastRunAt createdAt updatedAt`;
const ACTION = `id automationActionSimplyId actionType actionConfig executionRank continueOnError retryConfig onFailureActions createdAt updatedAt`;
const DETAIL = `${SUMMARY} actions { ${ACTION} }`;
const EXECUTION = `id executionSimplyId automationSimplyId triggerType triggerEventId status depth startedAt completedAt recordsProcessed recordsFailed executionDurationMs errorDetails createdAt`;
const PAGINATION = `pagination { total limit offset hasMore }`;

export const automationRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/automations',
    summary: 'Automations, newest first (privileged; TEAM_ADMIN_DATA_WIZARDS view): dataCollectionSimplyId (optional), limit 1-100, offset',
    operation: `query Automations($collection: String, $limit: Int, $offset: Int) {
      automations(dataCollectionSimplyId: $collection, limit: $limit, offset: $offset) { nodes { ${SUMMARY} } ${PAGINATION} } }`,
    variables: (req) => ({ ...pageVariables(req), collection: req.query.get('dataCollectionSimplyId') }),
    respond: respondPage,
  },
  {
    method: 'POST',
    path: '/v1/automations',
    summary:
      'Create an automation (TEAM_ADMIN_DATA_WIZARDS edit): { name, triggerType, dataCollectionSimplyId?, triggerConfig?, filterConditions?, isEnabled?, maxRecordsPerExecution?, description?, actions? }',
    operation: `mutation CreateAutomation($input: AutomationInput!) { createAutomation(input: $input) { ${DETAIL} } }`,
    body: 'required',
    variables: (req) => ({ input: bodyObject(req) }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/automations/{automationSimplyId}',
    summary: 'One automation with its actions in executionRank order',
    operation: `query Automation($id: String!) { automation(automationSimplyId: $id) { ${DETAIL} } }`,
    variables: (req) => ({ id: req.params.automationSimplyId }),
  },
  {
    method: 'PUT',
    path: '/v1/automations/{automationSimplyId}',
    summary: 'Change an automation (only the fields given; e.g. { isEnabled: false })',
    operation: `mutation UpdateAutomation($id: String!, $input: AutomationUpdateInput!) { updateAutomation(automationSimplyId: $id, input: $input) { ${DETAIL} } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.automationSimplyId, input: bodyObject(req) }),
  },
  {
    method: 'DELETE',
    path: '/v1/automations/{automationSimplyId}',
    summary: 'Delete an automation with its actions and execution log',
    operation: `mutation DeleteAutomation($id: String!) { deleteAutomation(automationSimplyId: $id) }`,
    variables: (req) => ({ id: req.params.automationSimplyId }),
    respond: (_deleted, req) => ({ data: { id: req.params.automationSimplyId, deleted: true } }),
  },
  {
    method: 'POST',
    path: '/v1/automations/{automationSimplyId}/actions',
    summary: 'Add an action: { actionType, actionConfig, executionRank?, continueOnError?, retryConfig?, onFailureActions? }',
    operation: `mutation CreateAutomationAction($id: String!, $input: AutomationActionInput!) { createAutomationAction(automationSimplyId: $id, input: $input) { ${ACTION} } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.automationSimplyId, input: bodyObject(req) }),
    status: 201,
  },
  {
    method: 'PUT',
    path: '/v1/automations/{automationSimplyId}/actions/reorder',
    summary: 'Reorder the actions: { orderedActionSimplyIds: [every action, once] }',
    operation: `mutation ReorderAutomationActions($id: String!, $ids: [String!]!) { reorderAutomationActions(automationSimplyId: $id, orderedActionSimplyIds: $ids) { ${DETAIL} } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.automationSimplyId, ids: bodyObject(req).orderedActionSimplyIds ?? null }),
  },
  {
    method: 'PUT',
    path: '/v1/automations/{automationSimplyId}/actions/{automationActionSimplyId}',
    summary: 'Change an action (only the fields given; executionRank moves it)',
    operation: `mutation UpdateAutomationAction($id: String!, $action: String!, $input: AutomationActionUpdateInput!) {
      updateAutomationAction(automationSimplyId: $id, automationActionSimplyId: $action, input: $input) { ${ACTION} } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.automationSimplyId, action: req.params.automationActionSimplyId, input: bodyObject(req) }),
  },
  {
    method: 'DELETE',
    path: '/v1/automations/{automationSimplyId}/actions/{automationActionSimplyId}',
    summary: 'Remove an action (the others close ranks)',
    operation: `mutation DeleteAutomationAction($id: String!, $action: String!) { deleteAutomationAction(automationSimplyId: $id, automationActionSimplyId: $action) }`,
    variables: (req) => ({ id: req.params.automationSimplyId, action: req.params.automationActionSimplyId }),
    respond: (_deleted, req) => ({ data: { id: req.params.automationActionSimplyId, deleted: true } }),
  },
  {
    method: 'GET',
    path: '/v1/automations/{automationSimplyId}/executions',
    summary: 'Execution log, newest first: limit 1-100, offset; optional status, triggerEventId',
    operation: `query AutomationExecutions($id: String!, $limit: Int, $offset: Int, $status: String, $trigger: String) {
      automationExecutions(automationSimplyId: $id, limit: $limit, offset: $offset, status: $status, triggerEventId: $trigger) { nodes { ${EXECUTION} } ${PAGINATION} } }`,
    variables: (req) => ({ id: req.params.automationSimplyId, limit: intParam(req, 'limit'), offset: intParam(req, 'offset'), status: req.query.get('status'), trigger: req.query.get('triggerEventId') }),
    respond: respondPage,
  },
]);
