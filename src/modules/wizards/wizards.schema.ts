// GraphQL face of data wizards (Document 1 §2.6, §4.5). REST: rest-adapter/routes/wizards.ts;
// rules: docs/api/data-wizards.md. Reads and execute are standard tier (permissions checked in
// wizards.service.ts once the wizard's collection is known); run access needs a signed-in user;
// authoring is privileged: TEAM_ADMIN_DATA_WIZARDS at edit level (or team admin), never a scoped token.
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, patchById, reorderById, withArgs } from '../../app/graphql/args.ts';
import { tier } from '../../app/auth/tiers.ts';
import {
  addTaskField,
  createStep,
  createTask,
  createWizard,
  deleteStep,
  deleteTask,
  deleteWizard,
  removeTaskField,
  reorderSteps,
  reorderTasks,
  setFirstStep,
  setTaskFields,
  updateStep,
  updateTask,
  updateWizard,
} from './wizard-authoring.service.ts';
import { TASK_TYPES } from './wizards.input.ts';
// the outcome operations (their own file: types and fields registered on import)
import './wizard-outcomes.schema.ts';
// runs, studio readiness and external-access links (likewise)
import './wizards-admin.schema.ts';
import {
  DataWizardExecutionRef,
  DataWizardPageRef,
  DataWizardRef,
  DataWizardRunAccessRef,
  DataWizardStepRef,
  DataWizardStepTaskRef,
} from './wizards-types.schema.ts';
import { executeWizard, getStep, getTask, getWizard, listWizards, WIZARD_ADMIN_FEATURE, wizardRunAccess } from './wizards.service.ts';

const AUTHORING = 'Privileged: TEAM_ADMIN_DATA_WIZARDS edit or team admin; never scoped tokens. Records a new team schema version.';

