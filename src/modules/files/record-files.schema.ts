// `DataRecord.files`: the files a record's visible file and image fields name, for record reads
// that expand file metadata (REST: expand=files → meta.expanded.files). One query per request for
// all records read together. A file destroyed since is left out; record values are never rewritten.
import { builder } from '../../app/builder.ts';
import { requestLoader } from '../../app/request-loader.ts';
import type { RequestContext } from '../../app/context.ts';
import { DataRecordRef } from '../records/records-types.schema.ts';
import type { RecordView } from '../records/records.service.ts';
import { FileRef } from './files.schema.ts';
import { FILE_DATA_TYPES } from './file-read-access.ts';
import type { FileRow } from './files.service.ts';


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
      include: { folder: { select: { simplyId: true } }, labels: { select: { label: { select: { simplyId: true } } } } },
    });
    const byId = new Map(rows.map((r) => [r.simplyId, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

builder.objectField(DataRecordRef, 'files', (t) =>
  t.field({
    type: [FileRef],
    description: 'the files its visible file and image fields name (soft-deleted ones marked isDeleted; destroyed ones left out)',
    resolve: async (view, _args, ctx) => {
      const ids = referencedFileIds(view);
      if (ids.length === 0) return [];
      const files = await fileLoader(ctx, view.access.schema.teamId).loadMany(ids);
      return files.filter((f): f is FileRow => Boolean(f) && !(f instanceof Error));
    },
  }),
);
