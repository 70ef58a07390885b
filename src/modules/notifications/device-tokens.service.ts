// Push tokens of the current user's installations (docs/api/notifications.md "Push delivery").
// Registering names the installation: it is registered or refreshed in the same transaction and
// the token is linked to it. A token is known by its hash (web: by the subscription's endpoint):
//   - new: created (201);
//   - already this person's: refreshed (200): active again, relinked, new keys kept, lastRefreshedAt;
//   - another person's: the device changed hands (or accounts on it did); the token moves to the
//     current user under a new id, as a new registration (201), and the previous owner's pending
//     pushes to it are skipped, never delivered to the new owner.
// An installation has one push address at a time: its other active tokens are deactivated
// (REPLACED), so a rotated APNs/FCM token or a renewed browser subscription never pushes twice.
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction } from '../../app/transaction.ts';
import { checkTargetAtCreation, TargetRefused } from '../webhooks/index.ts';
import { currentUserId, upsertCurrentDevice } from '../users/index.ts';
import { deactivateDeviceTokenInput, registerDeviceTokenInput } from './device-tokens.input.ts';
import { TokenNotFoundError } from './device-tokens.errors.ts';
import { deviceTokenId } from './notifications.ids.ts';
import { normalizeToken, parseWebSubscription, tokenHash } from './push/push-tokens.ts';

export interface DeviceTokenRegistration {
  deviceTokenSimplyId: string;
  created: boolean;
  refreshed: boolean;
}

/** a registering app should not wait long on DNS; each send resolves and checks the endpoint again */
const ENDPOINT_LOOKUP_TIMEOUT_MS = 1000;

/**
 * A web subscription's endpoint is the client's choice and the platform will connect to it: it
 * must be a public HTTPS address (a name that does not resolve right now is accepted).
 */
async function checkEndpoint(ctx: RequestContext, token: string): Promise<void> {
  const { endpoint } = parseWebSubscription(token);
  try {
    await checkTargetAtCreation(new URL(endpoint), { allowLoopback: ctx.services.config.PUSH_ALLOW_LOOPBACK, timeoutMs: ENDPOINT_LOOKUP_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof TargetRefused) throw new ValidationError('The subscription endpoint is not a public push service', [{ field: 'token.endpoint', message: error.message }]);
    throw error;
  }
}

export async function registerDeviceToken(ctx: RequestContext, raw: unknown): Promise<DeviceTokenRegistration> {
  const input = parseInput(registerDeviceTokenInput, raw);
  const userId = currentUserId(ctx);
  const normalized = normalizeToken(input.platform, input.token);
  if ('problems' in normalized) throw new ValidationError(`Not a valid ${input.platform} push token`, normalized.problems);
  const { token } = normalized;
  if (input.platform === 'web') await checkEndpoint(ctx, token);
  const hash = tokenHash(token);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { device } = await upsertCurrentDevice(ctx, { installationId: input.installationId, platform: input.platform }, tx);
    const now = new Date();
    const [inserted] = await tx.devicePushToken.createManyAndReturn({
      data: [{ simplyId: deviceTokenId.create(), userId, deviceId: device.id, platform: input.platform, token, tokenHash: hash, lastRefreshedAt: now }],
      skipDuplicates: true,
      select: { id: true, simplyId: true },
    });
    let row = inserted;
    let created = Boolean(inserted);
    if (!row) {
      // known: lock it, so two registrations of one token take turns
      const [known] = await tx.$queryRaw<{ id: bigint; userId: bigint }[]>`SELECT "id", "userId" FROM "DevicePushToken" WHERE "tokenHash" = ${hash} FOR NO KEY UPDATE`;
      if (!known) throw new Error('push token vanished while being registered');
      created = known.userId !== userId;
      row = await tx.devicePushToken.update({
        where: { id: known.id },
        data: {
          ...(created ? { simplyId: deviceTokenId.create(), userId, createdAt: now } : {}),
          deviceId: device.id,
          platform: input.platform,
          token,
          isActive: true,
          lastRefreshedAt: now,
          deactivatedAt: null,
          deactivationReason: null,
        },
        select: { id: true, simplyId: true },
      });
    }
    await tx.devicePushToken.updateMany({
      where: { deviceId: device.id, isActive: true, id: { not: row.id } },
      data: { isActive: false, deactivatedAt: now, deactivationReason: 'REPLACED' },
    });
    return { deviceTokenSimplyId: row.simplyId, created, refreshed: !created };
  });
}

/** Stops pushes to the token (it stays on record, inactive, until registered again). */
export async function deactivateDeviceToken(ctx: RequestContext, raw: unknown): Promise<boolean> {
  const { token } = parseInput(deactivateDeviceTokenInput, raw);
  const userId = currentUserId(ctx);
  const hash = tokenHash(token);
  const known = await ctx.services.prisma.devicePushToken.findUnique({ where: { tokenHash: hash }, select: { id: true, userId: true } });
  if (!known || known.userId !== userId) throw new TokenNotFoundError();
  await ctx.services.prisma.devicePushToken.updateMany({
    where: { id: known.id, isActive: true },
    data: { isActive: false, deactivatedAt: new Date(), deactivationReason: 'USER' },
  });
  return true;
}

export function webPushPublicKey(ctx: RequestContext): string {
  return ctx.services.push.webPushPublicKey();
}
