// GraphQL face of collection administration (privileged: team admins, or TEAM_SETTINGS at edit
// level; never session or OAuth tokens). REST: rest-adapter/routes/collections.ts; rules:
// docs/api/data-collections.md "Collection administration". Bodies are JSON checked by zod in the
// services, so both faces name the same fields in their 400s.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId } from '../../app/graphql/args.ts';
import { FIELD_WIDTHS } from './collection-admin.input.ts';
import {
  type AdminDetail,
  type AdminField,
  type MembershipPreview,
  previewSmartMembership,
  readAdminDetail,
  recalculateCalculatedRelationshipFields,
  type RelationshipRecalculation,
  replaceAdminDetail,
  replaceFieldDisplayOverrides,
} from './collection-admin.service.ts';
import { CollectionTypeEnum } from './collections-types.schema.ts';
import { recordCountLoader } from './collections.sql.ts';
import { applyFieldDescriptions, type DescriptionSuggestion, type DescriptionSuggestions, generateFieldDescriptions } from './field-descriptions.service.ts';
import { type IssuedImportToken, issueImportToken } from './import-token.service.ts';

const FieldWidthEnum = builder.enumType('DataFieldDisplayWidth', { values: FIELD_WIDTHS });

const localized = (description: string) => ({ type: 'LocalizedText' as const, nullable: true, description });

const DisplaySettingsRef = builder.objectRef<AdminField['display']>('DataFieldDisplaySettings').implement({
  description: 'How admin screens show a field in this collection (unset: the field’s own title, shown, default width, in sortOrder)',
  fields: (t) => ({
    label: t.field({ ...localized('shown instead of the title'), resolve: (d) => (d.label ?? null) as never }),
    helpText: t.field({ ...localized('a hint under the input'), resolve: (d) => (d.helpText ?? null) as never }),
    placeholder: t.field({ ...localized('shown in an empty input'), resolve: (d) => (d.placeholder ?? null) as never }),
    hidden: t.boolean({ description: 'left out of admin screens (the field and its values stay)', resolve: (d) => d.hidden === true }),
    width: t.field({ type: FieldWidthEnum, nullable: true, resolve: (d) => d.width ?? null }),
    position: t.int({ nullable: true, description: 'where screens list the field: lower first; unset ones after, in sortOrder', resolve: (d) => d.position ?? null }),
  }),
});

const AdminFieldRef = builder.objectRef<AdminField>('DataFieldAdminEntry').implement({
  description: 'A field as admin screens configure it: its definition, display settings and description',
  fields: (t) => ({
    id: t.string({ resolve: (f) => f.field.dataFieldSimplyId }),
    dataFieldSimplyId: t.string({ resolve: (f) => f.field.dataFieldSimplyId }),
    title: t.field({ type: 'LocalizedText', resolve: (f) => f.field.title as never }),
    columnName: t.string({ resolve: (f) => f.field.columnName }),
    dataType: t.string({ resolve: (f) => f.field.dataType }),
    isRequired: t.boolean({ resolve: (f) => f.field.isRequired }),
    sortOrder: t.int({ resolve: (f) => f.field.sortOrder }),
    config: t.field({ type: 'JSON', resolve: (f) => f.field.config }),
    isOwnField: t.boolean({ description: 'false: a SMART collection showing its source’s field', resolve: (f) => f.own }),
    description: t.field({ ...localized('what the field holds, for the people filling it in'), resolve: (f) => (f.description ?? null) as never }),
    display: t.field({ type: DisplaySettingsRef, resolve: (f) => f.display }),
    createdAt: t.field({ type: 'DateTime', resolve: (f) => f.field.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (f) => f.field.updatedAt }),
  }),
});

