// The one way a notification comes to exist: other areas call `notify` inside their own transaction
// (there is no create route). The row, the push fan-out job and the realtime event all commit with
// the caller's change or not at all; a producer that runs again with the same `source` and
// `sourceId` writes nothing twice.
import type { Services } from '../../app/context.ts';
import type { LocalizedText } from '../../app/localized-text.ts';
import type { Tx } from '../../app/transaction.ts';
import type { UserNotification } from '../../generated/prisma/client.ts';
import { categoryOf, type NotificationType } from './notification-categories.ts';
import { feedTopicId, type NotificationEvent, type NotificationSnapshot } from './notifications.events.ts';
import { notificationId } from './notifications.ids.ts';
import { PUSH_FANOUT, type PushFanoutJob } from './push/push-jobs.names.ts';

export interface NotificationDraft {
  teamId: bigint;
  userId: bigint;
  notificationType: NotificationType;
  title: LocalizedText | null;
  body?: LocalizedText | null;
  iconType?: string | null;
  /** where the app goes when the person opens it (an in-app path or URL) */
  actionUrl?: string | null;
  referenceEntityType?: string | null;
  referenceEntityId?: string | null;
  /** the producer (AUTOMATION, BACKGROUND_TASK, …) and its idempotency key */
  source: string;
  sourceId?: string | null;
}

/** NOTIFY payloads are limited to 8000 bytes; larger notifications travel by id. */
const NOTIFY_PAYLOAD_BUDGET = 7000;

/** Writes the notification in `tx`; returns null when this source already wrote it. */
export async function notify(services: Services, tx: Tx, draft: NotificationDraft): Promise<UserNotification | null> {
  const [row] = await tx.userNotification.createManyAndReturn({
    data: [
      {
        simplyId: notificationId.create(),
        teamId: draft.teamId,
        userId: draft.userId,
        notificationType: draft.notificationType,
        category: categoryOf(draft.notificationType),
        title: draft.title ?? undefined,
        body: draft.body ?? undefined,
        iconType: draft.iconType ?? null,
        actionUrl: draft.actionUrl ?? null,
        referenceEntityType: draft.referenceEntityType ?? null,
        referenceEntityId: draft.referenceEntityId ?? null,
        source: draft.source,
        sourceId: draft.sourceId ?? null,
      },
    ],
    skipDuplicates: true,
  });
  if (!row) return null;
  const job: PushFanoutJob = { teamId: String(row.teamId), notificationId: String(row.id) };
  await services.jobs.sendInTransaction(tx, PUSH_FANOUT, job, { singletonKey: row.simplyId });
  await publishFeedChange(services, tx, row.teamId, row.userId, {
    type: 'CREATED',
    notificationSimplyIds: [row.simplyId],
    categories: [row.category],
    notification: snapshotOf(row),
  });
  return row;
}

/**
 * Publishes a change of a person's feed from inside the writing transaction, with the unread
 * count as that transaction sees it (the event is delivered only if it commits).
 */
export async function publishFeedChange(
  services: Services,
  tx: Tx,
  teamId: bigint,
  userId: bigint,
  change: Omit<NotificationEvent, 'unreadCount' | 'occurredAt'>,
): Promise<void> {
  const [who] = await tx.$queryRaw<{ team: string; user: string; unread: bigint }[]>`
    SELECT (SELECT "simplyId" FROM "Team" WHERE id = ${teamId}) AS team,
           (SELECT "simplyId" FROM "User" WHERE id = ${userId}) AS user,
           (SELECT coalesce(sum(unread), 0) FROM "UserNotificationCount" WHERE "teamId" = ${teamId} AND "userId" = ${userId}) AS unread`;
  const event: NotificationEvent = { ...change, unreadCount: Number(who!.unread), occurredAt: new Date().toISOString() };
  let message = services.events.notification('notificationEvents', feedTopicId(who!.team, who!.user), event);
  if (Buffer.byteLength(message.payload) > NOTIFY_PAYLOAD_BUDGET) {
    const slim = { ...event, notification: null, notificationSimplyIds: event.notificationSimplyIds.length > 100 ? [] : event.notificationSimplyIds };
    message = services.events.notification('notificationEvents', feedTopicId(who!.team, who!.user), slim);
  }
  await tx.$executeRaw`SELECT pg_notify(${message.channel}, ${message.payload})`;
}

export function snapshotOf(row: UserNotification): NotificationSnapshot {
  return {
    simplyId: row.simplyId,
    notificationType: row.notificationType,
    title: row.title as LocalizedText | null,
    body: row.body as LocalizedText | null,
    iconType: row.iconType,
    actionUrl: row.actionUrl,
    referenceEntityType: row.referenceEntityType,
    referenceEntityId: row.referenceEntityId,
    isRead: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
