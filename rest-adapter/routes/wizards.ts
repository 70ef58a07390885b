// /v1/data-wizards, /v1/data-wizard-steps, /v1/data-wizard-step-tasks → src/modules/wizards/wizards.schema.ts
// (Document 1 §4.5; docs/api/data-wizards.md). Reads and execute are standard tier; authoring is
// privileged (TEAM_ADMIN_DATA_WIZARDS or team admin, never a scoped token).
import { z } from 'zod';
import { operation } from '../../src/app/graphql/fragments.ts';
import { localizedTextSchema } from '../../src/app/localized-text.ts';
import {
  DATA_WIZARD_DETAIL,
  DATA_WIZARD_EXECUTION,
  DATA_WIZARD_EXTERNAL_LINK,
  DATA_WIZARD_EXTERNAL_LINK_CREATED,
  DATA_WIZARD_INSTANCE,
  DATA_WIZARD_INSTANCE_SUMMARY,
  DATA_WIZARD_OUTCOME_APPLICATION,
  DATA_WIZARD_OUTCOME_AUTOMATION,
  DATA_WIZARD_OUTCOME_PREVIEW,
  DATA_WIZARD_OUTCOMES,
  DATA_WIZARD_RUN_ACCESS,
  DATA_WIZARD_SCHEMA,
  DATA_WIZARD_STEP,
  DATA_WIZARD_STEP_TASK,
  DATA_WIZARD_STUDIO_READINESS,
  DATA_WIZARD_SUMMARY,
} from '../../src/modules/wizards/wizards.fragments.ts';
import { TASK_TYPES } from '../../src/modules/wizards/wizards.input.ts';
import { applyInput, enabledInput, previewInput } from '../../src/modules/wizards/wizard-outcomes.input.ts';
import { externalLinkInput } from '../../src/modules/wizards/wizard-external-links.input.ts';
import { INSTANCE_STATUSES } from '../../src/modules/wizards/wizard-instances.input.ts';
import { defineRoutes, type JsonSchema, respond, route } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';
import { NOT_AN_OBJECT } from '../schemas.ts';

/**
 * The execute body. Unknown keys go on to the operation, which names them; the service checks
 * the values (a missing record, formData that is not an object) with the messages both faces share.
 */
const executeBody = z.looseObject(
  {
    dataRecordSimplyId: z.string().nullish().describe("required: a record of the wizard's collection (XXXX-XXXX-XXXX)"),
    formData: z.unknown().optional().describe('object keyed by dataFieldSimplyId'),
  },
  NOT_AN_OBJECT,
);

// ------------------------------------------------------------------------------------------
// Authoring bodies. The shapes are checked here (an unknown key, a value of the wrong JSON type: a
// 400 naming it); the rules (task types, lengths, limits, fields of the wizard's collection) are
// the service's, with the same messages on both faces.

const localizedText = localizedTextSchema.describe('text, or { "<language tag>": text } (1-500 characters each)');
/** A 0-based place; ranges past the end mean last. A GraphQL Int. */
const position = (what: string) =>
  z.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').max(2 ** 31 - 1).describe(what);
const taskFieldBody = z.strictObject({
  dataFieldSimplyId: z.string().describe("a field of the wizard's collection (fld-…)"),
  isRequired: z.boolean().optional().describe('the task needs a value for it; default false'),
});
const taskFields = z.array(taskFieldBody).describe('linked fields in order, each once (at most 100)');
const taskShape = {
  type: z.string().describe(TASK_TYPES.join(', ')),
  title: localizedText,
  config: z.unknown().optional().describe('DISPLAY: { body? } (localized text); other types: none'),
  fields: taskFields.optional(),
};
const stepShape = { title: localizedText, tasks: z.array(z.strictObject(taskShape)).optional().describe('tasks in order (at most 50)') };

