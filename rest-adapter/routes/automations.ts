// /v1/automations → src/modules/automations/automations.schema.ts (Document 1 §4.6; privileged tier)
import { z } from 'zod';
import { operation } from '../../src/app/graphql/fragments.ts';
import { AUTOMATION, AUTOMATION_ACTION, AUTOMATION_EXECUTION, AUTOMATION_SUMMARY } from '../../src/modules/automations/automations.fragments.ts';
import { defineRoutes, route } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';
import { NOT_AN_OBJECT } from '../schemas.ts';


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
const actionUpdateBody = z.looseObject({ ...actionFields, actionType: actionFields.actionType.optional() }, NOT_AN_OBJECT);

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
const automationUpdateBody = z.looseObject({ ...automationFields, name: z.string().optional(), triggerType: automationFields.triggerType.optional() }, NOT_AN_OBJECT);

const reorderBody = z.object(
  { orderedActionSimplyIds: z.array(z.string()).describe('every action of the automation, once, in the new order') },
  NOT_AN_OBJECT,
);

const ONE = '/v1/automations/{automationSimplyId}';
const ACTION = `${ONE}/actions/{automationActionSimplyId}`;

export const automationRoutes = defineRoutes([
  listPage({
    path: '/v1/automations',
    summary: 'List automations',
    description: 'Automations, newest first (privileged; TEAM_ADMIN_DATA_WIZARDS view): dataCollectionSimplyId (optional), limit 1-100, offset',
    name: 'Automations',
    select: AUTOMATION_SUMMARY,
    filters: { dataCollectionSimplyId: { type: 'String', schema: z.string().optional().describe('only the automations of this collection') } },
  }),
  createOne({
    path: '/v1/automations',
    summary: 'Create an automation',
    description: 'Create an automation (TEAM_ADMIN_DATA_WIZARDS edit): { name, triggerType, dataCollectionSimplyId?, triggerConfig?, filterConditions?, isEnabled?, maxRecordsPerExecution?, description?, actions? }',
    name: 'CreateAutomation',
    inputType: 'AutomationInput',
    body: automationBody,
    example: {
      name: 'Welcome new people',
      triggerType: 'RECORD_CREATED',
      dataCollectionSimplyId: 'GH89-JK23-MN45',
      filterConditions: [{ field: 'fld-JK23-MN45-PQ67', operator: 'gte', value: 18 }],
      isEnabled: true,
      actions: [
        {
          actionType: 'SEND_EMAIL',
          actionConfig: { toFieldSimplyId: 'fld-GH89-JK23-MN45', subject: 'Welcome, {{record.name}}', text: 'Glad to have you with us.' },
        },
      ],
    },
    select: AUTOMATION,
  }),
  getOne({ path: ONE, summary: 'Get an automation', description: 'One automation with its actions in executionRank order', name: 'Automation', select: AUTOMATION }),
  updateOne({
    method: 'PUT',
    path: ONE,
    summary: 'Update an automation',
    description: 'Change an automation (only the fields given; e.g. { isEnabled: false })',
    name: 'UpdateAutomation',
    inputType: 'AutomationUpdateInput',
    body: automationUpdateBody,
    example: { isEnabled: false, description: 'Paused during the data migration' },
    select: AUTOMATION,
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Delete an automation', description: 'Delete an automation with its actions and execution log', name: 'DeleteAutomation' }),
  updateOne({
    method: 'POST',
    path: `${ONE}/actions`,
    summary: 'Add an automation action',
    description: 'Add an action: { actionType, actionConfig, executionRank?, continueOnError?, retryConfig?, onFailureActions? }',
    name: 'CreateAutomationAction',
    inputType: 'AutomationActionInput',
    body: actionBody,
    example: {
      actionType: 'UPDATE_FIELDS',
      actionConfig: { fields: { 'fld-JK23-MN45-PQ67': 'adult' } },
      continueOnError: false,
      retryConfig: { maxAttempts: 3, delaySeconds: 10 },
    },
    select: AUTOMATION_ACTION,
    status: 201,
  }),
  route({
    method: 'PUT',
    path: `${ONE}/actions/reorder`,
    summary: 'Reorder automation actions',
    description: 'Reorder the actions: { orderedActionSimplyIds: [every action, once] }',
    operation: operation`mutation ReorderAutomationActions($id: String!, $ids: [String!]!) { reorderAutomationActions(automationSimplyId: $id, orderedActionSimplyIds: $ids) { ${AUTOMATION} } }`,
    body: reorderBody,
    example: { orderedActionSimplyIds: ['act-GH89-JK23-MN45', 'act-AB23-CD45-EF67'] },
    variables: ({ params, body }) => ({ id: params.automationSimplyId, ids: body.orderedActionSimplyIds }),
  }),
  updateOne({
    method: 'PUT',
    path: ACTION,
    summary: 'Update an automation action',
    description: 'Change an action (only the fields given; executionRank moves it)',
    name: 'UpdateAutomationAction',
    inputType: 'AutomationActionUpdateInput',
    body: actionUpdateBody,
    example: { executionRank: 1, continueOnError: true },
    select: AUTOMATION_ACTION,
  }),
  actOn({ method: 'DELETE', path: ACTION, summary: 'Remove an automation action', description: 'Remove an action (the others close ranks)', name: 'DeleteAutomationAction' }),
  listPage({
    path: `${ONE}/executions`,
    summary: 'List automation executions',
    description: 'Execution log, newest first: limit 1-100, offset; optional status, triggerEventId',
    name: 'AutomationExecutions',
    select: AUTOMATION_EXECUTION,
    filters: {
      status: { type: 'String', schema: z.string().optional().describe('QUEUED, RUNNING, SUCCEEDED, PARTIALLY_FAILED, FAILED or SKIPPED') },
      triggerEventId: { type: 'String', schema: z.string().optional().describe('the execution of one trigger event, e.g. wizard:<instance>:completion:v1') },
    },
  }),
]);
