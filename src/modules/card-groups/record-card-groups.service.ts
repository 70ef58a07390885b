// The record routes (standard tier; docs/api/data-records.md "Card groups"): the card groups a
// record is shown with, and one group rendered with the record's values. Reading them needs what
// reading the record needs (GET /v1/data-records/{id}: records:read for scoped tokens, READ on the
// record's collection); what each card shows is narrowed to the caller's field permissions
// (visible-cards.ts). Cost: the record, the group rows, then one batched read of every FORWARD
// table's referenced records and one search per REVERSE table: never a query per row.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import type { DataCardGroup } from '../../generated/prisma/client.ts';
import { decodeRecordFields, type FieldDefinition, getRecord, indexKey, loadRecordViews, RecordView, searchRecords } from '../../kernel/index.ts';
import { resolveCards } from './card-group-config.ts';
import { dataCardGroupId } from './card-groups.ids.ts';
import { type CreationAvailability, creationAvailability, TARGET_NOT_FOUND } from './creation-availability.ts';
import { type VisibleCard, type VisibleTableCard, visibleCards } from './visible-cards.ts';

/** A group as a record's list shows it: what the caller may see of its cards, no values. */
export interface RecordCardGroup {
  record: RecordView;
  row: DataCardGroup;
  cards: VisibleCard[];
}

export interface RenderedFieldsCard {
  kind: 'FIELDS';
  visible: VisibleCard & { kind: 'FIELDS' };
  values: { field: FieldDefinition; value: unknown }[];
}

/** For clients creating a record from a TABLE card: pre-fill this field of the new record with the record shown. */
export interface PrePopulateSettings {
  prePopulateFieldSimplyId: string;
  /** `<target collection simplyId>.<the field's columnName>`: the field named by collection and column */
  prePopulateFieldCompositeKey: string;
}

export interface MultiRecordContext {
  table: VisibleTableCard;
  creationAvailability: CreationAvailability;
  fieldSettings: PrePopulateSettings | null;
}

export interface RenderedTableCard {
  kind: 'TABLE';
  visible: VisibleTableCard;
  rows: RecordView[];
  totalRows: number;
  context: MultiRecordContext;
}

export type RenderedCard = RenderedFieldsCard | RenderedTableCard;

export interface RenderedCardGroup {
  record: RecordView;
  row: DataCardGroup;
  cards: RenderedCard[];
}

const ORDER = [{ position: 'asc' as const }, { id: 'asc' as const }];

/** GET /v1/data-records/{id}/card-groups */
export async function recordCardGroups(ctx: RequestContext, recordSimplyId: string): Promise<RecordCardGroup[]> {
  const record = await getRecord(ctx, recordSimplyId);
  const { schema, collection } = record.access;
  const rows = await ctx.services.prisma.dataCardGroup.findMany({ where: { teamId: schema.teamId, collectionId: collection.id }, orderBy: ORDER });
  return rows.map((row) => ({ record, row, cards: visibleCards(ctx.principal, record.access, resolveCards(schema, collection, row.cards)) }));
}

/** GET /v1/data-records/{id}/card-groups/{groupId}/render */
export async function renderRecordCardGroup(ctx: RequestContext, recordSimplyId: string, groupSimplyId: string): Promise<RenderedCardGroup> {
  assertDataSimplyId(recordSimplyId, 'dataRecordSimplyId');
  dataCardGroupId.assert(groupSimplyId, 'dataCardGroupSimplyId');
  const record = await getRecord(ctx, recordSimplyId);
  const { schema, collection } = record.access;
  const row = await ctx.services.prisma.dataCardGroup.findUnique({ where: { teamId_simplyId: { teamId: schema.teamId, simplyId: groupSimplyId } } });
  // a group of another collection is not one of this record's groups
  if (!row || row.collectionId !== collection.id) throw new NotFoundError('Data card group', groupSimplyId);
  const cards = visibleCards(ctx.principal, record.access, resolveCards(schema, collection, row.cards));
  return { record, row, cards: await renderCards(ctx, record, cards) };
}

/** The record's simplyIds a FORWARD relationship field holds, in value order. */
function referencedIds(record: RecordView, field: FieldDefinition): string[] {
  const key = indexKey(field, record.row.values[field.dataFieldSimplyId]);
  return key === null ? [] : (Array.isArray(key) ? key : [key]).map(String);
}

/** A REVERSE relationship through a SINGLE_DATA_RECORD field: a new row's field is the record shown, so clients pre-fill it. */
function prePopulate(table: VisibleTableCard): PrePopulateSettings | null {
  const { relationship, target } = table;
  if (relationship.direction !== 'REVERSE' || relationship.field.dataType !== 'SINGLE_DATA_RECORD' || !target) return null;
  return {
    prePopulateFieldSimplyId: relationship.field.dataFieldSimplyId,
    prePopulateFieldCompositeKey: `${target.collection.simplyId}.${relationship.field.columnName}`,
  };
}

async function renderCards(ctx: RequestContext, record: RecordView, cards: VisibleCard[]): Promise<RenderedCard[]> {
  const tables = cards.filter((c): c is VisibleTableCard => c.kind === 'TABLE' && c.target !== null);
  // every FORWARD table's records in one read; each REVERSE table is one search of its target
  const forwardIds = [...new Set(tables.filter((t) => t.relationship.direction === 'FORWARD').flatMap((t) => referencedIds(record, t.relationship.field)))];
  const [referenced, reverse] = await Promise.all([
    forwardIds.length > 0 ? loadRecordViews(ctx, record.access.schema, forwardIds) : new Map<string, RecordView>(),
    Promise.all(
      tables
        .filter((t) => t.relationship.direction === 'REVERSE')
        .map(async (t) => {
          const page = await searchRecords(ctx, {
            dataCollectionSimplyId: t.target!.collection.simplyId,
            filters: [{ field: t.relationship.field.dataFieldSimplyId, operator: 'eq', value: record.dataRecordSimplyId }],
            limit: t.card.rowLimit,
          });
          return [t, page] as const;
        }),
    ),
  ]);
  const reversePages = new Map(reverse);

  return cards.map((visible): RenderedCard => {
    if (visible.kind === 'FIELDS') {
      const decoded = decodeRecordFields(visible.fields, record.row.values);
      return { kind: 'FIELDS', visible, values: visible.fields.map((field) => ({ field, value: decoded[field.dataFieldSimplyId] ?? null })) };
    }
    const { target } = visible;
    const context: MultiRecordContext = { table: visible, creationAvailability: target ? creationAvailability(ctx.principal, target) : TARGET_NOT_FOUND, fieldSettings: prePopulate(visible) };
    if (!target) return { kind: 'TABLE', visible, rows: [], totalRows: 0, context };
    // rows show the card's readable columns only (and the record's own properties: id, name, …)
    const asRow = (view: RecordView) => new RecordView(view.row, target, visible.columns);
    if (visible.relationship.direction === 'FORWARD') {
      // the records the value names that are still in the target and active (archived ones are left out, as the REVERSE search leaves them)
      const found = referencedIds(record, visible.relationship.field)
        .map((id) => referenced.get(id))
        .filter((v): v is RecordView => v !== undefined && v.row.collectionId === target.collection.id && !v.row.isArchived);
      return { kind: 'TABLE', visible, rows: found.slice(0, visible.card.rowLimit).map(asRow), totalRows: found.length, context };
    }
    const page = reversePages.get(visible)!;
    return { kind: 'TABLE', visible, rows: page.nodes.map(asRow), totalRows: page.pagination.total, context };
  });
}
