// GraphQL face of data collections and fields (Document 1 §2.4, §4.3).
// REST: rest-adapter/routes/collections.ts; rules: docs/api/data-collections.md.
// Reads are standard tier (team context; scoped tokens need schema:read, the create menu
// records:read; data permissions are checked in collections.service.ts once the collection is
// known). Administration is privileged: team admins, or TEAM_SETTINGS at edit level.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, patchById, reorderById, withArgs } from '../../app/graphql/args.ts';
import { givenFields, suppliedFields } from '../../app/graphql/input-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { FieldAccessLevelEnum } from '../team-roles/index.ts';
import { ArchetypeEnum, CollectionTypeEnum, DataCollectionRef, DataFieldRef } from './collections-types.schema.ts';
import {
  archiveCollection,
  createCollection,
  listCollections,
  readableCollection,
  readableField,
  recalculateRecordNames,
  renameCollection,
  resyncSmartMembership,
  updateCollection,
} from './collections.service.ts';
import { CREATE_BLOCKERS, createMenuFor, type BlockingField, type CreateMenu } from './create-menu.ts';
import { addField, removeField, reorderFields, updateField } from './fields.service.ts';
import './collection-admin.schema.ts';

const DataCollectionPage = pageType('DataCollectionPage', DataCollectionRef);

const CreateBlockerEnum = builder.enumType('DataCollectionCreateBlocker', { values: CREATE_BLOCKERS });

const BlockingFieldRef = builder.objectRef<BlockingField>('DataCollectionCreateMenuBlockingField').implement({
  description: 'A required field the caller cannot fill in',
  fields: (t) => ({
    dataFieldSimplyId: t.exposeString('dataFieldSimplyId'),
    title: t.field({ type: 'LocalizedText', nullable: true, description: 'null when the role hides the field', resolve: (f) => (f.title ?? null) as never }),
    access: t.field({ type: FieldAccessLevelEnum, resolve: (f) => f.access }),
  }),
});

const CreateMenuRef = builder.objectRef<CreateMenu>('DataCollectionCreateMenu').implement({
  fields: (t) => ({
    collection: t.field({ type: DataCollectionRef, resolve: (m) => m.access }),
    fields: t.field({ type: [DataFieldRef], description: 'the fields the caller can fill in, in sortOrder', resolve: (m) => m.fields }),
    canCreate: t.exposeBoolean('canCreate'),
    reasons: t.field({ type: [CreateBlockerEnum], description: 'why canCreate is false (empty when true)', resolve: (m) => m.reasons }),
    blockingFields: t.field({ type: [BlockingFieldRef], resolve: (m) => m.blockingFields }),
  }),
});

const DataFieldInput = builder.inputType('DataFieldInput', {
  fields: (t) => ({
    title: t.field({ type: 'LocalizedText', required: true }),
    dataType: t.string({ required: true, description: 'PLAIN_TEXT, NUMBER, … (docs/api/data-types.md)' }),
    isRequired: t.boolean(),
    config: t.field({ type: 'JSON', description: 'settings of the data type; null or {} for defaults' }),
    columnName: t.string({ description: 'lower snake case, unique in the collection; derived from the title when absent' }),
  }),
});

const CreateDataCollectionInput = builder.inputType('CreateDataCollectionInput', {
  fields: (t) => ({
    name: t.field({ type: 'LocalizedText', required: true }),
    singularName: t.field({ type: 'LocalizedText' }),
    pluralName: t.field({ type: 'LocalizedText' }),
    archetype: t.field({ type: ArchetypeEnum }),
    type: t.field({ type: CollectionTypeEnum, description: 'default STANDARD' }),
    parentDataCollectionSimplyId: t.string({ description: 'required for SMART (its record source)' }),
    dataRecordCalculatedNameFormula: t.string({ description: 'display-name formula: text with {fld-…} or {column_name} placeholders' }),
    filterCriteria: t.field({ type: 'JSON', description: "SMART only: [{ field, operator, value }] over the parent's fields" }),
    fields: t.field({ type: [DataFieldInput], description: 'up to 500' }),
  }),
});

const RenameDataCollectionInput = builder.inputType('RenameDataCollectionInput', {
  fields: (t) => ({
    name: t.field({ type: 'LocalizedText', required: true }),
    singularName: t.field({ type: 'LocalizedText', description: 'absent: unchanged; null: cleared' }),
    pluralName: t.field({ type: 'LocalizedText', description: 'absent: unchanged; null: cleared' }),
  }),
});

const UpdateDataCollectionInput = builder.inputType('UpdateDataCollectionInput', {
  description: 'Absent fields are unchanged; null clears.',
  fields: (t) => ({
    archetype: t.field({ type: ArchetypeEnum }),
    dataRecordCalculatedNameFormula: t.string(),
    filterCriteria: t.field({ type: 'JSON', description: 'SMART only' }),
    parentDataCollectionSimplyId: t.string({ description: 'not for SMART collections' }),
  }),
});

