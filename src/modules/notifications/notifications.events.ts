// The realtime topic of a person's notification feed in one team (graphql-ws `notificationEvents`):
// new notifications and read-state changes with the unread count after the change, so every open
// app of that person updates its badge. Published with pg_notify inside the writing transaction, so
// an event goes out only for a change that committed, to every instance.
import type { LocalizedText } from '../../app/localized-text.ts';

export type NotificationEventType = 'CREATED' | 'READ' | 'READ_ALL' | 'DELETED';

/** A notification as the event carries it (the same fields as the read). */
export interface NotificationSnapshot {
  simplyId: string;
  notificationType: string;
  title: LocalizedText | null;
  body: LocalizedText | null;
  iconType: string | null;
  actionUrl: string | null;
  referenceEntityType: string | null;
  referenceEntityId: string | null;
  isRead: boolean;
  readAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NotificationEvent {
  type: NotificationEventType;
  /** the notifications the change touched (all of them for READ_ALL, possibly many) */
  notificationSimplyIds: string[];
  /** categories of the touched notifications: a device that turned all of them off ignores the event */
  categories: string[];
  /**
   * CREATED: the new notification, or null when it was too large for one NOTIFY payload (the
   * subscription then reads it by id).
   */
  notification: NotificationSnapshot | null;
  /** unread notifications of the person in the team after the change (no device filter) */
  unreadCount: number;
  occurredAt: string;
}

/** The topic id: one feed per person and team. */
export function feedTopicId(teamSimplyId: string, userSimplyId: string): string {
  return `${teamSimplyId}:${userSimplyId}`;
}

declare module '../../app/pubsub/event-bus.ts' {
  interface Topics {
    /** `<team simplyId>:<user simplyId>` → changes of that person's feed in that team */
    notificationEvents: [string, NotificationEvent];
  }
}
