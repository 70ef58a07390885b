// The selections of this area's types that other faces (REST tables, tests) use. One DataWizard
// type serves the list (summary), the detail and the Document 1 §2.6 schema shape.
import { fragment, selection } from '../../app/graphql/fragments.ts';

export const DATA_WIZARD_TASK_FIELD = fragment('DataWizardTaskFieldFields', 'DataWizardTaskField', 'dataFieldSimplyId columnName dataType name isRequired');

export const DATA_WIZARD_SUMMARY = fragment(
  'DataWizardSummaryFields',
  'DataWizard',
  'id name description dataCollectionSimplyId firstStepId stepCount createdAt updatedAt',
);

export const DATA_WIZARD_DETAIL = fragment(
  'DataWizardDetailFields',
  'DataWizard',
  selection`${DATA_WIZARD_SUMMARY} firstDataWizardStepSimplyId
    steps { dataWizardStepSimplyId title position tasks { dataWizardStepTaskSimplyId type title config fields { ${DATA_WIZARD_TASK_FIELD} } } }`,
);

/** Document 1 §2.6, exactly */
export const DATA_WIZARD_SCHEMA = fragment(
  'DataWizardSchemaFields',
  'DataWizard',
  selection`dataWizardSimplyId name steps { dataWizardStepSimplyId title tasks { dataWizardStepTaskSimplyId type title fields { ${DATA_WIZARD_TASK_FIELD} } } }`,
);

export const DATA_WIZARD_EXECUTION = fragment(
  'DataWizardExecutionFields',
  'DataWizardExecution',
  `success message dataWizardSimplyId dataRecordSimplyId dataWizardInstanceSimplyId
   errors { dataWizardStepSimplyId dataWizardStepTaskSimplyId dataFieldSimplyId field message }`,
);

export const DATA_WIZARD_RUN_ACCESS = fragment('DataWizardRunAccessFields', 'DataWizardRunAccess', 'dataWizardSimplyId firstDataWizardStepSimplyId stepCount');
