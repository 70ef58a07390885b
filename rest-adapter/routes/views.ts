// /v1/data-views → src/modules/views/views.schema.ts (docs/api/data-views.md)
import { z } from 'zod';
import { dataViewInput } from '../../src/modules/views/views.input.ts';
import { DATA_VIEW, DATA_VIEW_RECORD, DATA_VIEW_SUMMARY } from '../../src/modules/views/views.fragments.ts';
import { defineRoutes } from '../route.ts';
import { actOn, createOne, getOne, listPage } from '../route-shapes.ts';

const ONE = '/v1/data-views/{dataViewSimplyId}';

export const dataViewRoutes = defineRoutes([
  listPage({
    path: '/v1/data-views',
    summary: 'List views',
    description: 'Views whose collections the caller can read, newest first: limit, offset, dataCollectionSimplyId (optional)',
    name: 'DataViews',
    select: DATA_VIEW_SUMMARY,
    filters: { dataCollectionSimplyId: { type: 'String', schema: z.string().optional().describe('only the views of this collection') } },
  }),
  createOne({
    path: '/v1/data-views',
    summary: 'Create a view',
    description: 'Create a view (privileged; TEAM_SETTINGS edit): { dataCollectionSimplyId, name, description?, enumDataViewTypeId, isPublished?, config? }',
    name: 'CreateDataView',
    inputType: 'DataViewInput',
    body: dataViewInput,
    example: {
      dataCollectionSimplyId: 'GH89-JK23-MN45',
      name: 'Adults by last update',
      enumDataViewTypeId: 'TABLE',
      isPublished: true,
      config: {
        columns: ['fld-AB23-CD45-EF67', 'fld-GH89-JK23-MN45'],
        filters: [{ field: 'fld-JK23-MN45-PQ67', operator: 'gte', value: 18 }],
        sortOrder: [{ field: 'updatedAt', direction: 'desc' }],
      },
    },
    select: DATA_VIEW,
  }),
  getOne({ path: ONE, summary: 'Get a view', description: 'One view with its config { columns, filters, sortOrder }', name: 'DataView', select: DATA_VIEW }),
  listPage({
    path: `${ONE}/records`,
    summary: "List a view's records",
    description: "Record summaries of the view's collection, newest first (limit 1-100, offset); no field values; the view's saved filters and sort are not applied",
    name: 'DataViewRecords',
    select: DATA_VIEW_RECORD,
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Delete a view', description: 'Delete a view (privileged; TEAM_SETTINGS edit)', name: 'DeleteDataView', field: 'deleteDataView' }),
]);
