// The selections of this area's types that other faces (REST tables, tests) use. One DataWizard
// type serves the list (summary), the detail and the Document 1 §2.6 schema shape.
import { fragment, selection } from '../../app/graphql/fragments.ts';

export const DATA_WIZARD_TASK_FIELD = fragment('DataWizardTaskFieldFields', 'DataWizardTaskField', 'dataFieldSimplyId columnName dataType name isRequired');

export const DATA_WIZARD_SUMMARY = fragment(
  'DataWizardSummaryFields',
  'DataWizard',
  'id name description dataCollectionSimplyId firstStepId stepCount createdAt updatedAt',
);

/** A task as the authoring routes answer it: where it sits, its settings and its field links. */
export const DATA_WIZARD_STEP_TASK = fragment(
  'DataWizardStepTaskFields',
  'DataWizardStepTask',
  selection`id dataWizardStepTaskSimplyId dataWizardStepSimplyId dataWizardSimplyId position type title config fields { ${DATA_WIZARD_TASK_FIELD} }`,
);

/** A step as the authoring routes answer it, with its tasks in order. */
export const DATA_WIZARD_STEP = fragment(
  'DataWizardStepFields',
  'DataWizardStep',
  selection`id dataWizardStepSimplyId dataWizardSimplyId title position tasks { ${DATA_WIZARD_STEP_TASK} }`,
);

export const DATA_WIZARD_DETAIL = fragment(
  'DataWizardDetailFields',
  'DataWizard',
  selection`${DATA_WIZARD_SUMMARY} firstDataWizardStepSimplyId
    steps { dataWizardStepSimplyId title position tasks { dataWizardStepTaskSimplyId position type title config fields { ${DATA_WIZARD_TASK_FIELD} } } }`,
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

export const DATA_WIZARD_OUTCOME_AUTOMATION = fragment(
  'DataWizardOutcomeAutomationFields',
  'DataWizardOutcomeAutomation',
  'automationSimplyId outcome name description triggerType isEnabled actionCount actionTypes lastRunAt createdAt updatedAt',
);

export const DATA_WIZARD_OUTCOMES = fragment(
  'DataWizardOutcomesFields',
  'DataWizardOutcomes',
  selection`dataWizardSimplyId success { ${DATA_WIZARD_OUTCOME_AUTOMATION} } error { ${DATA_WIZARD_OUTCOME_AUTOMATION} }`,
);

const OUTCOME_CHANGE = fragment(
  'DataWizardOutcomeChangeFields',
  'DataWizardOutcomeChange',
  'outcome operation automationSimplyId name triggerType isEnabled actionCount replacedActionCount changes',
);

const OUTCOME_ISSUE = fragment('DataWizardOutcomeIssueFields', 'DataWizardOutcomeIssue', 'code message field outcome');

export const DATA_WIZARD_OUTCOME_PREVIEW = fragment(
  'DataWizardOutcomePresetPreviewFields',
  'DataWizardOutcomePresetPreview',
  selection`dataWizardSimplyId configuration manifest { ${OUTCOME_CHANGE} } blockers { ${OUTCOME_ISSUE} } warnings { ${OUTCOME_ISSUE} } fingerprint`,
);

export const DATA_WIZARD_OUTCOME_APPLICATION = fragment(
  'DataWizardOutcomePresetApplicationFields',
  'DataWizardOutcomePresetApplication',
  selection`dataWizardSimplyId fingerprint idempotencyKey replayed appliedAt manifest { ${OUTCOME_CHANGE} }`,
);

const DATA_WIZARD_RUN_ERROR = 'dataWizardStepSimplyId dataWizardStepTaskSimplyId dataFieldSimplyId field message';

/** A run in the list: who, when, on which record, how it ended. */
export const DATA_WIZARD_INSTANCE_SUMMARY = fragment(
  'DataWizardInstanceSummaryFields',
  'DataWizardInstance',
  'id dataWizardInstanceSimplyId dataWizardSimplyId dataRecordSimplyId status actorKind actorId startedAt completedAt',
);

/** One run, with what it was sent and why it failed. */
export const DATA_WIZARD_INSTANCE = fragment(
  'DataWizardInstanceFields',
  'DataWizardInstance',
  selection`${DATA_WIZARD_INSTANCE_SUMMARY} formData errorDetails { ${DATA_WIZARD_RUN_ERROR} }`,
);

const READINESS_ISSUE = fragment(
  'DataWizardReadinessIssueFields',
  'DataWizardReadinessIssue',
  'code message field dataWizardStepSimplyId dataWizardStepTaskSimplyId dataFieldSimplyId automationSimplyId',
);

export const DATA_WIZARD_STUDIO_READINESS = fragment(
  'DataWizardStudioReadinessFields',
  'DataWizardStudioReadiness',
  selection`dataWizardSimplyId isReady blockers { ${READINESS_ISSUE} } warnings { ${READINESS_ISSUE} }`,
);

/** A link as listed: never its secret. */
export const DATA_WIZARD_EXTERNAL_LINK = fragment(
  'DataWizardExternalAccessLinkFields',
  'DataWizardExternalAccessLink',
  'id dataWizardExternalAccessLinkSimplyId dataWizardSimplyId dataRecordSimplyId label status createdAt createdBy { kind id } expiresAt useCount maxUses revokedAt lastUsedAt',
);

/** The answer that creates a link: the listed shape and the url with the secret, once. */
export const DATA_WIZARD_EXTERNAL_LINK_CREATED = fragment(
  'DataWizardExternalAccessLinkCreatedFields',
  'DataWizardExternalAccessLink',
  selection`${DATA_WIZARD_EXTERNAL_LINK} url`,
);
