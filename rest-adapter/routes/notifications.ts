// /v1/notifications → src/modules/notifications/notifications.schema.ts and device-tokens.schema.ts
// (docs/api/notifications.md).
// Signed-in members of the selected team only; each person sees their own feed.
import { z } from 'zod';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import { NOTIFICATION, NOTIFICATION_PREFERENCES, NOTIFICATION_READ_ALL } from '../../src/modules/notifications/notifications.fragments.ts';
import { notificationTypeSchema, preferencesQueryInput, readAllInput, updatePreferencesInput } from '../../src/modules/notifications/notifications.input.ts';
import { DEVICE_TOKEN_REGISTRATION } from '../../src/modules/notifications/device-tokens.fragments.ts';
import { deactivateDeviceTokenInput, registerDeviceTokenInput } from '../../src/modules/notifications/device-tokens.input.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { actOn, getOne } from '../route-shapes.ts';
import { queryBool, queryInt } from '../schemas.ts';

const ONE = '/v1/notifications/{notificationSimplyId}';

const listQuery = z.strictObject({
  limit: queryInt().describe('1-100, default 50'),
  offset: queryInt().describe('0 or more, default 0'),
  isRead: queryBool(),
  notificationType: notificationTypeSchema.optional(),
  installationId: z.string().optional().describe('the asking installation: categories it turned off are left out'),
});
type ListQuery = z.output<typeof listQuery>;

const deviceQuery = z.strictObject({ installationId: z.string().optional().describe('the asking installation: categories it turned off are not counted') });

/** `{ nodes, pagination }` → data.notifications and meta.pagination */
const feedPage = respond.custom(
  (page: { nodes: unknown[]; pagination: unknown }) => ({ data: { notifications: page.nodes }, meta: { pagination: page.pagination } }),
  (field) => ({
    data: { type: 'object', properties: { notifications: respond.property(field, 'nodes') }, required: ['notifications'] },
    meta: { type: 'object', properties: { pagination: respond.property(field, 'pagination') }, required: ['pagination'] },
  }),
);

