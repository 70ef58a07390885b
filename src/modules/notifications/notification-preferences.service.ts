// Notification preferences per installation (UserDevice.preferences, absent keys on): read and
// change them, and the categories a device hides, which the feed, its counts, read-all and the
// realtime channel honour when a call names the installation.
import type { RequestContext } from '../../app/context.ts';
import { parseInput } from '../../app/validate.ts';
import { changeDeviceSettings, deviceOfCurrentUser, type DeviceSelector } from '../users/index.ts';
import { disabledCategories, fullPreferences, PREFERENCE_KEYS, type PreferenceKey, type Preferences } from './notification-categories.ts';
import { InvalidDeviceError } from './notifications.errors.ts';
import { preferencesQueryInput, updatePreferencesInput } from './notifications.input.ts';

function selectorOf(input: { installationId?: string | null; deviceSimplyId?: string | null }): DeviceSelector {
  const byInstallation = input.installationId != null;
  const byDevice = input.deviceSimplyId != null;
  if (byInstallation && byDevice) throw new InvalidDeviceError('both');
  if (byInstallation) return { installationId: input.installationId! };
  if (byDevice) return { deviceSimplyId: input.deviceSimplyId! };
  throw new InvalidDeviceError('neither');
}

/** The six keys of the device named by installationId or deviceSimplyId (exactly one). */
export async function getPreferences(ctx: RequestContext, raw: unknown): Promise<Preferences> {
  const input = parseInput(preferencesQueryInput, raw, 'Invalid preference parameters');
  const device = await deviceOfCurrentUser(ctx, selectorOf(input));
  return fullPreferences(device.preferences);
}

/** Changes the keys given, keeps the others (one atomic merge, shared with the device settings); answers all six. */
export async function updatePreferences(ctx: RequestContext, raw: unknown): Promise<Preferences> {
  const input = parseInput(updatePreferencesInput, raw, 'Invalid notification preferences');
  const device = await deviceOfCurrentUser(ctx, selectorOf(input));
  const preferences = Object.fromEntries(PREFERENCE_KEYS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
  const changed = await changeDeviceSettings(ctx, device, { preferences });
  return fullPreferences(changed.preferences);
}

/**
 * The categories the current user's installation hides (404 DEVICE_NOT_FOUND when it is not
 * theirs); none without an installation.
 */
export async function hiddenCategoriesOf(ctx: RequestContext, installationId: string | null | undefined): Promise<PreferenceKey[]> {
  if (installationId == null) return [];
  const device = await deviceOfCurrentUser(ctx, { installationId });
  return disabledCategories(device.preferences);
}
