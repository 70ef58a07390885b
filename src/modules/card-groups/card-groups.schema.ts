// GraphQL face of card groups. REST: rest-adapter/routes/card-groups.ts. The record reads are the
// standard tier of record reads (the service checks the record like GET /v1/data-records/{id});
// administration is privileged exactly as collection administration is (team admins, or
// TEAM_SETTINGS at edit level; never session or OAuth tokens). Bodies are JSON checked by zod in
// the service, so both faces name the same fields in their 400s.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { DataFieldRef } from '../collections/index.ts';
import { DataRecordRef } from '../records/index.ts';
import type { FieldDefinition } from '../../kernel/index.ts';
import type { CardProblem, ResolvedCard } from './card-group-config.ts';
import { CARD_PROBLEMS } from './card-group-config.ts';
import { type AdminCardGroup, createCardGroup, deleteCardGroup, listCollectionCardGroups, replaceCardGroup } from './card-group-admin.service.ts';
import { CARD_KINDS, RELATION_DIRECTIONS } from './card-groups.input.ts';
import { type BlockingField, type CreationAvailability, CREATION_BLOCKERS } from './creation-availability.ts';
import {
  type MultiRecordContext,
  type PrePopulateSettings,
  type RecordCardGroup,
  recordCardGroups,
  type RenderedCard,
  type RenderedCardGroup,
  renderRecordCardGroup,
} from './record-card-groups.service.ts';
import type { VisibleCard } from './visible-cards.ts';

const CardKindEnum = builder.enumType('DataCardKind', { values: CARD_KINDS });
const DirectionEnum = builder.enumType('DataCardRelationDirection', {
  description: 'FORWARD: the collection’s own relationship field names the rows; REVERSE: the rows’ field points back at the record',
  values: RELATION_DIRECTIONS,
});
const ProblemCodeEnum = builder.enumType('DataCardProblemCode', { values: CARD_PROBLEMS });
const BlockerEnum = builder.enumType('DataCardCreationBlocker', { values: CREATION_BLOCKERS });

const title = { type: 'LocalizedText' as const, nullable: true, description: 'the card’s heading; null: none' };

// ---------------------------------------------------------------------------------------------
// Administration

const ProblemRef = builder.objectRef<CardProblem>('DataCardProblem').implement({
  description: 'Why a card shows less than it was configured with (a field removed, a relationship changed, a target gone)',
  fields: (t) => ({
    code: t.field({ type: ProblemCodeEnum, resolve: (p) => p.code }),
    dataFieldSimplyId: t.string({ nullable: true, resolve: (p) => p.dataFieldSimplyId }),
    message: t.string({ resolve: (p) => p.message }),
  }),
});

const CardConfigRef = builder.objectRef<ResolvedCard>('DataCardConfig').implement({
  description: 'One card of a group as configured; the fields of the other kind are null',
  fields: (t) => ({
    position: t.int({ description: '0-based place in the group', resolve: (c) => c.position }),
    kind: t.field({ type: CardKindEnum, resolve: (c) => c.kind }),
    title: t.field({ ...title, resolve: (c) => c.title as never }),
    dataFieldSimplyIds: t.stringList({ nullable: true, description: 'FIELDS: the fields shown, in order', resolve: (c) => (c.kind === 'FIELDS' ? c.fields.map((f) => f.dataFieldSimplyId) : null) }),
    dataFieldSimplyId: t.string({ nullable: true, description: 'TABLE: the relationship field', resolve: (c) => (c.kind === 'TABLE' ? c.relationshipFieldSimplyId : null) }),
    direction: t.field({ type: DirectionEnum, nullable: true, description: 'TABLE', resolve: (c) => (c.kind === 'TABLE' ? c.direction : null) }),
    targetDataCollectionSimplyId: t.string({ nullable: true, description: 'TABLE: the collection whose records are the rows', resolve: (c) => (c.kind === 'TABLE' ? (c.relationship?.targetSimplyId ?? null) : null) }),
    columnFieldSimplyIds: t.stringList({ nullable: true, description: 'TABLE: fields of the target shown as columns, in order', resolve: (c) => (c.kind === 'TABLE' ? c.columnFieldSimplyIds : null) }),
    rowLimit: t.int({ nullable: true, description: 'TABLE: rows rendered (1-100)', resolve: (c) => (c.kind === 'TABLE' ? c.rowLimit : null) }),
    problems: t.field({ type: [ProblemRef], description: 'empty when the card shows everything it was configured with', resolve: (c) => c.problems }),
  }),
});

