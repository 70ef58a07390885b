// /v1/data-records, /v1/create-menu/data-records → src/data/records/record.schema.ts
import { ValidationError } from '../../src/app/errors.ts';
import { bodyObject, defineRoutes, intParam, listParam, type RestRequest, type RestResult } from '../legacy-route.ts';

const RECORD = `id dataRecordSimplyId dataCollectionSimplyId name fields isArchived createdAt updatedAt`;
const EXPANDED = `
  collection @include(if: $expandCollection) {
    id name singularName pluralName archetype effectiveArchetype type enumDataCollectionTypeId fieldCount parentDataCollectionSimplyId dataRecordCalculatedNameFormula
  }
  fieldDefinitions @include(if: $expandFields) { dataFieldSimplyId title columnName dataType isRequired sortOrder config }`;
const PAGE = `nodes { ${RECORD} } pagination { total limit offset hasMore }`;
const BATCH = `operation succeeded failed warnings results { index ok dataRecordSimplyId record { ${RECORD} } error { code status message details } }`;

/** `fields=a,b` → ['a', 'b']; absent → null (every readable field). */
function fieldsParam(req: RestRequest): string[] | null {
  const list = listParam(req, 'fields');
  return list.size ? [...list] : null;
}

function withWarnings(result: { record: unknown; warnings: string[] }): RestResult {
  return { data: result.record, ...(result.warnings.length ? { meta: { warnings: result.warnings } } : {}) };
}

function expandedRecord(record: Record<string, unknown>, req: RestRequest): RestResult {
  const { collection, fieldDefinitions, ...data } = record;
  const expand = listParam(req, 'expand');
  const expanded: Record<string, unknown> = {};
  if (expand.has('collection')) expanded.collection = collection;
  if (expand.has('fieldDefinitions')) expanded.fieldDefinitions = fieldDefinitions;
  return { data, ...(Object.keys(expanded).length ? { meta: { expanded } } : {}) };
}

/** Batch create/update/delete: `data` carries counts named after the operation plus per-item results. */
function batchResponse(noun: 'created' | 'updated' | 'deleted') {
  return (result: { succeeded: number; failed: number; results: unknown[]; warnings: string[] }): RestResult => ({
    data: { [noun]: result.succeeded, failed: result.failed, results: result.results },
    ...(result.warnings.length ? { meta: { warnings: result.warnings } } : {}),
  });
}

function fieldsBody(req: RestRequest): unknown {
  const body = bodyObject(req);
  if (body.fields !== undefined && (typeof body.fields !== 'object' || body.fields === null || Array.isArray(body.fields))) {
    throw new ValidationError('fields must be an object keyed by field simplyId', [{ field: 'fields', message: 'must be an object' }]);
  }
  return body.fields ?? {};
}

function requiredString(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw new ValidationError(`${name} is required`, [{ field: name, message: 'is required' }]);
  return value;
}

function requiredArray(body: Record<string, unknown>, name: string): unknown[] {
  const value = body[name];
  if (!Array.isArray(value)) throw new ValidationError(`${name} must be an array`, [{ field: name, message: 'must be an array' }]);
  return value;
}

