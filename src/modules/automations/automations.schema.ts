// GraphQL face of automations (Document 1 §2.7, §4.6). REST: rest-adapter/routes/automations.ts.
// Privileged tier throughout: team admin or TEAM_ADMIN_DATA_WIZARDS (VIEW to read, EDIT to
// change), never a scoped token. Plus the execution-update subscription and the reconcile
// mutation for executions nobody will finish (docs/api/automations.md).
import { filter, pipe } from 'graphql-yoga';
import type { AutomationAction } from '../../generated/prisma/client.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, patchById, reorderById, withArgs } from '../../app/graphql/args.ts';
import { givenFields, suppliedFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { requestLoader } from '../../app/request-loader.ts';
import { tier } from '../../app/auth/tiers.ts';
import type { AutomationExecutionEvent } from './automations.events.ts';
import { ACTION_TYPES, TRIGGER_TYPES } from './automations.input.ts';
import {
  AUTOMATION_ADMIN_FEATURE as FEATURE,
  type AutomationItem,
  createAction,
  createAutomation,
  deleteAction,
  deleteAutomation,
  getAutomation,
  listAutomations,
  loadActionsOfMany,
  reorderActions,
  updateAction,
  updateAutomation,
} from './automations.service.ts';
import {
  EXECUTION_STATUSES,
  type ExecutionItem,
  listExecutions,
  mayReceiveExecutionEvent,
  reconcileExecution,
  subscribeExecutionEvents,
} from './executions.service.ts';

const TriggerTypeEnum = builder.enumType('AutomationTriggerType', { values: TRIGGER_TYPES });
const ActionTypeEnum = builder.enumType('AutomationActionType', { values: ACTION_TYPES });
const ExecutionStatusEnum = builder.enumType('AutomationExecutionStatus', { values: EXECUTION_STATUSES });
const ResolutionEnum = builder.enumType('AutomationExecutionResolution', {
  values: { RETRY: { description: 'queue it again under the same claim' }, ABANDON: { description: 'mark it FAILED; nothing is retried' } } as const,
});

const AutomationActionRef = builder.objectRef<AutomationAction>('AutomationAction').implement({
  fields: (t) => ({
    id: t.string({ resolve: (a) => a.simplyId }),
    automationActionSimplyId: t.string({ resolve: (a) => a.simplyId }),
    actionType: t.field({ type: ActionTypeEnum, resolve: (a) => a.actionType }),
    actionConfig: t.field({ type: 'JSON', description: 'settings of the action type (docs/api/automations.md)', resolve: (a) => a.actionConfig }),
    executionRank: t.int({ description: '1..n: the order actions run in', resolve: (a) => a.executionRank }),
    continueOnError: t.boolean({ resolve: (a) => a.continueOnError }),
    retryConfig: t.field({ type: 'JSON', nullable: true, description: '{ maxAttempts 1-5, delaySeconds 0-60 }', resolve: (a) => a.retryConfig }),
    onFailureActions: t.field({ type: 'JSON', nullable: true, description: '[{ actionType, actionConfig }] run once when this action finally fails', resolve: (a) => a.onFailureActions }),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (a) => a.updatedAt }),
  }),
});

const AutomationRef = builder.objectRef<AutomationItem>('Automation').implement({
  fields: (t) => ({
    ...simplyIdFields(t, 'automationSimplyId'),
    name: t.string({ resolve: (a) => a.row.name }),
    description: t.string({ nullable: true, resolve: (a) => a.row.description }),
    isEnabled: t.boolean({ resolve: (a) => a.row.isEnabled }),
    dataCollectionSimplyId: t.string({ nullable: true, resolve: (a) => a.dataCollectionSimplyId }),
    triggerType: t.field({ type: TriggerTypeEnum, resolve: (a) => a.row.triggerType }),
    triggerConfig: t.field({ type: 'JSON', description: 'SCHEDULE { cron, timezone }; FIELD_VALUE_CHANGED { dataFieldSimplyIds }; WIZARD_* { dataWizardSimplyId }', resolve: (a) => a.row.triggerConfig }),
    filterConditions: t.field({ type: 'JSON', nullable: true, description: '[{ field, operator, value }] (record search rules), AND-ed', resolve: (a) => a.row.filterConditions }),
    maxRecordsPerExecution: t.int({ resolve: (a) => a.row.maxRecordsPerExecution }),
    lastRunAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.row.lastRunAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (a) => a.row.updatedAt }),
    actions: t.field({
      type: [AutomationActionRef],
      description: 'in executionRank order',
      resolve: async (a, _args, ctx) => {
        if (a.actions) return a.actions;
        return requestLoader<bigint, AutomationAction[]>(ctx, 'automation.actions', (ids) => loadActionsOfMany(ctx, ids), String).load(a.row.id);
      },
    }),
  }),
});

