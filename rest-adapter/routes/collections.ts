// /v1/data-collections, /v1/create-menu/data-collections → src/modules/collections/collections.schema.ts
// (docs/api/data-collections.md). Reads are standard tier; writes privileged (team admin or
// TEAM_SETTINGS edit). PATCH /{id}, PUT …/fields/reorder, POST …/archive are our additions.
import { z } from 'zod';
import { ARCHETYPES, COLLECTION_TYPES } from '../../src/modules/collections/collections.input.ts';
import {
  CREATE_MENU,
  DATA_COLLECTION,
  DATA_COLLECTION_ADMIN_DETAIL,
  DATA_COLLECTION_SUMMARY,
  DATA_FIELD,
  FIELD_DESCRIPTION_SUGGESTIONS,
  SMART_MEMBERSHIP_PREVIEW,
} from '../../src/modules/collections/collections.fragments.ts';
import {
  adminDetailInput,
  applyDescriptionsInput,
  fieldDisplayOverridesInput,
  generateDescriptionsInput,
  importTokenInput,
  previewMembershipInput,
} from '../../src/modules/collections/collection-admin.input.ts';
import { operation, type Part } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, type JsonSchema, respond, route, type RouteExtension } from '../route.ts';
import { queryBool } from '../schemas.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';


/**
 * The body of a GraphQL input object. It is documented with the JSON Schema of what the input type
 * accepts, and left to that type to check: its coercion messages name the field and the expected
 * type (unknown keys included), so both faces refuse the same bodies with the same messages.
 */
const inputBody = (fields: Record<string, JsonSchema>, required: string[] = []) =>
  z
    .looseObject(Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, z.unknown().optional().meta(schema)])))
    .meta({ required, additionalProperties: false });

/** A body of exactly these keys (the operation's arguments): any other is a 400 naming it, like a GraphQL input object. */
const exactBody = <S extends z.ZodRawShape>(shape: S) =>
  z
    .looseObject(shape)
    .superRefine((body, ctx) => {
      const allowed = Object.keys(shape);
      for (const key of Object.keys(body)) {
        if (!allowed.includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: `is not a field of this body (allowed: ${allowed.join(', ')})` });
      }
    })
    .meta({ required: Object.keys(shape), additionalProperties: false });

const LOCALIZED_TEXT: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' }, description: 'text by locale' }] };
const orNull = (schema: JsonSchema, description: string): JsonSchema => ({ anyOf: [schema, { type: 'null' }], description });
const string = (description: string): JsonSchema => ({ type: 'string', description });

const FIELD_BODY: Record<string, JsonSchema> = {
  title: LOCALIZED_TEXT,
  dataType: string('PLAIN_TEXT, NUMBER, … (docs/api/data-types.md)'),
  isRequired: { type: 'boolean' },
  config: { description: 'settings of the data type; null or {} for defaults' },
  columnName: orNull({ type: 'string' }, 'lower snake case, unique in the collection; derived from the title when absent'),
};

/** A collection's name and its singular and plural forms (nullable), described for the route. */
const names = (singular: string, plural = singular): Record<string, JsonSchema> => ({
  name: LOCALIZED_TEXT,
  singularName: orNull(LOCALIZED_TEXT, singular),
  pluralName: orNull(LOCALIZED_TEXT, plural),
});

const createCollectionBody = inputBody(
  {
    ...names('singular form of the name', 'plural form of the name'),
    archetype: orNull({ enum: [...ARCHETYPES] }, 'what the records are'),
    type: { enum: [...COLLECTION_TYPES], description: 'default STANDARD' },
    parentDataCollectionSimplyId: orNull({ type: 'string' }, 'required for SMART (its record source)'),
    dataRecordCalculatedNameFormula: orNull({ type: 'string' }, 'display-name formula: text with {fld-…} or {column_name} placeholders'),
    filterCriteria: { description: "SMART only: [{ field, operator, value }] over the parent's fields" },
    fields: { type: 'array', items: { type: 'object', properties: FIELD_BODY, required: ['title', 'dataType'], additionalProperties: false }, description: 'up to 500' },
  },
  ['name'],
);

