// Inputs of push-token registration, shared by the GraphQL face and the REST table
// (docs/api/notifications.md "Push delivery"). What a token must look like per platform is checked
// by the service (push/push-tokens.ts), naming the field in the 400's details.
import { z } from 'zod';
import { installationIdSchema, platformSchema } from '../users/index.ts';

/** the longest token of any platform (a Web Push subscription as JSON, an FCM token) */
export const MAX_DEVICE_TOKEN_LENGTH = 4096;

const tokenSchema = z
  .string({ message: 'must be a string' })
  .min(1, 'must not be empty')
  .max(MAX_DEVICE_TOKEN_LENGTH, `must be at most ${MAX_DEVICE_TOKEN_LENGTH} characters`);

export const registerDeviceTokenInput = z.strictObject({
  token: tokenSchema.describe('ios: the APNs device token (hex); android: the FCM registration token; web: the PushSubscription as JSON'),
  platform: platformSchema.describe('ios, android or web'),
  installationId: installationIdSchema.describe('the installation the token belongs to (registered, or refreshed, with it)'),
});
export type RegisterDeviceTokenInput = z.output<typeof registerDeviceTokenInput>;

export const deactivateDeviceTokenInput = z.strictObject({
  token: tokenSchema.describe('the token as registered (web: the subscription JSON or its endpoint URL)'),
});
