// /v1/data-collections, /v1/create-menu/data-collections → src/modules/collections/collections.schema.ts
// (docs/api/data-collections.md). Reads are standard tier; writes privileged (team admin or
// TEAM_SETTINGS edit). PATCH /{id}, PUT …/fields/reorder, POST …/archive are our additions.
import { z } from 'zod';
import { ARCHETYPES, COLLECTION_TYPES } from '../../src/modules/collections/collections.input.ts';
import { CREATE_MENU, DATA_COLLECTION, DATA_COLLECTION_SUMMARY, DATA_FIELD } from '../../src/modules/collections/collections.fragments.ts';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, type JsonSchema, respond, route } from '../route.ts';
import { pageQuery } from '../schemas.ts';

/** `true` / `false` query parameter; empty counts as absent. */
const queryBool = () =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true')),
  );

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

const createCollectionBody = inputBody(
  {
    name: LOCALIZED_TEXT,
    singularName: orNull(LOCALIZED_TEXT, 'singular form of the name'),
    pluralName: orNull(LOCALIZED_TEXT, 'plural form of the name'),
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

const renameCollectionBody = inputBody(
  {
    name: LOCALIZED_TEXT,
    singularName: orNull(LOCALIZED_TEXT, 'absent: unchanged; null: cleared'),
    pluralName: orNull(LOCALIZED_TEXT, 'absent: unchanged; null: cleared'),
  },
  ['name'],
);

const updateFieldBody = inputBody({
  title: LOCALIZED_TEXT,
  dataType: string('immutable: accepted only when equal to the current type'),
  isRequired: { type: 'boolean' },
  config: { description: 'replaces the whole config; null resets to defaults' },
  columnName: orNull({ type: 'string' }, 'lower snake case, unique in the collection'),
  sortOrder: { type: 'integer', description: '0-based position to move the field to' },
});

/** POST actions that take no parameters: no body, or an empty object. */
const noFields = exactBody({}).optional();

export const dataCollectionRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/data-collections',
    summary: 'Collections the caller’s data role can read (summaries); ?includeArchived=true adds archived ones',
    operation: operation`query DataCollections($limit: Int, $offset: Int, $includeArchived: Boolean) {
      dataCollections(limit: $limit, offset: $offset, includeArchived: $includeArchived) { nodes { ${DATA_COLLECTION_SUMMARY} } pagination { ${PAGINATION} } } }`,
    query: pageQuery.extend({ includeArchived: queryBool().describe('true adds archived collections (default false)') }),
    variables: ({ query }) => query,
    respond: respond.page,
  }),
  route({
    method: 'POST',
    path: '/v1/data-collections',
    summary: 'Create a collection with its fields (privileged; team admin or TEAM_SETTINGS edit)',
    operation: operation`mutation CreateDataCollection($input: CreateDataCollectionInput!) { createDataCollection(input: $input) { ${DATA_COLLECTION} } }`,
    body: createCollectionBody,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/v1/data-collections/{dataCollectionSimplyId}',
    summary: 'A collection with the fields the caller can read',
    operation: operation`query DataCollection($id: String!) { dataCollection(dataCollectionSimplyId: $id) { ${DATA_COLLECTION} } }`,
    variables: ({ params }) => ({ id: params.dataCollectionSimplyId }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/data-collections/{dataCollectionSimplyId}',
    summary: 'Change archetype, display-name formula, SMART criteria or parent (privileged)',
    operation: operation`mutation UpdateDataCollection($id: String!, $input: UpdateDataCollectionInput!) {
      updateDataCollection(dataCollectionSimplyId: $id, input: $input) { ${DATA_COLLECTION} } }`,
    body: updateCollectionBody,
    variables: ({ params, body }) => ({ id: params.dataCollectionSimplyId, input: body }),
  }),
  route({
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/rename',
    summary: 'Rename a collection: name, singularName, pluralName (privileged)',
    operation: operation`mutation RenameDataCollection($id: String!, $input: RenameDataCollectionInput!) {
      renameDataCollection(dataCollectionSimplyId: $id, input: $input) { ${DATA_COLLECTION} } }`,
    body: renameCollectionBody,
    variables: ({ params, body }) => ({ id: params.dataCollectionSimplyId, input: body }),
  }),
  route({
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/archive',
    summary: 'Archive or restore a collection: { isArchived } (privileged)',
    operation: operation`mutation ArchiveDataCollection($id: String!, $isArchived: Boolean!) {
      archiveDataCollection(dataCollectionSimplyId: $id, isArchived: $isArchived) { ${DATA_COLLECTION} } }`,
    body: exactBody({ isArchived: z.unknown().optional().meta({ type: 'boolean', description: 'true archives, false restores' }) }),
    variables: ({ params, body }) => ({ id: params.dataCollectionSimplyId, isArchived: body.isArchived }),
  }),
  route({
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/recalculate-record-names',
    summary: 'Recompute the display names of the collection’s records (privileged)',
    operation: operation`mutation RecalculateDataRecordNames($id: String!) { recalculateDataRecordNames(dataCollectionSimplyId: $id) }`,
    body: noFields,
    variables: ({ params }) => ({ id: params.dataCollectionSimplyId }),
    respond: respond.custom(
      (updated: number, { params }) => ({ data: { id: params.dataCollectionSimplyId, updatedRecordCount: updated } }),
      () => ({
        data: { type: 'object', properties: { id: { type: 'string' }, updatedRecordCount: { type: 'integer' } }, required: ['id', 'updatedRecordCount'] },
      }),
    ),
  }),
  route({
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/resync-smart-membership',
    summary: 'Rebuild a SMART collection’s memberships from its criteria (privileged)',
    operation: operation`mutation ResyncSmartMembership($id: String!) { resyncSmartMembership(dataCollectionSimplyId: $id) { ${DATA_COLLECTION_SUMMARY} } }`,
    body: noFields,
    variables: ({ params }) => ({ id: params.dataCollectionSimplyId }),
  }),
  route({
    method: 'GET',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields',
    summary: 'Field definitions the caller can read, in sortOrder',
    operation: operation`query DataCollectionFields($id: String!) { dataCollectionFields(dataCollectionSimplyId: $id) { ${DATA_FIELD} } }`,
    variables: ({ params }) => ({ id: params.dataCollectionSimplyId }),
  }),
  route({
    method: 'POST',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields',
    summary: 'Add a field (privileged)',
    operation: operation`mutation AddDataField($id: String!, $input: DataFieldInput!) { addDataField(dataCollectionSimplyId: $id, input: $input) { ${DATA_FIELD} } }`,
    body: inputBody(FIELD_BODY, ['title', 'dataType']),
    variables: ({ params, body }) => ({ id: params.dataCollectionSimplyId, input: body }),
    status: 201,
  }),
  route({
    method: 'PUT',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields/reorder',
    summary: 'Reorder fields: { orderedFieldSimplyIds } first, the others after (privileged)',
    operation: operation`mutation ReorderDataFields($id: String!, $ids: [String!]!) {
      reorderDataFields(dataCollectionSimplyId: $id, orderedFieldSimplyIds: $ids) { ${DATA_FIELD} } }`,
    body: exactBody({ orderedFieldSimplyIds: z.unknown().optional().meta({ type: 'array', items: { type: 'string' }, description: 'field simplyIds: these first, in this order' }) }),
    variables: ({ params, body }) => ({ id: params.dataCollectionSimplyId, ids: body.orderedFieldSimplyIds }),
  }),
  route({
    method: 'GET',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}',
    summary: 'One field definition (404 when the caller’s role hides it)',
    operation: operation`query DataCollectionField($id: String!, $field: String!) {
      dataCollectionField(dataCollectionSimplyId: $id, dataFieldSimplyId: $field) { ${DATA_FIELD} } }`,
    variables: ({ params }) => ({ id: params.dataCollectionSimplyId, field: params.dataFieldSimplyId }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}',
    summary: 'Change a field: title, isRequired, config, columnName, sortOrder (dataType is immutable) (privileged)',
    operation: operation`mutation UpdateDataField($id: String!, $field: String!, $input: UpdateDataFieldInput!) {
      updateDataField(dataCollectionSimplyId: $id, dataFieldSimplyId: $field, input: $input) { ${DATA_FIELD} } }`,
    body: updateFieldBody,
    variables: ({ params, body }) => ({ id: params.dataCollectionSimplyId, field: params.dataFieldSimplyId, input: body }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}',
    summary: 'Remove a field (409 while the display-name formula or SMART criteria use it) (privileged)',
    operation: operation`mutation RemoveDataField($id: String!, $field: String!) { removeDataField(dataCollectionSimplyId: $id, dataFieldSimplyId: $field) }`,
    variables: ({ params }) => ({ id: params.dataCollectionSimplyId, field: params.dataFieldSimplyId }),
    respond: respond.deleted('dataFieldSimplyId'),
  }),
  route({
    method: 'GET',
    path: '/v1/create-menu/data-collections/{dataCollectionSimplyId}',
    summary: 'Create-form layout: the fields the caller can fill in, canCreate, reasons, blockingFields',
    operation: operation`query CreateMenuDataCollection($id: String!) { createMenuDataCollection(dataCollectionSimplyId: $id) { ${CREATE_MENU} } }`,
    variables: ({ params }) => ({ id: params.dataCollectionSimplyId }),
  }),
]);
