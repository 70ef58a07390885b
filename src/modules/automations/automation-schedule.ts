// SCHEDULE triggers: one pg-boss cron job (`automations.schedule-tick`, every minute) evaluates
// every enabled schedule's cron expression (cron-parser, in the automation's time zone) and claims
// `schedule:<automationSimplyId>:<occurrence ISO>` for the latest occurrence in the last five
// minutes that is later than the automation's last change. The claim's unique key makes ticks
// idempotent: a repeated or concurrent tick (two instances, a redelivered job) claims nothing
// new, and a tick delayed by a restart still catches the occurrence it missed (once, not each).
// Nothing lives in pg-boss's own schedule table, so there is nothing to keep in step with the
// automations or to reconcile at start.
import { CronExpressionParser } from 'cron-parser';
import type { Services } from '../../app/context.ts';
import { type Claim, claimExecutions, type ExecutionRow } from './execution-claims.ts';
import { inTransaction } from '../../app/transaction.ts';

export const SCHEDULE_TICK = 'automations.schedule-tick';
export const SCHEDULE_LOOKBACK_MS = 5 * 60_000;

/** The latest occurrence in (from, tick], or null. */
export function latestOccurrence(cron: string, timezone: string, from: Date, tick: Date): Date | null {
  try {
    const occurrence = CronExpressionParser.parse(cron, { currentDate: new Date(tick.getTime() + 1), tz: timezone }).prev().toDate();
    return occurrence > from && occurrence <= tick ? occurrence : null;
  } catch {
    return null;
  }
}

/** Claims the due occurrences at `now` (tests pass a time instead of waiting for it). */
export async function scheduleTick(services: Services, now = new Date()): Promise<ExecutionRow[]> {
  const tick = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const { rows } = await services.pool.query(
    `SELECT a.id, a."simplyId", a."teamId", t."simplyId" AS "teamSimplyId", a."triggerConfig", a."updatedAt"
       FROM "Automation" a JOIN "Team" t ON t.id = a."teamId"
      WHERE a."isEnabled" AND a."triggerType" = 'SCHEDULE'`,
  );
  const claims: Claim[] = [];
  for (const r of rows) {
    const config = (r.triggerConfig ?? {}) as { cron?: string; timezone?: string };
    if (typeof config.cron !== 'string') continue;
    const from = new Date(Math.max(tick.getTime() - SCHEDULE_LOOKBACK_MS, new Date(r.updatedAt).getTime()));
    const occurrence = latestOccurrence(config.cron, config.timezone ?? 'UTC', from, tick);
    if (!occurrence) continue;
    claims.push({
      teamId: BigInt(r.teamId),
      teamSimplyId: r.teamSimplyId,
      automationId: BigInt(r.id),
      automationSimplyId: r.simplyId,
      triggerType: 'SCHEDULE',
      triggerEventId: `schedule:${r.simplyId}:${occurrence.toISOString()}`,
      depth: 0,
      status: 'QUEUED',
    });
  }
  if (claims.length === 0) return [];
  return inTransaction(services.pool, (db) => claimExecutions(services, db, claims));
}