export const dataRecordRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/data-records',
    summary: 'Records of a collection: dataCollectionSimplyId (required), limit, offset, sort (createdAt, updatedAt, calculatedName; "-" descending; default -createdAt), fields',
    operation: `query DataRecords($collection: String!, $limit: Int, $offset: Int, $sort: String, $fields: [String!]) {
      dataRecords(dataCollectionSimplyId: $collection, limit: $limit, offset: $offset, sort: $sort, fields: $fields) { ${PAGE} } }`,
    variables: (req) => {
      const collection = req.query.get('dataCollectionSimplyId');
      if (!collection) throw new ValidationError('dataCollectionSimplyId is required', [{ field: 'dataCollectionSimplyId', message: 'is required' }]);
      return { collection, limit: intParam(req, 'limit'), offset: intParam(req, 'offset'), sort: req.query.get('sort'), fields: fieldsParam(req) };
    },
    respond: (page) => ({ data: page.nodes, meta: { pagination: page.pagination } }),
  },
  {
    method: 'POST',
    path: '/v1/data-records/search',
    summary: 'Search a collection: query (display names, ≤ 128 chars), filters (≤ 25, AND-ed), fields, limit 1-100, offset ≤ 5000, sort',
    operation: `query SearchDataRecords($input: DataRecordSearchInput!) { searchDataRecords(input: $input) { ${PAGE} } }`,
    body: 'required',
    variables: (req) => {
      const body = bodyObject(req);
      return {
        input: {
          dataCollectionSimplyId: requiredString(body, 'dataCollectionSimplyId'),
          query: body.query,
          filters: body.filters,
          fields: body.fields,
          limit: body.limit,
          offset: body.offset,
          sort: body.sort,
        },
      };
    },
    respond: (page) => ({ data: page.nodes, meta: { pagination: page.pagination } }),
  },
  {
    method: 'POST',
    path: '/v1/data-records/batch',
    summary: 'Batch create: { dataCollectionSimplyId, records: [{ fields }] } (1-100); per-item results, data.created and data.failed',
    operation: `mutation BatchCreateDataRecords($collection: String!, $records: [JSON!]!) { batchCreateDataRecords(dataCollectionSimplyId: $collection, records: $records) { ${BATCH} } }`,
    body: 'required',
    variables: (req) => {
      const body = bodyObject(req);
      return { collection: requiredString(body, 'dataCollectionSimplyId'), records: requiredArray(body, 'records') };
    },
    respond: batchResponse('created'),
  },
  {
    method: 'PATCH',
    path: '/v1/data-records/batch',
    summary: 'Batch update: { records: [{ dataRecordSimplyId, fields }] } (1-100, merge like PATCH); per-item results, data.updated and data.failed',
    operation: `mutation BatchUpdateDataRecords($records: [DataRecordUpdateItemInput!]!) { batchUpdateDataRecords(records: $records) { ${BATCH} } }`,
    body: 'required',
    variables: (req) => ({ records: requiredArray(bodyObject(req), 'records') }),
    respond: batchResponse('updated'),
  },
  {
    method: 'DELETE',
    path: '/v1/data-records/batch',
    summary: 'Batch soft delete: { dataRecordSimplyIds: [...] } (1-100); per-item results, data.deleted and data.failed',
    operation: `mutation BatchDeleteDataRecords($ids: [String!]!) { batchDeleteDataRecords(dataRecordSimplyIds: $ids) { ${BATCH} } }`,
    body: 'required',
    variables: (req) => ({ ids: requiredArray(bodyObject(req), 'dataRecordSimplyIds') }),
    respond: batchResponse('deleted'),
  },
  {
    method: 'GET',
    path: '/v1/data-records/{dataRecordSimplyId}',
    summary: 'One record; fields (projection), expand=collection,fieldDefinitions (under meta.expanded)',
    operation: `query DataRecord($id: String!, $fields: [String!], $expandCollection: Boolean!, $expandFields: Boolean!) {
      dataRecord(dataRecordSimplyId: $id, fields: $fields) { ${RECORD} ${EXPANDED} } }`,
    variables: (req) => {
      const expand = listParam(req, 'expand');
      return { id: req.params.dataRecordSimplyId, fields: fieldsParam(req), expandCollection: expand.has('collection'), expandFields: expand.has('fieldDefinitions') };
    },
    respond: expandedRecord,
  },
  {
    method: 'POST',
    path: '/v1/data-records',
    summary: 'Create a record: { dataCollectionSimplyId, fields }; unknown field keys are skipped and listed in meta.warnings',
    operation: `mutation CreateDataRecord($collection: String!, $fields: JSON) { createDataRecord(dataCollectionSimplyId: $collection, fields: $fields) { record { ${RECORD} } warnings } }`,
    body: 'required',
    variables: (req) => ({ collection: requiredString(bodyObject(req), 'dataCollectionSimplyId'), fields: fieldsBody(req) }),
    respond: withWarnings,
    status: 201,
  },
  {
    method: 'PATCH',
    path: '/v1/data-records/{dataRecordSimplyId}',
    summary: 'Update a record: only supplied fields are written; null clears',
    operation: `mutation UpdateDataRecord($id: String!, $fields: JSON) { updateDataRecord(dataRecordSimplyId: $id, fields: $fields) { record { ${RECORD} } warnings } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.dataRecordSimplyId, fields: fieldsBody(req) }),
    respond: withWarnings,
  },
  {
    method: 'PUT',
    path: '/v1/data-records/{dataRecordSimplyId}',
    summary: 'Update a record (same merge as PATCH: omitted fields are left unchanged)',
    operation: `mutation ReplaceDataRecord($id: String!, $fields: JSON) { updateDataRecord(dataRecordSimplyId: $id, fields: $fields) { record { ${RECORD} } warnings } }`,
    body: 'required',
    variables: (req) => ({ id: req.params.dataRecordSimplyId, fields: fieldsBody(req) }),
    respond: withWarnings,
  },
  {
    method: 'DELETE',
    path: '/v1/data-records/{dataRecordSimplyId}',
    summary: 'Soft delete a record (gone from list, get and search; fires DATA_RECORD_DELETED)',
    operation: `mutation DeleteDataRecord($id: String!) { deleteDataRecord(dataRecordSimplyId: $id) { id deleted } }`,
    variables: (req) => ({ id: req.params.dataRecordSimplyId }),
  },
  {
    method: 'POST',
    path: '/v1/create-menu/data-records',
    summary: 'Create a record the way the dashboard create menu does: { dataCollectionSimplyId, formData } (keys: field simplyIds or columnNames)',
    operation: `mutation CreateMenuDataRecord($collection: String!, $formData: JSON) { createMenuDataRecord(dataCollectionSimplyId: $collection, formData: $formData) { record { ${RECORD} } warnings } }`,
    body: 'required',
    variables: (req) => {
      const body = bodyObject(req);
      return { collection: requiredString(body, 'dataCollectionSimplyId'), formData: body.formData ?? body.fields ?? {} };
    },
    respond: withWarnings,
    status: 201,
  },
]);
