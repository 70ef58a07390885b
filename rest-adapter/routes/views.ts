// /v1/data-views → src/data/views/view.schema.ts
import { bodyObject, defineRoutes, intParam, pageVariables, respondPage } from '../legacy-route.ts';

const SUMMARY = `id name description dataCollectionSimplyId enumDataViewTypeId isPublished`;
const DETAIL = `${SUMMARY} config { columns filters sortOrder { field direction } }`;
const PAGINATION = `pagination { total limit offset hasMore }`;

export const dataViewRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/data-views',
    summary: 'Views whose collections the caller can read, newest first: limit, offset, dataCollectionSimplyId (optional)',
    operation: `query DataViews($limit: Int, $offset: Int, $collection: String) {
      dataViews(limit: $limit, offset: $offset, dataCollectionSimplyId: $collection) { nodes { ${SUMMARY} } ${PAGINATION} } }`,
    variables: (req) => ({ ...pageVariables(req), collection: req.query.get('dataCollectionSimplyId') }),
    respond: respondPage,
  },
  {
    method: 'POST',
    path: '/v1/data-views',
    summary: 'Create a view (privileged; TEAM_SETTINGS edit): { dataCollectionSimplyId, name, description?, enumDataViewTypeId, isPublished?, config? }',
    operation: `mutation CreateDataView($input: DataViewInput!) { createDataView(input: $input) { ${DETAIL} } }`,
    body: 'required',
    variables: (req) => ({ input: bodyObject(req) }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/data-views/{dataViewSimplyId}',
    summary: 'One view with its config { columns, filters, sortOrder }',
    operation: `query DataView($id: String!) { dataView(dataViewSimplyId: $id) { ${DETAIL} } }`,
    variables: (req) => ({ id: req.params.dataViewSimplyId }),
  },
  {
    method: 'GET',
    path: '/v1/data-views/{dataViewSimplyId}/records',
    summary: "Record summaries of the view's collection, newest first (limit 1-100, offset); no field values; the view's saved filters and sort are not applied",
    operation: `query DataViewRecords($id: String!, $limit: Int, $offset: Int) {
      dataViewRecords(dataViewSimplyId: $id, limit: $limit, offset: $offset) {
        nodes { id dataCollectionSimplyId name isArchived createdAt updatedAt } ${PAGINATION} } }`,
    variables: (req) => ({ id: req.params.dataViewSimplyId, limit: intParam(req, 'limit'), offset: intParam(req, 'offset') }),
    respond: respondPage,
  },
  {
    method: 'DELETE',
    path: '/v1/data-views/{dataViewSimplyId}',
    summary: 'Delete a view (privileged; TEAM_SETTINGS edit)',
    operation: `mutation DeleteDataView($id: String!) { deleteDataView(dataViewSimplyId: $id) }`,
    variables: (req) => ({ id: req.params.dataViewSimplyId }),
    respond: (_deleted, req) => ({ data: { id: req.params.dataViewSimplyId, deleted: true } }),
  },
]);