const AutomationPageRef = pageType('AutomationPage', AutomationRef);

const AutomationExecutionRef = builder.objectRef<ExecutionItem>('AutomationExecution').implement({
  description: 'An execution log entry.',
  fields: (t) => ({
    ...simplyIdFields(t, 'executionSimplyId'),
    automationSimplyId: t.string({ resolve: (e) => e.automationSimplyId }),
    triggerType: t.field({ type: TriggerTypeEnum, resolve: (e) => e.row.triggerType }),
    triggerEventId: t.string({
      description: 'what caused it: the domain event id, the stable wizard key wizard:<instance>:completion:v1, or schedule:<automation>:<occurrence>',
      resolve: (e) => e.row.triggerEventId,
    }),
    status: t.field({ type: ExecutionStatusEnum, resolve: (e) => e.row.status }),
    depth: t.int({ description: 'automation executions that led to this one (loop guard)', resolve: (e) => e.row.depth }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: (e) => e.row.startedAt }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (e) => e.row.completedAt }),
    recordsProcessed: t.int({ resolve: (e) => e.row.recordsProcessed }),
    recordsFailed: t.int({ resolve: (e) => e.row.recordsFailed }),
    executionDurationMs: t.int({ nullable: true, resolve: (e) => e.row.executionDurationMs }),
    errorDetails: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.row.errorDetails }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.row.createdAt }),
  }),
});

const AutomationExecutionPageRef = pageType('AutomationExecutionPage', AutomationExecutionRef);

const AutomationExecutionEventRef = builder.objectRef<AutomationExecutionEvent>('AutomationExecutionEvent').implement({
  description: 'An execution was queued, started or finished.',
  fields: (t) => ({
    automationSimplyId: t.exposeString('automationSimplyId'),
    executionSimplyId: t.exposeString('executionSimplyId'),
    triggerType: t.exposeString('triggerType'),
    status: t.exposeString('status'),
    recordsProcessed: t.exposeInt('recordsProcessed'),
    recordsFailed: t.exposeInt('recordsFailed'),
    startedAt: t.exposeString('startedAt', { nullable: true }),
    completedAt: t.exposeString('completedAt', { nullable: true }),
    executionDurationMs: t.exposeInt('executionDurationMs', { nullable: true }),
    errorDetails: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.errorDetails }),
  }),
});

const AutomationActionInput = builder.inputType('AutomationActionInput', {
  fields: (t) => ({
    actionType: t.string({ required: true, description: ACTION_TYPES.join(', ') }),
    actionConfig: t.field({ type: 'JSON', description: 'settings of the action type' }),
    executionRank: t.int({ description: '1..n; default: last' }),
    continueOnError: t.boolean(),
    retryConfig: t.field({ type: 'JSON', description: '{ maxAttempts 1-5, delaySeconds 0-60 }' }),
    onFailureActions: t.field({ type: 'JSON', description: '[{ actionType, actionConfig }] (at most 5)' }),
  }),
});

const AutomationActionUpdateInput = builder.inputType('AutomationActionUpdateInput', {
  fields: (t) => ({
    actionType: t.string(),
    actionConfig: t.field({ type: 'JSON' }),
    executionRank: t.int(),
    continueOnError: t.boolean(),
    retryConfig: t.field({ type: 'JSON', description: 'null removes it' }),
    onFailureActions: t.field({ type: 'JSON', description: 'null removes them' }),
  }),
});

const AutomationInput = builder.inputType('AutomationInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    triggerType: t.string({ required: true, description: TRIGGER_TYPES.join(', ') }),
    dataCollectionSimplyId: t.string({ description: 'required for record triggers' }),
    triggerConfig: t.field({ type: 'JSON' }),
    filterConditions: t.field({ type: 'JSON' }),
    isEnabled: t.boolean(),
    maxRecordsPerExecution: t.int({ description: '1-1000, default 100' }),
    actions: t.field({ type: [AutomationActionInput], description: 'initial actions (at most 50)' }),
  }),
});

const AutomationUpdateInput = builder.inputType('AutomationUpdateInput', {
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    triggerType: t.string(),
    dataCollectionSimplyId: t.string({ description: 'null removes the collection' }),
    triggerConfig: t.field({ type: 'JSON' }),
    filterConditions: t.field({ type: 'JSON', description: 'null removes them' }),
    isEnabled: t.boolean(),
    maxRecordsPerExecution: t.int(),
  }),
});

