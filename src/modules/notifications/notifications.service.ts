// A signed-in person's notification feed in the selected team: list, unread count, read one,
// read all, soft delete. Only the person's own notifications exist for them: anyone else's id is
// 404 like a missing one. Every state change publishes its realtime event inside its own
// transaction (notify.service.ts), so other open apps update only for what committed; the
// notificationEvents subscription (below) hands those events to each of the person's apps.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { pagination, parsePaging, type Page } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { ResyncRequiredError } from '../../app/pubsub/resync.ts';
import { runTransaction } from '../../app/transaction.ts';
import { currentUserId } from '../users/index.ts';
import { categoryOf, type NotificationType } from './notification-categories.ts';
import { hiddenCategoriesOf } from './notification-preferences.service.ts';
import { feedTopicId, type NotificationEvent, type NotificationEventType, type NotificationSnapshot } from './notifications.events.ts';
import { notificationId } from './notifications.ids.ts';
import { deviceFilterInput, FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, listNotificationsInput, readAllInput } from './notifications.input.ts';
import { feedCount, feedPage, findOwn, markAllRead, markOneRead, softDelete, unreadCount, type NotificationView } from './notifications.sql.ts';
import { publishFeedChange } from './notify.service.ts';

export type { NotificationView };

export interface ReadAllResult {
  updatedCount: number;
  /** unread notifications left (with the device's filter when one was named) */
  unreadCount: number;
}

function owner(ctx: RequestContext): { teamId: bigint; userId: bigint } {
  return { teamId: requireTeam(ctx).id, userId: currentUserId(ctx) };
}

export async function listNotifications(ctx: RequestContext, raw: unknown): Promise<Page<NotificationView>> {
  const { teamId, userId } = owner(ctx);
  const input = parseInput(listNotificationsInput, raw, 'Invalid notification list parameters');
  const paging = parsePaging(input, { defaultLimit: FEED_DEFAULT_LIMIT, maxLimit: FEED_MAX_LIMIT });
  const hidden = await hiddenCategoriesOf(ctx, input.installationId);
  // a type whose category the device hides has nothing to show (not an error)
  if (input.notificationType && hidden.includes(categoryOf(input.notificationType as NotificationType))) {
    return { nodes: [], pagination: pagination(0, paging) };
  }
  const filter = { teamId, userId, hiddenCategories: hidden, isRead: input.isRead, notificationType: input.notificationType };
  // the total comes from the per-type counters (a few rows), read alongside the page
  const [nodes, total] = await Promise.all([feedPage(ctx.services.pool, filter, paging), feedCount(ctx.services.pool, filter)]);
  return { nodes, pagination: pagination(total, paging) };
}

export async function countUnread(ctx: RequestContext, raw: unknown): Promise<number> {
  const { teamId, userId } = owner(ctx);
  const input = parseInput(deviceFilterInput, raw ?? {}, 'Invalid unread count parameters');
  return unreadCount(ctx.services.pool, teamId, userId, await hiddenCategoriesOf(ctx, input.installationId));
}

function assertId(simplyId: string): void {
  notificationId.assert(simplyId, 'notificationSimplyId');
}

export async function getNotification(ctx: RequestContext, simplyId: string): Promise<NotificationView> {
  const { teamId, userId } = owner(ctx);
  assertId(simplyId);
  const row = await findOwn(ctx.services.pool, teamId, userId, simplyId);
  if (!row) throw new NotFoundError('Notification', simplyId);
  return row;
}

/** Idempotent: the first read sets readAt; later calls answer the same notification and publish nothing. */
export async function markNotificationRead(ctx: RequestContext, simplyId: string): Promise<NotificationView> {
  const { teamId, userId } = owner(ctx);
  assertId(simplyId);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const result = await markOneRead(tx, teamId, userId, simplyId, new Date());
    if (!result) throw new NotFoundError('Notification', simplyId);
    if (result.changed) {
      await publishFeedChange(ctx.services, tx, teamId, userId, { type: 'READ', notificationSimplyIds: [simplyId], categories: [result.row.category], notification: null });
    }
    return result.row;
  });
}

/** Marks every unread notification read; with installationId, those of categories that device hides stay unread. */
export async function markAllNotificationsRead(ctx: RequestContext, raw: unknown): Promise<ReadAllResult> {
  const { teamId, userId } = owner(ctx);
  const input = parseInput(readAllInput, raw ?? undefined, 'Invalid read-all parameters');
  const hidden = await hiddenCategoriesOf(ctx, input?.installationId);
  const touched = await runTransaction(ctx.services.prisma, async (tx) => {
    const rows = await markAllRead(tx, teamId, userId, hidden, new Date());
    if (rows.length > 0) {
      await publishFeedChange(ctx.services, tx, teamId, userId, {
        type: 'READ_ALL',
        notificationSimplyIds: rows.map((r) => r.simplyId),
        categories: [...new Set(rows.map((r) => r.category))],
        notification: null,
      });
    }
    return rows.length;
  });
  return { updatedCount: touched, unreadCount: await unreadCount(ctx.services.pool, teamId, userId, hidden) };
}

/** Soft delete: gone from lists and counts, 404 from then on. */
export async function deleteNotification(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const { teamId, userId } = owner(ctx);
  assertId(simplyId);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const deleted = await softDelete(tx, teamId, userId, simplyId, new Date());
    if (!deleted) throw new NotFoundError('Notification', simplyId);
    await publishFeedChange(ctx.services, tx, teamId, userId, { type: 'DELETED', notificationSimplyIds: [simplyId], categories: [deleted.category], notification: null });
    return true;
  });
}

