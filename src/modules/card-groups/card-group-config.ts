// A card group's configuration against the team's schema: checked when it is written (every field
// named must belong where the card says: a 400 naming the card and the field otherwise), stored
// with field simplyIds, and resolved again when it is read. Fields are never locked by a card: a
// field removed later, or a relationship whose target changed, is left out of what the card shows
// and reported to administrators as a problem of the card (a record read never fails on it).
import type { ErrorDetail } from '../../app/errors.ts';
import type { LocalizedText } from '../../app/localized-text.ts';
import type { CollectionDefinition, FieldDefinition, TeamSchema } from '../../kernel/index.ts';
import { type CardInput, type CardKind, DEFAULT_TABLE_ROWS, MAX_TABLE_ROWS, type RelationDirection } from './card-groups.input.ts';

/** The data types that link records: the fields a TABLE card shows the records of. */
export const RELATIONSHIP_TYPES: readonly string[] = ['SINGLE_DATA_RECORD', 'MULTI_DATA_RECORD'];

export interface StoredFieldsCard {
  kind: 'FIELDS';
  title: LocalizedText | null;
  dataFieldSimplyIds: string[];
}

export interface StoredTableCard {
  kind: 'TABLE';
  title: LocalizedText | null;
  dataFieldSimplyId: string;
  /** resolved when written, so a later change of the field's target cannot flip what the card means */
  direction: RelationDirection;
  columnFieldSimplyIds: string[];
  rowLimit: number;
}

export type StoredCard = StoredFieldsCard | StoredTableCard;

export interface Relationship {
  field: FieldDefinition;
  direction: RelationDirection;
  /** the collection whose records are the rows (FORWARD: the field's target; REVERSE: the field's own collection); null: none or gone */
  target: CollectionDefinition | null;
  /** the target as configured (FORWARD: the field's targetDataCollectionSimplyId), also when it is gone */
  targetSimplyId: string | null;
}

/** Why a card shows less than it was configured with (administrators see these; records never fail on them). */
export const CARD_PROBLEMS = ['FIELD_NOT_FOUND', 'RELATIONSHIP_NOT_FOUND', 'TARGET_COLLECTION_NOT_FOUND'] as const;
export type CardProblemCode = (typeof CARD_PROBLEMS)[number];

export interface CardProblem {
  code: CardProblemCode;
  dataFieldSimplyId: string | null;
  message: string;
}

interface ResolvedBase {
  /** 0-based place in the group */
  position: number;
  title: LocalizedText | null;
  problems: CardProblem[];
}

export interface ResolvedFieldsCard extends ResolvedBase {
  kind: 'FIELDS';
  /** the configured fields that still exist, in card order */
  fields: FieldDefinition[];
}

export interface ResolvedTableCard extends ResolvedBase {
  kind: 'TABLE';
  relationshipFieldSimplyId: string;
  direction: RelationDirection;
  /** null: the field is gone, or no longer links these collections (the card shows nothing) */
  relationship: Relationship | null;
  /** the configured columns that are still fields of the target, in card order */
  columns: FieldDefinition[];
  /** what administration shows and a PUT keeps: the columns above, or the stored ones while the target is gone */
  columnFieldSimplyIds: string[];
  rowLimit: number;
}

export type ResolvedCard = ResolvedFieldsCard | ResolvedTableCard;

const targetOf = (field: FieldDefinition): string | null => {
  const target = (field.config as { targetDataCollectionSimplyId?: unknown }).targetDataCollectionSimplyId;
  return typeof target === 'string' ? target : null;
};

const isOwnField = (schema: TeamSchema, collection: CollectionDefinition, field: FieldDefinition) => schema.fieldSource(collection).id === field.collectionId;

/**
 * The relationship a TABLE card names: the collection's own SINGLE_/MULTI_DATA_RECORD field
 * (FORWARD), or another collection's one that points at this collection (REVERSE). `direction`
 * null: FORWARD for an own field, else REVERSE (a field of a collection pointing at itself is
 * REVERSE only when asked for). A string: why the field does not qualify.
 */
