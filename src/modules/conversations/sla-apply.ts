// Which SLA a conversation follows, and when the SLA sweep must look at it again. A conversation
// takes its policy when routing first decides its rule (the rule's policy, else the team's
// default); its clocks count from the conversation's own times, so a policy applied a moment after
// creation loses nothing. Changes that move a clock (a message, a status or priority change) mark
// it for a look at once and queue a check, so a warning or breach is never later than its time
// plus the check's pickup.
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { onConnection } from '../../app/jobs.ts';
import { defaultPolicyId } from './sla-policies.sql.ts';

export const CHECK_SLA = 'conversations.sla-check';
export const SWEEP_SLA = 'conversations.sla-sweep';

export interface SlaCheckJob {
  teamId: string;
  conversationId: string;
}

export async function queueSlaCheck(services: Services, db: pg.PoolClient, teamId: bigint, conversationId: bigint, at?: Date): Promise<void> {
  await services.jobs.boss.send(CHECK_SLA, { teamId: String(teamId), conversationId: String(conversationId) } satisfies SlaCheckJob, {
    db: onConnection(db),
    retryLimit: 5,
    ...(at ? { startAfter: at } : {}),
  });
}

/** The conversation follows `policyId` (null: the team's default policy, if it has one). */
export async function applySla(services: Services, db: pg.PoolClient, teamId: bigint, conversationId: bigint, policyId: bigint | null): Promise<void> {
  const id = policyId ?? (await defaultPolicyId(db, teamId));
  if (id === null) return;
  await db.query(
    `INSERT INTO "ConversationSla" ("teamId", "conversationId", "policyId", "appliedAt", "nextCheckAt") VALUES ($1, $2, $3, now(), now())
     ON CONFLICT ("teamId", "conversationId") DO UPDATE SET "policyId" = $3, "nextCheckAt" = now()`,
    [teamId, conversationId, id],
  );
  await queueSlaCheck(services, db, teamId, conversationId);
}

/** A change that may move the conversation's clocks: look again now (nothing when it follows no SLA). */
export async function touchSla(services: Services, db: pg.PoolClient, teamId: bigint, conversationId: bigint): Promise<void> {
  const { rowCount } = await db.query(`UPDATE "ConversationSla" SET "nextCheckAt" = now() WHERE "teamId" = $1 AND "conversationId" = $2`, [teamId, conversationId]);
  if (rowCount) await queueSlaCheck(services, db, teamId, conversationId);
}
