// Files of the media library (Document 1 §2.8, §4.7): list, read with presigned URLs, rename,
// label, move, soft and force delete, versions, variants and storage usage. Reads follow
// file-read-access.ts; every change needs edit-level TEAM_ADMIN_MEDIA_LIBRARY (files.access.ts).
// Another team's ids answer 404, like ids that do not exist.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import type { FileVariant, FileVersion, Prisma, StoredFile } from '../../generated/prisma/client.ts';
import { runTransaction } from '../../app/transaction.ts';
import { canViewMediaLibrary, requireMediaLibraryEdit } from './files.access.ts';
import { fileFolderId, fileId, teamLabelId } from './files.ids.ts';
import { bulkDeleteInput, deleteFileInput, downloadUrlsInput, listFilesInput, moveFileInput, updateFileInput, type ListFilesInput } from './files.input.ts';
import { readableFiles } from './file-read-access.ts';
import { storageBreakdown, teamStorage } from './files.sql.ts';
import { VARIANT_TYPES, type VariantType } from './variants/image-variant-types.ts';
import { queueVariants } from './variant-jobs.ts';
import { missingVariant, parseVariantFormat, VARIANT_URL_SECONDS, variantDownloadRequest } from './variant-downloads.ts';

/** Document 1 §8: presigned originals last an hour, variants five minutes (variant-downloads.ts). */
export const ORIGINAL_URL_SECONDS = 3600;

export type FileRow = StoredFile & { folder: { simplyId: string } | null; labels: { label: { simplyId: string } }[] };
export const WITH_REFS = { folder: { select: { simplyId: true } }, labels: { select: { label: { select: { simplyId: true } } } } } as const;

export interface FilePage {
  nodes: FileRow[];
  pagination: { total: number; page: number; pageSize: number; totalPages: number; hasMore: boolean };
}

export interface DownloadUrl {
  fileSimplyId: string;
  url: string;
  expiresAt: Date;
  expiresIn: number;
  variantType: string | null;
  versionNumber: number | null;
}

/** The file in the caller's team (soft-deleted ones too, when asked), or 404. */
async function findFile(ctx: RequestContext, simplyId: string, options: { includeDeleted?: boolean } = {}): Promise<FileRow> {
  const team = requireTeam(ctx);
  fileId.assert(simplyId, 'fileSimplyId');
  const file = await ctx.services.prisma.storedFile.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, include: WITH_REFS });
  if (!file || (file.deletedAt && !options.includeDeleted)) throw new NotFoundError('File', simplyId);
  return file;
}

/** A file the caller may read, or 404 (a file it may not read is not shown to exist). */
async function findReadableFile(ctx: RequestContext, simplyId: string, options: { includeDeleted?: boolean } = {}): Promise<FileRow> {
  const file = await findFile(ctx, simplyId, options);
  if ((await readableFiles(ctx, [file])).length === 0) throw new NotFoundError('File', simplyId);
  return file;
}

async function folderIdOf(ctx: RequestContext, simplyId: string, field: string): Promise<bigint> {
  fileFolderId.assert(simplyId, field);
  const folder = await ctx.services.prisma.fileFolder.findUnique({ where: { teamId_simplyId: { teamId: requireTeam(ctx).id, simplyId } } });
  if (!folder) throw new NotFoundError('File folder', simplyId);
  return folder.id;
}

export async function listFiles(ctx: RequestContext, raw: unknown): Promise<FilePage> {
  const team = requireTeam(ctx);
  const input: ListFilesInput = parseInput(listFilesInput, raw, 'Invalid file list parameters');
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? 25;
  const where: Prisma.StoredFileWhereInput = { teamId: team.id };
  if (!input.includeDeleted) where.deletedAt = null;
  if (input.fileType) where.fileType = input.fileType;
  if (input.fileFolderSimplyId === null) where.folderId = null;
  else if (input.fileFolderSimplyId !== undefined) where.folderId = await folderIdOf(ctx, input.fileFolderSimplyId, 'fileFolderSimplyId');
  if (input.search?.trim()) where.nameKey = { contains: input.search.trim().toLowerCase() };
  if (input.labelSimplyIds?.length) {
    input.labelSimplyIds.forEach((id, i) => teamLabelId.assert(id, `labelSimplyIds[${i}]`));
    where.labels = { some: { label: { teamId: team.id, simplyId: { in: input.labelSimplyIds } } } };
  }
  // without the media library, a caller lists what it uploaded itself
  if (!canViewMediaLibrary(ctx.principal)) Object.assign(where, { createdByKind: ctx.principal.kind, createdById: ctx.principal.credentialId });
  const direction = input.sortOrder ?? 'desc';
  const orderBy = [{ [input.sortBy ?? 'createdAt']: direction }, { id: direction }] as Prisma.StoredFileOrderByWithRelationInput[];
  const { prisma } = ctx.services;
  const [nodes, total] = await Promise.all([
    prisma.storedFile.findMany({ where, orderBy, skip: (page - 1) * pageSize, take: pageSize, include: WITH_REFS }),
    prisma.storedFile.count({ where }),
  ]);
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  return { nodes, pagination: { total, page, pageSize, totalPages, hasMore: page * pageSize < total } };
}

