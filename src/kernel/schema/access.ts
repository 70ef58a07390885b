// Data permissions of the caller for one collection (Document 1 §2.1, §4.2 rule 2): which fields
// it may read and which it may write. Cross-team ids never get here: they are not in the team's
// schema and read as "not found".
import { fieldAccess, hasDataAccess, hasScope, type Principal } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import type { CollectionDefinition, FieldDefinition, TeamSchema } from './team-schema.ts';

export interface CollectionAccess {
  schema: TeamSchema;
  collection: CollectionDefinition;
  /** every field records of this collection carry (a SMART collection: its source's) */
  fields: FieldDefinition[];
  /** the fields the caller may read, in sortOrder */
  readable: FieldDefinition[];
  /** simplyIds of fields the caller may write */
  editable: Set<string>;
  canEdit: boolean;
}

export function accessTo(p: Principal, schema: TeamSchema, collection: CollectionDefinition): CollectionAccess {
  const fields = schema.fieldsOf(collection);
  const readable: FieldDefinition[] = [];
  const editable = new Set<string>();
  for (const f of fields) {
    const level = fieldAccess(p, collection.simplyId, f.dataFieldSimplyId);
    if (level !== 'NONE') readable.push(f);
    if (level === 'EDIT') editable.add(f.dataFieldSimplyId);
  }
  return { schema, collection, fields, readable, editable, canEdit: hasDataAccess(p, collection.simplyId, 'EDIT') };
}

export function canReadCollection(p: Principal, collection: CollectionDefinition): boolean {
  return hasDataAccess(p, collection.simplyId, 'READ');
}

/** The credential must be allowed to touch records at all: a team role, and the OAuth scope. */
export function requireRecordCredential(p: Principal, level: 'READ' | 'EDIT'): void {
  if (!hasScope(p, level === 'READ' ? 'records:read' : 'records:write')) {
    throw new PermissionDeniedError(`This token lacks the OAuth scope records:${level === 'READ' ? 'read' : 'write'}`);
  }
  if (!p.data && !p.isSystemAdmin && !p.isTeamAdmin) {
    throw new PermissionDeniedError('The credential has no team role, so it cannot read or write team records');
  }
}

/** Resolves a collection simplyId in the caller's team and checks the data permission. */
export async function collectionFor(ctx: RequestContext, simplyId: string, level: 'READ' | 'EDIT', field = 'dataCollectionSimplyId'): Promise<CollectionAccess> {
  const team = requireTeam(ctx);
  const p = ctx.principal;
  assertDataSimplyId(simplyId, field, 'collection');
  requireRecordCredential(p, level);
  const schema = await ctx.services.schemas.get(team.id);
  const collection = schema.collectionsBySimplyId.get(simplyId);
  if (!collection) throw new NotFoundError('Data collection', simplyId);
  if (!hasDataAccess(p, simplyId, level)) {
    throw new PermissionDeniedError(`The credential's team role cannot ${level === 'READ' ? 'read' : 'edit'} records of collection ${simplyId}`);
  }
  return accessTo(p, schema, collection);
}
