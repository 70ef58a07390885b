// GraphQL face of view administration (Document 1 §4.4, privileged). REST:
// rest-adapter/routes/views.ts; rules: docs/api/data-views.md "Administration". Privileged tier:
// team context, never a scoped token (session or OAuth), and TEAM_SETTINGS (or a team admin):
// view level to read, edit level to change. No data permission is needed.
import type { ObjectRef } from '@pothos/core';
import { tier } from '../../app/auth/tiers.ts';
import { builder, type BuilderTypes } from '../../app/builder.ts';
import { byId, idArg, withArgs } from '../../app/graphql/args.ts';
import { givenFields, suppliedFields } from '../../app/graphql/input-fields.ts';
import {
  type AdminView,
  type EligibleFields,
  eligibleFields,
  type FieldEligibility,
  getAdminDetail,
  getShareReadiness,
  type InternalNameCheck,
  type KindEligibility,
  listAdminViews,
  type PagePagination,
  updateAdminDetail,
  validateInternalName,
  type ViewPickerItem,
  viewsByCollection,
} from './views.admin.service.ts';
import { AGGREGATIONS, CALENDAR_MODES, type CalendarSettings, effectiveCalendar, effectiveMap, type MapSettings, WEEK_STARTS } from './views.config.ts';
import { type LinkKind, type LinkOf } from './views.link-rules.ts';
import { addLink, deleteLink, type LinkItem, listLinks, reorderLinks, updateLink } from './views.links.service.ts';
import type { ReadinessIssue, ShareReadiness, ShareTarget } from './views.readiness.ts';
import { DataViewSortRef, DataViewTypeEnum } from './views.types.schema.ts';

const read = tier.teamSettings('VIEW');
const edit = tier.teamSettings('EDIT');
const PRIVILEGED = 'Privileged: TEAM_SETTINGS (or team admin), never a scoped token.';

// ---------------------------------------------------------------------------------------------
// The configuration

const DataViewCalendarSettingsRef = builder.objectRef<CalendarSettings>('DataViewCalendarSettings').implement({
  description: 'Calendar settings of a CALENDAR view (its dates are the calendar date field links).',
  fields: (t) => ({
    defaultMode: t.exposeString('defaultMode', { description: CALENDAR_MODES.join(', ') }),
    weekStartsOn: t.exposeString('weekStartsOn', { description: WEEK_STARTS.join(', ') }),
    timeZone: t.exposeString('timeZone', { description: 'IANA time zone DATE_TIME values are shown in' }),
  }),
});

const DataViewMapSettingsRef = builder.objectRef<MapSettings>('DataViewMapSettings').implement({
  description: 'Map settings of a MAP view.',
  fields: (t) => ({
    locationFieldSimplyId: t.exposeString('locationFieldSimplyId', { nullable: true, description: 'a PHYSICAL_ADDRESS field placing each record' }),
    defaultZoom: t.exposeInt('defaultZoom', { nullable: true, description: '1 (the world) to 20 (a building); null: fit the records shown' }),
  }),
});

