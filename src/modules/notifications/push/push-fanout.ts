// Fan-out of a new notification to push: one PushDelivery row and one send job per active token
// of the person whose device allows the notification's category, all in one transaction (a rerun
// of the job finds the rows and sends nothing twice).
import type { Job } from 'pg-boss';
import type { JobContext, JobDefinition } from '../../../app/jobs.ts';
import { runTransaction } from '../../../app/transaction.ts';
import { allowsCategory } from '../notification-categories.ts';
import { PUSH_FANOUT, PUSH_SEND, type PushFanoutJob, type PushSendJob } from './push-jobs.names.ts';
import { pushSendOptions } from './push-retry.ts';

async function fanOut(job: Job<PushFanoutJob>, { services }: JobContext): Promise<void> {
  const { prisma, jobs } = services;
  const teamId = BigInt(job.data.teamId);
  const notification = await prisma.userNotification.findUnique({
    where: { teamId_id: { teamId, id: BigInt(job.data.notificationId) } },
    select: { id: true, userId: true, category: true, deletedAt: true },
  });
  if (!notification || notification.deletedAt) return;
  const tokens = await prisma.devicePushToken.findMany({
    where: { userId: notification.userId, isActive: true },
    select: { id: true, device: { select: { pushEnabled: true, preferences: true } } },
  });
  const allowed = tokens.filter((t) => !t.device || (t.device.pushEnabled && allowsCategory(t.device.preferences, notification.category)));
  if (allowed.length === 0) return;
  await runTransaction(prisma, async (tx) => {
    const created = await tx.pushDelivery.createManyAndReturn({
      data: allowed.map((t) => ({ teamId, notificationId: notification.id, tokenId: t.id })),
      skipDuplicates: true,
      select: { id: true },
    });
    for (const delivery of created) {
      const send: PushSendJob = { teamId: job.data.teamId, deliveryId: String(delivery.id) };
      await jobs.sendInTransaction(tx, PUSH_SEND, send, { ...pushSendOptions(services.config), singletonKey: String(delivery.id) });
    }
  });
}

export const pushFanoutJob: JobDefinition<PushFanoutJob> = {
  name: PUSH_FANOUT,
  retryLimit: 5,
  concurrency: 4,
  handler: async (batch, context) => {
    for (const job of batch) await fanOut(job, context);
  },
};
