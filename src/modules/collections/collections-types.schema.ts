// GraphQL objects of collections and fields. They are served from the team's cached schema
// (schema-cache.ts), narrowed to what the caller's role may read; record counts come from one
// grouped query per request (DataLoader), whatever the number of collections listed.
import { builder } from '../../app/builder.ts';
import type { CollectionAccess, FieldDefinition } from '../../kernel/index.ts';
import { ARCHETYPES, COLLECTION_TYPES } from './collections.input.ts';
import { recordCountLoader } from './collections.sql.ts';

export const CollectionTypeEnum = builder.enumType('DataCollectionType', { values: COLLECTION_TYPES });

export const ArchetypeEnum = builder.enumType('DataCollectionArchetype', { values: ARCHETYPES });

export const DataFieldRef = builder.objectRef<FieldDefinition>('DataField').implement({
  fields: (t) => ({
    id: t.string({ resolve: (f) => f.dataFieldSimplyId }),
    dataFieldSimplyId: t.string({ resolve: (f) => f.dataFieldSimplyId }),
    title: t.field({ type: 'LocalizedText', resolve: (f) => f.title as never }),
    columnName: t.exposeString('columnName'),
    dataType: t.exposeString('dataType'),
    isRequired: t.exposeBoolean('isRequired'),
    sortOrder: t.exposeInt('sortOrder'),
    config: t.field({ type: 'JSON', resolve: (f) => f.config }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const DataCollectionRef = builder.objectRef<CollectionAccess>('DataCollection').implement({
  fields: (t) => ({
    id: t.string({ resolve: (a) => a.collection.simplyId }),
    dataCollectionSimplyId: t.string({ resolve: (a) => a.collection.simplyId }),
    name: t.field({ type: 'LocalizedText', resolve: (a) => a.collection.name as never }),
    singularName: t.field({ type: 'LocalizedText', nullable: true, resolve: (a) => (a.collection.singularName ?? null) as never }),
    pluralName: t.field({ type: 'LocalizedText', nullable: true, resolve: (a) => (a.collection.pluralName ?? null) as never }),
    archetype: t.string({ nullable: true, resolve: (a) => a.collection.archetype }),
    effectiveArchetype: t.string({ nullable: true, resolve: (a) => a.schema.effectiveArchetype(a.collection) }),
    type: t.field({ type: CollectionTypeEnum, resolve: (a) => a.collection.type }),
    enumDataCollectionTypeId: t.string({ resolve: (a) => a.collection.type }),
    parentDataCollectionSimplyId: t.string({ nullable: true, resolve: (a) => a.schema.parentSimplyId(a.collection) }),
    isArchived: t.boolean({ resolve: (a) => a.collection.isArchived }),
    fieldCount: t.int({ description: 'fields the caller may read', resolve: (a) => a.readable.length }),
    recordCount: t.int({ resolve: (a, _args, ctx) => recordCountLoader(ctx, a.schema.teamId).load(a.collection.id) }),
    dataRecordCalculatedNameFormula: t.string({ nullable: true, resolve: (a) => a.collection.calculatedNameFormula }),
    filterCriteria: t.field({ type: 'JSON', nullable: true, description: 'SMART collections: the membership criteria', resolve: (a) => (a.collection.filterCriteria ?? null) as never }),
    fields: t.field({ type: [DataFieldRef], description: 'fields the caller may read, in sortOrder', resolve: (a) => a.readable }),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.collection.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (a) => a.collection.updatedAt }),
  }),
});
