// Hourly clean-up: expired or revoked session tokens and refresh tokens are kept for a week
// (so inspection still answers `expired: true` for a while), then deleted.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { JobDefinition } from '../../app/jobs.ts';

export const PURGE_EXPIRED_CREDENTIALS = 'maintenance.purge-expired-credentials';
const RETENTION_MS = 7 * 86_400_000;

export async function purgeExpiredCredentials(prisma: PrismaClient, now = new Date()): Promise<{ sessionTokens: number; refreshTokens: number }> {
  const cutoff = new Date(now.getTime() - RETENTION_MS);
  const [sessionTokens, refreshTokens] = await Promise.all([
    prisma.sessionToken.deleteMany({ where: { OR: [{ expiresAt: { lt: cutoff } }, { revokedAt: { lt: cutoff } }] } }),
    prisma.refreshToken.deleteMany({ where: { OR: [{ expiresAt: { lt: cutoff } }, { revokedAt: { lt: cutoff } }] } }),
  ]);
  return { sessionTokens: sessionTokens.count, refreshTokens: refreshTokens.count };
}

export const credentialJobs: JobDefinition<{ now?: string }>[] = [
  {
    name: PURGE_EXPIRED_CREDENTIALS,
    schedule: '17 * * * *',
    handler: async (batch, { services }) => {
      for (const job of batch) await purgeExpiredCredentials(services.prisma, job.data.now ? new Date(job.data.now) : new Date());
    },
  },
];
