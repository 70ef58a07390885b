// GraphQL face of data views (Document 1 §2.5, §4.4). REST: rest-adapter/routes/views.ts.
// Reads are standard tier (team context; permissions checked in views.service.ts once the view's
// collection is known); create and delete are privileged (TEAM_SETTINGS edit or team admin).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, pageById, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { readViewConfig, VIEW_TYPES, type ViewConfig } from './views.input.ts';
import { createView, deleteView, getView, listViews, viewRecords, type ViewItem, type ViewRecordItem } from './views.service.ts';
import { DataViewSortRef, DataViewTypeEnum } from './views.types.schema.ts';
// view administration and sharing (files of their own: types and fields registered on import)
import './views.admin.schema.ts';
import './views.public-tokens.schema.ts';

export { DataViewTypeEnum };

const DataViewConfigRef = builder.objectRef<ViewConfig>('DataViewConfig').implement({
  fields: (t) => ({
    columns: t.exposeStringList('columns', { description: 'field simplyIds, in display order' }),
    filters: t.field({ type: 'JSON', description: '[{ field, operator, value }] as saved (the record search rules)', resolve: (c) => c.filters }),
    sortOrder: t.field({ type: [DataViewSortRef], resolve: (c) => c.sortOrder }),
  }),
});

export const DataViewRef = builder.objectRef<ViewItem>('DataView').implement({
  fields: (t) => ({
    ...simplyIdFields(t, 'dataViewSimplyId'),
    name: t.field({ type: 'LocalizedText', resolve: (v) => v.row.name as never }),
    description: t.string({ nullable: true, resolve: (v) => v.row.description }),
    dataCollectionSimplyId: t.string({ resolve: (v) => v.dataCollectionSimplyId }),
    enumDataViewTypeId: t.field({ type: DataViewTypeEnum, resolve: (v) => v.row.viewType }),
    isPublished: t.boolean({ description: 'externally visible', resolve: (v) => v.row.isPublished }),
    config: t.field({ type: DataViewConfigRef, resolve: (v) => readViewConfig(v.row.config) }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.row.updatedAt }),
  }),
});

const DataViewPageRef = pageType('DataViewPage', DataViewRef);

const DataViewRecordRef = builder.objectRef<ViewRecordItem>('DataViewRecord').implement({
  description: 'A record row of a view: no field values.',
  fields: (t) => ({
    id: t.string({ description: 'the record simplyId', resolve: (r) => r.row.simplyId }),
    dataCollectionSimplyId: t.string({ description: 'the collection the record was created in', resolve: (r) => r.dataCollectionSimplyId }),
    name: t.string({ description: 'computed display name', resolve: (r) => r.row.calculatedName }),
    isArchived: t.boolean({ resolve: (r) => r.row.isArchived }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (r) => r.row.updatedAt }),
  }),
});

const DataViewRecordPageRef = pageType('DataViewRecordPage', DataViewRecordRef);

const DataViewInput = builder.inputType('DataViewInput', {
  fields: (t) => ({
    dataCollectionSimplyId: t.string({ required: true }),
    name: t.field({ type: 'LocalizedText', required: true }),
    description: t.string(),
    enumDataViewTypeId: t.string({ required: true, description: `one of ${VIEW_TYPES.join(', ')}` }),
    isPublished: t.boolean(),
    internalName: t.string({ description: 'optional: a name unique in the team (2-64 of a-z, 0-9, "_", "-", from a letter to a letter or digit)' }),
    config: t.field({ type: 'JSON', description: '{ columns: [fieldSimplyId] (≤ 200), filters: [{ field, operator, value }] (≤ 25), sortOrder: [{ field, direction }] (≤ 10) }' }),
  }),
});

builder.queryFields((t) => ({
  dataViews: t.field({
    type: DataViewPageRef,
    description: 'Views whose collection the caller can read, newest first (scoped tokens: schema:read).',
    authScopes: tier.standard,
    args: { ...pageArgs(t.arg), dataCollectionSimplyId: t.arg.string() },
    resolve: withArgs(listViews),
  }),
  dataView: t.field({
    type: DataViewRef,
    authScopes: tier.standard,
    ...byId(t.arg, 'dataViewSimplyId', getView),
  }),
  dataViewRecords: t.field({
    type: DataViewRecordPageRef,
    description: "Record summaries of the view's collection, newest first; the view's saved filters and sort are not applied.",
    authScopes: tier.standard,
    ...pageById(t.arg, 'dataViewSimplyId', viewRecords),
  }),
}));

builder.mutationFields((t) => ({
  createDataView: t.field({
    type: DataViewRef,
    description: 'Privileged: TEAM_SETTINGS edit or team admin. Records a new team schema version.',
    authScopes: tier.teamSettings('EDIT'),
    args: { input: t.arg({ type: DataViewInput, required: true }) },
    resolve: (_root, args, ctx) => createView(ctx, givenFields(args.input, ['description', 'internalName'])),
  }),
  deleteDataView: t.boolean({
    description: 'Privileged: TEAM_SETTINGS edit or team admin. Records a new team schema version.',
    authScopes: tier.teamSettings('EDIT'),
    ...byId(t.arg, 'dataViewSimplyId', deleteView),
  }),
}));