/** GraphQL hands absent optional input fields as undefined and explicit ones as null: for create
 *  inputs both mean "not given", at every depth, so zod defaults apply. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, k === 'config' || k === 'name' || k === 'title' ? v : withoutNulls(v)]));
  }
  return value;
}

const TaskFieldInput = builder.inputType('DataWizardTaskFieldInput', {
  fields: (t) => ({
    dataFieldSimplyId: t.string({ required: true, description: "a field of the wizard's collection" }),
    isRequired: t.boolean({ description: 'default false' }),
  }),
});

const TaskInput = builder.inputType('DataWizardStepTaskInput', {
  fields: (t) => ({
    type: t.string({ required: true, description: TASK_TYPES.join(', ') }),
    title: t.field({ type: 'LocalizedText', required: true }),
    config: t.field({ type: 'JSON', description: 'DISPLAY: { body? } (localized text); other types: none' }),
    fields: t.field({ type: [TaskFieldInput], description: 'at most 100, each field once' }),
  }),
});

const StepInput = builder.inputType('DataWizardStepInput', {
  fields: (t) => ({
    title: t.field({ type: 'LocalizedText', required: true }),
    tasks: t.field({ type: [TaskInput], description: 'at most 50' }),
  }),
});

const WizardInput = builder.inputType('DataWizardInput', {
  fields: (t) => ({
    name: t.field({ type: 'LocalizedText', required: true }),
    description: t.string({ description: 'at most 2000 characters' }),
    dataCollectionSimplyId: t.string({ required: true, description: 'the collection whose records the wizard works on (not SMART, not archived)' }),
    steps: t.field({ type: [StepInput], description: 'at most 50, in order' }),
  }),
});

const WizardUpdateInput = builder.inputType('DataWizardUpdateInput', {
  fields: (t) => ({
    name: t.field({ type: 'LocalizedText' }),
    description: t.string({ description: 'null clears' }),
  }),
});

const StepUpdateInput = builder.inputType('DataWizardStepUpdateInput', {
  fields: (t) => ({
    title: t.field({ type: 'LocalizedText' }),
    position: t.int({ description: 'moves the step to this 0-based place (past the end: last); the others keep their order' }),
  }),
});

const TaskUpdateInput = builder.inputType('DataWizardStepTaskUpdateInput', {
  fields: (t) => ({
    type: t.string({ description: TASK_TYPES.join(', ') }),
    title: t.field({ type: 'LocalizedText' }),
    config: t.field({ type: 'JSON', description: 'replaces the settings; null clears them' }),
    fields: t.field({ type: [TaskFieldInput], description: "replaces the task's field links (order and isRequired); at most 100" }),
    position: t.int({ description: 'moves the task to this 0-based place in its step (past the end: last)' }),
  }),
});

const ExecuteInput = builder.inputType('DataWizardExecuteInput', {
  fields: (t) => ({
    dataRecordSimplyId: t.string({ description: "required: a record of the wizard's collection" }),
    formData: t.field({ type: 'JSON', description: 'object keyed by dataFieldSimplyId' }),
  }),
});

builder.queryFields((t) => ({
  dataWizards: t.field({
    type: DataWizardPageRef,
    description: 'Wizards of the team, newest first. Needs TEAM_ADMIN_DATA_WIZARDS (view); scoped tokens also schema:read.',
    authScopes: tier.standardFeature(WIZARD_ADMIN_FEATURE, 'VIEW'),
    args: pageArgs(t.arg),
    resolve: withArgs(listWizards),
  }),
  dataWizard: t.field({
    type: DataWizardRef,
    description: "Configuration and schema (Document 1 §2.6). Needs TEAM_ADMIN_DATA_WIZARDS (view) or RUN on the wizard's collection.",
    authScopes: tier.standard,
    ...byId(t.arg, 'dataWizardSimplyId', getWizard),
  }),
  dataWizardStep: t.field({
    type: DataWizardStepRef,
    description: 'One step with its tasks and field links. Privileged: TEAM_ADMIN_DATA_WIZARDS view or team admin; never scoped tokens.',
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'VIEW'),
    ...byId(t.arg, 'dataWizardStepSimplyId', getStep),
  }),
  dataWizardStepTask: t.field({
    type: DataWizardStepTaskRef,
    description: 'One task with its field links. Privileged: TEAM_ADMIN_DATA_WIZARDS view or team admin; never scoped tokens.',
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'VIEW'),
    ...byId(t.arg, 'dataWizardStepTaskSimplyId', getTask),
  }),
  dataWizardRunAccess: t.field({
    type: DataWizardRunAccessRef,
    description: "Signed-in users only (API keys and session tokens: IDP_REQUIRED); RUN on the wizard's collection.",
    authScopes: tier.signedInMember,
    ...byId(t.arg, 'dataWizardSimplyId', wizardRunAccess),
  }),
}));

builder.mutationFields((t) => ({
  executeDataWizard: t.field({
    type: DataWizardExecutionRef,
    description: "Runs every step on the record. RUN on the wizard's collection; session tokens refused; OAuth tokens need wizards:run.",
    authScopes: tier.standard,
    args: { dataWizardSimplyId: t.arg.string({ required: true }), input: t.arg({ type: ExecuteInput, required: true }) },
    resolve: (_root, args, ctx) => executeWizard(ctx, { dataWizardSimplyId: args.dataWizardSimplyId, dataRecordSimplyId: args.input.dataRecordSimplyId, formData: args.input.formData }),
  }),

  createDataWizard: t.field({
    type: DataWizardRef,
    description: AUTHORING,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    args: { input: t.arg({ type: WizardInput, required: true }) },
    resolve: (_root, args, ctx) => createWizard(ctx, withoutNulls(args.input)),
  }),
  updateDataWizard: t.field({
    type: DataWizardRef,
    description: AUTHORING,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    ...patchById(t.arg, 'dataWizardSimplyId', WizardUpdateInput, updateWizard),
  }),
  deleteDataWizard: t.boolean({
    description: `${AUTHORING} Steps, tasks, field links, run instances and external-access links go with it.`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    ...byId(t.arg, 'dataWizardSimplyId', deleteWizard),
  }),

  createDataWizardStep: t.field({
    type: DataWizardStepRef,
    description: `${AUTHORING} position: 0-based place (default: last).`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    args: { dataWizardSimplyId: t.arg.string({ required: true }), input: t.arg({ type: StepInput, required: true }), position: t.arg.int() },
    resolve: (_root, args, ctx) => createStep(ctx, args.dataWizardSimplyId, withoutNulls(args.input), args.position),
  }),
  updateDataWizardStep: t.field({
    type: DataWizardStepRef,
    description: AUTHORING,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    ...patchById(t.arg, 'dataWizardStepSimplyId', StepUpdateInput, updateStep),
  }),
  deleteDataWizardStep: t.boolean({
    description: `${AUTHORING} The next step becomes the first when the first one goes.`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    ...byId(t.arg, 'dataWizardStepSimplyId', deleteStep),
  }),
  reorderDataWizardSteps: t.field({
    type: DataWizardRef,
    description: `${AUTHORING} The listed steps first, in that order; unlisted ones keep their order after them.`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    ...reorderById(t.arg, 'dataWizardSimplyId', 'orderedStepSimplyIds', reorderSteps),
  }),
  setFirstDataWizardStep: t.field({
    type: DataWizardRef,
    description: `${AUTHORING} Moves the step to the front (firstStepId); the others keep their order.`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    ...byId(t.arg, 'dataWizardStepSimplyId', setFirstStep),
  }),

  createDataWizardStepTask: t.field({
    type: DataWizardStepTaskRef,
    description: `${AUTHORING} position: 0-based place in the step (default: last).`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    args: { dataWizardStepSimplyId: t.arg.string({ required: true }), input: t.arg({ type: TaskInput, required: true }), position: t.arg.int() },
    resolve: (_root, args, ctx) => createTask(ctx, args.dataWizardStepSimplyId, withoutNulls(args.input), args.position),
  }),
  updateDataWizardStepTask: t.field({
    type: DataWizardStepTaskRef,
    description: AUTHORING,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    ...patchById(t.arg, 'dataWizardStepTaskSimplyId', TaskUpdateInput, updateTask),
  }),
  deleteDataWizardStepTask: t.boolean({
    description: AUTHORING,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    ...byId(t.arg, 'dataWizardStepTaskSimplyId', deleteTask),
  }),
  reorderDataWizardStepTasks: t.field({
    type: DataWizardStepRef,
    description: `${AUTHORING} The listed tasks first, in that order; unlisted ones keep their order after them.`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    ...reorderById(t.arg, 'dataWizardStepSimplyId', 'orderedTaskSimplyIds', reorderTasks),
  }),

  setDataWizardStepTaskFields: t.field({
    type: DataWizardStepTaskRef,
    description: `${AUTHORING} Replaces the task's field links (order and isRequired) with the list.`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    args: { dataWizardStepTaskSimplyId: t.arg.string({ required: true }), fields: t.arg({ type: [TaskFieldInput], required: true }) },
    resolve: (_root, args, ctx) => setTaskFields(ctx, args.dataWizardStepTaskSimplyId, withoutNulls(args.fields)),
  }),
  addDataWizardStepTaskField: t.field({
    type: DataWizardStepTaskRef,
    description: `${AUTHORING} Links a field (appended), or updates isRequired of a linked one.`,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    args: { dataWizardStepTaskSimplyId: t.arg.string({ required: true }), input: t.arg({ type: TaskFieldInput, required: true }) },
    resolve: (_root, args, ctx) => addTaskField(ctx, args.dataWizardStepTaskSimplyId, withoutNulls(args.input)),
  }),
  removeDataWizardStepTaskField: t.field({
    type: DataWizardStepTaskRef,
    description: AUTHORING,
    authScopes: tier.privileged(WIZARD_ADMIN_FEATURE, 'EDIT'),
    args: { dataWizardStepTaskSimplyId: t.arg.string({ required: true }), dataFieldSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => removeTaskField(ctx, args.dataWizardStepTaskSimplyId, args.dataFieldSimplyId),
  }),
}));
