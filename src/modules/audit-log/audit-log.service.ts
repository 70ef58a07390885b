// A record's audit log (Document 1 §4.2 "Related record endpoints"): who created, changed or
// deleted it, when, through which face, and each field's before/after. Entries are written by
// record writes (src/kernel/records/record-changes.ts), in the same transaction as the change.
//
// Reading needs records:read and read permission on the record's collection; a soft-deleted
// record's history stays readable. Changes of fields the caller's role hides are left out.
import { createHash } from 'node:crypto';
import { fieldAccess } from '../../app/auth/principal.ts';
import type { AuditLogEntry } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { parsePaging, type PageInput, type PaginationShape, paginationOf, byCreation } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { canReadCollection, recordCollectionIds, requireRecordCredential } from '../../kernel/index.ts';

export const RECORD_ENTITY = 'DataRecord';

export interface AuditChange {
  dataFieldSimplyId: string;
  before: unknown;
  after: unknown;
}

export interface AuditItem {
  id: string;
  entityType: string;
  entitySimplyId: string;
  action: string;
  changes: AuditChange[];
  actor: { kind: string; credentialId: string | null; userSimplyId: string | null };
  source: string;
  requestId: string | null;
  createdAt: Date;
}

/** A stable, opaque id for an entry: never the internal row id itself. */
export function auditEntryId(teamId: bigint, rowId: bigint): string {
  return `aud-${createHash('sha256').update(`audit-log-entry:${teamId}:${rowId}`).digest('base64url').slice(0, 22)}`;
}

function toItem(row: AuditLogEntry, visible: (fieldSimplyId: string) => boolean): AuditItem {
  const changes = Array.isArray(row.changes) ? (row.changes as unknown as AuditChange[]) : [];
  return {
    id: auditEntryId(row.teamId, row.id),
    entityType: row.entityType,
    entitySimplyId: row.entitySimplyId,
    action: row.action,
    changes: changes
      .filter((c) => c && typeof c.dataFieldSimplyId === 'string' && visible(c.dataFieldSimplyId))
      .map((c) => ({ dataFieldSimplyId: c.dataFieldSimplyId, before: c.before ?? null, after: c.after ?? null })),
    actor: { kind: row.actorKind, credentialId: row.actorCredentialId, userSimplyId: row.actorUserSimplyId },
    source: row.source,
    requestId: row.requestId,
    createdAt: row.createdAt,
  };
}

/** Entries of one record (deleted records included), newest first. */
export async function recordAuditLog(ctx: RequestContext, simplyId: string, args: PageInput): Promise<{ nodes: AuditItem[]; pagination: PaginationShape }> {
  const team = requireTeam(ctx);
  const p = ctx.principal;
  assertDataSimplyId(simplyId, 'dataRecordSimplyId');
  const paging = parsePaging(args);
  requireRecordCredential(p, 'READ');
  const { prisma } = ctx.services;
  const [homes, schema] = await Promise.all([recordCollectionIds(ctx.services.pool, team.id, [simplyId]), ctx.services.schemas.get(team.id)]);
  const home = homes.get(simplyId);
  const collection = home === undefined ? undefined : schema.collectionsById.get(home);
  if (!collection) throw new NotFoundError('Data record', simplyId);
  if (!canReadCollection(p, collection)) {
    throw new PermissionDeniedError(`The credential's team role cannot read records of collection ${collection.simplyId}`);
  }
  const where = { teamId: team.id, entityType: RECORD_ENTITY, entitySimplyId: simplyId };
  const rows = await prisma.auditLogEntry.findMany({ where, ...byCreation(paging, 'desc') });
  const visible = (fieldSimplyId: string) => fieldAccess(p, collection.simplyId, fieldSimplyId) !== 'NONE';
  return { nodes: rows.map((row) => toItem(row, visible)), pagination: await paginationOf(rows.length, paging, () => prisma.auditLogEntry.count({ where })) };
}
