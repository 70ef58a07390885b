// /v1/data-records, /v1/create-menu/data-records → src/modules/records/records.schema.ts
// The request shapes are checked here with the messages the API has always given
// ('dataCollectionSimplyId is required', 'records must be an array', …); values inside `fields`,
// filters and batch items are the service's to validate, for both faces alike.
import { z } from 'zod';
import { operation } from '../../src/app/graphql/fragments.ts';
import { FILE_BRIEF } from '../../src/modules/files/files.fragments.ts';
import { DATA_RECORD, DATA_RECORD_BATCH_RESULT, DATA_RECORD_EXPANSION, DATA_RECORD_PAGE, DATA_RECORD_WRITE_RESULT } from '../../src/modules/records/records.fragments.ts';
import { defineRoutes, type JsonSchema, respond, route } from '../route.ts';
import { actOn } from '../route-shapes.ts';
import { pageQuery, queryList, NOT_AN_OBJECT } from '../schemas.ts';

// ---------------------------------------------------------------------------------------------
// Request shapes

/** A non-empty string; absent, empty or not a string: "<name> is required". */
const requiredString = () => z.string({ error: 'is required' }).min(1, { error: 'is required' });

/** A JSON object body; `null` reads as `{}` (so its required fields are what is reported). */
function bodyObject<S extends z.ZodRawShape>(shape: S) {
  return z.preprocess((v) => (v === null ? {} : v), z.object(shape, NOT_AN_OBJECT));
}

const fieldsObject = () => z.record(z.string(), z.unknown(), { error: 'must be an object' }).describe('values keyed by field simplyId');
const list = (what: string) => z.array(z.unknown(), { error: 'must be an array' }).describe(what);

/** `fields=a,b`: a projection; absent or empty: every readable field. */
const projection = () => queryList().describe('comma list of field simplyIds (projection)');

const collection = () => requiredString().describe('the collection (simplyId)');

const listQuery = z.object({
  dataCollectionSimplyId: collection(),
  ...pageQuery.shape,
  sort: z.string().optional().describe('comma list of createdAt, updatedAt, calculatedName; "-" descending; default -createdAt'),
  fields: projection(),
});

const getQuery = z.object({
  fields: projection(),
  expand: queryList().describe('comma list: collection, fieldDefinitions, files (under meta.expanded)'),
});

/** Search keeps the GraphQL input's own checks (types of limit, offset, …) for one message on both faces. */
const searchBody = bodyObject({
  dataCollectionSimplyId: collection(),
  query: z.unknown().optional().describe('display-name keyword, at most 128 characters'),
  filters: z.unknown().optional().describe('[{ field, operator, value }], at most 25, AND-ed'),
  fields: z.unknown().optional().describe('field simplyIds (projection)'),
  limit: z.unknown().optional().describe('1-100, default 25'),
  offset: z.unknown().optional().describe('0-5000, default 0'),
  sort: z.unknown().optional().describe('as in GET /v1/data-records'),
});

const createBody = bodyObject({ dataCollectionSimplyId: collection(), fields: fieldsObject().optional() });
const updateBody = bodyObject({ fields: fieldsObject().optional() });
const createMenuBody = bodyObject({
  dataCollectionSimplyId: collection(),
  formData: z.unknown().optional().describe('keyed by field simplyId or columnName'),
  fields: z.unknown().optional().describe('formData under its other name'),
});
const batchCreateBody = bodyObject({ dataCollectionSimplyId: collection(), records: list('[{ fields }], 1-100') });
const batchUpdateBody = bodyObject({ records: list('[{ dataRecordSimplyId, fields }], 1-100') });
const batchDeleteBody = bodyObject({ dataRecordSimplyIds: list('record simplyIds, 1-100') });

const RECORD_UPDATE_EXAMPLE = { fields: { 'fld-GH89-JK23-MN45': 'ada@example.org', 'fld-JK23-MN45-PQ67': null } };

