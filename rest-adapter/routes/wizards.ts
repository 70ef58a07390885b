// /v1/data-wizards → src/modules/wizards/wizards.schema.ts (Document 1 §4.5). Authoring is GraphQL only.
import { z } from 'zod';
import {
  DATA_WIZARD_DETAIL,
  DATA_WIZARD_EXECUTION,
  DATA_WIZARD_RUN_ACCESS,
  DATA_WIZARD_SCHEMA,
  DATA_WIZARD_SUMMARY,
} from '../../src/modules/wizards/wizards.fragments.ts';
import { defineRoutes, type JsonSchema, respond } from '../route.ts';
import { getOne, listPage, updateOne } from '../route-shapes.ts';
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
  getOne({
    path: `${ONE}/run-access`,
    summary: 'Check wizard run access',
    description: "Signed-in users only: firstDataWizardStepSimplyId and stepCount; RUN on the wizard's collection",
    name: 'DataWizardRunAccess',
    select: DATA_WIZARD_RUN_ACCESS,
  }),
]);
