// Warnings and breaches of SLA clocks, as events and notifications. A check reads the due
// conversations (`nextCheckAt` passed: a clock's warning or due time, or a change that may have
// moved one), computes their clocks, records each warning and breach once (the event row's unique
// key: conversation, clock, kind and due time, so a retried or concurrent check records nothing
// twice), publishes SLA_WARNING / SLA_BREACHED on the conversation's realtime topic, queues the
// notifications, and sets when to look next. Checks run at a clock's time (a job queued for it)
// and in a minute's sweep that catches whatever a lost job missed.
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { onConnection, type JobDefinition } from '../../app/jobs.ts';
import { inTransaction, runTransaction } from '../../app/transaction.ts';
import { notify } from '../notifications/index.ts';
import { INBOX_ALL_FEATURE, INBOX_FEATURE } from './conversation-access.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { activeMembers } from './people.sql.ts';
import { CHECK_SLA, queueSlaCheck, SWEEP_SLA, type SlaCheckJob } from './sla-apply.ts';
import { slaFacts } from './sla-facts.sql.ts';
import { policiesById } from './sla-policies.sql.ts';
import { nextCheckOf, slaClocks } from './sla-state.ts';
import { big } from './sql-helpers.ts';
import { trackSlaOutcomes } from './analytics-track.ts';

export const NOTIFY_SLA = 'conversations.sla-notify';
const BATCH = 200;

interface SlaNotifyJob {
  teamId: string;
  conversationId: string;
  clock: string;
  kind: 'WARNING' | 'BREACH';
  dueAt: string;
}

/** Checks the due conversations (one, or any of any team: the sweep) in one transaction; answers how many it read. */
export async function checkSla(services: Services, only: { teamId: bigint; conversationId: bigint } | null, now = new Date()): Promise<number> {
  return inTransaction(services.pool, async (db) => {
    const { rows } = await db.query(
      `SELECT "teamId", "conversationId" FROM "ConversationSla"
        WHERE "nextCheckAt" <= $1 ${only ? 'AND "teamId" = $3 AND "conversationId" = $4' : ''}
        ORDER BY "nextCheckAt" LIMIT $2 FOR UPDATE SKIP LOCKED`,
      only ? [now, BATCH, only.teamId, only.conversationId] : [now, BATCH],
    );
    const byTeam = new Map<bigint, bigint[]>();
    for (const r of rows) byTeam.set(big(r.teamId), [...(byTeam.get(big(r.teamId)) ?? []), big(r.conversationId)]);
    for (const [teamId, ids] of byTeam) await checkTeam(services, db, teamId, ids, now);
    return rows.length;
  });
}