const AdminDetailRef = builder.objectRef<AdminDetail>('DataCollectionAdminDetail').implement({
  description: 'A collection’s whole administrative configuration, every field included',
  fields: (t) => ({
    id: t.string({ resolve: (d) => d.access.collection.simplyId }),
    dataCollectionSimplyId: t.string({ resolve: (d) => d.access.collection.simplyId }),
    name: t.field({ type: 'LocalizedText', resolve: (d) => d.access.collection.name as never }),
    singularName: t.field({ type: 'LocalizedText', nullable: true, resolve: (d) => (d.access.collection.singularName ?? null) as never }),
    pluralName: t.field({ type: 'LocalizedText', nullable: true, resolve: (d) => (d.access.collection.pluralName ?? null) as never }),
    archetype: t.string({ nullable: true, resolve: (d) => d.access.collection.archetype }),
    effectiveArchetype: t.string({ nullable: true, resolve: (d) => d.access.schema.effectiveArchetype(d.access.collection) }),
    type: t.field({ type: CollectionTypeEnum, resolve: (d) => d.access.collection.type }),
    enumDataCollectionTypeId: t.string({ resolve: (d) => d.access.collection.type }),
    parentDataCollectionSimplyId: t.string({ nullable: true, resolve: (d) => d.access.schema.parentSimplyId(d.access.collection) }),
    dataRecordCalculatedNameFormula: t.string({ nullable: true, resolve: (d) => d.access.collection.calculatedNameFormula }),
    filterCriteria: t.field({ type: 'JSON', nullable: true, description: 'SMART collections: the membership criteria', resolve: (d) => (d.access.collection.filterCriteria ?? null) as never }),
    isArchived: t.boolean({ resolve: (d) => d.access.collection.isArchived }),
    fieldCount: t.int({ resolve: (d) => d.fields.length }),
    recordCount: t.int({ resolve: (d, _args, ctx) => recordCountLoader(ctx, d.access.schema.teamId).load(d.access.collection.id) }),
    fields: t.field({ type: [AdminFieldRef], description: 'every field, in sortOrder', resolve: (d) => d.fields }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.access.collection.createdAt }),
    updatedAt: t.field({ type: 'DateTime', description: 'send it back as expectedUpdatedAt with PUT', resolve: (d) => d.access.collection.updatedAt }),
  }),
});

const RelationshipRecalculationRef = builder.objectRef<RelationshipRecalculation>('CalculatedRelationshipRecalculation').implement({
  fields: (t) => ({
    id: t.string({ resolve: (r) => r.dataCollectionSimplyId }),
    dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId'),
    calculatedFieldCount: t.exposeInt('calculatedFieldCount', { description: 'calculated relationship fields of the collection (no data type calculates one yet: 0)' }),
    updatedRecordCount: t.exposeInt('updatedRecordCount'),
  }),
});

const PreviewSampleRef = builder.objectRef<MembershipPreview['sample'][number]>('SmartMembershipSampleRecord').implement({
  fields: (t) => ({
    dataRecordSimplyId: t.exposeString('dataRecordSimplyId'),
    calculatedName: t.string({ nullable: true, resolve: (r) => r.calculatedName }),
  }),
});

const MembershipPreviewRef = builder.objectRef<MembershipPreview>('SmartMembershipPreview').implement({
  fields: (t) => ({
    id: t.string({ resolve: (p) => p.dataCollectionSimplyId }),
    dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId'),
    sourceDataCollectionSimplyId: t.exposeString('sourceDataCollectionSimplyId'),
    filterCriteria: t.field({ type: 'JSON', description: 'the criteria previewed, normalized as they would be stored', resolve: (p) => p.filterCriteria as never }),
    sourceRecordCount: t.exposeInt('sourceRecordCount'),
    matchingRecordCount: t.exposeInt('matchingRecordCount'),
    currentMemberCount: t.int({ nullable: true, resolve: (p) => p.currentMemberCount }),
    wouldAddCount: t.int({ nullable: true, resolve: (p) => p.wouldAddCount }),
    wouldRemoveCount: t.int({ nullable: true, resolve: (p) => p.wouldRemoveCount }),
    sample: t.field({ type: [PreviewSampleRef], description: 'the first matching records, oldest first', resolve: (p) => p.sample }),
  }),
});