builder.queryFields((t) => ({
  automations: t.field({
    type: AutomationPageRef,
    description: 'Privileged (TEAM_ADMIN_DATA_WIZARDS view): automations, newest first.',
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    args: { dataCollectionSimplyId: t.arg.string(), ...pageArgs(t.arg) },
    resolve: withArgs(listAutomations),
  }),
  automation: t.field({
    type: AutomationRef,
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    ...byId(t.arg, 'automationSimplyId', getAutomation),
  }),
  automationExecutions: t.field({
    type: AutomationExecutionPageRef,
    description: 'The execution log of an automation, newest first; optionally one status or one trigger event (e.g. wizard:<instance>:completion:v1).',
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    args: { automationSimplyId: t.arg.string({ required: true }), ...pageArgs(t.arg), status: t.arg.string(), triggerEventId: t.arg.string() },
    resolve: (_root, args, ctx) => listExecutions(ctx, args.automationSimplyId, args),
  }),
}));

builder.mutationFields((t) => ({
  createAutomation: t.field({
    type: AutomationRef,
    description: 'Privileged (TEAM_ADMIN_DATA_WIZARDS edit). SEND_EMAIL to fixed addresses also needs OUTGOING_MESSAGES_SEND. Records a team schema version.',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { input: t.arg({ type: AutomationInput, required: true }) },
    resolve: (_root, args, ctx) => createAutomation(ctx, { ...givenFields(args.input), ...(args.input.actions ? { actions: args.input.actions.map((a) => givenFields(a)) } : {}) }),
  }),
  updateAutomation: t.field({
    type: AutomationRef,
    description: 'Only the fields given change; null clears description, dataCollectionSimplyId and filterConditions.',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    ...patchById(t.arg, 'automationSimplyId', AutomationUpdateInput, updateAutomation),
  }),
  deleteAutomation: t.boolean({
    description: 'Deletes the automation, its actions and its execution log.',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    ...byId(t.arg, 'automationSimplyId', deleteAutomation),
  }),
  createAutomationAction: t.field({
    type: AutomationActionRef,
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { automationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: AutomationActionInput, required: true }) },
    resolve: (_root, args, ctx) => createAction(ctx, args.automationSimplyId, givenFields(args.input)),
  }),
  updateAutomationAction: t.field({
    type: AutomationActionRef,
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { automationSimplyId: t.arg.string({ required: true }), automationActionSimplyId: t.arg.string({ required: true }), input: t.arg({ type: AutomationActionUpdateInput, required: true }) },
    resolve: (_root, args, ctx) => updateAction(ctx, args.automationSimplyId, args.automationActionSimplyId, suppliedFields(args.input)),
  }),
  deleteAutomationAction: t.boolean({
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { automationSimplyId: t.arg.string({ required: true }), automationActionSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => deleteAction(ctx, args.automationSimplyId, args.automationActionSimplyId),
  }),
  reorderAutomationActions: t.field({
    type: AutomationRef,
    description: 'orderedActionSimplyIds lists every action of the automation once, in the new order.',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    ...reorderById(t.arg, 'automationSimplyId', 'orderedActionSimplyIds', reorderActions),
  }),
  reconcileAutomationExecution: t.field({
    type: AutomationExecutionRef,
    description:
      'For an execution no worker will finish (e.g. a wizard-completion execution whose worker died while RUNNING: never redelivered automatically). RETRY queues it again under the same claim; ABANDON marks it FAILED. Refused (409) while its job is still queued or running.',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { executionSimplyId: t.arg.string({ required: true }), resolution: t.arg({ type: ResolutionEnum, required: true }) },
    resolve: (_root, args, ctx) => reconcileExecution(ctx, args.executionSimplyId, args.resolution),
  }),
}));

builder.subscriptionFields((t) => ({
  automationExecutions: t.field({
    type: AutomationExecutionEventRef,
    description: "Execution updates (queued, started, finished) of the team's automations, from every instance; optionally of one automation.",
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    args: { automationSimplyId: t.arg.string() },
    subscribe: (_root, args, ctx) =>
      pipe(
        subscribeExecutionEvents(ctx),
        filter((event: AutomationExecutionEvent) => mayReceiveExecutionEvent(ctx, event, args.automationSimplyId)),
      ),
    resolve: (event) => event,
  }),
}));
