// A person's installations of the apps (UserDevice rows). Other areas find a device through here:
// notification preferences and push registration are per installation.
import type { RequestContext } from '../../app/context.ts';
import { UnauthenticatedError } from '../../app/errors.ts';
import type { Tx } from '../../app/transaction.ts';
import type { UserDevice } from '../../generated/prisma/client.ts';
import { DeviceNotFoundError } from './users.errors.ts';
import { deviceId } from './users.ids.ts';
import type { Platform } from './mobile-devices.input.ts';

/** exactly one of the two (the caller has checked that) */
export type DeviceSelector = { installationId: string; deviceSimplyId?: undefined } | { deviceSimplyId: string; installationId?: undefined };

export function currentUserId(ctx: RequestContext): bigint {
  const id = ctx.principal.userId;
  if (id === null) throw new UnauthenticatedError();
  return id;
}

/** The current user's device, or 404 DEVICE_NOT_FOUND (also for another person's device). */
export async function deviceOfCurrentUser(ctx: RequestContext, selector: DeviceSelector, db: Tx = ctx.services.prisma): Promise<UserDevice> {
  const userId = currentUserId(ctx);
  const device = selector.installationId !== undefined
    ? await db.userDevice.findUnique({ where: { userId_installationId: { userId, installationId: selector.installationId } } })
    : deviceId.is(selector.deviceSimplyId)
      ? await db.userDevice.findUnique({ where: { simplyId: selector.deviceSimplyId } })
      : null;
  if (!device || device.userId !== userId) throw new DeviceNotFoundError(selector.installationId ?? selector.deviceSimplyId!);
  return device;
}

export interface DeviceFacts {
  installationId: string;
  platform: Platform;
  deviceName?: string | null;
  appVersion?: string | null;
  osVersion?: string | null;
}

/** Registers (or refreshes) an installation of the current user; `created` tells which. */
export async function upsertCurrentDevice(ctx: RequestContext, facts: DeviceFacts, db: Tx = ctx.services.prisma): Promise<{ device: UserDevice; created: boolean }> {
  const userId = currentUserId(ctx);
  const described = {
    platform: facts.platform,
    ...(facts.deviceName !== undefined ? { deviceName: facts.deviceName } : {}),
    ...(facts.appVersion !== undefined ? { appVersion: facts.appVersion } : {}),
    ...(facts.osVersion !== undefined ? { osVersion: facts.osVersion } : {}),
    lastActiveAt: new Date(),
  };
  const [inserted] = await db.userDevice.createManyAndReturn({
    data: [{ simplyId: deviceId.create(), userId, installationId: facts.installationId, ...described }],
    skipDuplicates: true,
  });
  if (inserted) return { device: inserted, created: true };
  const device = await db.userDevice.update({ where: { userId_installationId: { userId, installationId: facts.installationId } }, data: described });
  return { device, created: false };
}

export interface DeviceSettingsChange {
  pushEnabled?: boolean;
  /** only the keys given change; absent keys keep their value */
  preferences?: Partial<Record<string, boolean>>;
}

/**
 * Changes a device's push switch and notification preferences in one statement, merging the given
 * keys into the stored ones so that two apps changing different keys at once both win.
 * The same store as /v1/notifications/preferences.
 */
export async function changeDeviceSettings(ctx: RequestContext, device: { id: bigint; simplyId: string }, change: DeviceSettingsChange, db: Tx = ctx.services.prisma): Promise<{ preferences: unknown; pushEnabled: boolean }> {
  const [row] = await db.$queryRaw<{ preferences: unknown; pushEnabled: boolean }[]>`
    UPDATE "UserDevice"
       SET "preferences" = "preferences" || ${JSON.stringify(change.preferences ?? {})}::jsonb,
           "pushEnabled" = COALESCE(${change.pushEnabled ?? null}::boolean, "pushEnabled"),
           "updatedAt" = now()
     WHERE "id" = ${device.id}
 RETURNING "preferences", "pushEnabled"`;
  if (!row) throw new DeviceNotFoundError(device.simplyId);
  return row;
}
