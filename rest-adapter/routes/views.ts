// /v1/data-views → src/modules/views/views.schema.ts (docs/api/data-views.md)
import { z } from 'zod';
import { dataViewInput } from '../../src/modules/views/views.input.ts';
import { DATA_VIEW, DATA_VIEW_RECORD, DATA_VIEW_SUMMARY } from '../../src/modules/views/views.fragments.ts';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { pageQuery } from '../schemas.ts';


export const dataViewRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/data-views',
    summary: 'Views whose collections the caller can read, newest first: limit, offset, dataCollectionSimplyId (optional)',
    operation: operation`query DataViews($limit: Int, $offset: Int, $collection: String) {
      dataViews(limit: $limit, offset: $offset, dataCollectionSimplyId: $collection) { nodes { ${DATA_VIEW_SUMMARY} } pagination { ${PAGINATION} } } }`,
    query: pageQuery.extend({ dataCollectionSimplyId: z.string().optional().describe('only the views of this collection') }),
    variables: ({ query: { dataCollectionSimplyId, ...paging } }) => ({ ...paging, collection: dataCollectionSimplyId }),
    respond: respond.page,
  }),
  route({
    method: 'POST',
    path: '/v1/data-views',
    summary: 'Create a view (privileged; TEAM_SETTINGS edit): { dataCollectionSimplyId, name, description?, enumDataViewTypeId, isPublished?, config? }',
    operation: operation`mutation CreateDataView($input: DataViewInput!) { createDataView(input: $input) { ${DATA_VIEW} } }`,
    body: dataViewInput,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/v1/data-views/{dataViewSimplyId}',
    summary: 'One view with its config { columns, filters, sortOrder }',
    operation: operation`query DataView($id: String!) { dataView(dataViewSimplyId: $id) { ${DATA_VIEW} } }`,
    variables: ({ params }) => ({ id: params.dataViewSimplyId }),
  }),
  route({
    method: 'GET',
    path: '/v1/data-views/{dataViewSimplyId}/records',
    summary: "Record summaries of the view's collection, newest first (limit 1-100, offset); no field values; the view's saved filters and sort are not applied",
    operation: operation`query DataViewRecords($id: String!, $limit: Int, $offset: Int) {
      dataViewRecords(dataViewSimplyId: $id, limit: $limit, offset: $offset) { nodes { ${DATA_VIEW_RECORD} } pagination { ${PAGINATION} } } }`,
    query: pageQuery,
    variables: ({ params, query }) => ({ id: params.dataViewSimplyId, ...query }),
    respond: respond.page,
  }),
  route({
    method: 'DELETE',
    path: '/v1/data-views/{dataViewSimplyId}',
    summary: 'Delete a view (privileged; TEAM_SETTINGS edit)',
    operation: operation`mutation DeleteDataView($id: String!) { deleteDataView(dataViewSimplyId: $id) }`,
    variables: ({ params }) => ({ id: params.dataViewSimplyId }),
    respond: respond.deleted('dataViewSimplyId'),
  }),
]);
