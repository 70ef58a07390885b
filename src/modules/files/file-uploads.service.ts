// Upload intents and their durable status (Document 1 §3, §4.7 rules 1-3, 7). An intent is bound
// to the credential and team that created it: anyone else gets 404. `complete` moves CREATED to
// PENDING once (concurrent and repeated completes answer the same status) and queues the
// promotion job (file-promotion.ts); GET answers the status and never the storage coordinates.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import type { FileUpload } from '../../generated/prisma/client.ts';
import { requireUploadPermission } from './files.access.ts';
import { fileFolderId, fileId, fileUploadId } from './files.ids.ts';
import { StorageLimitExceededError, UploadNotReceivedError } from './files.errors.ts';
import { teamStorage } from './files.sql.ts';
import { createUploadInput } from './file-uploads.input.ts';
import { PROMOTE_UPLOAD, type PromoteUploadJob } from './file-promotion.ts';
import { expireUpload, publishUploadStatus } from './upload-outcomes.ts';
import type { SignedPost } from './storage/object-storage.ts';
import { uploadObjectKey } from './storage/storage-keys.ts';

/** the signed post's lifetime (Document 1 §8) */
export const UPLOAD_POST_SECONDS = 10 * 60;
/** after the post expired, `complete` is still accepted this long for bytes that arrived in time */
export const COMPLETE_GRACE_SECONDS = 5 * 60;

export interface CreatedUpload {
  row: FileUpload;
  upload: SignedPost & { expiresAt: Date };
}

/** The intent, if the caller's credential created it in the caller's team; else 404. */
export async function findOwnUpload(ctx: RequestContext, simplyId: string): Promise<FileUpload> {
  const team = requireTeam(ctx);
  fileUploadId.assert(simplyId, 'fileUploadSimplyId');
  const row = await ctx.services.prisma.fileUpload.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  const p = ctx.principal;
  if (!row || row.credentialKind !== p.kind || row.credentialId !== p.credentialId) throw new NotFoundError('File upload', simplyId);
  return row;
}

export async function createFileUpload(ctx: RequestContext, raw: unknown): Promise<CreatedUpload> {
  const team = requireTeam(ctx);
  const input = parseInput(createUploadInput, raw, 'Invalid file upload');
  const { prisma, fileStorage } = ctx.services;
  requireUploadPermission(ctx.principal, { replacing: Boolean(input.isNewVersionOfFileSimplyId), inFolder: Boolean(input.fileFolderSimplyId) });

  let folderId: bigint | null = null;
  if (input.fileFolderSimplyId) {
    fileFolderId.assert(input.fileFolderSimplyId, 'fileFolderSimplyId');
    const folder = await prisma.fileFolder.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: input.fileFolderSimplyId } } });
    if (!folder) throw new NotFoundError('File folder', input.fileFolderSimplyId);
    folderId = folder.id;
  }
  let replaces: { id: bigint; currentVersionNumber: number } | null = null;
  if (input.isNewVersionOfFileSimplyId) {
    fileId.assert(input.isNewVersionOfFileSimplyId, 'isNewVersionOfFileSimplyId');
    const file = await prisma.storedFile.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: input.isNewVersionOfFileSimplyId } } });
    if (!file || file.deletedAt) throw new NotFoundError('File', input.isNewVersionOfFileSimplyId);
    replaces = { id: file.id, currentVersionNumber: file.currentVersionNumber };
  }
  // rule 7 is checked again at promotion, where it is binding; this spares a doomed upload
  const storage = await teamStorage(ctx.services, team.id);
  if (storage.usedBytes + BigInt(input.fileSizeBytes) > storage.quotaBytes) {
    throw new StorageLimitExceededError(storage.usedBytes, storage.quotaBytes, input.fileSizeBytes);
  }

  const simplyId = fileUploadId.create();
  const expiresAt = new Date(Date.now() + UPLOAD_POST_SECONDS * 1000);
  const storageKey = uploadObjectKey(team.simplyId);
  const row = await prisma.fileUpload.create({
    data: {
      simplyId,
      teamId: team.id,
      credentialKind: ctx.principal.kind,
      credentialId: ctx.principal.credentialId ?? '',
      filename: input.filename,
      contentType: input.contentType,
      fileSizeBytes: BigInt(input.fileSizeBytes),
      checksumSha256: input.checksumSha256,
      folderId,
      replacesFileId: replaces?.id ?? null,
      expectedVersionNumber: replaces?.currentVersionNumber ?? null,
      storageKey,
      expiresAt,
    },
  });
  const post = await fileStorage.presignUpload({
    key: storageKey,
    contentType: input.contentType,
    sizeBytes: input.fileSizeBytes,
    checksumSha256: input.checksumSha256,
    uploadSimplyId: simplyId,
    teamSimplyId: team.simplyId,
    expiresAt,
  });
  return { row, upload: { ...post, expiresAt } };
}

export async function getFileUpload(ctx: RequestContext, simplyId: string): Promise<FileUpload> {
  return findOwnUpload(ctx, simplyId);
}

/**
 * CREATED → PENDING (queues the promotion) and answers the status; anything past CREATED is
 * answered as it is. A lapsed intent becomes EXPIRED; bytes not posted yet are a 409 that leaves
 * the intent open.
 */
export async function completeFileUpload(ctx: RequestContext, simplyId: string): Promise<FileUpload> {
  const upload = await findOwnUpload(ctx, simplyId);
  if (upload.status !== 'CREATED') return upload;
  const { prisma, fileStorage, jobs } = ctx.services;
  if (Date.now() > upload.expiresAt.getTime() + COMPLETE_GRACE_SECONDS * 1000) {
    await expireUpload(ctx.services, upload);
    return prisma.fileUpload.findUniqueOrThrow({ where: { id: upload.id } });
  }
  if (!(await fileStorage.stat(upload.storageKey))) {
    // a clean-up or the sweeper may have ended the intent, and removed its object, since it was read
    const current = await prisma.fileUpload.findUniqueOrThrow({ where: { id: upload.id } });
    if (current.status !== 'CREATED') return current;
    throw new UploadNotReceivedError(simplyId);
  }
  const moved = await prisma.fileUpload.updateMany({ where: { id: upload.id, status: 'CREATED' }, data: { status: 'PENDING', completeRequestedAt: new Date() } });
  if (moved.count === 1) {
    const job: PromoteUploadJob = { uploadId: String(upload.id) };
    await jobs.send(PROMOTE_UPLOAD, job, { singletonKey: upload.simplyId });
    const pending = await prisma.fileUpload.findUniqueOrThrow({ where: { id: upload.id } });
    publishUploadStatus(ctx.services, pending, requireTeam(ctx).simplyId);
    return pending;
  }
  return prisma.fileUpload.findUniqueOrThrow({ where: { id: upload.id } });
}

/** The public id of a folder or file an upload names (its target, its replaced file, its result). */
export async function uploadReference(ctx: RequestContext, kind: 'folder' | 'file', id: bigint | null): Promise<string | null> {
  if (id === null) return null;
  const { prisma } = ctx.services;
  const row = kind === 'folder'
    ? await prisma.fileFolder.findUnique({ where: { id }, select: { simplyId: true } })
    : await prisma.storedFile.findUnique({ where: { id }, select: { simplyId: true } });
  return row?.simplyId ?? null;
}
