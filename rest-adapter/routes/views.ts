// /v1/data-views → src/modules/views/views.schema.ts and views.admin.schema.ts (docs/api/data-views.md)
import { z } from 'zod';
import { operation } from '../../src/app/graphql/fragments.ts';
import {
  calendarLinkInput,
  calendarLinkUpdate,
  dataViewAdminInput,
  displayLinkInput,
  displayLinkUpdate,
  filterLinkInput,
  filterLinkUpdate,
  reorderLinksInput,
} from '../../src/modules/views/views.admin.input.ts';
import { dataViewInput } from '../../src/modules/views/views.input.ts';
import { publicTokenInput, tokenTypeInput } from '../../src/modules/views/views.public-tokens.input.ts';
import {
  DATA_VIEW,
  DATA_VIEW_ADMIN,
  DATA_VIEW_ADMIN_SUMMARY,
  DATA_VIEW_CALENDAR_LINK,
  DATA_VIEW_DISPLAY_LINK,
  DATA_VIEW_ELIGIBLE_FIELDS,
  DATA_VIEW_FILTER_LINK,
  DATA_VIEW_INTERNAL_NAME_CHECK,
  DATA_VIEW_INTERNAL_TOKEN,
  DATA_VIEW_ISSUED_PUBLIC_TOKEN,
  DATA_VIEW_PICKER_ITEM,
  DATA_VIEW_PUBLIC_TOKEN,
  DATA_VIEW_RECORD,
  DATA_VIEW_SHARE_READINESS,
  DATA_VIEW_SUMMARY,
} from '../../src/modules/views/views.fragments.ts';
import type { Fragment } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route, type RestRoute } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';
import { queryInt } from '../schemas.ts';

const ONE = '/v1/data-views/{dataViewSimplyId}';
const PRIVILEGED = 'privileged; TEAM_SETTINGS';
const TOKEN = `${ONE}/public-access-tokens/{tokenType}`;

const tokenParams = z.object({ dataViewSimplyId: z.string(), tokenType: tokenTypeInput });
type TokenParams = z.output<typeof tokenParams>;
const tokenVariables = ({ params }: { params: TokenParams }) => ({ id: params.dataViewSimplyId, tokenType: params.tokenType });

/** DELETE …/public-access-tokens/{tokenType}: `{ id, tokenType, deleted: true }` */
const tokenDeleted = respond.custom(
  (_value: boolean, input: { params: TokenParams }) => ({ data: { id: input.params.dataViewSimplyId, tokenType: input.params.tokenType, deleted: true } }),
  () => ({
    data: {
      type: 'object',
      properties: { id: { type: 'string' }, tokenType: { type: 'string', enum: ['EMBED', 'ICS_FEED'] }, deleted: { type: 'boolean', const: true } },
      required: ['id', 'tokenType', 'deleted'],
    },
  }),
);

const adminListQuery = z.strictObject({
  page: queryInt().describe('1-10000, default 1'),
  pageSize: queryInt().describe('1-100, default 25'),
  dataCollectionSimplyId: z.string().max(64).optional().describe('only the views of this collection'),
});

const nameQuery = z.strictObject({
  internalName: z.string({ message: 'is required' }).max(200).describe('the name to check'),
  dataViewSimplyId: z.string().max(64).optional().describe('the view being edited: its own name does not count as taken'),
});

/** `{ nodes, pagination }` → data and meta.pagination, paged by page/pageSize (not limit/offset) */
const adminPage = respond.custom(
  (page: { nodes: unknown[]; pagination: unknown }) => ({ data: page.nodes, meta: { pagination: page.pagination } }),
  (field) => ({
    data: respond.property(field, 'nodes'),
    meta: { type: 'object', properties: { pagination: respond.property(field, 'pagination') }, required: ['pagination'] },
  }),
);

interface LinkRoutes {
  /** path segment: display-field-links */
  segment: string;
  /** GraphQL names: DisplayFieldLink(s) */
  one: string;
  plural: string;
  /** words: display field */
  noun: string;
  select: Fragment;
  add: z.ZodType;
  update: z.ZodType;
  addExample: unknown;
  updateExample: unknown;
  rules: string;
}

