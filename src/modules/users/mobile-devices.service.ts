// The current user's mobile devices (installations of the apps) and their per-device settings:
// the same UserDevice rows notification preferences and push registration use.
import type { RequestContext } from '../../app/context.ts';
import { parseInput } from '../../app/validate.ts';
import type { UserDevice } from '../../generated/prisma/client.ts';
import { fullPreferences, type Preferences } from '../notifications/index.ts';
import { deviceSettingsInput, registerDeviceInput, updateDeviceInput } from './mobile-devices.input.ts';
import { changeDeviceSettings, currentUserId, deviceOfCurrentUser, upsertCurrentDevice } from './user-devices.ts';
import { deviceId } from './users.ids.ts';

export interface MobileDeviceItem extends UserDevice {
  activePushTokens: number;
}

export interface DeviceSettings {
  deviceSimplyId: string;
  installationId: string;
  pushEnabled: boolean;
  preferences: Preferences;
}

const withTokenCount = { _count: { select: { pushTokens: { where: { isActive: true } } } } } as const;

function item(row: UserDevice & { _count: { pushTokens: number } }): MobileDeviceItem {
  const { _count, ...device } = row;
  return { ...device, activePushTokens: _count.pushTokens };
}

async function loadItem(ctx: RequestContext, id: bigint): Promise<MobileDeviceItem> {
  return item(await ctx.services.prisma.userDevice.findUniqueOrThrow({ where: { id }, include: withTokenCount }));
}

/** A path's device id: malformed is 400; another person's or unknown is 404 DEVICE_NOT_FOUND. */
function ownDevice(ctx: RequestContext, deviceSimplyId: string): Promise<UserDevice> {
  deviceId.assert(deviceSimplyId, 'deviceSimplyId');
  return deviceOfCurrentUser(ctx, { deviceSimplyId });
}

/** The current user's devices, most recently active first. */
export async function listMyDevices(ctx: RequestContext): Promise<MobileDeviceItem[]> {
  const userId = currentUserId(ctx);
  const rows = await ctx.services.prisma.userDevice.findMany({ where: { userId }, include: withTokenCount, orderBy: [{ lastActiveAt: 'desc' }, { id: 'desc' }] });
  return rows.map(item);
}

/** Registers the installation the app runs as (or refreshes what it tells about itself). */
export async function registerCurrentDevice(ctx: RequestContext, raw: unknown): Promise<{ created: boolean; device: MobileDeviceItem }> {
  currentUserId(ctx);
  const input = parseInput(registerDeviceInput, raw, 'Invalid device');
  const { device, created } = await upsertCurrentDevice(ctx, input);
  return { created, device: await loadItem(ctx, device.id) };
}

export async function updateMyDevice(ctx: RequestContext, deviceSimplyId: string, raw: unknown): Promise<MobileDeviceItem> {
  currentUserId(ctx);
  const input = parseInput(updateDeviceInput, raw, 'Invalid device update');
  const device = await ownDevice(ctx, deviceSimplyId);
  await ctx.services.prisma.userDevice.update({ where: { id: device.id }, data: input });
  return loadItem(ctx, device.id);
}

function settingsOf(device: Pick<UserDevice, 'simplyId' | 'installationId'>, stored: { preferences: unknown; pushEnabled: boolean }): DeviceSettings {
  return { deviceSimplyId: device.simplyId, installationId: device.installationId, pushEnabled: stored.pushEnabled, preferences: fullPreferences(stored.preferences) };
}

export async function deviceSettings(ctx: RequestContext, deviceSimplyId: string): Promise<DeviceSettings> {
  currentUserId(ctx);
  const device = await ownDevice(ctx, deviceSimplyId);
  return settingsOf(device, device);
}

/** The settings of the installation the app runs as; it must have been registered (404 otherwise). */
export async function changeCurrentDeviceSettings(ctx: RequestContext, raw: unknown): Promise<DeviceSettings> {
  currentUserId(ctx);
  const input = parseInput(deviceSettingsInput, raw, 'Invalid device settings');
  const device = await deviceOfCurrentUser(ctx, { installationId: input.installationId });
  const stored = await changeDeviceSettings(ctx, device, { pushEnabled: input.pushEnabled, preferences: input.preferences });
  return settingsOf(device, stored);
}
