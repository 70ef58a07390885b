// The upload sweeper (every minute): intents that lapsed become EXPIRED and lose their object;
// PENDING uploads whose promotion job was lost (a crash between the status change and the send)
// get it again; PENDING uploads that no promotion ended in time are REJECTED as TIMED_OUT.
import type { Services } from '../../app/context.ts';
import { COMPLETE_GRACE_SECONDS } from './file-uploads.service.ts';
import { PROMOTE_UPLOAD, type PromoteUploadJob } from './file-promotion.ts';
import { expireUpload, rejectUpload } from './upload-outcomes.ts';

export const SWEEP_UPLOADS = 'files.sweep-uploads';
/** a PENDING upload older than this gets its promotion job again (the send is deduplicated) */
const RESEND_AFTER_MS = 60_000;
/** no promotion may take longer (retries included) */
export const PROMOTION_DEADLINE_MS = 30 * 60_000;
const BATCH = 500;

/** `teamId` limits the sweep to one team (a test sweeping at a chosen `now` must not touch other teams). */
export async function sweepUploads(services: Services, now = new Date(), teamId?: bigint): Promise<{ expired: number; resent: number; timedOut: number }> {
  const team = teamId === undefined ? {} : { teamId };
  const { prisma, jobs } = services;
  let expired = 0;
  let resent = 0;
  let timedOut = 0;
  const lapsed = await prisma.fileUpload.findMany({
    where: { ...team, status: 'CREATED', expiresAt: { lt: new Date(now.getTime() - COMPLETE_GRACE_SECONDS * 1000) } },
    take: BATCH,
  });
  for (const upload of lapsed) if (await expireUpload(services, upload)) expired++;

  const pending = await prisma.fileUpload.findMany({
    where: { ...team, status: 'PENDING', completeRequestedAt: { lt: new Date(now.getTime() - RESEND_AFTER_MS) } },
    take: BATCH,
  });
  for (const upload of pending) {
    if (upload.completeRequestedAt!.getTime() < now.getTime() - PROMOTION_DEADLINE_MS) {
      if (await rejectUpload(services, upload, 'TIMED_OUT', 'Promotion did not finish in time')) timedOut++;
      continue;
    }
    const job: PromoteUploadJob = { uploadId: String(upload.id) };
    if (await jobs.send(PROMOTE_UPLOAD, job, { singletonKey: upload.simplyId })) resent++;
  }
  return { expired, resent, timedOut };
}