const CardGroupRef = builder.objectRef<AdminCardGroup>('DataCardGroup').implement({
  description: 'A card group of a collection: how screens show a record of it, as named, ordered cards',
  fields: (t) => ({
    id: t.string({ resolve: (g) => g.row.simplyId }),
    dataCardGroupSimplyId: t.string({ resolve: (g) => g.row.simplyId }),
    dataCollectionSimplyId: t.string({ resolve: (g) => g.collection.simplyId }),
    name: t.field({ type: 'LocalizedText', resolve: (g) => g.row.name as never }),
    position: t.int({ description: '0-based place among the collection’s groups', resolve: (g) => g.row.position }),
    cards: t.field({ type: [CardConfigRef], resolve: (g) => g.cards }),
    createdAt: t.field({ type: 'DateTime', resolve: (g) => g.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (g) => g.row.updatedAt }),
  }),
});

// ---------------------------------------------------------------------------------------------
// A record's groups

const CardSummaryRef = builder.objectRef<VisibleCard>('DataRecordCardSummary').implement({
  description: 'A card as the caller will see it on the record, without values; the fields of the other kind are null',
  fields: (t) => ({
    position: t.int({ resolve: (c) => c.card.position }),
    kind: t.field({ type: CardKindEnum, resolve: (c) => c.kind }),
    title: t.field({ ...title, resolve: (c) => c.card.title as never }),
    dataFieldSimplyIds: t.stringList({ nullable: true, description: 'FIELDS: the readable fields shown', resolve: (c) => (c.kind === 'FIELDS' ? c.fields.map((f) => f.dataFieldSimplyId) : null) }),
    dataFieldSimplyId: t.string({ nullable: true, description: 'TABLE: the relationship field', resolve: (c) => (c.kind === 'TABLE' ? c.relationship.field.dataFieldSimplyId : null) }),
    direction: t.field({ type: DirectionEnum, nullable: true, resolve: (c) => (c.kind === 'TABLE' ? c.relationship.direction : null) }),
    targetDataCollectionSimplyId: t.string({ nullable: true, resolve: (c) => (c.kind === 'TABLE' ? c.relationship.targetSimplyId : null) }),
    columnFieldSimplyIds: t.stringList({ nullable: true, description: 'TABLE: the readable columns', resolve: (c) => (c.kind === 'TABLE' ? c.columns.map((f) => f.dataFieldSimplyId) : null) }),
  }),
});

const RecordCardGroupRef = builder.objectRef<RecordCardGroup>('DataRecordCardGroup').implement({
  fields: (t) => ({
    id: t.string({ resolve: (g) => g.row.simplyId }),
    dataCardGroupSimplyId: t.string({ resolve: (g) => g.row.simplyId }),
    dataRecordSimplyId: t.string({ resolve: (g) => g.record.dataRecordSimplyId }),
    dataCollectionSimplyId: t.string({ resolve: (g) => g.record.access.collection.simplyId }),
    name: t.field({ type: 'LocalizedText', resolve: (g) => g.row.name as never }),
    position: t.int({ resolve: (g) => g.row.position }),
    cards: t.field({ type: [CardSummaryRef], description: 'the cards the caller may see, in order', resolve: (g) => g.cards }),
  }),
});