export const notificationRoutes = defineRoutes([
  route<Record<string, string>, ListQuery>({
    method: 'GET',
    path: '/v1/notifications',
    summary: 'List my notifications',
    description: 'Your notifications in the selected team, newest first: limit (1-100, default 50), offset, isRead, notificationType, installationId',
    operation: operation`query Notifications($limit: Int, $offset: Int, $isRead: Boolean, $notificationType: NotificationType, $installationId: String) {
      notifications(limit: $limit, offset: $offset, isRead: $isRead, notificationType: $notificationType, installationId: $installationId) {
        nodes { ${NOTIFICATION} } pagination { ${PAGINATION} } } }`,
    query: listQuery,
    variables: ({ query }) => query,
    respond: feedPage,
  }),
  route({
    method: 'GET',
    path: '/v1/notifications/unread-count',
    summary: 'Count unread notifications',
    description: 'How many of your notifications are unread (installationId: without the categories it turned off)',
    operation: operation`query NotificationUnreadCount($installationId: String) { notificationUnreadCount(installationId: $installationId) }`,
    query: deviceQuery,
    variables: ({ query }) => query as z.output<typeof deviceQuery>,
    respond: respond.custom(
      (unreadCount: number) => ({ data: { unreadCount } }),
      () => ({ data: { type: 'object', properties: { unreadCount: { type: 'integer' } }, required: ['unreadCount'] } }),
    ),
  }),
  route({
    method: 'PUT',
    path: '/v1/notifications/read-all',
    summary: 'Mark all notifications read',
    description: 'Mark all your notifications read: optional body { installationId } leaves the categories it turned off unread; answers updatedCount',
    operation: operation`mutation MarkAllNotificationsRead($installationId: String) { markAllNotificationsRead(installationId: $installationId) { ${NOTIFICATION_READ_ALL} } }`,
    body: readAllInput,
    example: { installationId: '7f3c2a9e-5b1d-4c8e-9a6f-2d4b8e1c3f5a' },
    variables: ({ body }) => ({ installationId: (body as { installationId?: string } | undefined)?.installationId }),
  }),
  route({
    method: 'GET',
    path: '/v1/notifications/preferences',
    summary: 'Get notification preferences',
    description: "One of your installations' preferences: installationId or deviceSimplyId (exactly one); all six keys",
    operation: operation`query NotificationPreferences($installationId: String, $deviceSimplyId: String) {
      notificationPreferences(installationId: $installationId, deviceSimplyId: $deviceSimplyId) { ${NOTIFICATION_PREFERENCES} } }`,
    query: preferencesQueryInput,
    variables: ({ query }) => query as z.output<typeof preferencesQueryInput>,
  }),
  route({
    method: 'PUT',
    path: '/v1/notifications/preferences',
    summary: 'Update notification preferences',
    description: 'Change preferences: { installationId | deviceSimplyId, and any of the six keys }; unknown keys are refused; answers all six',
    operation: operation`mutation UpdateNotificationPreferences($input: NotificationPreferencesInput!) { updateNotificationPreferences(input: $input) { ${NOTIFICATION_PREFERENCES} } }`,
    body: updatePreferencesInput,
    example: { installationId: '7f3c2a9e-5b1d-4c8e-9a6f-2d4b8e1c3f5a', newMessage: true, mention: true, system: false },
    variables: ({ body }) => ({ input: body }),
  }),
  getOne({ path: ONE, summary: 'Get a notification', description: 'One of your notifications (anyone else’s: 404)', name: 'Notification', select: NOTIFICATION }),
  route({
    method: 'PUT',
    path: `${ONE}/read`,
    summary: 'Mark a notification read',
    description: 'Mark one notification read (idempotent: readAt is set once)',
    operation: operation`mutation MarkNotificationRead($id: String!) { markNotificationRead(notificationSimplyId: $id) { ${NOTIFICATION} } }`,
    variables: ({ params }) => ({ id: params.notificationSimplyId }),
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Delete a notification', description: 'Delete one notification (gone from lists and counts; 404 afterwards)', name: 'DeleteNotification' }),
  route({
    method: 'POST',
    path: '/v1/notifications/device-token',
    summary: 'Register a push token',
    description: "Register a push token of one of the current user's installations: { token, platform (ios, android, web), installationId }; 201 { deviceTokenSimplyId, created: true } for a token new to the user, 200 { deviceTokenSimplyId, refreshed: true } for a known one",
    operation: operation`mutation RegisterDeviceToken($input: RegisterDeviceTokenInput!) { registerDeviceToken(input: $input) { ${DEVICE_TOKEN_REGISTRATION} } }`,
    body: registerDeviceTokenInput,
    example: { token: '9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f', platform: 'ios', installationId: '7f3c2a9e-5b1d-4c8e-9a6f-2d4b8e1c3f5a' },
    variables: ({ body }) => ({ input: body }),
    status: 201,
    respond: respond.custom(
      (r: { deviceTokenSimplyId: string; created: boolean }) =>
        r.created
          ? { data: { deviceTokenSimplyId: r.deviceTokenSimplyId, created: true }, status: 201 }
          : { data: { deviceTokenSimplyId: r.deviceTokenSimplyId, refreshed: true }, status: 200 },
      () => ({
        data: {
          type: 'object',
          properties: { deviceTokenSimplyId: { type: 'string' }, created: { type: 'boolean', const: true }, refreshed: { type: 'boolean', const: true } },
          required: ['deviceTokenSimplyId'],
        },
      }),
    ),
  }),
  route({
    method: 'DELETE',
    path: '/v1/notifications/device-token',
    summary: 'Deactivate a push token',
    description: 'Deactivate a push token of the current user: { token } (web: the subscription JSON or its endpoint); 404 TOKEN_NOT_FOUND for a token they do not hold',
    operation: operation`mutation DeactivateDeviceToken($token: String!) { deactivateDeviceToken(token: $token) { deactivated } }`,
    body: deactivateDeviceTokenInput,
    example: { token: '9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f' },
    variables: ({ body }) => ({ token: (body as { token: string }).token }),
  }),
]);
