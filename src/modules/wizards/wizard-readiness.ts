// Studio readiness (GET …/studio-readiness): what keeps a wizard from running as its author meant,
// and what is worth a look before it is handed out. Computed from the stored configuration and the
// team schema as it is now, so it also finds what changed under the wizard since it was authored (a
// field deleted, the collection archived). The shape mirrors a view's share readiness
// (src/modules/views/views.readiness.ts): `{ code, message, field }` issues in `blockers` and
// `warnings`, with the step, task, field or automation an issue concerns.
//
// The stored links are read as they are (wizard-config.ts drops a link whose field is gone; here
// that link is the finding).
import { isDataType, type TeamSchema } from '../../kernel/index.ts';
import type { OutcomeAutomation } from '../automations/index.ts';
import type { LoadedWizard } from './wizard-config.ts';
import { TASK_TYPES } from './wizards.input.ts';

export interface WizardReadinessIssue {
  code: string;
  message: string;
  /** where in the wizard's detail the problem is (`steps[1].tasks[0].fields[2]`), when it has one place */
  field: string | null;
  dataWizardStepSimplyId: string | null;
  dataWizardStepTaskSimplyId: string | null;
  dataFieldSimplyId: string | null;
  automationSimplyId: string | null;
}

export interface WizardReadiness {
  dataWizardSimplyId: string;
  /** no blockers */
  isReady: boolean;
  /** what keeps the wizard from running as configured; links are refused while there are any */
  blockers: WizardReadinessIssue[];
  /** worth knowing; blocks nothing */
  warnings: WizardReadinessIssue[];
}

/** The task types whose runs read or write their linked fields: without one they do nothing. */
const NEEDS_FIELDS: readonly string[] = ['UPDATE_DATA_RECORD', 'VALIDATE_DATA_RECORD'];
/** The data types the external form cannot collect: an outsider has no way to upload a file there. */
export const NOT_ON_EXTERNAL_FORM: readonly string[] = ['SINGLE_FILE', 'MULTI_FILE', 'SINGLE_IMAGE', 'MULTI_IMAGE'];

type Where = Partial<Pick<WizardReadinessIssue, 'field' | 'dataWizardStepSimplyId' | 'dataWizardStepTaskSimplyId' | 'dataFieldSimplyId' | 'automationSimplyId'>>;

const issue = (code: string, message: string, where: Where = {}): WizardReadinessIssue => ({
  code,
  message,
  field: where.field ?? null,
  dataWizardStepSimplyId: where.dataWizardStepSimplyId ?? null,
  dataWizardStepTaskSimplyId: where.dataWizardStepTaskSimplyId ?? null,
  dataFieldSimplyId: where.dataFieldSimplyId ?? null,
  automationSimplyId: where.automationSimplyId ?? null,
});

