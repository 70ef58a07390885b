// The one way content becomes a stored file or the next version of one: an uploaded object at
// promotion (file-promotion.ts) and a document the platform produced itself
// (generated-version.ts). Callers hold the team's storage lock in their transaction
// (lockTeamStorage) so that concurrent writers can never take a team over its limit together.
import type { Services } from '../../app/context.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { fileId } from './files.ids.ts';
import { teamStorage } from './files.sql.ts';

type Tx = Prisma.TransactionClient;

export interface StoredContent {
  filename: string;
  mimeType: string;
  /** IMAGE, VIDEO, AUDIO, DOCUMENT, TEXT, ARCHIVE (files.allowlist.ts FileKind) */
  fileType: string;
  fileSizeBytes: bigint;
  /** base64 SHA-256 of the stored bytes */
  checksumSha256: string;
  storageKey: string;
  width: number | null;
  height: number | null;
}

export type CommitTarget =
  /** the next version of this file; `expectedVersionNumber` (when set) must still be its current one */
  | { kind: 'version'; fileId: bigint; expectedVersionNumber?: number | null }
  | { kind: 'new'; folderId: bigint | null };

export type CommitOutcome =
  | { ok: true; fileId: bigint; fileSimplyId: string; versionNumber: number }
  | { ok: false; reason: 'STORAGE_LIMIT_EXCEEDED' | 'ACCESS_DENIED' | 'VERSION_CONFLICT'; message: string };

export async function lockTeamStorage(tx: Tx, teamId: bigint): Promise<void> {
  const lock = advisoryLock('teamFileStorage', String(teamId));
  await tx.$executeRawUnsafe(lock.text, ...lock.values);
}

/** Re-checks the storage limit and writes the version (and the file row it mirrors into). Run under lockTeamStorage. */
export async function commitStoredContent(
  services: Services,
  tx: Tx,
  args: { teamId: bigint; content: StoredContent; createdBy: { kind: string; id: string | null }; target: CommitTarget },
): Promise<CommitOutcome> {
  const { teamId, content, createdBy, target } = args;
  const storage = await teamStorage(services, teamId);
  if (storage.usedBytes + content.fileSizeBytes > storage.quotaBytes) {
    return { ok: false, reason: 'STORAGE_LIMIT_EXCEEDED', message: `The team stores ${storage.usedBytes} of ${storage.quotaBytes} bytes; this file would exceed its storage limit` };
  }
  const { fileType, ...stored } = content;
  const version = { ...stored, teamId, createdByKind: createdBy.kind, createdById: createdBy.id };
  // what the file row mirrors of its current version
  const mirrored = { ...stored, nameKey: content.filename.toLowerCase(), fileType };
  if (target.kind === 'version') {
    const rows = await tx.$queryRaw<{ simplyId: string; currentVersionNumber: number; deletedAt: Date | null }[]>`
      SELECT "simplyId", "currentVersionNumber", "deletedAt" FROM "StoredFile" WHERE id = ${target.fileId} FOR UPDATE`;
    const file = rows[0];
    if (!file || file.deletedAt) return { ok: false, reason: 'ACCESS_DENIED', message: 'The file to replace was deleted' };
    if (target.expectedVersionNumber != null && file.currentVersionNumber !== target.expectedVersionNumber) {
      return { ok: false, reason: 'VERSION_CONFLICT', message: `Another replacement won first: the file is at version ${file.currentVersionNumber}, this upload expected ${target.expectedVersionNumber}` };
    }
    const versionNumber = file.currentVersionNumber + 1;
    await tx.fileVersion.create({ data: { ...version, fileId: target.fileId, versionNumber } });
    await tx.storedFile.update({ where: { id: target.fileId }, data: { ...mirrored, currentVersionNumber: versionNumber } });
    return { ok: true, fileId: target.fileId, fileSimplyId: file.simplyId, versionNumber };
  }
  const created = await tx.storedFile.create({
    data: {
      simplyId: fileId.create(),
      teamId,
      folderId: target.folderId,
      ...mirrored,
      createdByKind: createdBy.kind,
      createdById: createdBy.id,
      versions: { create: { ...version, versionNumber: 1 } },
    },
  });
  return { ok: true, fileId: created.id, fileSimplyId: created.simplyId, versionNumber: 1 };
}