const UpdateDataFieldInput = builder.inputType('UpdateDataFieldInput', {
  description: 'Absent fields are unchanged.',
  fields: (t) => ({
    title: t.field({ type: 'LocalizedText' }),
    dataType: t.string({ description: 'immutable: accepted only when equal to the current type' }),
    isRequired: t.boolean(),
    config: t.field({ type: 'JSON', description: 'replaces the whole config; null resets to defaults' }),
    columnName: t.string(),
    sortOrder: t.int({ description: '0-based position to move the field to' }),
  }),
});

builder.queryFields((t) => ({
  dataCollections: t.field({
    type: DataCollectionPage,
    description: 'Collections the caller’s data role can read, oldest first',
    authScopes: tier.standardDataScoped,
    args: { ...pageArgs(t.arg), includeArchived: t.arg.boolean({ description: 'default false' }) },
    resolve: withArgs(listCollections),
  }),
  dataCollection: t.field({
    type: DataCollectionRef,
    authScopes: tier.standardDataScoped,
    ...byId(t.arg, 'dataCollectionSimplyId', readableCollection),
  }),
  dataCollectionFields: t.field({
    type: [DataFieldRef],
    description: 'Field definitions the caller’s data role can read, in sortOrder',
    authScopes: tier.standardDataScoped,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => (await readableCollection(ctx, args.dataCollectionSimplyId)).readable,
  }),
  dataCollectionField: t.field({
    type: DataFieldRef,
    authScopes: tier.standardDataScoped,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), dataFieldSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => readableField(ctx, args.dataCollectionSimplyId, args.dataFieldSimplyId),
  }),
  createMenuDataCollection: t.field({
    type: CreateMenuRef,
    description: 'The create-form layout of a collection for the caller',
    authScopes: tier.standardDataScoped,
    ...byId(t.arg, 'dataCollectionSimplyId', createMenuFor),
  }),
}));

builder.mutationFields((t) => ({
  createDataCollection: t.field({
    type: DataCollectionRef,
    authScopes: tier.teamSettings('EDIT'),
    args: { input: t.arg({ type: CreateDataCollectionInput, required: true }) },
    resolve: (_root, args, ctx) =>
      createCollection(ctx, {
        ...givenFields(args.input),
        ...(args.input.fields ? { fields: args.input.fields.map((f) => givenFields(f)) } : {}),
      }),
  }),
  renameDataCollection: t.field({
    type: DataCollectionRef,
    authScopes: tier.teamSettings('EDIT'),
    ...patchById(t.arg, 'dataCollectionSimplyId', RenameDataCollectionInput, renameCollection),
  }),
  updateDataCollection: t.field({
    type: DataCollectionRef,
    authScopes: tier.teamSettings('EDIT'),
    ...patchById(t.arg, 'dataCollectionSimplyId', UpdateDataCollectionInput, updateCollection),
  }),
  archiveDataCollection: t.field({
    type: DataCollectionRef,
    authScopes: tier.teamSettings('EDIT'),
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), isArchived: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => archiveCollection(ctx, args.dataCollectionSimplyId, args.isArchived),
  }),
  recalculateDataRecordNames: t.int({
    description: 'Recomputes the display names of the collection’s records; returns how many changed',
    authScopes: tier.teamSettings('EDIT'),
    ...byId(t.arg, 'dataCollectionSimplyId', recalculateRecordNames),
  }),
  resyncSmartMembership: t.field({
    type: DataCollectionRef,
    description: 'Rebuilds a SMART collection’s memberships from its criteria',
    authScopes: tier.teamSettings('EDIT'),
    ...byId(t.arg, 'dataCollectionSimplyId', resyncSmartMembership),
  }),
  addDataField: t.field({
    type: DataFieldRef,
    authScopes: tier.teamSettings('EDIT'),
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), input: t.arg({ type: DataFieldInput, required: true }) },
    resolve: (_root, args, ctx) => addField(ctx, args.dataCollectionSimplyId, givenFields(args.input)),
  }),
  updateDataField: t.field({
    type: DataFieldRef,
    authScopes: tier.teamSettings('EDIT'),
    args: {
      dataCollectionSimplyId: t.arg.string({ required: true }),
      dataFieldSimplyId: t.arg.string({ required: true }),
      input: t.arg({ type: UpdateDataFieldInput, required: true }),
    },
    resolve: (_root, args, ctx) => updateField(ctx, args.dataCollectionSimplyId, args.dataFieldSimplyId, suppliedFields(args.input)),
  }),
  reorderDataFields: t.field({
    type: [DataFieldRef],
    description: 'Listed fields first, in the given order; the others follow in their current order. Returns every field, in the new order.',
    authScopes: tier.teamSettings('EDIT'),
    ...reorderById(t.arg, 'dataCollectionSimplyId', 'orderedFieldSimplyIds', reorderFields),
  }),
  removeDataField: t.boolean({
    authScopes: tier.teamSettings('EDIT'),
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), dataFieldSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => removeField(ctx, args.dataCollectionSimplyId, args.dataFieldSimplyId),
  }),
}));
