// /v1/data-wizards → src/wizards/wizard.schema.ts (Document 1 §4.5). Authoring is GraphQL only.
import { bodyObject, defineRoutes, pageVariables, respondPage } from '../legacy-route.ts';

const SUMMARY = `id name description dataCollectionSimplyId firstStepId stepCount createdAt updatedAt`;
const TASK_FIELD = `dataFieldSimplyId columnName dataType name isRequired`;
const DETAIL = `${SUMMARY} firstDataWizardStepSimplyId
  steps { dataWizardStepSimplyId title position tasks { dataWizardStepTaskSimplyId type title config fields { ${TASK_FIELD} } } }`;
// Document 1 §2.6, exactly
const SCHEMA = `dataWizardSimplyId name steps { dataWizardStepSimplyId title tasks { dataWizardStepTaskSimplyId type title fields { ${TASK_FIELD} } } }`;

export const dataWizardRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/data-wizards',
    summary: 'Wizards of the team, newest first (limit 1-100, offset); needs TEAM_ADMIN_DATA_WIZARDS',
    operation: `query DataWizards($limit: Int, $offset: Int) { dataWizards(limit: $limit, offset: $offset) { nodes { ${SUMMARY} } pagination { total limit offset hasMore } } }`,
    variables: pageVariables,
    respond: respondPage,
  },
  {
    method: 'GET',
    path: '/v1/data-wizards/{dataWizardSimplyId}',
    summary: "Configuration with ordered steps and firstStepId; needs TEAM_ADMIN_DATA_WIZARDS or RUN on the wizard's collection",
    operation: `query DataWizard($id: String!) { dataWizard(dataWizardSimplyId: $id) { ${DETAIL} } }`,
    variables: (req) => ({ id: req.params.dataWizardSimplyId }),
  },
  {
    method: 'GET',
    path: '/v1/data-wizards/{dataWizardSimplyId}/schema',
    summary: 'The wizard schema (Document 1 §2.6): steps, tasks and task fields',
    operation: `query DataWizardSchema($id: String!) { dataWizard(dataWizardSimplyId: $id) { ${SCHEMA} } }`,
    variables: (req) => ({ id: req.params.dataWizardSimplyId }),
  },
  {
    method: 'POST',
    path: '/v1/data-wizards/{dataWizardSimplyId}/execute',
    summary: "Run every step on a record: { dataRecordSimplyId, formData? }; RUN on the wizard's collection; session tokens refused",
    operation: `mutation ExecuteDataWizard($id: String!, $input: DataWizardExecuteInput!) {
      executeDataWizard(dataWizardSimplyId: $id, input: $input) {
        success message dataWizardSimplyId dataRecordSimplyId dataWizardInstanceSimplyId
        errors { dataWizardStepSimplyId dataWizardStepTaskSimplyId dataFieldSimplyId field message } } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.dataWizardSimplyId, input: bodyObject(req) }),
    respond: (r) => ({ data: { ...r, errors: r.errors.map(compact) } }),
  },
  {
    method: 'GET',
    path: '/v1/data-wizards/{dataWizardSimplyId}/run-access',
    summary: "Signed-in users only: firstDataWizardStepSimplyId and stepCount; RUN on the wizard's collection",
    operation: `query DataWizardRunAccess($id: String!) { dataWizardRunAccess(dataWizardSimplyId: $id) { dataWizardSimplyId firstDataWizardStepSimplyId stepCount } }`,
    variables: (req) => ({ id: req.params.dataWizardSimplyId }),
  },
]);

/** Leaves out the parts of a run error that do not apply (null). */
function compact(e: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null));
}