/** list, add, update, delete and reorder of one kind of field link */
function linkRoutes(k: LinkRoutes): RestRoute[] {
  const list = `${ONE}/${k.segment}`;
  const item = `${list}/{linkSimplyId}`;
  return [
    getOne({
      path: list,
      summary: `List a view's ${k.noun}s`,
      description: `The view's ${k.noun} links in order, each with its own id and the field it names (${PRIVILEGED} view)`,
      name: `DataView${k.plural}`,
      select: k.select,
    }),
    updateOne({
      method: 'POST',
      path: list,
      summary: `Add a ${k.noun} to a view`,
      description: `Link a field as a ${k.noun}, at the end (${PRIVILEGED} edit): ${k.rules}`,
      name: `AddDataView${k.one}`,
      inputType: `DataView${k.one}Input`,
      body: k.add,
      example: k.addExample,
      select: k.select,
      status: 201,
    }),
    updateOne({
      method: 'PATCH',
      path: item,
      summary: `Update a view's ${k.noun}`,
      description: `Change a ${k.noun} link: absent properties stay, null clears (${PRIVILEGED} edit)`,
      name: `UpdateDataView${k.one}`,
      inputType: `DataView${k.one}UpdateInput`,
      body: k.update,
      example: k.updateExample,
      select: k.select,
    }),
    actOn({
      method: 'DELETE',
      path: item,
      summary: `Remove a ${k.noun} from a view`,
      description: `Delete a ${k.noun} link (${PRIVILEGED} edit)`,
      name: `DeleteDataView${k.one}`,
    }),
    route({
      method: 'PUT',
      path: `${list}/reorder`,
      summary: `Reorder a view's ${k.noun}s`,
      description: `Put the ${k.noun} links in order: { orderedLinkSimplyIds: [every link of the view, once] } (${PRIVILEGED} edit)`,
      operation: operation`mutation ReorderDataView${k.plural}($id: String!, $ids: [String!]!) { reorderDataView${k.plural}(dataViewSimplyId: $id, orderedLinkSimplyIds: $ids) { ${k.select} } }`,
      body: reorderLinksInput,
      example: { orderedLinkSimplyIds: ['vfl-GH89-JK23-MN45', 'vfl-AB23-CD45-EF67'] },
      variables: ({ params, body }) => ({ id: params.dataViewSimplyId, ids: (body as z.output<typeof reorderLinksInput>).orderedLinkSimplyIds }),
    }),
  ];
}

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
    description: 'Create a view (privileged; TEAM_SETTINGS edit): { dataCollectionSimplyId, name, description?, internalName?, enumDataViewTypeId, isPublished?, config? }',
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
  getOne({
    path: `${ONE}/internal-token`,
    summary: 'Get an internal token for a view',
    description:
      "A short-lived URL (5 minutes) of the view's read-only page for the caller, for a first-party surface to show in a frame: the display fields the caller may read, the saved filter and sort applied. Needs read permission on the view's collection (scoped tokens: schema:read and records:read)",
    name: 'DataViewInternalToken',
    select: DATA_VIEW_INTERNAL_TOKEN,
  }),

  // --- administration
  getOne({
    path: `${ONE}/admin-detail`,
    summary: "Get a view's admin detail",
    description: `The whole configuration of a view: type, publish flag, internal name, config { columns, filters, sortOrder, grouping, calendar, map } and its field links (${PRIVILEGED} view)`,
    name: 'DataViewAdminDetail',
    select: DATA_VIEW_ADMIN,
  }),
  updateOne({
    method: 'PUT',
    path: `${ONE}/admin-detail`,
    summary: "Replace a view's admin detail",
    description: `Replace every editable setting: { name, description?, internalName?, enumDataViewTypeId, isPublished, config { columns?, filters, sortOrder, grouping, calendar, map } }; publishing a view with blockers is a 409 VIEW_NOT_READY (${PRIVILEGED} edit)`,
    name: 'UpdateDataViewAdminDetail',
    inputType: 'DataViewAdminInput',
    body: dataViewAdminInput,
    example: {
      name: { en: 'Events this month', de: 'Termine diesen Monat' },
      description: 'Shown on the members area',
      internalName: 'events-calendar',
      enumDataViewTypeId: 'CALENDAR',
      isPublished: true,
      config: {
        filters: [{ field: 'fld-JK23-MN45-PQ67', operator: 'eq', value: 'confirmed' }],
        sortOrder: [{ field: 'fld-AB23-CD45-EF67', direction: 'asc' }],
        grouping: [],
        calendar: { defaultMode: 'MONTH', weekStartsOn: 'MONDAY', timeZone: 'Europe/Berlin' },
        map: null,
      },
    },
    select: DATA_VIEW_ADMIN,
  }),
  route<Record<string, string>, z.output<typeof adminListQuery>>({
    method: 'GET',
    path: '/v1/data-views/admin-list',
    summary: 'List views for administration',
    description: `Every view of the team, newest first, paged by page and pageSize: dataCollectionSimplyId (optional); meta.pagination { total, page, pageSize, totalPages, hasMore } (${PRIVILEGED} view)`,
    operation: operation`query DataViewAdminList($page: Int, $pageSize: Int, $dataCollectionSimplyId: String) {
      dataViewAdminList(page: $page, pageSize: $pageSize, dataCollectionSimplyId: $dataCollectionSimplyId) {
        nodes { ${DATA_VIEW_ADMIN_SUMMARY} } pagination { total page pageSize totalPages hasMore } } }`,
    query: adminListQuery,
    variables: ({ query }) => query,
    respond: adminPage,
  }),
  getOne({
    path: '/v1/data-views/by-collection/{dataCollectionSimplyId}',
    summary: "List a collection's views for a picker",
    description: `The views of one collection, newest first, as picker entries { id, name, internalName, enumDataViewTypeId, isPublished } (${PRIVILEGED} view)`,
    name: 'DataViewsByCollection',
    select: DATA_VIEW_PICKER_ITEM,
  }),
  ...linkRoutes({
    segment: 'display-field-links',
    one: 'DisplayFieldLink',
    plural: 'DisplayFieldLinks',
    noun: 'display field',
    select: DATA_VIEW_DISPLAY_LINK,
    add: displayLinkInput,
    update: displayLinkUpdate,
    addExample: { dataFieldSimplyId: 'fld-AB23-CD45-EF67', label: { en: 'Amount' }, aggregation: 'SUM' },
    updateExample: { label: null },
    rules: '{ dataFieldSimplyId, label?, aggregation? (PIVOT, CHART, STATS: COUNT, SUM, AVERAGE, MIN, MAX) }',
  }),
  ...linkRoutes({
    segment: 'filter-field-links',
    one: 'FilterFieldLink',
    plural: 'FilterFieldLinks',
    noun: 'filter field',
    select: DATA_VIEW_FILTER_LINK,
    add: filterLinkInput,
    update: filterLinkUpdate,
    addExample: { dataFieldSimplyId: 'fld-GH89-JK23-MN45', label: 'City', defaultOperator: 'startsWith' },
    updateExample: { defaultOperator: 'eq' },
    rules: '{ dataFieldSimplyId (not a file or image field), label?, defaultOperator? (an operator of the record search for its type) }; not on DETAIL views',
  }),
  ...linkRoutes({
    segment: 'calendar-date-info-field-links',
    one: 'CalendarDateInfoFieldLink',
    plural: 'CalendarDateInfoFieldLinks',
    noun: 'calendar date field',
    select: DATA_VIEW_CALENDAR_LINK,
    add: calendarLinkInput,
    update: calendarLinkUpdate,
    addExample: { dataFieldSimplyId: 'fld-JK23-MN45-PQ67', endDataFieldSimplyId: 'fld-MN45-PQ67-RS89', label: { en: 'Event' }, color: '#2F80ED' },
    updateExample: { color: '#EB5757' },
    rules: '{ dataFieldSimplyId (DATE or DATE_TIME), endDataFieldSimplyId? (same type), label?, color? (#RRGGBB) }; CALENDAR views only',
  }),
  getOne({
    path: `${ONE}/eligible-fields`,
    summary: 'List fields a view can link',
    description: `For display, filter and calendar date links: every field of the view's collection, whether it can be linked now, and the reason when not (${PRIVILEGED} view)`,
    name: 'DataViewEligibleFields',
    select: DATA_VIEW_ELIGIBLE_FIELDS,
  }),
  getOne({
    path: `${ONE}/share-readiness`,
    summary: "Check a view's share readiness",
    description: `What blocks publishing the view and sharing it as an embed or a calendar feed: blockers, warnings and shareTargets (${PRIVILEGED} view)`,
    name: 'DataViewShareReadiness',
    select: DATA_VIEW_SHARE_READINESS,
  }),
  route<TokenParams, Record<string, never>, z.output<typeof publicTokenInput>>({
    method: 'POST',
    path: TOKEN,
    summary: 'Create a public access token',
    description: `Create the view's EMBED (its read-only page, purpose DATAVIEW_EMBED) or ICS_FEED (the calendar feed of a CALENDAR view) token, or rotate it: the old one stops working. 201 with the secret (token) and the ready URL, shown only here. Body (optional): { allowedOrigins?: [https origin] } (EMBED, at most 10: the sites that may frame the page). 409 VIEW_NOT_SHAREABLE while the view's share target has blockers (${PRIVILEGED} edit)`,
    operation: operation`mutation CreateDataViewPublicAccessToken($id: String!, $tokenType: DataViewTokenType!, $input: DataViewPublicAccessTokenInput) {
      createDataViewPublicAccessToken(dataViewSimplyId: $id, tokenType: $tokenType, input: $input) { ${DATA_VIEW_ISSUED_PUBLIC_TOKEN} } }`,
    params: tokenParams,
    body: publicTokenInput,
    example: { allowedOrigins: ['https://www.example.org'] },
    variables: ({ params, body }) => ({ ...tokenVariables({ params }), input: body ?? null }),
    status: 201,
  }),
  route<TokenParams>({
    method: 'GET',
    path: TOKEN,
    summary: 'Get a public access token',
    description: `The view's token of the type without its secret: exists, tokenHint, maskedUrl, allowedOrigins, createdAt, createdBy, lastUsedAt, isServing (${PRIVILEGED} view)`,
    operation: operation`query DataViewPublicAccessToken($id: String!, $tokenType: DataViewTokenType!) {
      dataViewPublicAccessToken(dataViewSimplyId: $id, tokenType: $tokenType) { ${DATA_VIEW_PUBLIC_TOKEN} } }`,
    params: tokenParams,
    variables: tokenVariables,
  }),
  route<TokenParams>({
    method: 'DELETE',
    path: TOKEN,
    summary: 'Revoke a public access token',
    description: `Revoke the view's token of the type at once: its URL answers 404 from now on; 404 when the view has none (${PRIVILEGED} edit)`,
    operation: operation`mutation DeleteDataViewPublicAccessToken($id: String!, $tokenType: DataViewTokenType!) {
      deleteDataViewPublicAccessToken(dataViewSimplyId: $id, tokenType: $tokenType) }`,
    params: tokenParams,
    variables: tokenVariables,
    respond: tokenDeleted,
  }),
  route<Record<string, string>, z.output<typeof nameQuery>>({
    method: 'GET',
    path: '/v1/data-views/internal-name-validation',
    summary: 'Check a view internal name',
    description: `Whether internalName is well-formed and free in the team (dataViewSimplyId: the view being edited); problems and a suggestion when it is not (${PRIVILEGED} view)`,
    operation: operation`query DataViewInternalNameValidation($internalName: String!, $dataViewSimplyId: String) {
      dataViewInternalNameValidation(internalName: $internalName, dataViewSimplyId: $dataViewSimplyId) { ${DATA_VIEW_INTERNAL_NAME_CHECK} } }`,
    query: nameQuery,
    variables: ({ query }) => query,
  }),
]);
