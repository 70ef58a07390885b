// GET /v1/create-menu/data-collections/{id}: the layout of a "new record" form for the caller:
// the fields it can fill in, and whether (and why not) it can create a record at all. Reading it
// needs what reading records needs (records:read for scoped tokens, READ on the collection).
import { fieldAccess, type FieldLevel, hasScope } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import type { CollectionAccess, FieldDefinition } from '../../kernel/index.ts';
import { readableCollection } from './collections.service.ts';

export const CREATE_BLOCKERS = [
  /** the token lacks the OAuth scope records:write */
  'MISSING_RECORDS_WRITE_SCOPE',
  /** the data role can read but not edit records of the collection */
  'NO_EDIT_PERMISSION',
  /** SMART collections take no records: create them in the source collection */
  'SMART_COLLECTION',
  'COLLECTION_ARCHIVED',
  /** the caller can write none of the collection's fields */
  'NO_EDITABLE_FIELDS',
  /** a required field is read-only or hidden for the caller (see blockingFields) */
  'REQUIRED_FIELDS_READ_ONLY',
] as const;

export type CreateBlocker = (typeof CREATE_BLOCKERS)[number];

export interface BlockingField {
  dataFieldSimplyId: string;
  /** null when the caller's role hides the field */
  title: unknown;
  access: Exclude<FieldLevel, 'EDIT'>;
}

export interface CreateMenu {
  access: CollectionAccess;
  /** fields the caller can write, in sortOrder */
  fields: FieldDefinition[];
  canCreate: boolean;
  reasons: CreateBlocker[];
  blockingFields: BlockingField[];
}

export async function createMenuFor(ctx: RequestContext, simplyId: string): Promise<CreateMenu> {
  const access = await readableCollection(ctx, simplyId, 'records:read');
  const p = ctx.principal;
  const { collection } = access;
  const fields = access.fields.filter((f) => access.editable.has(f.dataFieldSimplyId));
  const blockingFields: BlockingField[] = access.fields
    .filter((f) => f.isRequired && !access.editable.has(f.dataFieldSimplyId))
    .map((f) => {
      const level = fieldAccess(p, collection.simplyId, f.dataFieldSimplyId) === 'NONE' ? 'NONE' : 'READ';
      return { dataFieldSimplyId: f.dataFieldSimplyId, title: level === 'NONE' ? null : f.title, access: level };
    });
  const reasons: CreateBlocker[] = [];
  if (!hasScope(p, 'records:write')) reasons.push('MISSING_RECORDS_WRITE_SCOPE');
  if (!access.canEdit) reasons.push('NO_EDIT_PERMISSION');
  if (collection.type === 'SMART') reasons.push('SMART_COLLECTION');
  if (collection.isArchived) reasons.push('COLLECTION_ARCHIVED');
  if (fields.length === 0) reasons.push('NO_EDITABLE_FIELDS');
  if (blockingFields.length > 0) reasons.push('REQUIRED_FIELDS_READ_ONLY');
  return { access, fields, canCreate: reasons.length === 0, reasons, blockingFields };
}
