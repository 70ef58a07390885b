// Media-library folders (Document 1 §2.8, §4.7): they nest; a folder is deleted only when it
// holds no live files and no folders (soft-deleted files in it move to the root). Reading needs
// TEAM_ADMIN_MEDIA_LIBRARY view, changing it edit (files.access.ts).
import { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { PermissionDeniedError, ValidationError, NotFoundError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import type { FileFolder } from '../../generated/prisma/client.ts';
import { runTransaction } from '../../db/transaction.ts';
import { canViewMediaLibrary, requireMediaLibraryEdit } from './files.access.ts';
import { FolderNotEmptyError } from './files.errors.ts';
import { fileFolderId } from './files.ids.ts';

/** how deep folders may nest */
export const FOLDER_DEPTH_MAX = 20;
const folderName = z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters')
  // eslint-disable-next-line no-control-regex
  .refine((n) => !/[\u0000-\u001f\u007f/\\]/.test(n), 'must not contain slashes, backslashes or control characters');

export const createFolderInput = z.strictObject({ name: folderName, parentFileFolderSimplyId: z.string().nullish() });
export const updateFolderInput = z.strictObject({ name: folderName.optional(), parentFileFolderSimplyId: z.string().nullish() });

export type FolderRow = FileFolder & { parent: { simplyId: string } | null };
const WITH_PARENT = { parent: { select: { simplyId: true } } } as const;

function requireView(ctx: RequestContext): void {
  if (!canViewMediaLibrary(ctx.principal)) throw new PermissionDeniedError('Folders need TEAM_ADMIN_MEDIA_LIBRARY');
}

async function findFolder(ctx: RequestContext, simplyId: string, field = 'fileFolderSimplyId'): Promise<FolderRow> {
  fileFolderId.assert(simplyId, field);
  const folder = await ctx.services.prisma.fileFolder.findUnique({ where: { teamId_simplyId: { teamId: requireTeam(ctx).id, simplyId } }, include: WITH_PARENT });
  if (!folder) throw new NotFoundError('File folder', simplyId);
  return folder;
}

/** The folders directly in `parent` (absent or null: at the root), by name. */
export async function listFolders(ctx: RequestContext, parentSimplyId?: string | null): Promise<FolderRow[]> {
  requireView(ctx);
  const team = requireTeam(ctx);
  const parentId = parentSimplyId ? (await findFolder(ctx, parentSimplyId, 'parentFileFolderSimplyId')).id : null;
  return ctx.services.prisma.fileFolder.findMany({ where: { teamId: team.id, parentId }, include: WITH_PARENT, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
}

/** Ids of `folder` and its ancestors, nearest first. */
async function ancestry(ctx: RequestContext, folderId: bigint): Promise<bigint[]> {
  const { rows } = await ctx.services.pool.query<{ id: string }>(
    `WITH RECURSIVE up(id, "parentId", depth) AS (
       SELECT id, "parentId", 1 FROM "FileFolder" WHERE id = $1
       UNION ALL SELECT f.id, f."parentId", up.depth + 1 FROM "FileFolder" f JOIN up ON f.id = up."parentId" WHERE up.depth < 100)
     SELECT id FROM up ORDER BY depth`,
    [folderId],
  );
  return rows.map((r) => BigInt(r.id));
}

async function checkDepth(ctx: RequestContext, parentId: bigint | null): Promise<void> {
  if (parentId === null) return;
  if ((await ancestry(ctx, parentId)).length >= FOLDER_DEPTH_MAX) {
    throw new ValidationError(`Folders nest at most ${FOLDER_DEPTH_MAX} deep`, [{ field: 'parentFileFolderSimplyId', message: 'too deep' }]);
  }
}

export async function createFolder(ctx: RequestContext, raw: unknown): Promise<FolderRow> {
  requireMediaLibraryEdit(ctx.principal, 'Creating a folder');
  const team = requireTeam(ctx);
  const input = parseInput(createFolderInput, raw, 'Invalid folder');
  const parentId = input.parentFileFolderSimplyId ? (await findFolder(ctx, input.parentFileFolderSimplyId, 'parentFileFolderSimplyId')).id : null;
  await checkDepth(ctx, parentId);
  return ctx.services.prisma.fileFolder.create({ data: { simplyId: fileFolderId.create(), teamId: team.id, parentId, name: input.name }, include: WITH_PARENT });
}

/** Rename, or move under another folder (null: to the root); a folder cannot move into itself or below itself. */
export async function updateFolder(ctx: RequestContext, simplyId: string, raw: unknown): Promise<FolderRow> {
  requireMediaLibraryEdit(ctx.principal, 'Changing a folder');
  const input = parseInput(updateFolderInput, raw, 'Invalid folder update');
  const folder = await findFolder(ctx, simplyId);
  const data: { name?: string; parentId?: bigint | null } = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.parentFileFolderSimplyId !== undefined) {
    const parentId = input.parentFileFolderSimplyId === null ? null : (await findFolder(ctx, input.parentFileFolderSimplyId, 'parentFileFolderSimplyId')).id;
    if (parentId !== null && (await ancestry(ctx, parentId)).includes(folder.id)) {
      throw new ValidationError('A folder cannot move into itself or one of its subfolders', [{ field: 'parentFileFolderSimplyId', message: 'would make a cycle' }]);
    }
    await checkDepth(ctx, parentId);
    data.parentId = parentId;
  }
  return ctx.services.prisma.fileFolder.update({ where: { id: folder.id }, data, include: WITH_PARENT });
}

export async function deleteFolder(ctx: RequestContext, simplyId: string): Promise<boolean> {
  requireMediaLibraryEdit(ctx.principal, 'Deleting a folder');
  const folder = await findFolder(ctx, simplyId);
  await runTransaction(ctx.services.prisma, async (tx) => {
    // lock the folder so no upload or move lands in it between the check and the delete
    await tx.$queryRaw`SELECT id FROM "FileFolder" WHERE id = ${folder.id} FOR UPDATE`;
    const [files, children] = await Promise.all([
      tx.storedFile.count({ where: { folderId: folder.id, deletedAt: null } }),
      tx.fileFolder.count({ where: { parentId: folder.id } }),
    ]);
    if (files > 0 || children > 0) throw new FolderNotEmptyError(simplyId);
    await tx.fileFolder.delete({ where: { id: folder.id } });
  });
  return true;
}
