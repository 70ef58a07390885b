// /v1/automations → src/modules/automations/automations.schema.ts (Document 1 §4.6; privileged tier)
import { z } from 'zod';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import { AUTOMATION, AUTOMATION_ACTION, AUTOMATION_EXECUTION, AUTOMATION_SUMMARY } from '../../src/modules/automations/automations.fragments.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { pageQuery, NOT_AN_OBJECT } from '../schemas.ts';


// The bodies describe the fields of the GraphQL input types. They are loose on purpose: an
// unknown key goes on to the operation, which names it, and the values' rules (ranges, trigger
// settings, action configs) are the service's, with the messages and details both faces share.
const json = () => z.unknown().optional();
const actionFields = {
  actionType: z.string().describe('UPDATE_FIELDS, CREATE_RECORD, SEND_EMAIL, RUN_WIZARD_STEP, SEND_USER_NOTIFICATION, CHARGE_PAYMENT'),
  actionConfig: json().describe('settings of the action type'),
  executionRank: z.number().int().nullish().describe('1..n; default: last'),
  continueOnError: z.boolean().nullish(),
  retryConfig: json().describe('{ maxAttempts 1-5, delaySeconds 0-60 }; null removes it'),
  onFailureActions: json().describe('[{ actionType, actionConfig }] (at most 5); null removes them'),
};
const actionBody = z.looseObject(actionFields, NOT_AN_OBJECT);
const actionUpdateBody = z.looseObject({ ...actionFields, actionType: actionFields.actionType.nullish() }, NOT_AN_OBJECT);

const automationFields = {
  name: z.string(),
  description: z.string().nullish().describe('null clears it'),
  triggerType: z.string().describe('SCHEDULE, RECORD_CREATED, RECORD_UPDATED, FIELD_VALUE_CHANGED, WIZARD_COMPLETED, WIZARD_COMPLETION_FAILED'),
  dataCollectionSimplyId: z.string().nullish().describe('required for record triggers; null removes the collection'),
  triggerConfig: json(),
  filterConditions: json().describe('[{ field, operator, value }] (record search rules), AND-ed; null removes them'),
  isEnabled: z.boolean().nullish(),
  maxRecordsPerExecution: z.number().int().nullish().describe('1-1000, default 100'),
};
const automationBody = z.looseObject(
  { ...automationFields, actions: z.array(z.looseObject(actionFields)).nullish().describe('initial actions (at most 50)') },
  NOT_AN_OBJECT,
);
const automationUpdateBody = z.looseObject({ ...automationFields, name: z.string().nullish(), triggerType: z.string().nullish() }, NOT_AN_OBJECT);

const reorderBody = z.object(
  { orderedActionSimplyIds: z.array(z.string()).describe('every action of the automation, once, in the new order') },
  NOT_AN_OBJECT,
);