const CardFieldRef = builder.objectRef<{ field: FieldDefinition; value: unknown }>('DataRecordCardField').implement({
  fields: (t) => ({
    dataFieldSimplyId: t.string({ resolve: (v) => v.field.dataFieldSimplyId }),
    title: t.field({ type: 'LocalizedText', resolve: (v) => v.field.title as never }),
    columnName: t.string({ resolve: (v) => v.field.columnName }),
    dataType: t.string({ resolve: (v) => v.field.dataType }),
    value: t.field({ type: 'JSON', nullable: true, description: 'as in a record’s `fields`; null: no value', resolve: (v) => v.value as never }),
  }),
});

const BlockingFieldRef = builder.objectRef<BlockingField>('DataCardBlockingField').implement({
  fields: (t) => ({
    dataFieldSimplyId: t.string({ resolve: (b) => b.dataFieldSimplyId }),
    title: t.field({ type: 'LocalizedText', nullable: true, description: 'null when the caller’s role hides the field', resolve: (b) => b.title as never }),
    access: t.string({ description: 'READ or NONE', resolve: (b) => b.access }),
  }),
});

const CreationAvailabilityRef = builder.objectRef<CreationAvailability>('DataCardCreationAvailability').implement({
  description: 'Whether the caller may create a record in the target collection (clients hide creation when not)',
  fields: (t) => ({
    canCreate: t.boolean({ resolve: (a) => a.canCreate }),
    reason: t.field({ type: BlockerEnum, nullable: true, description: 'null when canCreate', resolve: (a) => a.reason }),
    blockingFields: t.field({ type: [BlockingFieldRef], description: 'required fields of the target the caller cannot write', resolve: (a) => a.blockingFields }),
  }),
});

const FieldSettingsRef = builder.objectRef<PrePopulateSettings>('DataCardFieldSettings').implement({
  description: 'A REVERSE relationship through a SINGLE_DATA_RECORD field: pre-fill that field of a new record with the record shown',
  fields: (t) => ({
    prePopulateFieldSimplyId: t.string({ resolve: (s) => s.prePopulateFieldSimplyId }),
    prePopulateFieldCompositeKey: t.string({ description: '<target collection simplyId>.<the field’s columnName>', resolve: (s) => s.prePopulateFieldCompositeKey }),
  }),
});

const RelationContextRef = builder.objectRef<MultiRecordContext>('DataCardRelationContext').implement({
  fields: (t) => ({
    dataFieldSimplyId: t.string({ description: 'the relationship field', resolve: (c) => c.table.relationship.field.dataFieldSimplyId }),
    direction: t.field({ type: DirectionEnum, resolve: (c) => c.table.relationship.direction }),
    relationDataType: t.string({ description: 'SINGLE_DATA_RECORD or MULTI_DATA_RECORD', resolve: (c) => c.table.relationship.field.dataType }),
    targetDataCollectionSimplyId: t.string({ nullable: true, resolve: (c) => c.table.relationship.targetSimplyId }),
    creationAvailability: t.field({ type: CreationAvailabilityRef, resolve: (c) => c.creationAvailability }),
    fieldSettings: t.field({ type: FieldSettingsRef, nullable: true, description: 'REVERSE SINGLE_DATA_RECORD relationships only', resolve: (c) => c.fieldSettings }),
  }),
});

const RenderedCardRef = builder.objectRef<RenderedCard>('DataRecordCard').implement({
  description: 'A card with the record’s values; the fields of the other kind are null',
  fields: (t) => ({
    position: t.int({ resolve: (c) => c.visible.card.position }),
    kind: t.field({ type: CardKindEnum, resolve: (c) => c.kind }),
    title: t.field({ ...title, resolve: (c) => c.visible.card.title as never }),
    fields: t.field({ type: [CardFieldRef], nullable: true, description: 'FIELDS: label and value of each readable field', resolve: (c) => (c.kind === 'FIELDS' ? c.values : null) }),
    dataFieldSimplyId: t.string({ nullable: true, description: 'TABLE: the relationship field', resolve: (c) => (c.kind === 'TABLE' ? c.visible.relationship.field.dataFieldSimplyId : null) }),
    columns: t.field({ type: [DataFieldRef], nullable: true, description: 'TABLE: the readable columns, in order', resolve: (c) => (c.kind === 'TABLE' ? c.visible.columns : null) }),
    rows: t.field({ type: [DataRecordRef], nullable: true, description: 'TABLE: the related records (their fields: the columns), at most rowLimit', resolve: (c) => (c.kind === 'TABLE' ? c.rows : null) }),
    totalRows: t.int({ nullable: true, description: 'TABLE: every related record the caller may read', resolve: (c) => (c.kind === 'TABLE' ? c.totalRows : null) }),
    hasMoreRows: t.boolean({ nullable: true, resolve: (c) => (c.kind === 'TABLE' ? c.totalRows > c.rows.length : null) }),
    multiDataRecordContext: t.field({ type: RelationContextRef, nullable: true, description: 'TABLE', resolve: (c) => (c.kind === 'TABLE' ? c.context : null) }),
  }),
});

