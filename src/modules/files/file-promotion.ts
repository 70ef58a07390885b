// Promotion: a PENDING upload that passes every check (upload-checks.ts) becomes a file, or a new
// version of the file it replaces, in one transaction that also re-checks the team's storage
// limit (rule 7) and, for a replacement, that no other replacement won first (rule 3). The job is
// idempotent: it acts only on a PENDING upload and commits COMPLETED only from PENDING, so a
// retried or duplicated job ends in exactly one terminal state; a crash before the commit leaves
// the upload PENDING for the retry (pg-boss), and the last failed attempt rejects it as FAILED.
import { createHash } from 'node:crypto';
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import type { FileUpload } from '../../generated/prisma/client.ts';
import { runTransaction } from '../../db/transaction.ts';
import { fileId } from './files.ids.ts';
import { checkUpload } from './upload-checks.ts';
import { publishUploadStatus, rejectUpload, teamSimplyIdOf, type RejectionReason } from './upload-outcomes.ts';
import { sanitizedObjectKey } from './storage/storage-keys.ts';
import { teamStorage } from './files.sql.ts';
import { queueVariants } from './variant-jobs.ts';

export const PROMOTE_UPLOAD = 'files.promote-upload';
export const PROMOTION_RETRY_LIMIT = 3;

export interface PromoteUploadJob {
  uploadId: string;
}

type Committed = { ok: true; fileId: bigint; versionNumber: number; isImage: boolean } | { ok: false; reason: RejectionReason; message: string } | { ok: 'gone' };

export async function promoteUploads(services: Services, jobs: Job<PromoteUploadJob>[]): Promise<void> {
  for (const job of jobs) {
    const upload = await services.prisma.fileUpload.findUnique({ where: { id: BigInt(job.data.uploadId) } });
    if (!upload || upload.status !== 'PENDING') continue;
    try {
      await promoteUpload(services, upload);
    } catch (error) {
      // the last attempt: end the upload instead of leaving it PENDING for ever
      if (job.retryCount >= PROMOTION_RETRY_LIMIT) {
        services.logger.error({ err: error, upload: upload.simplyId }, 'promotion failed on its last attempt; upload rejected');
        await rejectUpload(services, upload, 'FAILED', 'The upload could not be processed');
        continue;
      }
      throw error;
    }
  }
}

async function promoteUpload(services: Services, upload: FileUpload): Promise<void> {
  const checked = await checkUpload(services, upload);
  if (!checked.ok) {
    await rejectUpload(services, upload, checked.reason, checked.message);
    return;
  }
  const { fileStorage, prisma } = services;
  let storageKey = upload.storageKey;
  let sizeBytes = upload.fileSizeBytes;
  let checksum = upload.checksumSha256;
  if (checked.replacement) {
    // the sanitized SVG is what is stored; the original bytes are removed once it is
    storageKey = sanitizedObjectKey(upload.storageKey);
    await fileStorage.write(storageKey, checked.replacement, { contentType: upload.contentType });
    sizeBytes = BigInt(checked.replacement.length);
    checksum = createHash('sha256').update(checked.replacement).digest('base64');
  }

  const committed: Committed = await runTransaction(prisma, async (tx) => {
    const lock = advisoryLock('teamFileStorage', String(upload.teamId));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    const current = await tx.fileUpload.findUnique({ where: { id: upload.id } });
    if (current?.status !== 'PENDING') return { ok: 'gone' as const };
    const storage = await teamStorage(services, upload.teamId);
    if (storage.usedBytes + sizeBytes > storage.quotaBytes) {
      return { ok: false as const, reason: 'STORAGE_LIMIT_EXCEEDED' as const, message: `The team stores ${storage.usedBytes} of ${storage.quotaBytes} bytes; this file would exceed its storage limit` };
    }
    const stored = {
      filename: upload.filename,
      mimeType: upload.contentType,
      fileSizeBytes: sizeBytes,
      checksumSha256: checksum,
      storageKey,
      width: checked.width,
      height: checked.height,
    };
    const version = { ...stored, teamId: upload.teamId, createdByKind: upload.credentialKind, createdById: upload.credentialId };
    // what the file row mirrors of its current version
    const mirrored = { ...stored, nameKey: upload.filename.toLowerCase(), fileType: checked.kind };
    let file: { id: bigint; versionNumber: number };
    if (upload.replacesFileId) {
      const rows = await tx.$queryRaw<{ currentVersionNumber: number; deletedAt: Date | null }[]>`
        SELECT "currentVersionNumber", "deletedAt" FROM "StoredFile" WHERE id = ${upload.replacesFileId} FOR UPDATE`;
      const target = rows[0];
      if (!target || target.deletedAt) return { ok: false as const, reason: 'ACCESS_DENIED' as const, message: 'The file to replace was deleted' };
      if (target.currentVersionNumber !== upload.expectedVersionNumber) {
        return { ok: false as const, reason: 'VERSION_CONFLICT' as const, message: `Another replacement won first: the file is at version ${target.currentVersionNumber}, this upload expected ${upload.expectedVersionNumber}` };
      }
      const versionNumber = target.currentVersionNumber + 1;
      await tx.fileVersion.create({ data: { ...version, fileId: upload.replacesFileId, versionNumber } });
      await tx.storedFile.update({ where: { id: upload.replacesFileId }, data: { ...mirrored, currentVersionNumber: versionNumber } });
      file = { id: upload.replacesFileId, versionNumber };
    } else {
      const created = await tx.storedFile.create({
        data: {
          simplyId: fileId.create(),
          teamId: upload.teamId,
          folderId: upload.folderId,
          ...mirrored,
          createdByKind: upload.credentialKind,
          createdById: upload.credentialId,
          versions: { create: { ...version, versionNumber: 1 } },
        },
      });
      file = { id: created.id, versionNumber: 1 };
    }
    await tx.fileUpload.update({ where: { id: upload.id }, data: { status: 'COMPLETED', fileId: file.id, versionNumber: file.versionNumber, finishedAt: new Date() } });
    return { ok: true as const, fileId: file.id, versionNumber: file.versionNumber, isImage: checked.kind === 'IMAGE' };
  });

  if (committed.ok === true) {
    if (storageKey !== upload.storageKey) await fileStorage.delete([upload.storageKey]).catch(() => {});
    publishUploadStatus(services, { ...upload, status: 'COMPLETED' }, await teamSimplyIdOf(services, upload.teamId));
    if (committed.isImage) await queueVariants(services, committed.fileId, committed.versionNumber);
    return;
  }
  if (storageKey !== upload.storageKey) await fileStorage.delete([storageKey]).catch(() => {});
  if (committed.ok === false) await rejectUpload(services, upload, committed.reason, committed.message);
}
