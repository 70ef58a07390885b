// The terminal transitions of an upload besides COMPLETED: REJECTED with a reason code, EXPIRED
// for a lapsed intent. Each is one conditional update, so of two racing workers only one moves
// the upload and only that one deletes the object: a rejected or expired object is never promoted.
import type { Services } from '../../app/context.ts';
import type { FileUpload } from '../../generated/prisma/client.ts';
import type { FileUploadStatusEvent } from './files.events.ts';

/**
 * Why an upload ended REJECTED (docs/api/files.md "Rejection reasons"). The first nine are the
 * failures Document 1 §3 lists, which are never promoted.
 */
export const REJECTION_REASONS = [
  'UNSCANNED',
  'UNSUPPORTED_TYPE',
  'ACCESS_DENIED',
  'FAILED',
  'TIMED_OUT',
  'SIGNATURE_MISMATCH',
  'CHECKSUM_MISMATCH',
  'MALWARE_DETECTED',
  'STORAGE_LIMIT_EXCEEDED',
  'VERSION_CONFLICT',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export const UPLOAD_STATUSES = ['CREATED', 'PENDING', 'COMPLETED', 'REJECTED', 'EXPIRED'] as const;

export function publishUploadStatus(services: Services, upload: FileUpload, teamSimplyId: string): void {
  const event: FileUploadStatusEvent = { fileUploadSimplyId: upload.simplyId, teamSimplyId, status: upload.status };
  services.events.publish('fileUploadStatus', upload.simplyId, event);
}

/** The public id of the team an upload or file belongs to (events, storage keys, the object's binding). */
export async function teamSimplyIdOf(services: Services, teamId: bigint): Promise<string> {
  const team = await services.prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { simplyId: true } });
  return team.simplyId;
}

async function finish(services: Services, upload: FileUpload, from: string, data: { status: 'REJECTED' | 'EXPIRED'; rejectionReason: string | null; rejectionMessage: string | null }): Promise<boolean> {
  const moved = await services.prisma.fileUpload.updateMany({ where: { id: upload.id, status: from }, data: { ...data, finishedAt: new Date() } });
  if (moved.count !== 1) return false;
  await services.fileStorage.delete([upload.storageKey]).catch((err) => services.logger.warn({ err, upload: upload.simplyId }, 'could not delete a refused upload object; it is never promoted'));
  publishUploadStatus(services, { ...upload, status: data.status }, await teamSimplyIdOf(services, upload.teamId));
  return true;
}

/** PENDING → REJECTED with the reason; false when another worker already ended it. */
export function rejectUpload(services: Services, upload: FileUpload, reason: RejectionReason, message: string): Promise<boolean> {
  return finish(services, upload, 'PENDING', { status: 'REJECTED', rejectionReason: reason, rejectionMessage: message.slice(0, 1000) });
}

/** CREATED → EXPIRED: the intent lapsed before it was completed (or its creator ended it). */
export function expireUpload(services: Services, upload: FileUpload, message = 'The upload was not completed before its intent lapsed'): Promise<boolean> {
  return finish(services, upload, 'CREATED', { status: 'EXPIRED', rejectionReason: null, rejectionMessage: message });
}