const RenderedGroupRef = builder.objectRef<RenderedCardGroup>('DataRecordCardGroupRender').implement({
  fields: (t) => ({
    id: t.string({ resolve: (g) => g.row.simplyId }),
    dataCardGroupSimplyId: t.string({ resolve: (g) => g.row.simplyId }),
    dataRecordSimplyId: t.string({ resolve: (g) => g.record.dataRecordSimplyId }),
    dataCollectionSimplyId: t.string({ resolve: (g) => g.record.access.collection.simplyId }),
    name: t.field({ type: 'LocalizedText', resolve: (g) => g.row.name as never }),
    position: t.int({ resolve: (g) => g.row.position }),
    cards: t.field({ type: [RenderedCardRef], resolve: (g) => g.cards }),
  }),
});

// ---------------------------------------------------------------------------------------------

const adminTier = tier.teamSettings('EDIT');

builder.queryFields((t) => ({
  dataRecordCardGroups: t.field({
    type: [RecordCardGroupRef],
    description: 'The card groups of the record’s collection, as the caller will see them (no values)',
    authScopes: tier.standardDataScoped,
    args: { dataRecordSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => recordCardGroups(ctx, args.dataRecordSimplyId),
  }),
  dataRecordCardGroupRender: t.field({
    type: RenderedGroupRef,
    description: 'One card group of the record with its values, narrowed to the caller’s field permissions',
    authScopes: tier.standardDataScoped,
    args: { dataRecordSimplyId: t.arg.string({ required: true }), dataCardGroupSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => renderRecordCardGroup(ctx, args.dataRecordSimplyId, args.dataCardGroupSimplyId),
  }),
  dataCollectionCardGroups: t.field({
    type: [CardGroupRef],
    description: 'Every card group of a collection, in position order, with each card’s problems (privileged)',
    authScopes: adminTier,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => listCollectionCardGroups(ctx, args.dataCollectionSimplyId),
  }),
}));

const input = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => t.arg({ type: 'JSON', required: true, description: 'the body, as the REST route takes it' });

builder.mutationFields((t) => ({
  createDataCardGroup: t.field({
    type: CardGroupRef,
    description: 'Adds a card group to a collection: { name, position?, cards } (privileged)',
    authScopes: adminTier,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), input: input(t) },
    resolve: (_root, args, ctx) => createCardGroup(ctx, args.dataCollectionSimplyId, args.input),
  }),
  replaceDataCardGroup: t.field({
    type: CardGroupRef,
    description: 'Replaces a card group’s name and cards; moves it when position is given (privileged)',
    authScopes: adminTier,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), dataCardGroupSimplyId: t.arg.string({ required: true }), input: input(t) },
    resolve: (_root, args, ctx) => replaceCardGroup(ctx, args.dataCollectionSimplyId, args.dataCardGroupSimplyId, args.input),
  }),
  deleteDataCardGroup: t.boolean({
    description: 'Deletes a card group (privileged)',
    authScopes: adminTier,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), dataCardGroupSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => deleteCardGroup(ctx, args.dataCollectionSimplyId, args.dataCardGroupSimplyId),
  }),
}));
