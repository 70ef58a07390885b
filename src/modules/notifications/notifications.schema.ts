// GraphQL face of the notification feed, its preferences and its realtime channel
// (docs/api/notifications.md). REST: rest-adapter/routes/notifications.ts. Every field is for a
// signed-in member of the selected team and shows only their own notifications.
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import { NOTIFICATION_TYPES, PREFERENCE_KEYS, type Preferences } from './notification-categories.ts';
import { getPreferences, updatePreferences } from './notification-preferences.service.ts';
import type { NotificationEvent } from './notifications.events.ts';
import {
  countUnread,
  deleteNotification,
  feedMessage,
  getNotification,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  subscribeFeed,
  type FeedMessage,
  type NotificationView,
  type ReadAllResult,
} from './notifications.service.ts';
import type { Page } from '../../app/paging.ts';
import { PaginationRef } from '../../app/graphql/page.ts';

const NotificationTypeEnum = builder.enumType('NotificationType', {
  description: 'What a notification is about; each type belongs to one preference category (docs/api/notifications.md)',
  values: NOTIFICATION_TYPES,
});

const NotificationEventTypeEnum = builder.enumType('NotificationEventType', {
  description: 'CREATED: a new notification; READ: one was read; READ_ALL: read-all marked several read; DELETED: one was deleted',
  values: ['CREATED', 'READ', 'READ_ALL', 'DELETED'] as const,
});

export const NotificationRef = builder.objectRef<NotificationView>('Notification').implement({
  description: "A notification in the signed-in person's feed of the selected team. Written only by the platform.",
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    simplyId: t.exposeString('simplyId'),
    notificationType: t.exposeString('notificationType', { description: 'e.g. NEW_CONVERSATION, MENTION, WORKFLOW (see NotificationType)' }),
    category: t.exposeString('category', { description: 'the preference key governing it: newConversation, newMessage, assignment, mention, system or workflow' }),
    title: t.field({ type: 'LocalizedText', nullable: true, resolve: (n) => n.title }),
    body: t.field({ type: 'LocalizedText', nullable: true, resolve: (n) => n.body }),
    iconType: t.exposeString('iconType', { nullable: true }),
    actionUrl: t.exposeString('actionUrl', { nullable: true, description: 'where the app goes when the person opens it' }),
    referenceEntityType: t.exposeString('referenceEntityType', { nullable: true }),
    referenceEntityId: t.exposeString('referenceEntityId', { nullable: true }),
    isRead: t.boolean({ resolve: (n) => n.readAt !== null }),
    readAt: t.field({ type: 'DateTime', nullable: true, resolve: (n) => n.readAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (n) => n.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (n) => n.updatedAt }),
  }),
});

const NotificationPageRef = builder.objectRef<Page<NotificationView>>('NotificationPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [NotificationRef], resolve: (p) => p.nodes }),
    pagination: t.field({ type: PaginationRef, resolve: (p) => p.pagination }),
  }),
});

const PreferencesRef = builder.objectRef<Preferences>('NotificationPreferences').implement({
  description: "One installation's notification preferences: all six keys, true unless turned off",
  fields: (t) => Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, t.exposeBoolean(key)])) as never,
});

const ReadAllRef = builder.objectRef<ReadAllResult>('NotificationReadAllResult').implement({
  fields: (t) => ({
    updatedCount: t.exposeInt('updatedCount', { description: 'notifications this call marked read' }),
    unreadCount: t.exposeInt('unreadCount', { description: 'unread notifications left (with the device filter when installationId was given)' }),
  }),
});

const FeedEventRef = builder.objectRef<FeedMessage>('NotificationFeedEvent').implement({
  description: "A change of the person's feed in the team, with the unread count after it",
  fields: (t) => ({
    type: t.field({ type: NotificationEventTypeEnum, resolve: (e) => e.type }),
    notificationSimplyIds: t.exposeStringList('notificationSimplyIds', {
      description: 'the notifications the change touched; may be empty for a READ_ALL of more than 100 (then read the feed again)',
    }),
    notification: t.field({ type: NotificationRef, nullable: true, description: 'CREATED: the new notification; null for the other types', resolve: (e) => e.notification }),
    unreadCount: t.exposeInt('unreadCount', { description: 'unread notifications after the change (with the device filter when subscribed with installationId)' }),
    occurredAt: t.field({ type: 'DateTime', resolve: (e) => e.occurredAt }),
  }),
});