// ---- realtime: the notificationEvents subscription ----

/** One message of the notificationEvents subscription. */
export interface FeedMessage {
  type: NotificationEventType;
  notificationSimplyIds: string[];
  /** CREATED: the new notification (null if it was deleted before it could be read by id) */
  notification: NotificationView | null;
  unreadCount: number;
  occurredAt: Date;
}

/**
 * Results computed once per event and shared by every subscriber on this instance that asks the
 * same (a person with many open apps): bounded, oldest first out; a failed load is not kept.
 */
class EventMemo<T> {
  private readonly entries = new Map<string, Promise<T>>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    let value = this.entries.get(key);
    if (!value) {
      value = load();
      value.catch(() => this.entries.delete(key));
      this.entries.set(key, value);
      if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }
}

const deviceViews = new EventMemo<NotificationEvent | null>(2000);
const createdRows = new EventMemo<NotificationView | null>(2000);

function eventKey(teamId: bigint, userId: bigint, event: NotificationEvent): string {
  return `${teamId}:${userId}|${event.occurredAt}|${event.type}|${event.notificationSimplyIds.join(',')}`;
}

/**
 * The person's feed events in the selected team. Without an installation every subscriber of the
 * person shares one resolution per event; with one, events whose categories the device hides are
 * skipped and the unread count is the device's (computed once per event and installation).
 */
export async function subscribeFeed(ctx: RequestContext, installationId: string | null | undefined): Promise<AsyncIterable<NotificationEvent>> {
  const { teamId, userId } = owner(ctx);
  const device = parseInput(deviceFilterInput, { installationId }, 'Invalid installationId').installationId ?? null;
  // an installation that is not the caller's is refused now, not at the first event
  if (device !== null) await hiddenCategoriesOf(ctx, device);
  const topicId = feedTopicId(requireTeam(ctx).simplyId, ctx.principal.userSimplyId!);
  const stream = ctx.services.events.pubsub.subscribe('notificationEvents', topicId, {
    context: ctx,
    // the person may have left the team since subscribing
    accept: async (now) => now.principal.team?.id === teamId && now.principal.userId === userId,
  });
  if (device === null) return stream;
  // listen now, not when the first event is asked for
  return seenBy(ctx, stream, stream[Symbol.asyncIterator](), { teamId, userId, installationId: device });
}

/** stands in for the events a device subscriber may have missed (see feedMessage) */
const MISSED = Symbol('events may have been missed');
type MaybeMissed = NotificationEvent & { [MISSED]?: true };

async function* seenBy(
  ctx: RequestContext,
  stream: AsyncIterable<NotificationEvent>,
  first: AsyncIterator<NotificationEvent>,
  who: { teamId: bigint; userId: bigint; installationId: string },
): AsyncGenerator<NotificationEvent> {
  let events = first;
  try {
    for (;;) {
      let next: IteratorResult<NotificationEvent>;
      try {
        next = await events.next();
      } catch (error) {
        if (!(error instanceof ResyncRequiredError)) throw error;
        // the shared subscribers' rule: one signal, and the subscription stays open (listening again first)
        events = stream[Symbol.asyncIterator]();
        yield { [MISSED]: true } as MaybeMissed;
        continue;
      }
      if (next.done) return;
      const view = await deviceViewOf(ctx, next.value, who);
      if (view) yield view;
    }
  } finally {
    await events.return?.(undefined);
  }
}

/** The event as the installation sees it, or null when it is only about categories it turned off. */
function deviceViewOf(ctx: RequestContext, event: NotificationEvent, who: { teamId: bigint; userId: bigint; installationId: string }): Promise<NotificationEvent | null> {
  return deviceViews.get(`${eventKey(who.teamId, who.userId, event)}|${who.installationId}`, async () => {
    const hidden: string[] = await hiddenCategoriesOf(ctx, who.installationId);
    if (hidden.length === 0) return event;
    if (event.categories.length > 0 && event.categories.every((c) => hidden.includes(c))) return null;
    return { ...event, unreadCount: await unreadCount(ctx.services.pool, who.teamId, who.userId, hidden) };
  });
}

function viewOf(snapshot: NotificationSnapshot, category: string): NotificationView {
  return {
    ...snapshot,
    category,
    readAt: snapshot.readAt === null ? null : new Date(snapshot.readAt),
    createdAt: new Date(snapshot.createdAt),
    updatedAt: new Date(snapshot.updatedAt),
  };
}

/** An event as its subscribers see it: a CREATED event too large for NOTIFY brings its notification by id. */
export async function feedMessage(ctx: RequestContext, event: NotificationEvent): Promise<FeedMessage> {
  if ((event as MaybeMissed)[MISSED]) throw new ResyncRequiredError();
  let notification: NotificationView | null = null;
  if (event.type === 'CREATED') {
    if (event.notification) notification = viewOf(event.notification, event.categories[0] ?? categoryOf(event.notification.notificationType as NotificationType));
    else if (event.notificationSimplyIds[0]) {
      const { teamId, userId } = owner(ctx);
      const simplyId = event.notificationSimplyIds[0];
      notification = await createdRows.get(`${eventKey(teamId, userId, event)}`, () => findOwn(ctx.services.pool, teamId, userId, simplyId));
    }
  }
  return { type: event.type, notificationSimplyIds: event.notificationSimplyIds, notification, unreadCount: event.unreadCount, occurredAt: new Date(event.occurredAt) };
}