/** A soft-deleted file only with `includeDeleted` (as in lists); its URLs still work then. */
export async function getFile(ctx: RequestContext, simplyId: string, includeDeleted = false): Promise<FileRow> {
  return findReadableFile(ctx, simplyId, { includeDeleted });
}

function parseVariantType(value: string | null | undefined, field = 'variantType'): VariantType | null {
  if (value === undefined || value === null || value === '') return null;
  if (!(VARIANT_TYPES as readonly string[]).includes(value)) {
    throw new ValidationError(`${field} must be one of ${VARIANT_TYPES.join(', ')}`, [{ field, message: 'unknown variant type' }]);
  }
  return value as VariantType;
}

/** A presigned URL of the original (3600 s) or of one variant (five minutes; variant-downloads.ts says which object). */
export async function fileDownloadUrl(ctx: RequestContext, file: StoredFile, rawVariant?: string | null, rawFormat?: string | null): Promise<DownloadUrl> {
  const variantType = parseVariantType(rawVariant);
  const format = parseVariantFormat(rawFormat, variantType);
  const storage = ctx.services.fileStorage;
  if (!variantType) {
    const signed = await storage.presignDownload({ key: file.storageKey, filename: file.filename, contentType: file.mimeType, expiresInSeconds: ORIGINAL_URL_SECONDS });
    return { fileSimplyId: file.simplyId, ...signed, expiresIn: ORIGINAL_URL_SECONDS, variantType: null, versionNumber: file.currentVersionNumber };
  }
  if (file.fileType !== 'IMAGE') throw new ValidationError('Only images have variants', [{ field: 'variantType', message: `file ${file.simplyId} is not an image` }]);
  const request = await variantDownloadRequest(ctx, file, variantType, format);
  if (!request) throw missingVariant(file, variantType, format);
  const signed = await storage.presignDownload(request);
  return { fileSimplyId: file.simplyId, ...signed, expiresIn: VARIANT_URL_SECONDS, variantType, versionNumber: file.currentVersionNumber };
}

/** The thumbnail of an image, when it has been rendered (by Accept, like any variant URL without a format). */
export async function thumbnailUrl(ctx: RequestContext, file: StoredFile): Promise<string | null> {
  if (file.fileType !== 'IMAGE') return null;
  const request = await variantDownloadRequest(ctx, file, 'THUMBNAIL_IMAGE', null);
  if (!request) return null;
  return (await ctx.services.fileStorage.presignDownload(request)).url;
}

export async function downloadFile(ctx: RequestContext, simplyId: string, variantType?: string | null, format?: string | null): Promise<DownloadUrl> {
  return fileDownloadUrl(ctx, await findReadableFile(ctx, simplyId), variantType, format);
}

export interface DownloadUrlResult {
  fileSimplyId: string;
  download: DownloadUrl | null;
  error: { code: string; message: string } | null;
}

/** Presigned URLs of up to 100 files; each id answers on its own (missing or unreadable: NOT_FOUND). */
export async function downloadUrls(ctx: RequestContext, raw: unknown): Promise<DownloadUrlResult[]> {
  const team = requireTeam(ctx);
  const input = parseInput(downloadUrlsInput, raw, 'Invalid download URL request');
  input.fileSimplyIds.forEach((id, i) => fileId.assert(id, `fileSimplyIds[${i}]`));
  parseVariantFormat(input.format, parseVariantType(input.variantType));
  const found = await ctx.services.prisma.storedFile.findMany({ where: { teamId: team.id, simplyId: { in: input.fileSimplyIds }, deletedAt: null } });
  const readable = new Map((await readableFiles(ctx, found)).map((f) => [f.simplyId, f]));
  const results: DownloadUrlResult[] = [];
  for (const id of input.fileSimplyIds) {
    const file = readable.get(id);
    if (!file) {
      results.push({ fileSimplyId: id, download: null, error: { code: 'NOT_FOUND', message: `File ${id} was not found` } });
      continue;
    }
    try {
      results.push({ fileSimplyId: id, download: await fileDownloadUrl(ctx, file, input.variantType, input.format), error: null });
    } catch (error) {
      const e = error as { code?: string; message: string };
      if (!e.code) throw error;
      results.push({ fileSimplyId: id, download: null, error: { code: e.code, message: e.message } });
    }
  }
  return results;
}