// ---------------------------------------------------------------------------------------------
// Responders

const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({ type: 'object', properties, required });

function without(schema: JsonSchema, names: readonly string[]): JsonSchema {
  const properties = { ...((schema.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  for (const name of names) delete properties[name];
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((r) => !names.includes(r)) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

const warningsMeta = (field: JsonSchema): JsonSchema => object({ warnings: respond.property(field, 'warnings') }, []);

/** `{ record, warnings }` → data: the record; meta.warnings when there are any. */
const recordWithWarnings = respond.custom(
  (result: { record: unknown; warnings: string[] }) => ({ data: result.record, ...(result.warnings.length ? { meta: { warnings: result.warnings } } : {}) }),
  (field) => ({ data: respond.property(field, 'record'), meta: warningsMeta(field) }),
);

const EXPANSIONS = ['collection', 'fieldDefinitions', 'files'] as const;

/** The expansions the caller asked for move from the record to meta.expanded. */
const expandedRecord = respond.custom(
  (record: Record<string, unknown>, { query }: { query: z.output<typeof getQuery> }) => {
    const { collection, fieldDefinitions, files, ...data } = record;
    const expanded: Record<string, unknown> = {};
    if (query.expand.includes('collection')) expanded.collection = collection;
    if (query.expand.includes('fieldDefinitions')) expanded.fieldDefinitions = fieldDefinitions;
    if (query.expand.includes('files')) expanded.files = files;
    return { data, ...(Object.keys(expanded).length ? { meta: { expanded } } : {}) };
  },
  (field) => ({
    data: without(field, EXPANSIONS),
    meta: object({ expanded: object(Object.fromEntries(EXPANSIONS.map((name) => [name, respond.property(field, name)])), []) }, []),
  }),
);

/** Batch writes: `data` carries the count named after the operation, `failed` and per-item results. */
function batchResult(noun: 'created' | 'updated' | 'deleted') {
  return respond.custom(
    (result: { succeeded: number; failed: number; results: unknown[]; warnings: string[] }) => ({
      data: { [noun]: result.succeeded, failed: result.failed, results: result.results },
      ...(result.warnings.length ? { meta: { warnings: result.warnings } } : {}),
    }),
    (field) => ({
      data: object({ [noun]: { type: 'integer' }, failed: { type: 'integer' }, results: respond.property(field, 'results') }),
      meta: warningsMeta(field),
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The write routes that share a shape

const ONE = '/v1/data-records/{dataRecordSimplyId}';

/** A batch write at /v1/data-records/batch: `head` is the operation up to its selection; the answer is `batchResult(noun)`. */
function batch<B>(s: {
  method: 'POST' | 'PATCH' | 'DELETE';
  summary: string;
  description: string;
  head: string;
  body: z.ZodType<B>;
  example: unknown;
  variables: (body: B) => Record<string, unknown>;
  noun: 'created' | 'updated' | 'deleted';
}) {
  return route({
    method: s.method,
    path: '/v1/data-records/batch',
    summary: s.summary,
    description: s.description,
    operation: operation([`${s.head} { `, ' } }'], DATA_RECORD_BATCH_RESULT),
    body: s.body,
    example: s.example,
    variables: ({ body }) => s.variables(body),
    respond: batchResult(s.noun),
  });
}

/** POST one record into the body's collection, its values as the field's JSON argument named `values` (fields or formData): 201 with meta.warnings. */
function createRecord<B extends { dataCollectionSimplyId: string }>(s: {
  path: string;
  summary: string;
  description: string;
  name: string;
  field: string;
  values: 'fields' | 'formData';
  body: z.ZodType<B>;
  example: unknown;
  read: (body: B) => unknown;
}) {
  return route({
    method: 'POST',
    path: s.path,
    summary: s.summary,
    description: s.description,
    operation: operation([`mutation ${s.name}($collection: String!, $${s.values}: JSON) { ${s.field}(dataCollectionSimplyId: $collection, ${s.values}: $${s.values}) { `, ' } }'], DATA_RECORD_WRITE_RESULT),
    body: s.body,
    example: s.example,
    variables: ({ body }) => ({ collection: body.dataCollectionSimplyId, [s.values]: s.read(body) }),
    respond: recordWithWarnings,
    status: 201,
  });
}

/** PATCH and PUT are the same merge (omitted fields stay), each under its own operation name. */
const updateRecord = (method: 'PATCH' | 'PUT', name: string, summary: string, description: string) =>
  route({
    method,
    path: ONE,
    summary,
    description,
    operation: operation([`mutation ${name}($id: String!, $fields: JSON) { updateDataRecord(dataRecordSimplyId: $id, fields: $fields) { `, ' } }'], DATA_RECORD_WRITE_RESULT),
    body: updateBody,
    example: RECORD_UPDATE_EXAMPLE,
    variables: ({ params, body }) => ({ id: params.dataRecordSimplyId, fields: body.fields ?? {} }),
    respond: recordWithWarnings,
  });

// ---------------------------------------------------------------------------------------------

export const dataRecordRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/data-records',
    summary: 'List records',
    description: 'Records of a collection: dataCollectionSimplyId (required), limit, offset, sort (createdAt, updatedAt, calculatedName; "-" descending; default -createdAt), fields',
    operation: operation`query DataRecords($collection: String!, $limit: Int, $offset: Int, $sort: String, $fields: [String!]) {
      dataRecords(dataCollectionSimplyId: $collection, limit: $limit, offset: $offset, sort: $sort, fields: $fields) { ${DATA_RECORD_PAGE} } }`,
    query: listQuery,
    variables: ({ query }) => ({
      collection: query.dataCollectionSimplyId,
      limit: query.limit,
      offset: query.offset,
      sort: query.sort,
      fields: query.fields.length ? query.fields : null,
    }),
    respond: respond.page,
  }),
  route({
    method: 'POST',
    path: '/v1/data-records/search',
    summary: 'Search records',
    description: 'Search a collection: query (display names, ≤ 128 chars), filters (≤ 25, AND-ed), fields, limit 1-100, offset ≤ 5000, sort',
    operation: operation`query SearchDataRecords($input: DataRecordSearchInput!) { searchDataRecords(input: $input) { ${DATA_RECORD_PAGE} } }`,
    body: searchBody,
    example: {
      dataCollectionSimplyId: 'GH89-JK23-MN45',
      query: 'Lovelace',
      filters: [{ field: 'fld-JK23-MN45-PQ67', operator: 'gte', value: 18 }],
      fields: ['fld-AB23-CD45-EF67', 'fld-GH89-JK23-MN45'],
      limit: 25,
      sort: '-updatedAt',
    },
    variables: ({ body }) => ({ input: body }),
    respond: respond.page,
  }),
  batch({
    method: 'POST',
    summary: 'Create records in batch',
    description: 'Batch create: { dataCollectionSimplyId, records: [{ fields }] } (1-100); per-item results, data.created and data.failed',
    head: 'mutation BatchCreateDataRecords($collection: String!, $records: [JSON!]!) { batchCreateDataRecords(dataCollectionSimplyId: $collection, records: $records)',
    body: batchCreateBody,
    example: {
      dataCollectionSimplyId: 'GH89-JK23-MN45',
      records: [{ fields: { 'fld-AB23-CD45-EF67': 'Ada' } }, { fields: { 'fld-AB23-CD45-EF67': 'Grace' } }],
    },
    variables: (body) => ({ collection: body.dataCollectionSimplyId, records: body.records }),
    noun: 'created',
  }),
  batch({
    method: 'PATCH',
    summary: 'Update records in batch',
    description: 'Batch update: { records: [{ dataRecordSimplyId, fields }] } (1-100, merge like PATCH); per-item results, data.updated and data.failed',
    head: 'mutation BatchUpdateDataRecords($records: [DataRecordUpdateItemInput!]!) { batchUpdateDataRecords(records: $records)',
    body: batchUpdateBody,
    example: {
      records: [
        { dataRecordSimplyId: 'QR67-ST89-UV23', fields: { 'fld-GH89-JK23-MN45': 'ada@example.org' } },
        { dataRecordSimplyId: 'WX23-YZ45-AB67', fields: { 'fld-GH89-JK23-MN45': null } },
      ],
    },
    variables: (body) => ({ records: body.records }),
    noun: 'updated',
  }),
  batch({
    method: 'DELETE',
    summary: 'Delete records in batch',
    description: 'Batch soft delete: { dataRecordSimplyIds: [...] } (1-100); per-item results, data.deleted and data.failed',
    head: 'mutation BatchDeleteDataRecords($ids: [String!]!) { batchDeleteDataRecords(dataRecordSimplyIds: $ids)',
    body: batchDeleteBody,
    example: { dataRecordSimplyIds: ['QR67-ST89-UV23', 'WX23-YZ45-AB67'] },
    variables: (body) => ({ ids: body.dataRecordSimplyIds }),
    noun: 'deleted',
  }),
  route({
    method: 'GET',
    path: ONE,
    summary: 'Get a record',
    description: 'One record; fields (projection), expand=collection,fieldDefinitions,files (under meta.expanded)',
    operation: operation`query DataRecord($id: String!, $fields: [String!], $expandCollection: Boolean!, $expandFields: Boolean!, $expandFiles: Boolean!) {
      dataRecord(dataRecordSimplyId: $id, fields: $fields) { ${DATA_RECORD} ${DATA_RECORD_EXPANSION} files @include(if: $expandFiles) { ${FILE_BRIEF} } } }`,
    query: getQuery,
    variables: ({ params, query }) => ({
      id: params.dataRecordSimplyId,
      fields: query.fields.length ? query.fields : null,
      expandCollection: query.expand.includes('collection'),
      expandFields: query.expand.includes('fieldDefinitions'),
      expandFiles: query.expand.includes('files'),
    }),
    respond: expandedRecord,
  }),
  createRecord({
    path: '/v1/data-records',
    summary: 'Create a record',
    description: 'Create a record: { dataCollectionSimplyId, fields }; unknown field keys are skipped and listed in meta.warnings',
    name: 'CreateDataRecord',
    field: 'createDataRecord',
    values: 'fields',
    body: createBody,
    example: { dataCollectionSimplyId: 'GH89-JK23-MN45', fields: { 'fld-AB23-CD45-EF67': 'Ada', 'fld-GH89-JK23-MN45': 'ada@example.org' } },
    read: (body) => body.fields ?? {},
  }),
  updateRecord('PATCH', 'UpdateDataRecord', 'Update a record', 'Update a record: only supplied fields are written; null clears'),
  updateRecord('PUT', 'ReplaceDataRecord', 'Update a record with PUT', 'Update a record (same merge as PATCH: omitted fields are left unchanged)'),
  actOn({
    method: 'DELETE',
    path: ONE,
    summary: 'Delete a record',
    description: 'Soft delete a record (gone from list, get and search; fires DATA_RECORD_DELETED)',
    name: 'DeleteDataRecord',
    select: 'id deleted',
  }),
  createRecord({
    path: '/v1/create-menu/data-records',
    summary: 'Create a record from the create menu',
    description: 'Create a record the way the dashboard create menu does: { dataCollectionSimplyId, formData } (keys: field simplyIds or columnNames)',
    name: 'CreateMenuDataRecord',
    field: 'createMenuDataRecord',
    values: 'formData',
    body: createMenuBody,
    example: { dataCollectionSimplyId: 'GH89-JK23-MN45', formData: { first_name: 'Ada', 'fld-GH89-JK23-MN45': 'ada@example.org' } },
    read: (body) => body.formData ?? body.fields ?? {},
  }),
]);