async function checkTeam(services: Services, db: pg.PoolClient, teamId: bigint, ids: bigint[], now: Date): Promise<void> {
  const facts = await slaFacts(db, teamId, ids);
  const policies = await policiesById(db, teamId, [...facts.values()].map((f) => f.policyId));
  const teamSimplyId = (await db.query(`SELECT "simplyId" FROM "Team" WHERE id = $1`, [teamId])).rows[0]?.simplyId as string;
  for (const id of ids) {
    const f = facts.get(id);
    const policy = f && policies.get(f.policyId);
    if (!f || !policy) {
      await db.query(`UPDATE "ConversationSla" SET "nextCheckAt" = NULL WHERE "teamId" = $1 AND "conversationId" = $2`, [teamId, id]);
      continue;
    }
    const clocks = slaClocks(policy, f, now);
    for (const c of clocks) {
      if (!c.running || c.dueAt === null) continue;
      const reached: ('WARNING' | 'BREACH')[] = [];
      if (c.warnAt !== null && c.warnAt < c.dueAt && now >= c.warnAt && now < c.dueAt) reached.push('WARNING');
      if (now >= c.dueAt) reached.push('BREACH');
      for (const kind of reached) {
        const inserted = await db.query(
          `INSERT INTO "ConversationSlaEvent" ("teamId", "conversationId", "policyId", clock, kind, "dueAt") VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT DO NOTHING RETURNING id`,
          [teamId, id, policy.id, c.clock, kind, c.dueAt],
        );
        if (!inserted.rowCount) continue;
        await publishConversationEvent(services, db, {
          teamSimplyId,
          type: kind === 'WARNING' ? 'SLA_WARNING' : 'SLA_BREACHED',
          conversationSimplyId: f.simplyId,
          actor: { kind: 'SYSTEM', id: null },
          assignees: [f.assignedUserSimplyId],
        });
        const job: SlaNotifyJob = { teamId: String(teamId), conversationId: String(id), clock: c.clock, kind, dueAt: c.dueAt.toISOString() };
        await services.jobs.boss.send(NOTIFY_SLA, job, { db: onConnection(db), retryLimit: 5, retryDelay: 5 });
      }
    }
    // met and breached clocks are analytics' SLA hit rate (analytics-track.ts)
    await trackSlaOutcomes(db, teamId, id, clocks, f.assignedUserId);
    const next = nextCheckOf(clocks, now);
    await db.query(`UPDATE "ConversationSla" SET "nextCheckAt" = $3 WHERE "teamId" = $1 AND "conversationId" = $2`, [teamId, id, next]);
    if (next) await queueSlaCheck(services, db, teamId, id, next);
  }
}

const CLOCK_WORDS: Record<string, string> = { FIRST_RESPONSE: 'first response', NEXT_RESPONSE: 'next response', RESOLUTION: 'resolution' };

/** Tells the assignee (or, unassigned, everyone whose inbox shows it) of a warning or breach. */
async function deliver(services: Services, job: SlaNotifyJob): Promise<void> {
  const teamId = BigInt(job.teamId);
  const facts = (await slaFacts(services.pool, teamId, [BigInt(job.conversationId)])).get(BigInt(job.conversationId));
  if (!facts) return;
  const members = [...(await activeMembers(services.pool, teamId, facts.assignedUserSimplyId ? [facts.assignedUserSimplyId] : null)).values()].filter(
    (m) => facts.assignedUserId !== null || m.isTeamAdmin || m.features.has(INBOX_ALL_FEATURE) || m.features.has(INBOX_FEATURE),
  );
  const what = CLOCK_WORDS[job.clock] ?? job.clock;
  const title = job.kind === 'WARNING' ? `SLA warning: ${what} due soon` : `SLA breached: ${what} overdue`;
  await runTransaction(services.prisma, async (tx) => {
    for (const m of members) {
      await notify(services, tx, {
        teamId,
        userId: m.userId,
        notificationType: 'SYSTEM',
        title,
        body: `Due ${job.dueAt}`,
        iconType: 'conversation',
        actionUrl: `/conversations/inbox/${facts.simplyId}`,
        referenceEntityType: 'CONVERSATION',
        referenceEntityId: facts.simplyId,
        source: 'CONVERSATION',
        sourceId: `SLA_${job.kind}:${job.clock}:${facts.simplyId}:${job.dueAt}:${m.userId}`,
      });
    }
  });
}

export function slaJobs(services: Services): JobDefinition<never>[] {
  return [
    {
      name: CHECK_SLA,
      retryLimit: 5,
      batchSize: 20,
      handler: async (jobs: { data: SlaCheckJob }[]) => {
        for (const job of jobs) await checkSla(services, { teamId: BigInt(job.data.teamId), conversationId: BigInt(job.data.conversationId) });
      },
    },
    {
      name: SWEEP_SLA,
      schedule: '* * * * *',
      handler: async () => {
        while ((await checkSla(services, null)) === BATCH);
      },
    },
    {
      name: NOTIFY_SLA,
      retryLimit: 5,
      batchSize: 10,
      handler: async (jobs: { data: SlaNotifyJob }[]) => {
        for (const job of jobs) await deliver(services, job.data);
      },
    },
  ] as JobDefinition<never>[];
}
