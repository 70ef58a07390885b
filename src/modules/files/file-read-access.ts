// Which files a caller may read (docs/api/files.md "Permissions"): TEAM_ADMIN_MEDIA_LIBRARY view
// reads them all; otherwise a file the caller's credential uploaded, or one a live record
// references in a collection the caller can read (with records:read for scoped tokens).
import { hasScope } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import type { StoredFile } from '../../generated/prisma/client.ts';
import { canReadCollection } from '../collections/access.ts';
import { canViewMediaLibrary } from './files.access.ts';
import { filesReferencedByRecords } from './files.sql.ts';

export function uploadedByCaller(ctx: RequestContext, file: Pick<StoredFile, 'createdByKind' | 'createdById'>): boolean {
  return file.createdByKind === ctx.principal.kind && file.createdById === ctx.principal.credentialId;
}

/** The subset of `files` the caller may read, in one query for all that need the record rule. */
export async function readableFiles<F extends Pick<StoredFile, 'simplyId' | 'teamId' | 'createdByKind' | 'createdById'>>(ctx: RequestContext, files: F[]): Promise<F[]> {
  const p = ctx.principal;
  if (canViewMediaLibrary(p)) return files;
  const rest = files.filter((f) => !uploadedByCaller(ctx, f));
  let referenced = new Set<string>();
  if (rest.length > 0 && p.data && hasScope(p, 'records:read')) {
    const teamId = rest[0]!.teamId;
    const schema = await ctx.services.schemas.get(teamId);
    const readable = schema.collections.filter((c) => canReadCollection(p, c)).map((c) => c.id);
    referenced = await filesReferencedByRecords(ctx.services.pool, teamId, rest.map((f) => f.simplyId), readable);
  }
  return files.filter((f) => uploadedByCaller(ctx, f) || referenced.has(f.simplyId));
}
