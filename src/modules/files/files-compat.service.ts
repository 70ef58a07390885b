// The two compatibility endpoints (Document 1 §4.7 rule 8) and the operators' storage limit.
// POST /v1/files/batch opens several upload intents in one request (the same rules as one
// intent each); POST /v1/files/temp-cleanup expires the caller's own open intents. Neither takes a
// storage address: their inputs are strict, so a `key`, `url` or `path` field is a 400.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { teamId as teamIdKind } from '../../app/ids.ts';
import { parseInput } from '../../app/validate.ts';
import { createFileUpload, type CreatedUpload } from './file-uploads.service.ts';
import { fileUploadId } from './files.ids.ts';
import { batchUploadsInput, tempCleanupInput } from './files.input.ts';
import { expireUpload } from './upload-outcomes.ts';

export interface BatchUploadResult {
  index: number;
  created: CreatedUpload | null;
  error: { code: string; message: string; details?: unknown } | null;
}

export async function batchCreateUploads(ctx: RequestContext, raw: unknown): Promise<BatchUploadResult[]> {
  const input = parseInput(batchUploadsInput, raw, 'Invalid batch of uploads');
  const results: BatchUploadResult[] = [];
  for (const [index, item] of input.files.entries()) {
    try {
      results.push({ index, created: await createFileUpload(ctx, item), error: null });
    } catch (error) {
      const e = error as { code?: string; message: string; details?: unknown };
      if (!e.code) throw error;
      results.push({ index, created: null, error: { code: e.code, message: e.message, details: e.details } });
    }
  }
  return results;
}

/** Expires the caller's open (CREATED) intents, all of them or the listed ones, and removes their objects. */
export async function cleanUpTemporaryUploads(ctx: RequestContext, raw?: unknown): Promise<{ expired: number }> {
  const team = requireTeam(ctx);
  const input = parseInput(tempCleanupInput, raw ?? undefined, 'Invalid cleanup request');
  input?.fileUploadSimplyIds?.forEach((id, i) => fileUploadId.assert(id, `fileUploadSimplyIds[${i}]`));
  const open = await ctx.services.prisma.fileUpload.findMany({
    where: {
      teamId: team.id,
      status: 'CREATED',
      credentialKind: ctx.principal.kind,
      credentialId: ctx.principal.credentialId ?? '',
      ...(input?.fileUploadSimplyIds ? { simplyId: { in: input.fileUploadSimplyIds } } : {}),
    },
    take: 1000,
  });
  let expired = 0;
  for (const upload of open) if (await expireUpload(ctx.services, upload, 'Ended by its creator (temp-cleanup) before it was completed')) expired++;
  return { expired };
}

/** System administrators: a team's own storage limit (null: back to FILE_STORAGE_QUOTA_BYTES). */
export async function setTeamStorageQuota(ctx: RequestContext, teamSimplyId: string, quotaBytes: number | null): Promise<boolean> {
  teamIdKind.assert(teamSimplyId, 'teamSimplyId');
  if (quotaBytes !== null && (!Number.isSafeInteger(quotaBytes) || quotaBytes < 0)) {
    throw new ValidationError('quotaBytes must be a whole number of bytes, 0 or more', [{ field: 'quotaBytes', message: 'invalid' }]);
  }
  const { prisma } = ctx.services;
  const team = await prisma.team.findUnique({ where: { simplyId: teamSimplyId } });
  if (!team) throw new NotFoundError('Team', teamSimplyId);
  if (quotaBytes === null) await prisma.teamStorageQuota.deleteMany({ where: { teamId: team.id } });
  else await prisma.teamStorageQuota.upsert({ where: { teamId: team.id }, create: { teamId: team.id, quotaBytes: BigInt(quotaBytes) }, update: { quotaBytes: BigInt(quotaBytes) } });
  return true;
}
