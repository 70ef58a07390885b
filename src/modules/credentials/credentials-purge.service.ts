// Expired or revoked session tokens and refresh tokens are kept for a week (so inspection still
// answers `expired: true` for a while), then deleted.
import type { Services } from '../../app/context.ts';

const RETENTION_MS = 7 * 86_400_000;

export async function purgeExpiredCredentials(services: Services, now = new Date()): Promise<{ sessionTokens: number; refreshTokens: number }> {
  const cutoff = new Date(now.getTime() - RETENTION_MS);
  const stale = { OR: [{ expiresAt: { lt: cutoff } }, { revokedAt: { lt: cutoff } }] };
  const [sessionTokens, refreshTokens] = await Promise.all([
    services.prisma.sessionToken.deleteMany({ where: stale }),
    services.prisma.refreshToken.deleteMany({ where: stale }),
  ]);
  return { sessionTokens: sessionTokens.count, refreshTokens: refreshTokens.count };
}
