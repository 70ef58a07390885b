// Bodies of the current user's mobile-device routes (docs/api/users.md "Mobile devices").
import { z } from 'zod';
import { PREFERENCE_KEYS, type PreferenceKey } from '../notifications/index.ts';

export const PLATFORMS = ['ios', 'android', 'web'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** chosen by the app: letters, digits and - _ . : (a UUID fits) */
export const installationIdSchema = z.string().trim().min(1).max(200).regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and - _ . : only');
export const platformSchema = z.enum(PLATFORMS);

/** a short description the person reads in their device list; null clears */
const label = (max: number) => z.string().trim().min(1).max(max).nullable().optional();

export const registerDeviceInput = z.strictObject({
  installationId: installationIdSchema,
  platform: platformSchema,
  deviceName: label(100),
  appVersion: label(50),
  osVersion: label(50),
});

export const updateDeviceInput = z.strictObject({
  deviceName: label(100),
  pushEnabled: z.boolean().optional(),
});

/** any of the six notification categories; unknown keys are refused, not ignored */
export const devicePreferencesInput = z.strictObject(
  Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, z.boolean().optional()])) as Record<PreferenceKey, z.ZodOptional<z.ZodBoolean>>,
);

export const deviceSettingsInput = z.strictObject({
  installationId: installationIdSchema,
  pushEnabled: z.boolean().optional(),
  preferences: devicePreferencesInput.optional(),
});