const createWizardBody = z.strictObject(
  {
    name: localizedText,
    description: z.string().nullish().describe('at most 2000 characters'),
    dataCollectionSimplyId: z.string().describe('the collection whose records the wizard works on (not SMART, not archived)'),
    steps: z.array(z.strictObject(stepShape)).optional().describe('steps in order (at most 50)'),
  },
  NOT_AN_OBJECT,
);
const updateWizardBody = z.strictObject(
  { name: localizedText.optional(), description: z.string().nullish().describe('null clears it') },
  NOT_AN_OBJECT,
);
const createStepBody = z.strictObject(
  { dataWizardSimplyId: z.string().describe('the wizard to add the step to (wiz-…)'), position: position('0-based place; default last').optional(), ...stepShape },
  NOT_AN_OBJECT,
);
const updateStepBody = z.strictObject(
  { title: localizedText.optional(), position: position('moves the step there; the others keep their order').optional() },
  NOT_AN_OBJECT,
);
const createTaskBody = z.strictObject(
  { dataWizardStepSimplyId: z.string().describe('the step to add the task to (wst-…)'), position: position('0-based place in the step; default last').optional(), ...taskShape },
  NOT_AN_OBJECT,
);
const updateTaskBody = z.strictObject(
  {
    type: taskShape.type.optional(),
    title: localizedText.optional(),
    config: z.unknown().optional().describe('replaces the settings; null clears them (a type change re-checks the stored ones)'),
    fields: taskFields.optional().describe("replaces the task's field links (order and isRequired)"),
    position: position('moves the task there in its step').optional(),
  },
  NOT_AN_OBJECT,
);

// Outcome bodies: the schemas the service parses too (src/modules/wizards/wizard-outcomes.input.ts).
const previewBody = previewInput.describe('{ configuration: { success?, error? } }');
const applyBody = applyInput.describe('{ configuration, fingerprint, idempotencyKey }: the reviewed preview');
const enabledBody = enabledInput;
const OUTCOMES_WHO = 'signed-in team members only (API keys, session tokens, OAuth tokens: 403 IDP_REQUIRED)';
const OUTCOME_EXAMPLE = {
  success: {
    name: 'Welcome after sign-up',
    actions: [{ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { 'fld-AB23-CD45-EF67': 'Registered' } } }],
  },
  error: { actions: [{ actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: 'usr-GH89-JK23-MN45', title: 'A sign-up failed', body: 'Look at the wizard run' } }] },
};

const STEP = '/v1/data-wizard-steps/{dataWizardStepSimplyId}';
const TASK = '/v1/data-wizard-step-tasks/{dataWizardStepTaskSimplyId}';
const AUTHORING = 'privileged: TEAM_ADMIN_DATA_WIZARDS edit or team admin; scoped tokens refused; records a team schema version';

type Execution = { errors: Record<string, unknown>[] } & Record<string, unknown>;

/** Leaves out the parts of a run error that do not apply (null). */
function compact(e: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null));
}

/** The run errors' JSON Schema once compacted: a part that does not apply is absent, never null. */
function compactedErrors(field: JsonSchema): JsonSchema {
  const errors = respond.property(field, 'errors');
  const item = (errors.items ?? {}) as JsonSchema;
  const properties = (item.properties ?? {}) as Record<string, JsonSchema>;
  const nullable = (p: JsonSchema) => Array.isArray(p.type) && p.type.includes('null');
  const compacted: JsonSchema = {
    ...item,
    properties: Object.fromEntries(
      Object.entries(properties).map(([k, p]) => [k, nullable(p) ? { ...p, type: (p.type as string[]).filter((t) => t !== 'null') } : p]),
    ),
    required: Object.keys(properties).filter((k) => !nullable(properties[k]!)),
  };
  return { ...field, properties: { ...(field.properties as object), errors: { ...errors, items: compacted } } };
}

const ONE = '/v1/data-wizards/{dataWizardSimplyId}';
const LINKS = `${ONE}/external-access-links`;
const ADMIN_READ = 'privileged: TEAM_ADMIN_DATA_WIZARDS view or team admin; scoped tokens refused';
const ADMIN_CHANGE = 'privileged: TEAM_ADMIN_DATA_WIZARDS edit or team admin; scoped tokens refused';

