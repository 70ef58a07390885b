// Scan retention (docs/api/action-tags.md "Retention"), hourly: user agents masked after seven
// days, abuse hashes cleared after 30 days, scan rows deleted past the team's detail retention (30
// days on the free plan, 24 months on paid plans, or what a system administrator set; teams
// without a plan row have the ACTION_TAGS_DEFAULT_PLAN plan). Daily aggregates and lifetime counts
// are never touched.
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { ABUSE_HASH_DAYS, presetPlan, USER_AGENT_MASK_DAYS } from './action-tag-plan.ts';

export const RETENTION_QUEUE = 'action-tags.retention';

export async function applyScanRetention(pool: pg.Pool, defaultPlan: string, now = new Date()): Promise<{ masked: number; unhashed: number; deleted: number }> {
  const days = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString().replace('Z', '');
  const masked = await pool.query(
    `UPDATE "ActionTagScan" SET "userAgent" = NULL, "userAgentMaskedAt" = $2::timestamp(3) WHERE "scannedAt" < $1::timestamp(3) AND "userAgent" IS NOT NULL`,
    [days(USER_AGENT_MASK_DAYS), now.toISOString().replace('Z', '')],
  );
  const unhashed = await pool.query(`UPDATE "ActionTagScan" SET "abuseHash" = NULL WHERE "scannedAt" < $1::timestamp(3) AND "abuseHash" IS NOT NULL`, [days(ABUSE_HASH_DAYS)]);
  const fallback = presetPlan(defaultPlan).detailRetentionDays;
  const deleted = await pool.query(
    `DELETE FROM "ActionTagScan" s
      WHERE s."scannedAt" < $1::timestamp(3) - make_interval(days => COALESCE((SELECT p."detailRetentionDays" FROM "ActionTagTeamPlan" p WHERE p."teamId" = s."teamId"), $2::int))`,
    [now.toISOString().replace('Z', ''), fallback],
  );
  return { masked: masked.rowCount ?? 0, unhashed: unhashed.rowCount ?? 0, deleted: deleted.rowCount ?? 0 };
}

export function actionTagRetentionJobs(services: Services): JobDefinition<never>[] {
  return [
    {
      name: RETENTION_QUEUE,
      schedule: '17 * * * *',
      handler: async () => {
        await applyScanRetention(services.pool, services.config.ACTION_TAGS_DEFAULT_PLAN);
      },
    },
  ];
}