const DataViewAdminConfigRef = builder.objectRef<AdminView>('DataViewAdminConfig').implement({
  description: "A view's whole saved configuration.",
  fields: (t) => ({
    columns: t.stringList({ description: 'the display link fields that exist, in order', resolve: (v) => v.config.displayFieldLinks.map((l) => l.dataFieldSimplyId).filter((id) => v.fieldsById.has(id)) }),
    filters: t.field({ type: 'JSON', description: '[{ field, operator, value }] as saved (the record search rules)', resolve: (v) => v.config.filters }),
    sortOrder: t.field({ type: [DataViewSortRef], resolve: (v) => v.config.sortOrder }),
    grouping: t.field({ type: [DataViewSortRef], description: 'grouping levels (LIST, TABLE, PIVOT, CHART, STATS), outermost first', resolve: (v) => v.config.grouping }),
    calendar: t.field({ type: DataViewCalendarSettingsRef, nullable: true, description: 'CALENDAR views only', resolve: (v) => effectiveCalendar(v.type, v.config) }),
    map: t.field({ type: DataViewMapSettingsRef, nullable: true, description: 'MAP views only', resolve: (v) => effectiveMap(v.type, v.config) }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Field links

/** The fields every link type has: its id, the field it names and what that field is now. */
function linkType<K extends LinkKind>(name: string, description: string, own: (t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, LinkItem<K>>) => Record<string, unknown>) {
  return builder.objectRef<LinkItem<K>>(name).implement({
    description,
    fields: (t) => ({
      id: t.string({ description: 'the link simplyId (vfl-…)', resolve: (i) => i.link.id }),
      dataFieldSimplyId: t.string({ resolve: (i) => i.link.dataFieldSimplyId }),
      fieldExists: t.boolean({ description: "false: the field is no longer in the view's collection (share-readiness reports it)", resolve: (i) => i.field !== null }),
      fieldTitle: t.field({ type: 'LocalizedText', nullable: true, description: "the field's title; null when it no longer exists", resolve: (i) => (i.field?.title ?? null) as never }),
      fieldDataType: t.string({ nullable: true, resolve: (i) => i.field?.dataType ?? null }),
      label: t.field({ type: 'LocalizedText', nullable: true, description: "shown instead of the field's title; null: the title", resolve: (i) => (i.link.label ?? null) as never }),
      ...(own(t) as object),
    }),
  });
}

const DisplayLinkRef = linkType<'display'>('DataViewDisplayFieldLink', 'A field the view shows (a column, a line of a calendar entry or map pin, a summarized value).', (t) => ({
  aggregation: t.string({ nullable: true, description: `PIVOT, CHART and STATS views: ${AGGREGATIONS.join(', ')} (null: COUNT); null elsewhere`, resolve: (i) => i.link.aggregation }),
}));

const FilterLinkRef = linkType<'filter'>('DataViewFilterFieldLink', 'A field viewers can filter the view by.', (t) => ({
  defaultOperator: t.string({ nullable: true, description: 'the search operator the filter control starts with', resolve: (i) => i.link.defaultOperator }),
}));

const CalendarLinkRef = linkType<'calendarDateInfo'>('DataViewCalendarDateInfoFieldLink', 'A DATE or DATE_TIME field placing records on a CALENDAR view.', (t) => ({
  endDataFieldSimplyId: t.string({ nullable: true, description: 'a field of the same type: when the entry ends', resolve: (i) => i.link.endDataFieldSimplyId }),
  color: t.string({ nullable: true, description: '#RRGGBB', resolve: (i) => i.link.color }),
}));

const LINK_REFS = { display: DisplayLinkRef, filter: FilterLinkRef, calendarDateInfo: CalendarLinkRef } as unknown as Record<LinkKind, ObjectRef<BuilderTypes, LinkItem>>;

const items = <K extends LinkKind>(v: AdminView, links: LinkOf[K][]): LinkItem<K>[] => links.map((link) => ({ link, field: v.fieldsById.get(link.dataFieldSimplyId) ?? null }));

// ---------------------------------------------------------------------------------------------
// The admin detail, the admin list and picker entries

const DataViewAdminRef = builder.objectRef<AdminView>('DataViewAdmin').implement({
  description: 'A view as administration sees it: every setting and link.',
  fields: (t) => ({
    id: t.string({ resolve: (v) => v.row.simplyId }),
    dataViewSimplyId: t.string({ resolve: (v) => v.row.simplyId }),
    name: t.field({ type: 'LocalizedText', resolve: (v) => v.row.name as never }),
    description: t.string({ nullable: true, resolve: (v) => v.row.description }),
    internalName: t.string({ nullable: true, description: 'unique in the team; null: none', resolve: (v) => v.row.internalName }),
    dataCollectionSimplyId: t.string({ resolve: (v) => v.collection.simplyId }),
    enumDataViewTypeId: t.field({ type: DataViewTypeEnum, resolve: (v) => v.type }),
    isPublished: t.boolean({ resolve: (v) => v.row.isPublished }),
    config: t.field({ type: DataViewAdminConfigRef, resolve: (v) => v }),
    displayFieldLinks: t.field({ type: [DisplayLinkRef], resolve: (v) => items<'display'>(v, v.config.displayFieldLinks) }),
    filterFieldLinks: t.field({ type: [FilterLinkRef], resolve: (v) => items<'filter'>(v, v.config.filterFieldLinks) }),
    calendarDateInfoFieldLinks: t.field({ type: [CalendarLinkRef], resolve: (v) => items<'calendarDateInfo'>(v, v.config.calendarDateInfoFieldLinks) }),
    displayFieldCount: t.int({ resolve: (v) => v.config.displayFieldLinks.length }),
    filterFieldCount: t.int({ resolve: (v) => v.config.filterFieldLinks.length }),
    calendarDateInfoFieldCount: t.int({ resolve: (v) => v.config.calendarDateInfoFieldLinks.length }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.row.updatedAt }),
  }),
});

const DataViewAdminPaginationRef = builder.objectRef<PagePagination>('DataViewAdminPagination').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    page: t.exposeInt('page'),
    pageSize: t.exposeInt('pageSize'),
    totalPages: t.exposeInt('totalPages'),
    hasMore: t.exposeBoolean('hasMore', { description: 'true when more views exist beyond this page' }),
  }),
});

