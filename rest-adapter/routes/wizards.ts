// /v1/data-wizards → src/modules/wizards/wizards.schema.ts (Document 1 §4.5). Authoring is GraphQL only.
import { z } from 'zod';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import {
  DATA_WIZARD_DETAIL,
  DATA_WIZARD_EXECUTION,
  DATA_WIZARD_RUN_ACCESS,
  DATA_WIZARD_SCHEMA,
  DATA_WIZARD_SUMMARY,
} from '../../src/modules/wizards/wizards.fragments.ts';
import { defineRoutes, type JsonSchema, respond, route } from '../route.ts';
import { pageQuery, NOT_AN_OBJECT } from '../schemas.ts';

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

export const dataWizardRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/data-wizards',
    summary: 'Wizards of the team, newest first (limit 1-100, offset); needs TEAM_ADMIN_DATA_WIZARDS',
    operation: operation`query DataWizards($limit: Int, $offset: Int) { dataWizards(limit: $limit, offset: $offset) { nodes { ${DATA_WIZARD_SUMMARY} } pagination { ${PAGINATION} } } }`,
    query: pageQuery,
    variables: ({ query }) => query,
    respond: respond.page,
  }),
  route({
    method: 'GET',
    path: '/v1/data-wizards/{dataWizardSimplyId}',
    summary: "Configuration with ordered steps and firstStepId; needs TEAM_ADMIN_DATA_WIZARDS or RUN on the wizard's collection",
    operation: operation`query DataWizard($id: String!) { dataWizard(dataWizardSimplyId: $id) { ${DATA_WIZARD_DETAIL} } }`,
    variables: ({ params }) => ({ id: params.dataWizardSimplyId }),
  }),
  route({
    method: 'GET',
    path: '/v1/data-wizards/{dataWizardSimplyId}/schema',
    summary: 'The wizard schema (Document 1 §2.6): steps, tasks and task fields',
    operation: operation`query DataWizardSchema($id: String!) { dataWizard(dataWizardSimplyId: $id) { ${DATA_WIZARD_SCHEMA} } }`,
    variables: ({ params }) => ({ id: params.dataWizardSimplyId }),
  }),
  route({
    method: 'POST',
    path: '/v1/data-wizards/{dataWizardSimplyId}/execute',
    summary: "Run every step on a record: { dataRecordSimplyId, formData? }; RUN on the wizard's collection; session tokens refused",
    operation: operation`mutation ExecuteDataWizard($id: String!, $input: DataWizardExecuteInput!) {
      executeDataWizard(dataWizardSimplyId: $id, input: $input) { ${DATA_WIZARD_EXECUTION} } }`,
    body: executeBody,
    variables: ({ params, body }) => ({ id: params.dataWizardSimplyId, input: body }),
    respond: respond.custom(
      (r: Execution) => ({ data: { ...r, errors: r.errors.map(compact) } }),
      (field) => ({ data: compactedErrors(field) }),
    ),
  }),
  route({
    method: 'GET',
    path: '/v1/data-wizards/{dataWizardSimplyId}/run-access',
    summary: "Signed-in users only: firstDataWizardStepSimplyId and stepCount; RUN on the wizard's collection",
    operation: operation`query DataWizardRunAccess($id: String!) { dataWizardRunAccess(dataWizardSimplyId: $id) { ${DATA_WIZARD_RUN_ACCESS} } }`,
    variables: ({ params }) => ({ id: params.dataWizardSimplyId }),
  }),
]);