const updateCollectionBody = inputBody({
  archetype: orNull({ enum: [...ARCHETYPES] }, 'absent: unchanged; null: cleared'),
  dataRecordCalculatedNameFormula: orNull({ type: 'string' }, 'absent: unchanged; null: cleared'),
  filterCriteria: { description: 'SMART only' },
  parentDataCollectionSimplyId: orNull({ type: 'string' }, 'not for SMART collections; null: no parent'),
});

const renameCollectionBody = inputBody(names('absent: unchanged; null: cleared'), ['name']);

const updateFieldBody = inputBody({
  title: LOCALIZED_TEXT,
  dataType: string('immutable: accepted only when equal to the current type'),
  isRequired: { type: 'boolean' },
  config: { description: 'replaces the whole config; null resets to defaults' },
  columnName: string('lower snake case, unique in the collection'),
  sortOrder: { type: 'integer', description: '0-based position to move the field to' },
});

const ONE = '/v1/data-collections/{dataCollectionSimplyId}';
const FIELD = `${ONE}/fields/{dataFieldSimplyId}`;

/** A POST action of the collection that takes no parameters: no body, or an empty object. */
const action = (s: Omit<Parameters<typeof actOn>[0], 'method' | 'body'>) => actOn({ ...s, method: 'POST', body: exactBody({}).optional() });

/**
 * A mutation of the collection whose one other argument is the body's one key, passed as is (the
 * argument's type checks it). `variable` keeps the name GraphQL's coercion messages have always used.
 */
function withArgument<K extends string>(s: {
  method: 'POST' | 'PUT';
  path: string;
  summary: string;
  description: string;
  name: string;
  field: string;
  key: K;
  variable?: string;
  type: string;
  meta: JsonSchema;
  example: Record<K, unknown>;
  select: Part;
}) {
  const variable = s.variable ?? s.key;
  return route({
    method: s.method,
    path: s.path,
    summary: s.summary,
    description: s.description,
    operation: operation([`mutation ${s.name}($id: String!, $${variable}: ${s.type}) { ${s.field}(dataCollectionSimplyId: $id, ${s.key}: $${variable}) { `, ' } }'], s.select),
    body: exactBody({ [s.key]: z.unknown().optional().meta(s.meta) } as Record<K, z.ZodOptional<z.ZodUnknown>>),
    example: s.example,
    variables: ({ params, body }) => ({ id: params.dataCollectionSimplyId, [variable]: body[s.key] }),
  });
}

/**
 * A privileged route of the collection whose body (checked here with the same zod schema the
 * service uses) is the operation's JSON `input`.
 */
function adminInput(s: {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  summary: string;
  description: string;
  name: string;
  field: string;
  body: z.ZodType;
  optional?: boolean;
  example: unknown;
  select: Part;
  status?: number;
}) {
  return route({
    method: s.method,
    path: s.path,
    summary: s.summary,
    description: s.description,
    operation: operation([`mutation ${s.name}($id: String!, $input: JSON${s.optional ? '' : '!'}) { ${s.field}(dataCollectionSimplyId: $id, input: $input) { `, ' } }'], s.select),
    body: s.optional ? s.body.optional() : s.body,
    example: s.example,
    variables: ({ params, body }) => ({ id: params.dataCollectionSimplyId, input: body ?? null }),
    status: s.status,
  });
}

