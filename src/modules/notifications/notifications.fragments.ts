// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';
import { PREFERENCE_KEYS } from './notification-categories.ts';

export const NOTIFICATION = fragment(
  'NotificationFields',
  'Notification',
  'id simplyId notificationType category title body iconType actionUrl referenceEntityType referenceEntityId isRead readAt createdAt updatedAt',
);

export const NOTIFICATION_PREFERENCES = fragment('NotificationPreferencesFields', 'NotificationPreferences', PREFERENCE_KEYS.join(' '));

export const NOTIFICATION_READ_ALL = fragment('NotificationReadAllFields', 'NotificationReadAllResult', 'updatedCount unreadCount');

/** one message of the notificationEvents subscription */
export const NOTIFICATION_FEED_EVENT = fragment(
  'NotificationFeedEventFields',
  'NotificationFeedEvent',
  selection`type notificationSimplyIds notification { ${NOTIFICATION} } unreadCount occurredAt`,
);