export const automationRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/automations',
    summary: 'Automations, newest first (privileged; TEAM_ADMIN_DATA_WIZARDS view): dataCollectionSimplyId (optional), limit 1-100, offset',
    operation: operation`query Automations($collection: String, $limit: Int, $offset: Int) {
      automations(dataCollectionSimplyId: $collection, limit: $limit, offset: $offset) { nodes { ${AUTOMATION_SUMMARY} } pagination { ${PAGINATION} } } }`,
    query: pageQuery.extend({ dataCollectionSimplyId: z.string().optional().describe('only the automations of this collection') }),
    variables: ({ query }) => ({ limit: query.limit, offset: query.offset, collection: query.dataCollectionSimplyId }),
    respond: respond.page,
  }),
  route({
    method: 'POST',
    path: '/v1/automations',
    summary:
      'Create an automation (TEAM_ADMIN_DATA_WIZARDS edit): { name, triggerType, dataCollectionSimplyId?, triggerConfig?, filterConditions?, isEnabled?, maxRecordsPerExecution?, description?, actions? }',
    operation: operation`mutation CreateAutomation($input: AutomationInput!) { createAutomation(input: $input) { ${AUTOMATION} } }`,
    body: automationBody,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/v1/automations/{automationSimplyId}',
    summary: 'One automation with its actions in executionRank order',
    operation: operation`query Automation($id: String!) { automation(automationSimplyId: $id) { ${AUTOMATION} } }`,
    variables: ({ params }) => ({ id: params.automationSimplyId }),
  }),
  route({
    method: 'PUT',
    path: '/v1/automations/{automationSimplyId}',
    summary: 'Change an automation (only the fields given; e.g. { isEnabled: false })',
    operation: operation`mutation UpdateAutomation($id: String!, $input: AutomationUpdateInput!) { updateAutomation(automationSimplyId: $id, input: $input) { ${AUTOMATION} } }`,
    body: automationUpdateBody,
    variables: ({ params, body }) => ({ id: params.automationSimplyId, input: body }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/automations/{automationSimplyId}',
    summary: 'Delete an automation with its actions and execution log',
    operation: operation`mutation DeleteAutomation($id: String!) { deleteAutomation(automationSimplyId: $id) }`,
    variables: ({ params }) => ({ id: params.automationSimplyId }),
    respond: respond.deleted('automationSimplyId'),
  }),
  route({
    method: 'POST',
    path: '/v1/automations/{automationSimplyId}/actions',
    summary: 'Add an action: { actionType, actionConfig, executionRank?, continueOnError?, retryConfig?, onFailureActions? }',
    operation: operation`mutation CreateAutomationAction($id: String!, $input: AutomationActionInput!) { createAutomationAction(automationSimplyId: $id, input: $input) { ${AUTOMATION_ACTION} } }`,
    body: actionBody,
    variables: ({ params, body }) => ({ id: params.automationSimplyId, input: body }),
    status: 201,
  }),
  route({
    method: 'PUT',
    path: '/v1/automations/{automationSimplyId}/actions/reorder',
    summary: 'Reorder the actions: { orderedActionSimplyIds: [every action, once] }',
    operation: operation`mutation ReorderAutomationActions($id: String!, $ids: [String!]!) { reorderAutomationActions(automationSimplyId: $id, orderedActionSimplyIds: $ids) { ${AUTOMATION} } }`,
    body: reorderBody,
    variables: ({ params, body }) => ({ id: params.automationSimplyId, ids: body.orderedActionSimplyIds }),
  }),
  route({
    method: 'PUT',
    path: '/v1/automations/{automationSimplyId}/actions/{automationActionSimplyId}',
    summary: 'Change an action (only the fields given; executionRank moves it)',
    operation: operation`mutation UpdateAutomationAction($id: String!, $action: String!, $input: AutomationActionUpdateInput!) {
      updateAutomationAction(automationSimplyId: $id, automationActionSimplyId: $action, input: $input) { ${AUTOMATION_ACTION} } }`,
    body: actionUpdateBody,
    variables: ({ params, body }) => ({ id: params.automationSimplyId, action: params.automationActionSimplyId, input: body }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/automations/{automationSimplyId}/actions/{automationActionSimplyId}',
    summary: 'Remove an action (the others close ranks)',
    operation: operation`mutation DeleteAutomationAction($id: String!, $action: String!) { deleteAutomationAction(automationSimplyId: $id, automationActionSimplyId: $action) }`,
    variables: ({ params }) => ({ id: params.automationSimplyId, action: params.automationActionSimplyId }),
    respond: respond.deleted('automationActionSimplyId'),
  }),
  route({
    method: 'GET',
    path: '/v1/automations/{automationSimplyId}/executions',
    summary: 'Execution log, newest first: limit 1-100, offset; optional status, triggerEventId',
    operation: operation`query AutomationExecutions($id: String!, $limit: Int, $offset: Int, $status: String, $trigger: String) {
      automationExecutions(automationSimplyId: $id, limit: $limit, offset: $offset, status: $status, triggerEventId: $trigger) { nodes { ${AUTOMATION_EXECUTION} } pagination { ${PAGINATION} } } }`,
    query: pageQuery.extend({
      status: z.string().optional().describe('QUEUED, RUNNING, SUCCEEDED, PARTIALLY_FAILED, FAILED or SKIPPED'),
      triggerEventId: z.string().optional().describe('the execution of one trigger event, e.g. wizard:<instance>:completion:v1'),
    }),
    variables: ({ params, query }) => ({ id: params.automationSimplyId, limit: query.limit, offset: query.offset, status: query.status, trigger: query.triggerEventId }),
    respond: respond.page,
  }),
]);
