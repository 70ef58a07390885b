// What of a card group one caller may see on one record: the record routes list and render only
// this. A card never shows a field the caller's role cannot read: a FIELDS card keeps its readable
// fields (none: the card is left out), a TABLE card keeps its readable columns, and a TABLE card
// whose relationship field the caller cannot read is left out (its rows would tell the field's
// value). A TABLE card whose target collection is gone, archived or unreadable stays, with no
// rows, so clients can say why (TARGET_COLLECTION_NOT_FOUND).
import { type Principal } from '../../app/auth/principal.ts';
import { accessTo, canReadCollection, type CollectionAccess, type FieldDefinition } from '../../kernel/index.ts';
import type { Relationship, ResolvedCard, ResolvedFieldsCard, ResolvedTableCard } from './card-group-config.ts';

export interface VisibleFieldsCard {
  kind: 'FIELDS';
  card: ResolvedFieldsCard;
  /** the card's fields the caller may read, in card order */
  fields: FieldDefinition[];
}

export interface VisibleTableCard {
  kind: 'TABLE';
  card: ResolvedTableCard;
  relationship: Relationship;
  /** the caller's access to the target collection; null: gone, archived or unreadable */
  target: CollectionAccess | null;
  /** the card's columns the caller may read in the target, in card order */
  columns: FieldDefinition[];
}

export type VisibleCard = VisibleFieldsCard | VisibleTableCard;

const readableIn = (access: CollectionAccess) => new Set(access.readable.map((f) => f.dataFieldSimplyId));

/** `record`: the caller's access to the record's collection (the one the group is configured on). */
export function visibleCards(p: Principal, record: CollectionAccess, cards: readonly ResolvedCard[]): VisibleCard[] {
  const readable = readableIn(record);
  const targets = new Map<bigint, CollectionAccess | null>();
  const targetAccess = (relationship: Relationship): CollectionAccess | null => {
    const target = relationship.target;
    if (!target || target.isArchived || !canReadCollection(p, target)) return null;
    if (!targets.has(target.id)) targets.set(target.id, accessTo(p, record.schema, target));
    return targets.get(target.id)!;
  };
  return cards.flatMap((card): VisibleCard[] => {
    if (card.kind === 'FIELDS') {
      const fields = card.fields.filter((f) => readable.has(f.dataFieldSimplyId));
      return fields.length > 0 ? [{ kind: 'FIELDS', card, fields }] : [];
    }
    const relationship = card.relationship;
    if (!relationship) return [];
    if (relationship.direction === 'FORWARD' && !readable.has(relationship.field.dataFieldSimplyId)) return [];
    const target = targetAccess(relationship);
    if (!target) return [{ kind: 'TABLE', card, relationship, target: null, columns: [] }];
    const inTarget = readableIn(target);
    // REVERSE: the rows are found by the target's field pointing back; a caller who cannot read it sees no card
    if (relationship.direction === 'REVERSE' && !inTarget.has(relationship.field.dataFieldSimplyId)) return [];
    return [{ kind: 'TABLE', card, relationship, target, columns: card.columns.filter((f) => inTarget.has(f.dataFieldSimplyId)) }];
  });
}