const SuggestionRef = builder.objectRef<DescriptionSuggestion>('DataFieldDescriptionSuggestion').implement({
  fields: (t) => ({
    dataFieldSimplyId: t.exposeString('dataFieldSimplyId'),
    columnName: t.exposeString('columnName'),
    title: t.field({ type: 'LocalizedText', resolve: (s) => s.title as never }),
    dataType: t.exposeString('dataType'),
    currentDescription: t.field({ type: 'LocalizedText', nullable: true, resolve: (s) => (s.currentDescription ?? null) as never }),
    suggestedDescription: t.string({ nullable: true, description: 'null: the model gave none for this field', resolve: (s) => s.suggestedDescription }),
  }),
});

const SuggestionsRef = builder.objectRef<DescriptionSuggestions>('DataFieldDescriptionSuggestions').implement({
  fields: (t) => ({
    id: t.string({ resolve: (s) => s.dataCollectionSimplyId }),
    dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId'),
    language: t.exposeString('language'),
    suggestions: t.field({ type: [SuggestionRef], resolve: (s) => s.suggestions }),
  }),
});

const ImportTokenRef = builder.objectRef<IssuedImportToken>('DataCollectionImportToken').implement({
  fields: (t) => ({
    importToken: t.exposeString('importToken', { description: 'shown once; give it as queueData.importToken of a BULK_DATA_IMPORT task' }),
    dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId'),
    expiresAt: t.field({ type: 'DateTime', resolve: (i) => i.expiresAt }),
  }),
});

const adminTier = tier.teamSettings('EDIT');
/** The import token: the privileged tier, and a signed-in member (imports are run by people; API keys: IDP_REQUIRED). */
const importTokenTier = { $all: { ...adminTier.$all, signedInUser: true } } as const;

/** `dataCollectionSimplyId` and a JSON `input` (the route's body). */
const withInput = <R>(t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0], run: (ctx: any, id: string, input: unknown) => R, required = true) => ({
  args: {
    dataCollectionSimplyId: t.arg.string({ required: true }),
    input: t.arg({ type: 'JSON', required, description: 'the body, as the REST route takes it' }),
  },
  resolve: (_root: unknown, args: { dataCollectionSimplyId: string; input?: unknown }, ctx: any) => run(ctx, args.dataCollectionSimplyId, args.input ?? undefined),
});

builder.queryFields((t) => ({
  dataCollectionAdminDetail: t.field({
    type: AdminDetailRef,
    description: 'The whole administrative configuration of a collection (privileged)',
    authScopes: adminTier,
    ...byId(t.arg, 'dataCollectionSimplyId', readAdminDetail),
  }),
}));

builder.mutationFields((t) => ({
  replaceDataCollectionAdminDetail: t.field({
    type: AdminDetailRef,
    description: 'Replaces names, archetype, display-name formula, SMART criteria and parent in one change',
    authScopes: adminTier,
    ...withInput(t, replaceAdminDetail),
  }),
  replaceDataFieldDisplayOverrides: t.field({
    type: AdminDetailRef,
    description: 'Replaces the collection’s field display overrides (fields not listed have none afterwards)',
    authScopes: adminTier,
    ...withInput(t, replaceFieldDisplayOverrides),
  }),
  generateDataFieldDescriptions: t.field({
    type: SuggestionsRef,
    description: 'Drafts field descriptions with the AI model; stores nothing',
    authScopes: adminTier,
    ...withInput(t, generateFieldDescriptions, false),
  }),
  applyDataFieldDescriptions: t.field({
    type: AdminDetailRef,
    description: 'Writes the listed (approved) field descriptions; null clears one',
    authScopes: adminTier,
    ...withInput(t, applyFieldDescriptions),
  }),
  recalculateCalculatedRelationshipFields: t.field({
    type: RelationshipRecalculationRef,
    authScopes: adminTier,
    ...byId(t.arg, 'dataCollectionSimplyId', recalculateCalculatedRelationshipFields),
  }),
  previewSmartMembership: t.field({
    type: MembershipPreviewRef,
    description: 'Counts and a sample of the records criteria would select; changes nothing',
    authScopes: adminTier,
    ...withInput(t, previewSmartMembership, false),
  }),
  createDataCollectionImportToken: t.field({
    type: ImportTokenRef,
    description: 'A short-lived, single-use CSV import token for this collection and the signed-in member',
    authScopes: importTokenTier,
    ...withInput(t, issueImportToken, false),
  }),
}));
