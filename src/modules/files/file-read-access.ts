// Which files a caller may read (docs/api/files.md "Permissions"): TEAM_ADMIN_MEDIA_LIBRARY view
// reads them all; otherwise a file the caller's credential uploaded, or one that a live record of a
// collection the caller can read holds in a file or image field the caller can see (scoped tokens
// also need records:read). A file id typed into a text field grants nothing.
import { hasScope } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import type { StoredFile } from '../../generated/prisma/client.ts';
import { accessTo, canReadCollection } from '../../kernel/index.ts';
import { canViewMediaLibrary } from './files.access.ts';
import { filesReferencedByRecords, type ReadableFileField } from './files.sql.ts';

export const FILE_DATA_TYPES: ReadonlySet<string> = new Set(['SINGLE_FILE', 'MULTI_FILE', 'SINGLE_IMAGE', 'MULTI_IMAGE']);

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
    // the file and image fields the caller can see, on the records of each collection it can read
    const fields: ReadableFileField[] = schema.collections
      .filter((c) => canReadCollection(p, c))
      .flatMap((c) => accessTo(p, schema, c).readable.filter((f) => FILE_DATA_TYPES.has(f.dataType)).map((f) => ({ collectionId: c.id, fieldSimplyId: f.dataFieldSimplyId })));
    referenced = await filesReferencedByRecords(ctx.services.pool, teamId, rest.map((f) => f.simplyId), fields);
  }
  return files.filter((f) => uploadedByCaller(ctx, f) || referenced.has(f.simplyId));
}