export async function listVariants(ctx: RequestContext, simplyId: string): Promise<FileVariant[]> {
  const file = await findReadableFile(ctx, simplyId);
  return ctx.services.prisma.fileVariant.findMany({ where: { fileId: file.id, versionNumber: file.currentVersionNumber }, orderBy: [{ width: 'asc' }, { format: 'asc' }] });
}

export async function regenerateVariants(ctx: RequestContext, simplyId: string): Promise<{ fileSimplyId: string; queued: boolean }> {
  requireMediaLibraryEdit(ctx.principal, 'Regenerating variants');
  const file = await findFile(ctx, simplyId);
  if (file.fileType !== 'IMAGE') throw new ValidationError('Only images have variants', [{ field: 'fileSimplyId', message: `file ${simplyId} is not an image` }]);
  await queueVariants(ctx.services, file.id, file.currentVersionNumber);
  return { fileSimplyId: simplyId, queued: true };
}

export async function updateFile(ctx: RequestContext, simplyId: string, raw: unknown): Promise<FileRow> {
  requireMediaLibraryEdit(ctx.principal, 'Changing a file');
  const team = requireTeam(ctx);
  const input = parseInput(updateFileInput, raw, 'Invalid file update');
  const file = await findFile(ctx, simplyId);
  const labelIds = input.labelSimplyIds ? await labelIdsOf(ctx, team.id, input.labelSimplyIds) : null;
  return runTransaction(ctx.services.prisma, async (tx) => {
    // changes of one file take turns: two label replacements interleaving their delete and insert would leave both sets
    if ((await tx.$queryRaw<unknown[]>`SELECT id FROM "StoredFile" WHERE id = ${file.id} FOR UPDATE`).length === 0) throw new NotFoundError('File', simplyId);
    const data: Prisma.StoredFileUpdateInput = {};
    if (input.filename !== undefined) Object.assign(data, { filename: input.filename, nameKey: input.filename.toLowerCase() });
    if (input.altText !== undefined) data.altText = input.altText;
    if (labelIds) {
      await tx.fileLabelLink.deleteMany({ where: { fileId: file.id } });
      await tx.fileLabelLink.createMany({ data: labelIds.map((labelId) => ({ teamId: team.id, fileId: file.id, labelId })) });
    }
    return tx.storedFile.update({ where: { id: file.id }, data: { ...data, updatedAt: new Date() }, include: WITH_REFS });
  });
}

async function labelIdsOf(ctx: RequestContext, teamId: bigint, simplyIds: string[]): Promise<bigint[]> {
  simplyIds.forEach((id, i) => teamLabelId.assert(id, `labelSimplyIds[${i}]`));
  const unique = [...new Set(simplyIds)];
  const labels = await ctx.services.prisma.teamLabel.findMany({ where: { teamId, simplyId: { in: unique } } });
  const missing = unique.filter((id) => !labels.some((l) => l.simplyId === id));
  if (missing.length > 0) throw new ValidationError('Unknown labels', missing.map((id) => ({ field: 'labelSimplyIds', message: `no label ${id} in this team` })));
  return labels.map((l) => l.id);
}

export async function moveFile(ctx: RequestContext, simplyId: string, raw: unknown): Promise<FileRow> {
  requireMediaLibraryEdit(ctx.principal, 'Moving a file');
  const input = parseInput(moveFileInput, raw, 'Invalid file move');
  const file = await findFile(ctx, simplyId);
  const folderId = input.fileFolderSimplyId === null ? null : await folderIdOf(ctx, input.fileFolderSimplyId, 'fileFolderSimplyId');
  return ctx.services.prisma.storedFile.update({ where: { id: file.id }, data: { folderId }, include: WITH_REFS });
}