// The routes the route checklist names without paths ("external-access links", "submission
// instances", "studio readiness" among the privileged wizard surfaces), placed under the wizard.
const NAMED_WITHOUT_PATH = (what: string) => `${what} (docs/api/data-wizards.md): the route checklist lists it among the privileged wizard surfaces without a path`;
const INSTANCES = NAMED_WITHOUT_PATH('a wizard\'s submission instances (its runs)');
const READINESS = NAMED_WITHOUT_PATH('a wizard\'s studio readiness');
const EXTERNAL_LINKS = NAMED_WITHOUT_PATH('external-access links to a wizard\'s form for people outside the team');

export const dataWizardRoutes = defineRoutes([
  listPage({ path: '/v1/data-wizards', summary: 'List wizards', description: 'Wizards of the team, newest first (limit 1-100, offset); needs TEAM_ADMIN_DATA_WIZARDS', name: 'DataWizards', select: DATA_WIZARD_SUMMARY }),
  getOne({ path: ONE, summary: 'Get a wizard', description: "Configuration with ordered steps and firstStepId; needs TEAM_ADMIN_DATA_WIZARDS or RUN on the wizard's collection", name: 'DataWizard', select: DATA_WIZARD_DETAIL }),
  getOne({ path: `${ONE}/schema`, summary: "Get a wizard's schema", description: 'The wizard schema (Document 1 §2.6): steps, tasks and task fields', name: 'DataWizardSchema', field: 'dataWizard', select: DATA_WIZARD_SCHEMA }),
  updateOne({
    method: 'POST',
    path: `${ONE}/execute`,
    summary: 'Run a wizard on a record',
    description: "Run every step on a record: { dataRecordSimplyId, formData? }; RUN on the wizard's collection; session tokens refused",
    name: 'ExecuteDataWizard',
    inputType: 'DataWizardExecuteInput',
    body: executeBody,
    example: { dataRecordSimplyId: 'QR67-ST89-UV23', formData: { 'fld-AB23-CD45-EF67': 'Ada', 'fld-JK23-MN45-PQ67': 36 } },
    select: DATA_WIZARD_EXECUTION,
    respond: respond.custom(
      (r: Execution) => ({ data: { ...r, errors: r.errors.map(compact) } }),
      (field) => ({ data: compactedErrors(field) }),
    ),
  }),
  createOne({
    path: '/v1/data-wizards',
    summary: 'Create a wizard',
    description: `Create a wizard with its steps, tasks and field links: { name, description?, dataCollectionSimplyId, steps? } (${AUTHORING})`,
    name: 'CreateDataWizard',
    inputType: 'DataWizardInput',
    body: createWizardBody,
    example: {
      name: { en: 'Update person', de: 'Person aktualisieren' },
      dataCollectionSimplyId: 'GH89-JK23-MN45',
      steps: [{ title: 'Name', tasks: [{ type: 'UPDATE_DATA_RECORD', title: 'Enter the name', fields: [{ dataFieldSimplyId: 'fld-AB23-CD45-EF67', isRequired: true }] }] }],
    },
    select: DATA_WIZARD_DETAIL,
  }),
  updateOne({
    method: 'PATCH',
    path: ONE,
    summary: 'Update a wizard',
    description: `Change a wizard's name or description (null clears it); the collection cannot change (${AUTHORING})`,
    name: 'UpdateDataWizard',
    inputType: 'DataWizardUpdateInput',
    body: updateWizardBody,
    example: { name: 'Update a person', description: 'Used at the front desk' },
    select: DATA_WIZARD_DETAIL,
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Delete a wizard', description: `Delete a wizard with its steps, tasks, field links, runs and external-access links (${AUTHORING})`, name: 'DeleteDataWizard' }),

  route({
    method: 'POST',
    path: '/v1/data-wizard-steps',
    summary: 'Add a wizard step',
    description: `Add a step to a wizard: { dataWizardSimplyId, title, tasks?, position? }; 201 with the step (${AUTHORING})`,
    operation: operation`mutation CreateDataWizardStep($dataWizardSimplyId: String!, $input: DataWizardStepInput!, $position: Int) {
      createDataWizardStep(dataWizardSimplyId: $dataWizardSimplyId, input: $input, position: $position) { ${DATA_WIZARD_STEP} } }`,
    body: createStepBody,
    example: { dataWizardSimplyId: 'wiz-AB23-CD45-EF67', title: 'Address', position: 1, tasks: [{ type: 'UPDATE_DATA_RECORD', title: 'Where do you live?', fields: [{ dataFieldSimplyId: 'fld-GH89-JK23-MN45' }] }] },
    variables: ({ body: { dataWizardSimplyId, position, ...input } }) => ({ dataWizardSimplyId, position, input }),
    status: 201,
  }),
  getOne({ path: STEP, summary: 'Get a wizard step', description: 'One step with its tasks and field links (privileged: TEAM_ADMIN_DATA_WIZARDS view or team admin)', name: 'DataWizardStep', select: DATA_WIZARD_STEP }),
  updateOne({
    method: 'PATCH',
    path: STEP,
    summary: 'Update a wizard step',
    description: `Change a step's title or move it (position, 0-based; the first step follows) (${AUTHORING})`,
    name: 'UpdateDataWizardStep',
    inputType: 'DataWizardStepUpdateInput',
    body: updateStepBody,
    example: { title: { en: 'Address', fr: 'Adresse' }, position: 0 },
    select: DATA_WIZARD_STEP,
  }),
  actOn({ method: 'DELETE', path: STEP, summary: 'Delete a wizard step', description: `Delete a step with its tasks; the next one becomes first when the first goes (${AUTHORING})`, name: 'DeleteDataWizardStep' }),

  route({
    method: 'POST',
    path: '/v1/data-wizard-step-tasks',
    summary: 'Add a wizard task',
    description: `Add a task to a step: { dataWizardStepSimplyId, type, title, config?, fields?, position? }; 201 with the task (${AUTHORING})`,
    operation: operation`mutation CreateDataWizardStepTask($dataWizardStepSimplyId: String!, $input: DataWizardStepTaskInput!, $position: Int) {
      createDataWizardStepTask(dataWizardStepSimplyId: $dataWizardStepSimplyId, input: $input, position: $position) { ${DATA_WIZARD_STEP_TASK} } }`,
    body: createTaskBody,
    example: { dataWizardStepSimplyId: 'wst-AB23-CD45-EF67', type: 'VALIDATE_DATA_RECORD', title: 'Check the email', fields: [{ dataFieldSimplyId: 'fld-GH89-JK23-MN45' }] },
    variables: ({ body: { dataWizardStepSimplyId, position, ...input } }) => ({ dataWizardStepSimplyId, position, input }),
    status: 201,
  }),
  getOne({ path: TASK, summary: 'Get a wizard task', description: 'One task with its field links (privileged: TEAM_ADMIN_DATA_WIZARDS view or team admin)', name: 'DataWizardStepTask', select: DATA_WIZARD_STEP_TASK }),
  updateOne({
    method: 'PATCH',
    path: TASK,
    summary: 'Update a wizard task',
    description: `Change a task's type, title, config or field links (replaced as a whole), or move it in its step (${AUTHORING})`,
    name: 'UpdateDataWizardStepTask',
    inputType: 'DataWizardStepTaskUpdateInput',
    body: updateTaskBody,
    example: { title: 'Name and email', fields: [{ dataFieldSimplyId: 'fld-AB23-CD45-EF67', isRequired: true }, { dataFieldSimplyId: 'fld-GH89-JK23-MN45' }], position: 0 },
    select: DATA_WIZARD_STEP_TASK,
  }),
  actOn({ method: 'DELETE', path: TASK, summary: 'Delete a wizard task', description: `Delete a task with its field links (${AUTHORING})`, name: 'DeleteDataWizardStepTask' }),
  getOne({
    path: `${ONE}/outcomes`,
    summary: "List a wizard's outcomes",
    description: `The automations the wizard's success (WIZARD_COMPLETED) and error (WIZARD_COMPLETION_FAILED) trigger, as summaries; ${OUTCOMES_WHO}, with TEAM_ADMIN_DATA_WIZARDS view or team admin`,
    name: 'DataWizardOutcomes',
    select: DATA_WIZARD_OUTCOMES,
  }),
  route({
    method: 'POST',
    path: `${ONE}/outcome-presets/preview`,
    summary: 'Preview an outcome preset',
    description: `What applying { configuration: { success?, error? } } would do, changing nothing: the canonical configuration, the manifest, blockers, warnings and the review fingerprint; ${OUTCOMES_WHO}, with TEAM_ADMIN_DATA_WIZARDS edit or team admin`,
    operation: operation`query DataWizardOutcomePresetPreview($dataWizardSimplyId: String!, $configuration: JSON!) {
      dataWizardOutcomePresetPreview(dataWizardSimplyId: $dataWizardSimplyId, configuration: $configuration) { ${DATA_WIZARD_OUTCOME_PREVIEW} } }`,
    body: previewBody,
    example: { configuration: OUTCOME_EXAMPLE },
    variables: ({ params, body }) => ({ dataWizardSimplyId: params.dataWizardSimplyId, configuration: body.configuration }),
  }),
  updateOne({
    method: 'POST',
    path: `${ONE}/outcome-presets/apply`,
    summary: 'Apply an outcome preset',
    description: `Apply a reviewed preview: { configuration, fingerprint, idempotencyKey }; all of it or nothing. 409 OUTCOME_PRESET_STALE when the fingerprint no longer matches, 409 OUTCOME_PRESET_BLOCKED while it has blockers; the same key again answers the first application (replayed: true); ${OUTCOMES_WHO}, with TEAM_ADMIN_DATA_WIZARDS edit or team admin`,
    name: 'ApplyDataWizardOutcomePreset',
    inputType: 'DataWizardOutcomePresetApplyInput',
    body: applyBody,
    example: { configuration: { success: { automationSimplyId: null, name: 'Welcome after sign-up', isEnabled: true, actions: [{ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { 'fld-AB23-CD45-EF67': 'Registered' } }, continueOnError: false, retryConfig: null, onFailureActions: null }] }, error: null }, fingerprint: 'c0ffee'.padEnd(64, '0'), idempotencyKey: '0f8c6a52-3c1e-4d6b-9a57-2f1e8b7d4c90' },
    select: DATA_WIZARD_OUTCOME_APPLICATION,
  }),
  route({
    method: 'PATCH',
    path: `${ONE}/outcomes/{automationSimplyId}/enabled`,
    summary: 'Enable or disable an outcome',
    description: `Turn one of the wizard's outcome automations on or off: { isEnabled }; an automation that is not an outcome of this wizard is 404; ${OUTCOMES_WHO}, with TEAM_ADMIN_DATA_WIZARDS edit or team admin`,
    operation: operation`mutation SetDataWizardOutcomeEnabled($dataWizardSimplyId: String!, $automationSimplyId: String!, $isEnabled: Boolean!) {
      setDataWizardOutcomeEnabled(dataWizardSimplyId: $dataWizardSimplyId, automationSimplyId: $automationSimplyId, isEnabled: $isEnabled) { ${DATA_WIZARD_OUTCOME_AUTOMATION} } }`,
    body: enabledBody,
    example: { isEnabled: false },
    variables: ({ params, body }) => ({ dataWizardSimplyId: params.dataWizardSimplyId, automationSimplyId: params.automationSimplyId, isEnabled: body.isEnabled }),
  }),
  getOne({
    path: `${ONE}/run-access`,
    summary: 'Check wizard run access',
    description: "Signed-in users only: firstDataWizardStepSimplyId and stepCount; RUN on the wizard's collection",
    name: 'DataWizardRunAccess',
    select: DATA_WIZARD_RUN_ACCESS,
  }),

  listPage({
    path: `${ONE}/instances`,
    summary: "List a wizard's runs",
    description: `The wizard's runs (submission instances), newest first (limit 1-100, offset); status (${INSTANCE_STATUSES.join(', ')}) and dataRecordSimplyId narrow them (${ADMIN_READ})`,
    name: 'DataWizardInstances',
    select: DATA_WIZARD_INSTANCE_SUMMARY,
    filters: {
      status: { type: 'String', schema: z.string().optional().describe(`only runs in this status: ${INSTANCE_STATUSES.join(', ')}`) },
      dataRecordSimplyId: { type: 'String', schema: z.string().optional().describe('only runs on this record (XXXX-XXXX-XXXX)') },
    },
  }),
  getOne({
    path: `${ONE}/instances/{dataWizardInstanceSimplyId}`,
    summary: 'Get a wizard run',
    description: `One run: status, record, the formData sent (without fields the caller's role cannot read), errorDetails, the actor, startedAt, completedAt (${ADMIN_READ})`,
    name: 'DataWizardInstance',
    select: DATA_WIZARD_INSTANCE,
  }),
  getOne({
    path: `${ONE}/studio-readiness`,
    summary: "Check a wizard's readiness",
    description: `{ isReady, blockers, warnings }: what keeps the wizard from running as configured and what is worth a look, each with a stable code and the step, task, field or automation it concerns (${ADMIN_READ})`,
    name: 'DataWizardStudioReadiness',
    select: DATA_WIZARD_STUDIO_READINESS,
  }),
  listPage({
    path: LINKS,
    summary: "List a wizard's external links",
    description: `The wizard's external-access links, newest first (limit 1-100, offset), never their secrets (${ADMIN_READ})`,
    name: 'DataWizardExternalAccessLinks',
    select: DATA_WIZARD_EXTERNAL_LINK,
  }),
  updateOne({
    method: 'POST',
    path: LINKS,
    summary: 'Create an external link',
    description: `A link that lets a person outside the team fill in the wizard for one record: { dataRecordSimplyId, expiresAt?, maxUses?, label? }; 201 with the url holding the secret, shown only here. Also needs RUN on the wizard's collection and read access to the fields it collects; 409 WIZARD_NOT_READY while the wizard has readiness blockers (${ADMIN_CHANGE})`,
    name: 'CreateDataWizardExternalAccessLink',
    inputType: 'DataWizardExternalAccessLinkInput',
    body: externalLinkInput,
    example: { dataRecordSimplyId: 'QR67-ST89-UV23', expiresAt: '2026-12-24T18:00:00Z', maxUses: 1, label: 'Ada Lovelace, address update' },
    select: DATA_WIZARD_EXTERNAL_LINK_CREATED,
    status: 201,
  }),
  actOn({
    method: 'DELETE',
    path: `${LINKS}/{dataWizardExternalAccessLinkSimplyId}`,
    summary: 'Revoke an external link',
    description: `The link stops working at once (its form answers 404); it stays in the list with revokedAt. Revoking it again changes nothing (${ADMIN_CHANGE})`,
    name: 'RevokeDataWizardExternalAccessLink',
    respond: respond.deleted('dataWizardExternalAccessLinkSimplyId', 'revoked'),
  }),
], {
  [`GET ${ONE}/instances`]: { reason: INSTANCES },
  [`GET ${ONE}/instances/{dataWizardInstanceSimplyId}`]: { reason: INSTANCES },
  [`GET ${ONE}/studio-readiness`]: { reason: READINESS },
  [`GET ${LINKS}`]: { reason: EXTERNAL_LINKS },
  [`POST ${LINKS}`]: { reason: EXTERNAL_LINKS },
  [`DELETE ${LINKS}/{dataWizardExternalAccessLinkSimplyId}`]: { reason: EXTERNAL_LINKS },
});
