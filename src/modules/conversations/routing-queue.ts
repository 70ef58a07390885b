// Putting conversations in front of the router: a PENDING routing row, and a routing job for the
// team queued on the caller's connection (it exists only if the change commits). The queue keeps
// at most one waiting job per team (policy `short`, keyed by team): a burst of new conversations
// queues one job, and a job already running is followed by at most one more, so nothing queued
// after a run has read its rows is missed.
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { onConnection } from '../../app/jobs.ts';

export const ROUTE_CONVERSATIONS = 'conversations.route';

export interface RouteJob {
  teamId: string;
}

export async function queueRouting(services: Services, db: pg.PoolClient, teamId: bigint): Promise<void> {
  await services.jobs.boss.send(ROUTE_CONVERSATIONS, { teamId: String(teamId) } satisfies RouteJob, {
    db: onConnection(db),
    singletonKey: `team:${teamId}`,
    retryLimit: 5,
    retryDelay: 2,
  });
}

/** The conversation waits for routing (again: a reopened one has its rule decided anew). */
export async function enqueueConversation(services: Services, db: pg.PoolClient, teamId: bigint, conversationId: bigint): Promise<void> {
  await db.query(
    `INSERT INTO "ConversationRouting" ("teamId", "conversationId", state, "ruleDecided", "queuedAt")
     VALUES ($1, $2, 'PENDING', false, now())
     ON CONFLICT ("teamId", "conversationId") DO UPDATE SET state = 'PENDING', "ruleId" = NULL, "ruleDecided" = false, "queuedAt" = now(), "decidedAt" = NULL`,
    [teamId, conversationId],
  );
  await queueRouting(services, db, teamId);
}