const FIELD_ADMIN = 'field administration over REST (docs/api/data-collections.md): the route checklist has field reads only';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'PATCH /v1/data-collections/{dataCollectionSimplyId}': {
    reason: 'partial update of a collection (archetype, name formula, filter criteria, parent); the route checklist only renames (docs/api/data-collections.md)',
  },
  'POST /v1/data-collections/{dataCollectionSimplyId}/archive': { reason: 'archive and restore a collection (docs/api/data-collections.md)' },
  'POST /v1/data-collections/{dataCollectionSimplyId}/fields': { reason: FIELD_ADMIN },
  'PATCH /v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}': { reason: FIELD_ADMIN },
  'DELETE /v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}': { reason: FIELD_ADMIN },
  'PUT /v1/data-collections/{dataCollectionSimplyId}/fields/reorder': { reason: FIELD_ADMIN },
};

export const dataCollectionRoutes = defineRoutes([
  listPage({
    path: '/v1/data-collections',
    summary: 'List collections',
    description: 'Collections the caller’s data role can read (summaries); ?includeArchived=true adds archived ones',
    name: 'DataCollections',
    select: DATA_COLLECTION_SUMMARY,
    filters: { includeArchived: { type: 'Boolean', schema: queryBool().describe('true adds archived collections (default false)') } },
  }),
  createOne({
    path: '/v1/data-collections',
    summary: 'Create a collection',
    description: 'Create a collection with its fields (privileged; team admin or TEAM_SETTINGS edit)',
    name: 'CreateDataCollection',
    inputType: 'CreateDataCollectionInput',
    body: createCollectionBody,
    example: {
      name: { en: 'People', de: 'Personen' },
      singularName: { en: 'Person', de: 'Person' },
      archetype: 'PERSON',
      dataRecordCalculatedNameFormula: '{first_name} {last_name}',
      fields: [
        { title: 'First name', dataType: 'PLAIN_TEXT', isRequired: true, columnName: 'first_name' },
        { title: 'Last name', dataType: 'PLAIN_TEXT', columnName: 'last_name' },
        { title: 'Email', dataType: 'EMAIL_ADDRESS' },
      ],
    },
    select: DATA_COLLECTION,
  }),
  getOne({ path: ONE, summary: 'Get a collection', description: 'A collection with the fields the caller can read', name: 'DataCollection', select: DATA_COLLECTION }),
  updateOne({
    method: 'PATCH',
    path: ONE,
    summary: 'Update a collection',
    description: 'Change archetype, display-name formula, SMART criteria or parent (privileged)',
    name: 'UpdateDataCollection',
    inputType: 'UpdateDataCollectionInput',
    body: updateCollectionBody,
    example: { archetype: 'PERSON', dataRecordCalculatedNameFormula: '{last_name}, {first_name}' },
    select: DATA_COLLECTION,
  }),
  updateOne({
    method: 'POST',
    path: `${ONE}/rename`,
    summary: 'Rename a collection',
    description: 'Rename a collection: name, singularName, pluralName (privileged)',
    name: 'RenameDataCollection',
    inputType: 'RenameDataCollectionInput',
    body: renameCollectionBody,
    example: { name: 'Members', singularName: 'Member', pluralName: 'Members' },
    select: DATA_COLLECTION,
  }),
  withArgument({
    method: 'POST',
    path: `${ONE}/archive`,
    summary: 'Archive or restore a collection',
    description: 'Archive or restore a collection: { isArchived } (privileged)',
    name: 'ArchiveDataCollection',
    field: 'archiveDataCollection',
    key: 'isArchived',
    type: 'Boolean!',
    meta: { type: 'boolean', description: 'true archives, false restores' },
    example: { isArchived: true },
    select: DATA_COLLECTION,
  }),
  action({
    path: `${ONE}/recalculate-record-names`,
    summary: 'Recalculate record names',
    description: 'Recompute the display names of the collection’s records (privileged)',
    name: 'RecalculateDataRecordNames',
    respond: respond.custom(
      (updated: number, { params }) => ({ data: { id: params.dataCollectionSimplyId, updatedRecordCount: updated } }),
      () => ({
        data: { type: 'object', properties: { id: { type: 'string' }, updatedRecordCount: { type: 'integer' } }, required: ['id', 'updatedRecordCount'] },
      }),
    ),
  }),
  getOne({
    path: `${ONE}/admin-detail`,
    summary: "Get a collection's admin detail",
    description: 'The whole administrative configuration: names, archetype, type, formula, SMART criteria, parent, every field with its display settings and description (privileged)',
    name: 'DataCollectionAdminDetail',
    select: DATA_COLLECTION_ADMIN_DETAIL,
  }),
  adminInput({
    method: 'PUT',
    path: `${ONE}/admin-detail`,
    summary: "Replace a collection's admin detail",
    description: 'Replace names, archetype, display-name formula, SMART criteria and parent in one change; every key is required (null clears); expectedUpdatedAt guards against overwriting another change (409) (privileged)',
    name: 'ReplaceDataCollectionAdminDetail',
    field: 'replaceDataCollectionAdminDetail',
    body: adminDetailInput,
    example: {
      name: { en: 'Members', de: 'Mitglieder' },
      singularName: 'Member',
      pluralName: 'Members',
      archetype: 'PERSON',
      parentDataCollectionSimplyId: null,
      dataRecordCalculatedNameFormula: '{last_name}, {first_name}',
      filterCriteria: null,
      expectedUpdatedAt: '2026-11-22T03:11:56.093Z',
    },
    select: DATA_COLLECTION_ADMIN_DETAIL,
  }),
  adminInput({
    method: 'PUT',
    path: `${ONE}/field-display-overrides`,
    summary: 'Replace field display overrides',
    description: 'Replace how admin screens show the fields of this collection (label, help text, placeholder, hidden, width, position); fields not listed have no overrides afterwards (privileged)',
    name: 'ReplaceDataFieldDisplayOverrides',
    field: 'replaceDataFieldDisplayOverrides',
    body: fieldDisplayOverridesInput,
    example: { overrides: [{ dataFieldSimplyId: 'fld-AB23-CD45-EF67', label: { en: 'E-mail', de: 'E-Mail' }, helpText: 'Where we send receipts', width: 'WIDE', position: 0 }] },
    select: DATA_COLLECTION_ADMIN_DETAIL,
  }),
  adminInput({
    method: 'POST',
    path: `${ONE}/generate-field-descriptions`,
    summary: 'Draft field descriptions',
    description: 'Draft a description per field with the AI model, from the field definitions only; nothing is stored. 403 AI_FEATURE_UNAVAILABLE without a model (privileged)',
    name: 'GenerateDataFieldDescriptions',
    field: 'generateDataFieldDescriptions',
    body: generateDescriptionsInput,
    optional: true,
    example: { dataFieldSimplyIds: ['fld-AB23-CD45-EF67'], language: 'en', onlyMissing: true },
    select: FIELD_DESCRIPTION_SUGGESTIONS,
  }),
  adminInput({
    method: 'PATCH',
    path: `${ONE}/apply-field-descriptions`,
    summary: 'Apply approved field descriptions',
    description: 'Write the field descriptions the caller approved (null clears one); other fields keep theirs (privileged)',
    name: 'ApplyDataFieldDescriptions',
    field: 'applyDataFieldDescriptions',
    body: applyDescriptionsInput,
    example: { descriptions: [{ dataFieldSimplyId: 'fld-AB23-CD45-EF67', description: 'The address receipts and newsletters go to.' }] },
    select: DATA_COLLECTION_ADMIN_DETAIL,
  }),
  action({
    path: `${ONE}/recalculate-calculated-relationship-fields`,
    summary: 'Recalculate relationship fields',
    description: 'Recompute calculated relationship fields (no data type calculates one today: answers zero counts, changes nothing) (privileged)',
    name: 'RecalculateCalculatedRelationshipFields',
    select: 'id dataCollectionSimplyId calculatedFieldCount updatedRecordCount',
  }),
  adminInput({
    method: 'POST',
    path: `${ONE}/preview-smart-membership`,
    summary: 'Preview SMART membership',
    description: 'Counts and a sample of the records filter criteria would select (given, or the SMART collection’s own), compared with current members; changes nothing (privileged)',
    name: 'PreviewSmartMembership',
    field: 'previewSmartMembership',
    body: previewMembershipInput,
    optional: true,
    example: { filterCriteria: [{ field: 'fld-AB23-CD45-EF67', operator: 'eq', value: 'Berlin' }], sampleSize: 5 },
    select: SMART_MEMBERSHIP_PREVIEW,
  }),
  adminInput({
    method: 'POST',
    path: `${ONE}/import-token`,
    summary: 'Create a CSV import token',
    description: 'A short-lived, single-use token for one BULK_DATA_IMPORT of this collection by the signed-in member (queueData.importToken); shown once. API keys: 403 IDP_REQUIRED (privileged)',
    name: 'CreateDataCollectionImportToken',
    field: 'createDataCollectionImportToken',
    body: importTokenInput,
    optional: true,
    example: { expiresInMinutes: 15 },
    select: 'importToken dataCollectionSimplyId expiresAt',
    status: 201,
  }),
  action({ path: `${ONE}/resync-smart-membership`, summary: 'Resync SMART membership', description: 'Rebuild a SMART collection’s memberships from its criteria (privileged)', name: 'ResyncSmartMembership', select: DATA_COLLECTION_SUMMARY }),
  getOne({ path: `${ONE}/fields`, summary: "List a collection's fields", description: 'Field definitions the caller can read, in sortOrder', name: 'DataCollectionFields', select: DATA_FIELD }),
  updateOne({
    method: 'POST',
    path: `${ONE}/fields`,
    summary: 'Add a field',
    description: 'Add a field (privileged)',
    name: 'AddDataField',
    inputType: 'DataFieldInput',
    body: inputBody(FIELD_BODY, ['title', 'dataType']),
    example: { title: { en: 'Date of birth', de: 'Geburtsdatum' }, dataType: 'DATE', isRequired: false, columnName: 'date_of_birth' },
    select: DATA_FIELD,
    status: 201,
  }),
  withArgument({
    method: 'PUT',
    path: `${ONE}/fields/reorder`,
    summary: 'Reorder fields',
    description: 'Reorder fields: { orderedFieldSimplyIds } first, the others after (privileged)',
    name: 'ReorderDataFields',
    field: 'reorderDataFields',
    key: 'orderedFieldSimplyIds',
    variable: 'ids',
    type: '[String!]!',
    meta: { type: 'array', items: { type: 'string' }, description: 'field simplyIds: these first, in this order' },
    example: { orderedFieldSimplyIds: ['fld-GH89-JK23-MN45', 'fld-AB23-CD45-EF67'] },
    select: DATA_FIELD,
  }),
  getOne({ path: FIELD, summary: 'Get a field', description: 'One field definition (404 when the caller’s role hides it)', name: 'DataCollectionField', select: DATA_FIELD }),
  updateOne({
    method: 'PATCH',
    path: FIELD,
    summary: 'Update a field',
    description: 'Change a field: title, isRequired, config, columnName, sortOrder (dataType is immutable) (privileged)',
    name: 'UpdateDataField',
    inputType: 'UpdateDataFieldInput',
    body: updateFieldBody,
    example: { title: 'Email address', isRequired: true, sortOrder: 0 },
    select: DATA_FIELD,
  }),
  actOn({ method: 'DELETE', path: FIELD, summary: 'Remove a field', description: 'Remove a field (409 while the display-name formula or SMART criteria use it) (privileged)', name: 'RemoveDataField' }),
  getOne({
    path: '/v1/create-menu/data-collections/{dataCollectionSimplyId}',
    summary: "Get a collection's create form",
    description: 'Create-form layout: the fields the caller can fill in, canCreate, reasons, blockingFields',
    name: 'CreateMenuDataCollection',
    select: CREATE_MENU,
  }),
], EXTENSIONS);
