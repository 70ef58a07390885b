// Inputs of the notification feed and preference operations, shared by the GraphQL face and the
// REST table (docs/api/notifications.md).
import { z } from 'zod';
import { installationIdSchema } from '../users/index.ts';
import { NOTIFICATION_TYPES, PREFERENCE_KEYS, type PreferenceKey } from './notification-categories.ts';

/** §8: the feed pages by 50 unless asked otherwise, at most 100 at a time. */
export const FEED_DEFAULT_LIMIT = 50;
export const FEED_MAX_LIMIT = 100;

export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES as [string, ...string[]], {
  message: `must be one of ${NOTIFICATION_TYPES.join(', ')}`,
});

export const listNotificationsInput = z.strictObject({
  limit: z.number().nullish(),
  offset: z.number().nullish(),
  isRead: z.boolean().nullish(),
  notificationType: notificationTypeSchema.nullish(),
  /** the device asking: its disabled categories are left out */
  installationId: installationIdSchema.nullish(),
});
export type ListNotificationsInput = z.output<typeof listNotificationsInput>;

export const deviceFilterInput = z.strictObject({ installationId: installationIdSchema.nullish() });

/** PUT /v1/notifications/read-all: the body is optional, and so is its one field. */
export const readAllInput = z.strictObject({ installationId: installationIdSchema.optional() }, { error: 'The request body must be a JSON object' }).optional();

const deviceSelectorFields = {
  installationId: installationIdSchema.nullish(),
  deviceSimplyId: z.string().min(1).max(100).nullish(),
};

/** GET preferences: the device, by installation or by its simplyId (exactly one; the service says INVALID_DEVICE otherwise). */
export const preferencesQueryInput = z.strictObject(deviceSelectorFields);

const preferenceFields = Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, z.boolean({ message: 'must be true or false' }).optional()])) as Record<
  PreferenceKey,
  z.ZodOptional<z.ZodBoolean>
>;

/** PUT preferences: strict, so a misspelt key is refused rather than silently ignored. */
export const updatePreferencesInput = z.strictObject({ ...deviceSelectorFields, ...preferenceFields }, { error: 'The request body must be a JSON object' });
export type UpdatePreferencesInput = z.output<typeof updatePreferencesInput>;