const DataViewAdminPageRef = builder.objectRef<{ nodes: AdminView[]; pagination: PagePagination }>('DataViewAdminPage').implement({
  fields: (t) => ({
    nodes: t.expose('nodes', { type: [DataViewAdminRef] }),
    pagination: t.expose('pagination', { type: DataViewAdminPaginationRef }),
  }),
});

const DataViewPickerItemRef = builder.objectRef<ViewPickerItem>('DataViewPickerItem').implement({
  description: 'A view in a picker: enough to show and choose it.',
  fields: (t) => ({
    id: t.string({ resolve: (v) => v.row.simplyId }),
    name: t.field({ type: 'LocalizedText', resolve: (v) => v.row.name as never }),
    internalName: t.string({ nullable: true, resolve: (v) => v.row.internalName }),
    enumDataViewTypeId: t.field({ type: DataViewTypeEnum, resolve: (v) => v.row.viewType }),
    isPublished: t.boolean({ resolve: (v) => v.row.isPublished }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Internal names, eligible fields, share readiness

const DataViewReasonRef = builder.objectRef<{ code: string; message: string }>('DataViewReason').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

const DataViewInternalNameCheckRef = builder.objectRef<InternalNameCheck>('DataViewInternalNameCheck').implement({
  fields: (t) => ({
    internalName: t.exposeString('internalName'),
    isValid: t.exposeBoolean('isValid', { description: 'well-formed' }),
    isAvailable: t.exposeBoolean('isAvailable', { description: 'well-formed and not used by another view of the team' }),
    problems: t.field({ type: [DataViewReasonRef], description: 'TOO_SHORT, TOO_LONG, INVALID_CHARACTERS, MUST_START_WITH_LETTER, MUST_END_WITH_LETTER_OR_DIGIT, TAKEN', resolve: (c) => c.problems }),
    suggestion: t.exposeString('suggestion', { nullable: true, description: 'a valid, free name close to the one given (when it is not)' }),
  }),
});

const DataViewFieldEligibilityRef = builder.objectRef<FieldEligibility>('DataViewFieldEligibility').implement({
  fields: (t) => ({
    dataFieldSimplyId: t.string({ resolve: (e) => e.field.dataFieldSimplyId }),
    title: t.field({ type: 'LocalizedText', resolve: (e) => e.field.title as never }),
    dataType: t.string({ resolve: (e) => e.field.dataType }),
    isEligible: t.exposeBoolean('isEligible'),
    reason: t.field({ type: DataViewReasonRef, nullable: true, description: 'VIEW_TYPE_NOT_SUPPORTED, DATA_TYPE_NOT_SUPPORTED, ALREADY_LINKED, LIMIT_REACHED', resolve: (e) => e.reason }),
  }),
});

const DataViewLinkEligibilityRef = builder.objectRef<KindEligibility>('DataViewLinkEligibility').implement({
  fields: (t) => ({
    isAvailable: t.exposeBoolean('isAvailable', { description: 'a link of this kind can be added to the view now' }),
    unavailableReason: t.field({ type: DataViewReasonRef, nullable: true, description: 'VIEW_TYPE_NOT_SUPPORTED, LIMIT_REACHED', resolve: (k) => k.unavailableReason }),
    fields: t.field({ type: [DataViewFieldEligibilityRef], description: "every field of the view's collection, in field order", resolve: (k) => k.fields }),
  }),
});

const DataViewEligibleFieldsRef = builder.objectRef<EligibleFields>('DataViewEligibleFields').implement({
  fields: (t) => ({
    dataViewSimplyId: t.string({ resolve: (e) => e.view.row.simplyId }),
    enumDataViewTypeId: t.field({ type: DataViewTypeEnum, resolve: (e) => e.view.type }),
    displayFieldLinks: t.field({ type: DataViewLinkEligibilityRef, resolve: (e) => e.kinds.display }),
    filterFieldLinks: t.field({ type: DataViewLinkEligibilityRef, resolve: (e) => e.kinds.filter }),
    calendarDateInfoFieldLinks: t.field({ type: DataViewLinkEligibilityRef, resolve: (e) => e.kinds.calendarDateInfo }),
  }),
});

const DataViewReadinessIssueRef = builder.objectRef<ReadinessIssue>('DataViewReadinessIssue').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    field: t.exposeString('field', { nullable: true, description: 'where in the admin detail the problem is' }),
  }),
});

const DataViewShareTargetRef = builder.objectRef<ShareTarget>('DataViewShareTarget').implement({
  fields: (t) => ({
    tokenType: t.exposeString('tokenType', { description: 'EMBED or ICS_FEED' }),
    isAvailable: t.exposeBoolean('isAvailable', { description: 'a public access token of this type can be created now' }),
    blockers: t.field({ type: [DataViewReadinessIssueRef], resolve: (s) => s.blockers }),
    hasToken: t.exposeBoolean('hasToken', { description: 'the view has a public access token of this type' }),
    isServing: t.exposeBoolean('isServing', { description: 'that token\u2019s URL answers now (the view is published; ICS_FEED: a CALENDAR view)' }),
  }),
});

const DataViewShareReadinessRef = builder.objectRef<{ view: AdminView; readiness: ShareReadiness }>('DataViewShareReadiness').implement({
  fields: (t) => ({
    dataViewSimplyId: t.string({ resolve: (r) => r.view.row.simplyId }),
    enumDataViewTypeId: t.field({ type: DataViewTypeEnum, resolve: (r) => r.view.type }),
    isPublished: t.boolean({ resolve: (r) => r.view.row.isPublished }),
    canPublish: t.boolean({ resolve: (r) => r.readiness.canPublish }),
    canShare: t.boolean({ resolve: (r) => r.readiness.canShare }),
    blockers: t.field({ type: [DataViewReadinessIssueRef], description: 'what blocks publishing, and so sharing', resolve: (r) => r.readiness.blockers }),
    warnings: t.field({ type: [DataViewReadinessIssueRef], resolve: (r) => r.readiness.warnings }),
    shareTargets: t.field({ type: [DataViewShareTargetRef], resolve: (r) => r.readiness.shareTargets }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Inputs

const DataViewAdminInput = builder.inputType('DataViewAdminInput', {
  description: 'Every editable setting of a view (PUT semantics: absent optional values are cleared).',
  fields: (t) => ({
    name: t.field({ type: 'LocalizedText', required: true }),
    description: t.string(),
    internalName: t.string({ description: '2-64 of a-z, 0-9, "_", "-", from a letter to a letter or digit; unique in the team; null: none' }),
    enumDataViewTypeId: t.string({ required: true }),
    isPublished: t.boolean({ required: true }),
    config: t.field({ type: 'JSON', required: true, description: '{ columns?, filters, sortOrder, grouping, calendar, map }' }),
  }),
});

const linkInputs = {
  display: {
    add: builder.inputType('DataViewDisplayFieldLinkInput', {
      fields: (t) => ({ dataFieldSimplyId: t.string({ required: true }), label: t.field({ type: 'LocalizedText' }), aggregation: t.string({ description: AGGREGATIONS.join(', ') }) }),
    }),
    update: builder.inputType('DataViewDisplayFieldLinkUpdateInput', {
      fields: (t) => ({ dataFieldSimplyId: t.string(), label: t.field({ type: 'LocalizedText' }), aggregation: t.string() }),
    }),
  },
  filter: {
    add: builder.inputType('DataViewFilterFieldLinkInput', {
      fields: (t) => ({ dataFieldSimplyId: t.string({ required: true }), label: t.field({ type: 'LocalizedText' }), defaultOperator: t.string() }),
    }),
    update: builder.inputType('DataViewFilterFieldLinkUpdateInput', {
      fields: (t) => ({ dataFieldSimplyId: t.string(), label: t.field({ type: 'LocalizedText' }), defaultOperator: t.string() }),
    }),
  },
  calendarDateInfo: {
    add: builder.inputType('DataViewCalendarDateInfoFieldLinkInput', {
      fields: (t) => ({ dataFieldSimplyId: t.string({ required: true }), endDataFieldSimplyId: t.string(), label: t.field({ type: 'LocalizedText' }), color: t.string() }),
    }),
    update: builder.inputType('DataViewCalendarDateInfoFieldLinkUpdateInput', {
      fields: (t) => ({ dataFieldSimplyId: t.string(), endDataFieldSimplyId: t.string(), label: t.field({ type: 'LocalizedText' }), color: t.string() }),
    }),
  },
};

// ---------------------------------------------------------------------------------------------
// Fields

builder.queryFields((t) => ({
  dataViewAdminDetail: t.field({
    type: DataViewAdminRef,
    description: `A view's whole configuration and links. ${PRIVILEGED} View level.`,
    authScopes: read,
    ...byId(t.arg, 'dataViewSimplyId', getAdminDetail),
  }),
  dataViewAdminList: t.field({
    type: DataViewAdminPageRef,
    description: `Every view of the team (or of one collection), newest first, paged by page (1-10000, default 1) and pageSize (1-100, default 25). ${PRIVILEGED} View level.`,
    authScopes: read,
    args: { page: t.arg.int(), pageSize: t.arg.int(), dataCollectionSimplyId: t.arg.string() },
    resolve: withArgs(listAdminViews),
  }),
  dataViewsByCollection: t.field({
    type: [DataViewPickerItemRef],
    description: `The views of one collection as picker entries, newest first. ${PRIVILEGED} View level.`,
    authScopes: read,
    ...byId(t.arg, 'dataCollectionSimplyId', viewsByCollection),
  }),
  dataViewEligibleFields: t.field({
    type: DataViewEligibleFieldsRef,
    description: `For each kind of field link: which fields can be linked, and why the others cannot. ${PRIVILEGED} View level.`,
    authScopes: read,
    ...byId(t.arg, 'dataViewSimplyId', eligibleFields),
  }),
  dataViewShareReadiness: t.field({
    type: DataViewShareReadinessRef,
    description: `What blocks publishing the view, and sharing it as an embed or a calendar feed. ${PRIVILEGED} View level.`,
    authScopes: read,
    ...byId(t.arg, 'dataViewSimplyId', getShareReadiness),
  }),
  dataViewInternalNameValidation: t.field({
    type: DataViewInternalNameCheckRef,
    description: `Whether an internal name is well-formed and free in the team (dataViewSimplyId: the view being edited, whose own name does not count). ${PRIVILEGED} View level.`,
    authScopes: read,
    args: { internalName: t.arg.string({ required: true }), dataViewSimplyId: t.arg.string() },
    resolve: withArgs(validateInternalName),
  }),
}));

builder.mutationFields((t) => ({
  updateDataViewAdminDetail: t.field({
    type: DataViewAdminRef,
    description: `Replaces every editable setting of a view. ${PRIVILEGED} Edit level. Records a team schema version.`,
    authScopes: edit,
    args: { ...idArg(t.arg, 'dataViewSimplyId'), input: t.arg({ type: DataViewAdminInput, required: true }) },
    resolve: (_root, args, ctx) => updateAdminDetail(ctx, args.dataViewSimplyId, givenFields(args.input)),
  }),
}));

/** The five operations of one kind of link: list, add, update, delete, reorder. */
function linkFields(kind: LinkKind, names: { list: string; one: string; plural: string }, noun: string) {
  const ref = LINK_REFS[kind];
  builder.queryFields((t) => ({
    [`dataView${names.list}`]: t.field({
      type: [ref],
      description: `The view's ${noun} links, in order. ${PRIVILEGED} View level.`,
      authScopes: read,
      ...byId(t.arg, 'dataViewSimplyId', (ctx, id) => listLinks(ctx, kind, id)),
    }),
  }));
  builder.mutationFields((t) => ({
    [`addDataView${names.one}`]: t.field({
      type: ref,
      description: `Links a field as a ${noun} (at the end). ${PRIVILEGED} Edit level. Records a team schema version.`,
      authScopes: edit,
      args: { ...idArg(t.arg, 'dataViewSimplyId'), input: t.arg({ type: linkInputs[kind].add, required: true }) },
      resolve: (_root, args, ctx) => addLink(ctx, kind, args.dataViewSimplyId, givenFields(args.input as object)),
    }),
    [`updateDataView${names.one}`]: t.field({
      type: ref,
      description: `Changes a ${noun} link (absent: unchanged, null: cleared). ${PRIVILEGED} Edit level. Records a team schema version.`,
      authScopes: edit,
      args: { ...idArg(t.arg, 'dataViewSimplyId'), ...idArg(t.arg, 'linkSimplyId'), input: t.arg({ type: linkInputs[kind].update, required: true }) },
      resolve: (_root, args, ctx) => updateLink(ctx, kind, args.dataViewSimplyId, args.linkSimplyId, suppliedFields(args.input as object)),
    }),
    [`deleteDataView${names.one}`]: t.boolean({
      description: `Removes a ${noun} link. ${PRIVILEGED} Edit level. Records a team schema version.`,
      authScopes: edit,
      args: { ...idArg(t.arg, 'dataViewSimplyId'), ...idArg(t.arg, 'linkSimplyId') },
      resolve: (_root, args, ctx) => deleteLink(ctx, kind, args.dataViewSimplyId, args.linkSimplyId),
    }),
    [`reorderDataView${names.plural}`]: t.field({
      type: [ref],
      description: `Puts the view's ${noun} links in the order given (every link, once). ${PRIVILEGED} Edit level. Records a team schema version.`,
      authScopes: edit,
      args: { ...idArg(t.arg, 'dataViewSimplyId'), orderedLinkSimplyIds: t.arg.stringList({ required: true }) },
      resolve: (_root, args, ctx) => reorderLinks(ctx, kind, args.dataViewSimplyId, args.orderedLinkSimplyIds),
    }),
  }));
}

linkFields('display', { list: 'DisplayFieldLinks', one: 'DisplayFieldLink', plural: 'DisplayFieldLinks' }, 'display field');
linkFields('filter', { list: 'FilterFieldLinks', one: 'FilterFieldLink', plural: 'FilterFieldLinks' }, 'filter field');
linkFields('calendarDateInfo', { list: 'CalendarDateInfoFieldLinks', one: 'CalendarDateInfoFieldLink', plural: 'CalendarDateInfoFieldLinks' }, 'calendar date field');