/** Blockers of the configuration, in the order the studio shows the wizard. */
export function readinessBlockers(wizard: LoadedWizard, schema: TeamSchema): WizardReadinessIssue[] {
  const out: WizardReadinessIssue[] = [];
  const collection = wizard.collectionId === null ? undefined : schema.collectionsById.get(wizard.collectionId);
  if (!collection) out.push(issue('COLLECTION_MISSING', "The wizard's collection no longer exists: the wizard cannot run; delete it", { field: 'dataCollectionSimplyId' }));
  else if (collection.isArchived) out.push(issue('COLLECTION_ARCHIVED', `The wizard's collection ${collection.simplyId} is archived: restore it to run the wizard`, { field: 'dataCollectionSimplyId' }));
  const own = new Set(collection ? schema.fieldsOf(collection).map((f) => f.id) : []);

  if (wizard.steps.length === 0) out.push(issue('NO_STEPS', 'The wizard has no steps: add one', { field: 'steps' }));
  wizard.steps.forEach((step, s) => {
    const stepWhere = { dataWizardStepSimplyId: step.simplyId };
    if (step.tasks.length === 0) out.push(issue('STEP_HAS_NO_TASKS', `Step ${step.simplyId} has no tasks: add one or delete the step`, { ...stepWhere, field: `steps[${s}].tasks` }));
    step.tasks.forEach((task, t) => {
      const at = `steps[${s}].tasks[${t}]`;
      const taskWhere = { ...stepWhere, dataWizardStepTaskSimplyId: task.simplyId };
      if (!(TASK_TYPES as readonly string[]).includes(task.type)) {
        out.push(issue('TASK_TYPE_UNSUPPORTED', `Task ${task.simplyId} has the type ${task.type}, which runs cannot carry out: change its type`, { ...taskWhere, field: `${at}.type` }));
      }
      if (NEEDS_FIELDS.includes(task.type) && task.fields.length === 0) {
        const does = task.type === 'UPDATE_DATA_RECORD' ? 'collects' : 'checks';
        out.push(issue('TASK_HAS_NO_FIELDS', `Task ${task.simplyId} (${task.type}) ${does} no fields: link at least one`, { ...taskWhere, field: `${at}.fields` }));
      }
      task.fields.forEach((link, f) => {
        const linkAt = `${at}.fields[${f}]`;
        const field = schema.fieldsById.get(link.fieldId);
        if (!field) {
          out.push(issue('FIELD_MISSING', `A field linked by task ${task.simplyId} was deleted: remove the link`, { ...taskWhere, field: linkAt }));
          return;
        }
        const fieldWhere = { ...taskWhere, dataFieldSimplyId: field.dataFieldSimplyId, field: linkAt };
        if (!own.has(field.id)) {
          out.push(issue('FIELD_NOT_IN_COLLECTION', `Field ${field.dataFieldSimplyId} linked by task ${task.simplyId} is not a field of the wizard's collection: remove the link`, fieldWhere));
        } else if (!isDataType(field.dataType)) {
          out.push(issue('FIELD_TYPE_UNSUPPORTED', `Field ${field.dataFieldSimplyId} has the data type ${field.dataType}, which runs cannot write or check`, fieldWhere));
        }
        if (link.isRequired && task.type !== 'UPDATE_DATA_RECORD') {
          out.push(issue('REQUIRED_FIELD_NOT_COLLECTED', `Field ${field.dataFieldSimplyId} is marked required on task ${task.simplyId}, but a ${task.type} task collects no values: move it to an UPDATE_DATA_RECORD task or unmark it`, { ...fieldWhere, field: `${linkAt}.isRequired` }));
        }
      });
    });
  });
  return out;
}

/** Warnings: the outcomes (the automations a run triggers) and what the external form cannot collect. */
export function readinessWarnings(wizard: LoadedWizard, schema: TeamSchema, outcomes: readonly OutcomeAutomation[]): WizardReadinessIssue[] {
  const out: WizardReadinessIssue[] = [];
  const collects = wizard.steps.some((step) => step.tasks.some((task) => task.type === 'UPDATE_DATA_RECORD' && task.fields.length > 0));
  if (wizard.steps.length > 0 && !collects) out.push(issue('NOTHING_COLLECTED', 'No UPDATE_DATA_RECORD task links a field: runs change no record', { field: 'steps' }));
  wizard.steps.forEach((step, s) =>
    step.tasks.forEach((task, t) => {
      if (task.type !== 'UPDATE_DATA_RECORD') return;
      task.fields.forEach((link, f) => {
        const field = schema.fieldsById.get(link.fieldId);
        if (!field || !NOT_ON_EXTERNAL_FORM.includes(field.dataType)) return;
        const consequence = link.isRequired ? ' and is required there, so external submissions always fail' : ' (it is shown there as not collected)';
        out.push(issue('EXTERNAL_FORM_FIELD_UNSUPPORTED', `Field ${field.dataFieldSimplyId} is a ${field.dataType} field: the external form cannot collect it${consequence}`, {
          dataWizardStepSimplyId: step.simplyId,
          dataWizardStepTaskSimplyId: task.simplyId,
          dataFieldSimplyId: field.dataFieldSimplyId,
          field: `steps[${s}].tasks[${t}].fields[${f}]`,
        }));
      });
    }),
  );
  const success = outcomes.filter((o) => o.outcome === 'SUCCESS');
  if (!success.some((o) => o.row.isEnabled)) {
    out.push(issue('NO_SUCCESS_OUTCOME', success.length === 0 ? 'No automation runs when the wizard completes (no success outcome): nothing follows a run' : 'Every success outcome automation is disabled: nothing follows a run'));
  }
  for (const o of outcomes) {
    if (o.row.isEnabled) continue;
    out.push(issue('OUTCOME_DISABLED', `The ${o.outcome === 'SUCCESS' ? 'success' : 'error'} outcome automation ${o.row.simplyId} is disabled: it does not run`, { automationSimplyId: o.row.simplyId }));
  }
  return out;
}

export function wizardReadiness(wizard: LoadedWizard, schema: TeamSchema, outcomes: readonly OutcomeAutomation[]): WizardReadiness {
  const blockers = readinessBlockers(wizard, schema);
  return { dataWizardSimplyId: wizard.simplyId, isReady: blockers.length === 0, blockers, warnings: readinessWarnings(wizard, schema, outcomes) };
}