/** Soft delete hides the file and keeps its objects; force destroys the file, every version and variant. */
async function deleteOne(ctx: RequestContext, file: StoredFile, force: boolean): Promise<void> {
  const { prisma, fileStorage } = ctx.services;
  if (!force) {
    const hidden = await prisma.storedFile.updateMany({ where: { id: file.id, deletedAt: null }, data: { deletedAt: new Date() } });
    if (hidden.count === 0) throw new NotFoundError('File', file.simplyId);
    return;
  }
  const keys = await runTransaction(prisma, async (tx) => {
    const versions = await tx.fileVersion.findMany({ where: { fileId: file.id }, select: { storageKey: true } });
    const variants = await tx.fileVariant.findMany({ where: { fileId: file.id }, select: { storageKey: true } });
    const gone = await tx.storedFile.deleteMany({ where: { id: file.id } });
    if (gone.count === 0) throw new NotFoundError('File', file.simplyId);
    return [...versions, ...variants].map((o) => o.storageKey);
  });
  // the rows are gone; objects that cannot be removed now are unreachable and only take space
  await fileStorage.delete(keys).catch((err) => ctx.logger.warn({ err, file: file.simplyId }, 'could not remove every object of a destroyed file'));
}

export async function deleteFile(ctx: RequestContext, simplyId: string, raw?: unknown): Promise<boolean> {
  requireMediaLibraryEdit(ctx.principal, 'Deleting a file');
  const input = parseInput(deleteFileInput, raw ?? undefined, 'Invalid file delete');
  const force = input?.force === true;
  await deleteOne(ctx, await findFile(ctx, simplyId, { includeDeleted: force }), force);
  return true;
}

export interface BulkDeleteResult {
  fileSimplyId: string;
  deleted: boolean;
  error: { code: string; message: string } | null;
}

export async function bulkDeleteFiles(ctx: RequestContext, raw: unknown): Promise<BulkDeleteResult[]> {
  requireMediaLibraryEdit(ctx.principal, 'Deleting files');
  const input = parseInput(bulkDeleteInput, raw, 'Invalid bulk delete');
  input.fileSimplyIds.forEach((id, i) => fileId.assert(id, `fileSimplyIds[${i}]`));
  const results: BulkDeleteResult[] = [];
  for (const id of input.fileSimplyIds) {
    try {
      await deleteOne(ctx, await findFile(ctx, id, { includeDeleted: input.force === true }), input.force === true);
      results.push({ fileSimplyId: id, deleted: true, error: null });
    } catch (error) {
      const e = error as { code?: string; message: string };
      if (!e.code) throw error;
      results.push({ fileSimplyId: id, deleted: false, error: { code: e.code, message: e.message } });
    }
  }
  return results;
}

export async function listVersions(ctx: RequestContext, simplyId: string): Promise<(FileVersion & { isCurrent: boolean })[]> {
  const file = await findReadableFile(ctx, simplyId);
  const versions = await ctx.services.prisma.fileVersion.findMany({ where: { fileId: file.id }, orderBy: { versionNumber: 'desc' } });
  return versions.map((v) => ({ ...v, isCurrent: v.versionNumber === file.currentVersionNumber }));
}

export async function downloadVersion(ctx: RequestContext, simplyId: string, versionNumber: number): Promise<DownloadUrl> {
  if (!Number.isInteger(versionNumber) || versionNumber < 1) throw new ValidationError('versionNumber must be a positive integer', [{ field: 'versionNumber', message: 'must be 1 or more' }]);
  const file = await findReadableFile(ctx, simplyId);
  const version = await ctx.services.prisma.fileVersion.findUnique({ where: { fileId_versionNumber: { fileId: file.id, versionNumber } } });
  if (!version) throw new NotFoundError(`Version ${versionNumber} of file`, simplyId);
  const signed = await ctx.services.fileStorage.presignDownload({ key: version.storageKey, filename: version.filename, contentType: version.mimeType, expiresInSeconds: ORIGINAL_URL_SECONDS });
  return { fileSimplyId: simplyId, ...signed, expiresIn: ORIGINAL_URL_SECONDS, variantType: null, versionNumber };
}

export interface StorageUsage {
  usedBytes: bigint;
  quotaBytes: bigint;
  isTeamQuota: boolean;
  fileCount: number;
  deletedFileCount: number;
  versionBytes: bigint;
  variantBytes: bigint;
  deletedBytes: bigint;
}

export async function storageUsage(ctx: RequestContext): Promise<StorageUsage> {
  const team = requireTeam(ctx);
  const [storage, breakdown] = await Promise.all([teamStorage(ctx.services, team.id), storageBreakdown(ctx.services.pool, team.id)]);
  return { usedBytes: storage.usedBytes, quotaBytes: storage.quotaBytes, isTeamQuota: storage.teamQuotaBytes !== null, ...breakdown };
}
