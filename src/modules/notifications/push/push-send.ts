// The PUSH_SEND job: one notification to one push token. It looks again at what may have changed
// since the fan-out (token deactivated or moved to another person, notification deleted, push or
// the category turned off on the device) and then skips; otherwise it sends once and records the
// outcome. A transient failure throws, so pg-boss retries with backoff (push-retry.ts); the last
// attempt records FAILED instead. Every attempt is counted on the delivery.
import type { Job } from 'pg-boss';
import type { JobContext, JobDefinition } from '../../../app/jobs.ts';
import { runTransaction } from '../../../app/transaction.ts';
import { allowsCategory } from '../notification-categories.ts';
import { PUSH_SEND, type PushSendJob } from './push-jobs.names.ts';
import { textIn } from './push-message.ts';
import { isLastAttempt } from './push-retry.ts';
import type { PushMessage } from './push-sender.ts';

export type DeliveryStatus = 'PENDING' | 'SENT' | 'SKIPPED' | 'FAILED' | 'TOKEN_GONE';

/** Thrown for a transient failure: pg-boss retries the job. */
class RetryLater extends Error {}

async function sendOne(job: Job<PushSendJob>, { services, logger }: JobContext): Promise<void> {
  const { prisma } = services;
  const id = BigInt(job.data.deliveryId);
  const delivery = await prisma.pushDelivery.findUnique({
    where: { id },
    include: {
      token: { include: { device: { select: { pushEnabled: true, preferences: true } } } },
      notification: true,
    },
  });
  if (!delivery || delivery.status !== 'PENDING') return;
  const { token, notification } = delivery;
  const finish = (status: Exclude<DeliveryStatus, 'PENDING'>, lastError: string | null) =>
    prisma.pushDelivery.updateMany({
      where: { id, status: 'PENDING' },
      data: { status, lastError, ...(status === 'SENT' ? { sentAt: new Date() } : {}) },
    });

  const skipped = !token.isActive
    ? 'the token was deactivated'
    : token.userId !== notification.userId
      ? 'the token now belongs to another person'
      : notification.deletedAt
        ? 'the notification was deleted'
        : token.device && !token.device.pushEnabled
          ? 'push is turned off on the device'
          : token.device && !allowsCategory(token.device.preferences, notification.category)
            ? `the category ${notification.category} is turned off on the device`
            : null;
  if (skipped) {
    await finish('SKIPPED', skipped);
    return;
  }
  const provider = services.push.sender(token.platform);
  if ('skipped' in provider) {
    await finish('SKIPPED', provider.skipped);
    return;
  }

  const [user, team] = await Promise.all([
    prisma.user.findUnique({ where: { id: notification.userId }, select: { defaultInterfaceLanguageId: true } }),
    prisma.team.findUnique({ where: { id: notification.teamId }, select: { simplyId: true } }),
  ]);
  const language = user?.defaultInterfaceLanguageId ?? null;
  const message: PushMessage = {
    title: textIn(notification.title, language),
    body: textIn(notification.body, language),
    data: {
      notificationSimplyId: notification.simplyId,
      notificationType: notification.notificationType,
      actionUrl: notification.actionUrl,
      teamSimplyId: team?.simplyId ?? '',
    },
  };

  await prisma.pushDelivery.update({ where: { id }, data: { attempts: { increment: 1 } } });
  const result = await provider.sender.send(token.token, message);
  switch (result.outcome) {
    case 'SENT':
      await finish('SENT', null);
      return;
    case 'TOKEN_GONE':
      await runTransaction(prisma, async (tx) => {
        await tx.devicePushToken.updateMany({
          where: { id: token.id, isActive: true },
          data: { isActive: false, deactivatedAt: new Date(), deactivationReason: 'TOKEN_GONE' },
        });
        await tx.pushDelivery.updateMany({ where: { id, status: 'PENDING' }, data: { status: 'TOKEN_GONE', lastError: result.detail } });
      });
      logger.info({ deliveryId: job.data.deliveryId, platform: token.platform, detail: result.detail }, 'push token gone: deactivated');
      return;
    case 'FAILED':
      await finish('FAILED', result.detail);
      logger.warn({ deliveryId: job.data.deliveryId, platform: token.platform, detail: result.detail }, 'push failed');
      return;
    case 'RETRY':
      if (isLastAttempt(services.config, job.retryCount)) {
        await finish('FAILED', result.detail);
        logger.warn({ deliveryId: job.data.deliveryId, platform: token.platform, detail: result.detail }, 'push failed after its last attempt');
        return;
      }
      await prisma.pushDelivery.update({ where: { id }, data: { lastError: result.detail } });
      throw new RetryLater(result.detail);
  }
}

export const pushSendJob: JobDefinition<PushSendJob> = {
  name: PUSH_SEND,
  // the job's own options (push-retry.ts) decide; this is the queue's default
  retryLimit: 5,
  // provider requests wait on the network, not on this process
  concurrency: 16,
  expireInSeconds: 120,
  handler: async (batch, context) => {
    for (const job of batch) await sendOne(job, context);
  },
};