export function relationshipOf(schema: TeamSchema, collection: CollectionDefinition, fieldSimplyId: string, direction: RelationDirection | null): Relationship | string {
  const field = schema.fieldsBySimplyId.get(fieldSimplyId);
  if (!field) return `${fieldSimplyId} is not a field of this collection, nor of a collection pointing at it`;
  if (!RELATIONSHIP_TYPES.includes(field.dataType)) {
    return `${fieldSimplyId} is a ${field.dataType} field: a TABLE card needs a SINGLE_DATA_RECORD or MULTI_DATA_RECORD field`;
  }
  const own = isOwnField(schema, collection, field);
  const resolved = direction ?? (own ? 'FORWARD' : 'REVERSE');
  if (resolved === 'FORWARD') {
    if (!own) return `${fieldSimplyId} is not a field of this collection (FORWARD shows the records the collection's own relationship field names)`;
    const targetSimplyId = targetOf(field);
    return { field, direction: 'FORWARD', targetSimplyId, target: targetSimplyId ? (schema.collectionsBySimplyId.get(targetSimplyId) ?? null) : null };
  }
  if (targetOf(field) !== collection.simplyId) {
    return `${fieldSimplyId} does not point at this collection: REVERSE needs a relationship field whose targetDataCollectionSimplyId is ${collection.simplyId}`;
  }
  const target = schema.collectionsById.get(field.collectionId) ?? null;
  return { field, direction: 'REVERSE', target, targetSimplyId: target?.simplyId ?? null };
}

/**
 * Checks cards (already shaped by card-groups.input.ts) against the collection and the targets of
 * their relationships, and answers their stored form. Each problem is a detail naming its card
 * and field (`cards.2.columnFieldSimplyIds.0`).
 */
