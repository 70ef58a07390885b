// Media-library folders (Document 1 §2.8, §4.7): they nest; a folder is deleted only when it
// holds no live files and no folders (soft-deleted files in it move to the root). Reading needs
// TEAM_ADMIN_MEDIA_LIBRARY view, changing it edit (files.access.ts).
import type { RequestContext } from '../../app/context.ts';
import { PermissionDeniedError, ValidationError, NotFoundError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import type { FileFolder } from '../../generated/prisma/client.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { canViewMediaLibrary, requireMediaLibraryEdit } from './files.access.ts';
import { FolderNotEmptyError } from './files.errors.ts';
import { fileFolderId } from './files.ids.ts';
import { createFolderInput, updateFolderInput } from './files.input.ts';

/** how deep folders may nest */
export const FOLDER_DEPTH_MAX = 20;
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
async function ancestry(tx: Tx, folderId: bigint): Promise<bigint[]> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    WITH RECURSIVE up(id, "parentId", depth) AS (
      SELECT id, "parentId", 1 FROM "FileFolder" WHERE id = ${folderId}
      UNION ALL SELECT f.id, f."parentId", up.depth + 1 FROM "FileFolder" f JOIN up ON f.id = up."parentId" WHERE up.depth < 100)
    SELECT id FROM up ORDER BY depth`;
  return rows.map((r) => BigInt(r.id));
}

/** Levels `folder` and its subfolders span (1: it has none). */
async function height(tx: Tx, folderId: bigint): Promise<number> {
  const rows = await tx.$queryRaw<{ height: number }[]>`
    WITH RECURSIVE down(id, depth) AS (
      SELECT id, 1 FROM "FileFolder" WHERE id = ${folderId}
      UNION ALL SELECT f.id, down.depth + 1 FROM "FileFolder" f JOIN down ON f."parentId" = down.id WHERE down.depth < 100)
    SELECT max(depth)::int AS height FROM down`;
  return rows[0]?.height ?? 1;
}

/** `levels` more levels in `parentId` (null: at the root) stay within FOLDER_DEPTH_MAX. */
async function checkDepth(tx: Tx, parentId: bigint | null, levels = 1): Promise<void> {
  const above = parentId === null ? 0 : (await ancestry(tx, parentId)).length;
  if (above + levels > FOLDER_DEPTH_MAX) {
    throw new ValidationError(`Folders nest at most ${FOLDER_DEPTH_MAX} deep`, [{ field: 'parentFileFolderSimplyId', message: 'too deep' }]);
  }
}

/**
 * Runs `work` holding the team's folder-tree lock: a check of the tree and the write it allows
 * are one step, so two moves checked before either is written (A into B, B into A) cannot make
 * a cycle, nor a create and a move exceed the depth together.
 */
function inFolderTree<T>(ctx: RequestContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const lock = advisoryLock('teamFileFolders', String(requireTeam(ctx).id));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    return work(tx);
  });
}

export async function createFolder(ctx: RequestContext, raw: unknown): Promise<FolderRow> {
  requireMediaLibraryEdit(ctx.principal, 'Creating a folder');
  const team = requireTeam(ctx);
  const input = parseInput(createFolderInput, raw, 'Invalid folder');
  const parentId = input.parentFileFolderSimplyId ? (await findFolder(ctx, input.parentFileFolderSimplyId, 'parentFileFolderSimplyId')).id : null;
  return inFolderTree(ctx, async (tx) => {
    await checkDepth(tx, parentId);
    return tx.fileFolder.create({ data: { simplyId: fileFolderId.create(), teamId: team.id, parentId, name: input.name }, include: WITH_PARENT });
  });
}

/** Rename, or move under another folder (null: to the root); a folder cannot move into itself or below itself. */
export async function updateFolder(ctx: RequestContext, simplyId: string, raw: unknown): Promise<FolderRow> {
  requireMediaLibraryEdit(ctx.principal, 'Changing a folder');
  const input = parseInput(updateFolderInput, raw, 'Invalid folder update');
  const folder = await findFolder(ctx, simplyId);
  const data: { name?: string; parentId?: bigint | null } = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.parentFileFolderSimplyId === undefined) return ctx.services.prisma.fileFolder.update({ where: { id: folder.id }, data, include: WITH_PARENT });
  const parentId = input.parentFileFolderSimplyId === null ? null : (await findFolder(ctx, input.parentFileFolderSimplyId, 'parentFileFolderSimplyId')).id;
  return inFolderTree(ctx, async (tx) => {
    if (parentId !== null && (await ancestry(tx, parentId)).includes(folder.id)) {
      throw new ValidationError('A folder cannot move into itself or one of its subfolders', [{ field: 'parentFileFolderSimplyId', message: 'would make a cycle' }]);
    }
    // the folder moves with its subfolders: all of them must fit below the new parent
    await checkDepth(tx, parentId, await height(tx, folder.id));
    return tx.fileFolder.update({ where: { id: folder.id }, data: { ...data, parentId }, include: WITH_PARENT });
  });
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