const PreferencesInput = builder.inputType('NotificationPreferencesInput', {
  description: 'Exactly one of installationId and deviceSimplyId, and any of the six keys (the others keep their values)',
  fields: (t) => ({
    installationId: t.string(),
    deviceSimplyId: t.string(),
    ...(Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, t.boolean()])) as Record<(typeof PREFERENCE_KEYS)[number], ReturnType<typeof t.boolean>>),
  }),
});

builder.queryFields((t) => ({
  notifications: t.field({
    type: NotificationPageRef,
    description: "The signed-in person's notifications in the selected team, newest first (limit 1-100, default 50)",
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: {
      limit: t.arg.int({ description: '1-100, default 50' }),
      offset: t.arg.int({ description: '0 or more, default 0' }),
      isRead: t.arg.boolean(),
      notificationType: t.arg({ type: NotificationTypeEnum }),
      installationId: t.arg.string({ description: "the asking installation: categories it turned off are left out" }),
    },
    resolve: (_root, args, ctx) => listNotifications(ctx, args),
  }),
  notificationUnreadCount: t.int({
    description: 'Unread notifications of the signed-in person in the selected team (with installationId: without the categories it turned off)',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { installationId: t.arg.string() },
    resolve: (_root, args, ctx) => countUnread(ctx, args),
  }),
  notification: t.field({
    type: NotificationRef,
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { notificationSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getNotification(ctx, args.notificationSimplyId),
  }),
  notificationPreferences: t.field({
    type: PreferencesRef,
    description: 'The preferences of one of your installations: give exactly one of installationId and deviceSimplyId',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { installationId: t.arg.string(), deviceSimplyId: t.arg.string() },
    resolve: (_root, args, ctx) => getPreferences(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  markNotificationRead: t.field({
    type: NotificationRef,
    description: 'Marks one notification read (again: no change; readAt stays the first time)',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { notificationSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => markNotificationRead(ctx, args.notificationSimplyId),
  }),
  markAllNotificationsRead: t.field({
    type: ReadAllRef,
    description: 'Marks every unread notification read; with installationId, those of categories it turned off stay unread',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { installationId: t.arg.string() },
    resolve: (_root, args, ctx) => markAllNotificationsRead(ctx, args.installationId == null ? undefined : { installationId: args.installationId }),
  }),
  deleteNotification: t.boolean({
    description: 'Deletes one notification from the feed (gone from lists and counts)',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { notificationSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => deleteNotification(ctx, args.notificationSimplyId),
  }),
  updateNotificationPreferences: t.field({
    type: PreferencesRef,
    description: 'Changes the given keys of one of your installations; answers all six',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { input: t.arg({ type: PreferencesInput, required: true }) },
    resolve: (_root, args, ctx) => updatePreferences(ctx, withoutAbsent(args.input)),
  }),
}));

builder.subscriptionFields((t) => ({
  notificationEvents: t.field({
    type: FeedEventRef,
    description:
      "Changes of the signed-in person's feed in the selected team (CREATED, READ, READ_ALL, DELETED) with the new unread count, from every instance. " +
      'With installationId: events only about categories that installation turned off are skipped, and unreadCount is its own.',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { installationId: t.arg.string() },
    subscribe: (_root, args, ctx) => subscribeFeed(ctx, args.installationId),
    resolve: (event, _args, ctx) => feedMessage(ctx, event as NotificationEvent),
  }),
}));

/** GraphQL leaves absent input fields undefined and explicit ones null: only what was sent counts. */
function withoutAbsent(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}
