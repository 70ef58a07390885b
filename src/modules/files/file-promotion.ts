// Promotion: a PENDING upload that passes every check (upload-checks.ts) becomes a file, or a new
// version of the file it replaces, in one transaction that also re-checks the team's storage
// limit (rule 7) and, for a replacement, that no other replacement won first (rule 3). The job is
// idempotent: it acts only on a PENDING upload and commits COMPLETED only from PENDING, so a
// retried or duplicated job ends in exactly one terminal state; a crash before the commit leaves
// the upload PENDING for the retry (pg-boss), and the last failed attempt rejects it as FAILED.
// The file and version rows themselves are written by file-version-commit.ts.
import { createHash } from 'node:crypto';
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import type { FileUpload } from '../../generated/prisma/client.ts';
import { runTransaction } from '../../app/transaction.ts';
import { commitStoredContent, lockTeamStorage } from './file-version-commit.ts';
import { checkUpload } from './upload-checks.ts';
import { publishUploadStatus, rejectUpload, teamSimplyIdOf, type RejectionReason } from './upload-outcomes.ts';
import { sanitizedObjectKey } from './storage/storage-keys.ts';
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
    await lockTeamStorage(tx, upload.teamId);
    const current = await tx.fileUpload.findUnique({ where: { id: upload.id } });
    if (current?.status !== 'PENDING') return { ok: 'gone' as const };
    const outcome = await commitStoredContent(services, tx, {
      teamId: upload.teamId,
      content: { filename: upload.filename, mimeType: upload.contentType, fileType: checked.kind, fileSizeBytes: sizeBytes, checksumSha256: checksum, storageKey, width: checked.width, height: checked.height },
      createdBy: { kind: upload.credentialKind, id: upload.credentialId },
      target: upload.replacesFileId ? { kind: 'version', fileId: upload.replacesFileId, expectedVersionNumber: upload.expectedVersionNumber } : { kind: 'new', folderId: upload.folderId },
    });
    if (!outcome.ok) return outcome;
    await tx.fileUpload.update({ where: { id: upload.id }, data: { status: 'COMPLETED', fileId: outcome.fileId, versionNumber: outcome.versionNumber, finishedAt: new Date() } });
    return { ok: true as const, fileId: outcome.fileId, versionNumber: outcome.versionNumber, isImage: checked.kind === 'IMAGE' };
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
