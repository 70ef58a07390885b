// GraphQL object types of data wizards. One DataWizard type serves the list (summary fields),
// the detail and the §2.6 schema shape: REST picks the selection per route.
import { builder } from '../../app/builder.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { firstStep, type WizardConfig, type WizardStep, type WizardTask, type WizardTaskField } from './wizard-config.ts';
import type { RunErrorDetail } from './wizard-events.ts';
import { TASK_TYPES } from './wizards.input.ts';
import type { RunWizardResult } from './wizard-runner.ts';
import type { RunAccess } from './wizards.service.ts';

export const DataWizardTaskFieldRef = builder.objectRef<WizardTaskField>('DataWizardTaskField').implement({
  description: 'A data field a task links (Document 1 §2.6 "task field")',
  fields: (t) => ({
    dataFieldSimplyId: t.string({ resolve: (f) => f.field.dataFieldSimplyId }),
    columnName: t.string({ resolve: (f) => f.field.columnName }),
    dataType: t.string({ resolve: (f) => f.field.dataType }),
    name: t.field({ type: 'LocalizedText', description: "the field's title", resolve: (f) => f.field.title as never }),
    isRequired: t.boolean({ description: 'the task needs a value for this field', resolve: (f) => f.isRequired }),
  }),
});

export const DataWizardStepTaskRef = builder.objectRef<WizardTask>('DataWizardStepTask').implement({
  fields: (t) => ({
    ...simplyIdFields(t, 'dataWizardStepTaskSimplyId'),
    dataWizardStepSimplyId: t.string({ description: 'the step the task belongs to', resolve: (task) => task.stepSimplyId }),
    dataWizardSimplyId: t.string({ description: 'the wizard the task belongs to', resolve: (task) => task.wizardSimplyId }),
    position: t.int({ description: '0-based place in its step', resolve: (task) => task.position }),
    type: t.string({ description: TASK_TYPES.join(', '), resolve: (task) => task.type }),
    title: t.field({ type: 'LocalizedText', resolve: (task) => task.row.title as never }),
    config: t.field({ type: 'JSON', description: 'DISPLAY: { body? }; other types: {}', resolve: (task) => task.row.config }),
    fields: t.field({ type: [DataWizardTaskFieldRef], resolve: (task) => task.fields }),
  }),
});

export const DataWizardStepRef = builder.objectRef<WizardStep>('DataWizardStep').implement({
  fields: (t) => ({
    ...simplyIdFields(t, 'dataWizardStepSimplyId'),
    dataWizardSimplyId: t.string({ description: 'the wizard the step belongs to', resolve: (s) => s.wizardSimplyId }),
    title: t.field({ type: 'LocalizedText', resolve: (s) => s.row.title as never }),
    position: t.int({ description: '0-based place in the wizard; the first step is 0', resolve: (s) => s.position }),
    tasks: t.field({ type: [DataWizardStepTaskRef], resolve: (s) => s.tasks }),
  }),
});

const firstId = (w: WizardConfig) => firstStep(w)?.row.simplyId ?? null;

export const DataWizardRef = builder.objectRef<WizardConfig>('DataWizard').implement({
  fields: (t) => ({
    ...simplyIdFields(t, 'dataWizardSimplyId'),
    name: t.field({ type: 'LocalizedText', resolve: (w) => w.row.name as never }),
    description: t.string({ nullable: true, resolve: (w) => w.row.description }),
    dataCollectionSimplyId: t.string({ nullable: true, description: 'the collection whose records the wizard works on', resolve: (w) => w.collection?.simplyId ?? null }),
    firstStepId: t.string({ nullable: true, description: 'simplyId of the first step (same as firstDataWizardStepSimplyId)', resolve: firstId }),
    firstDataWizardStepSimplyId: t.string({ nullable: true, resolve: firstId }),
    stepCount: t.int({ resolve: (w) => w.steps.length }),
    steps: t.field({ type: [DataWizardStepRef], description: 'in order, the first step first', resolve: (w) => w.steps }),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => w.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (w) => w.row.updatedAt }),
  }),
});

export const DataWizardPageRef = pageType('DataWizardPage', DataWizardRef);

export const DataWizardRunAccessRef = builder.objectRef<RunAccess>('DataWizardRunAccess').implement({
  fields: (t) => ({
    dataWizardSimplyId: t.exposeString('dataWizardSimplyId'),
    firstDataWizardStepSimplyId: t.exposeString('firstDataWizardStepSimplyId', { nullable: true }),
    stepCount: t.exposeInt('stepCount'),
  }),
});

export const DataWizardRunErrorRef = builder.objectRef<RunErrorDetail>('DataWizardRunError').implement({
  description: 'Why a run failed: the step, task and field concerned where they apply',
  fields: (t) => ({
    dataWizardStepSimplyId: t.string({ nullable: true, resolve: (e) => e.dataWizardStepSimplyId ?? null }),
    dataWizardStepTaskSimplyId: t.string({ nullable: true, resolve: (e) => e.dataWizardStepTaskSimplyId ?? null }),
    dataFieldSimplyId: t.string({ nullable: true, resolve: (e) => e.dataFieldSimplyId ?? null }),
    field: t.string({ nullable: true, description: 'the input path (formData.<dataFieldSimplyId>) when the value came from formData', resolve: (e) => e.field ?? null }),
    message: t.exposeString('message'),
  }),
});

export const DataWizardExecutionRef = builder.objectRef<RunWizardResult>('DataWizardExecution').implement({
  fields: (t) => ({
    success: t.exposeBoolean('success'),
    message: t.exposeString('message'),
    dataWizardSimplyId: t.exposeString('dataWizardSimplyId'),
    dataRecordSimplyId: t.exposeString('dataRecordSimplyId'),
    dataWizardInstanceSimplyId: t.exposeString('dataWizardInstanceSimplyId'),
    errors: t.field({ type: [DataWizardRunErrorRef], description: 'empty on success', resolve: (r) => r.errors }),
  }),
});