export function checkCards(schema: TeamSchema, collection: CollectionDefinition, cards: readonly CardInput[], details: ErrorDetail[]): StoredCard[] {
  const ownFields = new Set(schema.fieldsOf(collection).map((f) => f.dataFieldSimplyId));
  return cards.map((card, i): StoredCard => {
    const at = `cards.${i}`;
    if (card.kind === 'FIELDS') {
      card.dataFieldSimplyIds.forEach((id, j) => {
        if (!ownFields.has(id)) details.push({ field: `${at}.dataFieldSimplyIds.${j}`, message: `${id} is not a field of this collection` });
      });
      return { kind: 'FIELDS', title: card.title, dataFieldSimplyIds: card.dataFieldSimplyIds };
    }
    const relationship = relationshipOf(schema, collection, card.dataFieldSimplyId, card.direction);
    if (typeof relationship === 'string') {
      details.push({ field: `${at}.dataFieldSimplyId`, message: relationship });
    } else if (!relationship.target) {
      details.push({
        field: `${at}.dataFieldSimplyId`,
        message: relationship.targetSimplyId
          ? `${card.dataFieldSimplyId} points at ${relationship.targetSimplyId}, which is not a collection of this team`
          : `${card.dataFieldSimplyId} names no targetDataCollectionSimplyId: set one on the field to show its records as a table`,
      });
    } else {
      const targetFields = new Set(schema.fieldsOf(relationship.target).map((f) => f.dataFieldSimplyId));
      card.columnFieldSimplyIds.forEach((id, j) => {
        if (!targetFields.has(id)) details.push({ field: `${at}.columnFieldSimplyIds.${j}`, message: `${id} is not a field of the target collection ${relationship.target!.simplyId}` });
      });
    }
    return {
      kind: 'TABLE',
      title: card.title,
      dataFieldSimplyId: card.dataFieldSimplyId,
      direction: typeof relationship === 'string' ? (card.direction ?? 'FORWARD') : relationship.direction,
      columnFieldSimplyIds: card.columnFieldSimplyIds,
      rowLimit: card.rowLimit,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const titleOf = (v: unknown): LocalizedText | null => (typeof v === 'string' || isObject(v) ? (v as LocalizedText) : null);

/** The stored cards, read defensively: a row is only ever written through checkCards, but JSON is JSON. */
export function readStoredCards(raw: unknown): StoredCard[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((c): StoredCard[] => {
    if (!isObject(c)) return [];
    if ((c.kind as CardKind) === 'FIELDS') return [{ kind: 'FIELDS', title: titleOf(c.title), dataFieldSimplyIds: strings(c.dataFieldSimplyIds) }];
    if ((c.kind as CardKind) === 'TABLE' && typeof c.dataFieldSimplyId === 'string') {
      const rowLimit = typeof c.rowLimit === 'number' && Number.isInteger(c.rowLimit) ? Math.min(Math.max(c.rowLimit, 1), MAX_TABLE_ROWS) : DEFAULT_TABLE_ROWS;
      return [{ kind: 'TABLE', title: titleOf(c.title), dataFieldSimplyId: c.dataFieldSimplyId, direction: c.direction === 'REVERSE' ? 'REVERSE' : 'FORWARD', columnFieldSimplyIds: strings(c.columnFieldSimplyIds), rowLimit }];
    }
    return [];
  });
}

/** Fields of `among` by simplyId, in the given order; the ids that are not there are reported as FIELD_NOT_FOUND. */
function present(ids: readonly string[], among: readonly FieldDefinition[], where: string, problems: CardProblem[]): FieldDefinition[] {
  const byId = new Map(among.map((f) => [f.dataFieldSimplyId, f]));
  return ids.flatMap((id) => {
    const field = byId.get(id);
    if (field) return [field];
    problems.push({ code: 'FIELD_NOT_FOUND', dataFieldSimplyId: id, message: `${id} is no longer a field of ${where}` });
    return [];
  });
}

/** The cards as the schema stands now: what each still shows, and what it lost. */
export function resolveCards(schema: TeamSchema, collection: CollectionDefinition, raw: unknown): ResolvedCard[] {
  const ownFields = schema.fieldsOf(collection);
  return readStoredCards(raw).map((card, position): ResolvedCard => {
    const problems: CardProblem[] = [];
    if (card.kind === 'FIELDS') {
      return { kind: 'FIELDS', position, title: card.title, problems, fields: present(card.dataFieldSimplyIds, ownFields, 'this collection', problems) };
    }
    const found = relationshipOf(schema, collection, card.dataFieldSimplyId, card.direction);
    const base = { kind: 'TABLE' as const, position, title: card.title, problems, relationshipFieldSimplyId: card.dataFieldSimplyId, direction: card.direction, rowLimit: card.rowLimit };
    if (typeof found === 'string') {
      problems.push({ code: 'RELATIONSHIP_NOT_FOUND', dataFieldSimplyId: card.dataFieldSimplyId, message: found });
      return { ...base, relationship: null, columns: [], columnFieldSimplyIds: card.columnFieldSimplyIds };
    }
    if (!found.target || found.target.isArchived) {
      const what = found.targetSimplyId ? `${found.targetSimplyId} is ${found.target ? 'archived' : 'not a collection of this team'}` : `${card.dataFieldSimplyId} names no targetDataCollectionSimplyId`;
      problems.push({ code: 'TARGET_COLLECTION_NOT_FOUND', dataFieldSimplyId: card.dataFieldSimplyId, message: `the target collection is not there: ${what}` });
    }
    const columns = found.target ? present(card.columnFieldSimplyIds, schema.fieldsOf(found.target), `the target collection ${found.target.simplyId}`, problems) : [];
    return { ...base, relationship: found, columns, columnFieldSimplyIds: found.target ? columns.map((f) => f.dataFieldSimplyId) : card.columnFieldSimplyIds };
  });
}
