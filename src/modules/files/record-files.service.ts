// The files a record names in the file and image fields its reader can see, loaded for every
// record of a request in one query. A file destroyed since is left out; record values are never
// rewritten when a file goes.
import type { RequestContext } from '../../app/context.ts';
import { requestLoader } from '../../app/request-loader.ts';
import type { RecordView } from '../../kernel/index.ts';
import { FILE_DATA_TYPES } from './file-read-access.ts';
import { WITH_REFS, type FileRow } from './files.service.ts';

function referencedFileIds(view: RecordView): string[] {
  const values = view.row.values as Record<string, unknown>;
  const ids = new Set<string>();
  for (const field of view.shown) {
    if (!FILE_DATA_TYPES.has(field.dataType)) continue;
    const value = values[field.dataFieldSimplyId];
    for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') ids.add(id);
  }
  return [...ids];
}

function fileLoader(ctx: RequestContext, teamId: bigint) {
  return requestLoader<string, FileRow | null>(ctx, `files:${teamId}`, async (ids) => {
    const rows = await ctx.services.prisma.storedFile.findMany({
      where: { teamId, simplyId: { in: [...ids] } },
      include: WITH_REFS,
    });
    const byId = new Map(rows.map((r) => [r.simplyId, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

export async function filesOfRecord(ctx: RequestContext, view: RecordView): Promise<FileRow[]> {
  const ids = referencedFileIds(view);
  if (ids.length === 0) return [];
  const files = await fileLoader(ctx, view.access.schema.teamId).loadMany(ids);
  return files.filter((f): f is FileRow => Boolean(f) && !(f instanceof Error));
}
