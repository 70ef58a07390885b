// Whether the caller may create a record in a TABLE card's target collection (the card's
// multiDataRecordContext.creationAvailability): clients hide "add a related record" when not. It
// is the create menu's rule (docs/api/data-collections.md "Create menu") reduced to the three
// reasons a card names, computed from the caller's own write permissions on the target.
import { fieldAccess, hasScope, type Principal } from '../../app/auth/principal.ts';
import type { CollectionAccess } from '../../kernel/index.ts';

export const CREATION_BLOCKERS = [
  /** the caller can write none of the target's fields (no edit grant, read-only fields, or a token without records:write) */
  'NO_EDITABLE_FIELDS',
  /** a required field of the target is read-only or hidden for the caller (see blockingFields) */
  'REQUIRED_FIELDS_READ_ONLY',
  /** the target collection is gone, archived, takes no records of its own (SMART), or the caller cannot read it */
  'TARGET_COLLECTION_NOT_FOUND',
] as const;

export type CreationBlocker = (typeof CREATION_BLOCKERS)[number];

export interface BlockingField {
  dataFieldSimplyId: string;
  /** null when the caller's role hides the field */
  title: unknown;
  access: 'READ' | 'NONE';
}

export interface CreationAvailability {
  canCreate: boolean;
  /** the first reason that applies, in the order above but TARGET_COLLECTION_NOT_FOUND first; null when canCreate */
  reason: CreationBlocker | null;
  /** the target's required fields the caller cannot write */
  blockingFields: BlockingField[];
}

export const TARGET_NOT_FOUND: CreationAvailability = { canCreate: false, reason: 'TARGET_COLLECTION_NOT_FOUND', blockingFields: [] };

/** `target`: the caller's access to the target collection, null when it is gone or unreadable. */
export function creationAvailability(p: Principal, target: CollectionAccess | null): CreationAvailability {
  if (!target || target.collection.isArchived || target.collection.type === 'SMART') return TARGET_NOT_FOUND;
  const writes = target.canEdit && hasScope(p, 'records:write');
  const writable = (id: string) => writes && target.editable.has(id);
  const blockingFields = target.fields
    .filter((f) => f.isRequired && !writable(f.dataFieldSimplyId))
    .map((f): BlockingField => {
      const hidden = fieldAccess(p, target.collection.simplyId, f.dataFieldSimplyId) === 'NONE';
      return { dataFieldSimplyId: f.dataFieldSimplyId, title: hidden ? null : f.title, access: hidden ? 'NONE' : 'READ' };
    });
  const reason: CreationBlocker | null = !target.fields.some((f) => writable(f.dataFieldSimplyId)) ? 'NO_EDITABLE_FIELDS' : blockingFields.length > 0 ? 'REQUIRED_FIELDS_READ_ONLY' : null;
  return { canCreate: reason === null, reason, blockingFields };
}
