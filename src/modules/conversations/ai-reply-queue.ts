// Putting a visitor's message in front of the AI: its ConversationAiReply row and its pg-boss job,
// both on the caller's connection, so they exist exactly when the message does (a process dying
// after the commit loses nothing: the job is stored and a worker takes it). The row's unique key
// on the message makes queueing idempotent: a message is answered at most once, however often it
// is put forward (the visitor's post, then a hand-over to the AI that finds it waiting).
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { onConnection } from '../../app/jobs.ts';
import { big } from './sql-helpers.ts';

export const AI_REPLY = 'conversations.ai-reply';
/** attempts after an unexpected error (the database away); a failed model step is never retried: it hands back */
export const AI_REPLY_RETRY_LIMIT = 3;

export interface AiReplyJob {
  teamId: string;
  aiReplyId: string;
}

/**
 * `again`: a hand-over to the AI puts forward a message the AI once handed back or skipped (a
 * person chose to let it try again); a message it answered, or that waits for it, is never queued twice.
 */
export async function queueAiReply(services: Services, db: pg.PoolClient, teamId: bigint, conversationId: bigint, messageId: bigint, again = false): Promise<void> {
  const { rows } = await db.query(
    `INSERT INTO "ConversationAiReply" ("teamId", "conversationId", "messageId") VALUES ($1, $2, $3)
     ON CONFLICT ("teamId", "messageId") DO ${
       again
         ? `UPDATE SET state = 'PENDING', reason = NULL, confidence = NULL, "decidedAt" = NULL, "conversationId" = excluded."conversationId"
             WHERE "ConversationAiReply".state IN ('HANDED_BACK', 'SKIPPED', 'SUPERSEDED')`
         : 'NOTHING'
     } RETURNING id`,
    [teamId, conversationId, messageId],
  );
  if (!rows[0]) return;
  const job: AiReplyJob = { teamId: String(teamId), aiReplyId: String(big(rows[0].id)) };
  await services.jobs.boss.send(AI_REPLY, job, {
    db: onConnection(db),
    retryLimit: AI_REPLY_RETRY_LIMIT,
    retryDelay: 2,
    retryBackoff: true,
    // one reply of a conversation at a time, over every worker: the next sees the previous one's answer
    group: { id: `${teamId}:${conversationId}` },
  });
}

/** The AI's run of consecutive replies starts over (a hand-over to the AI, a hand-back). */
export async function resetAiStreak(db: pg.PoolClient, teamId: bigint, conversationId: bigint): Promise<void> {
  await db.query(
    `INSERT INTO "ConversationAiState" ("teamId", "conversationId", "consecutiveReplies", "updatedAt") VALUES ($1, $2, 0, now())
     ON CONFLICT ("teamId", "conversationId") DO UPDATE SET "consecutiveReplies" = 0, "updatedAt" = now()`,
    [teamId, conversationId],
  );
}

export async function countAiReply(db: pg.PoolClient, teamId: bigint, conversationId: bigint): Promise<void> {
  await db.query(
    `INSERT INTO "ConversationAiState" ("teamId", "conversationId", "consecutiveReplies", "updatedAt") VALUES ($1, $2, 1, now())
     ON CONFLICT ("teamId", "conversationId") DO UPDATE SET "consecutiveReplies" = "ConversationAiState"."consecutiveReplies" + 1, "updatedAt" = now()`,
    [teamId, conversationId],
  );
}

export async function aiStreakOf(db: pg.Pool | pg.PoolClient, teamId: bigint, conversationId: bigint): Promise<number> {
  const { rows } = await db.query(`SELECT "consecutiveReplies" FROM "ConversationAiState" WHERE "teamId" = $1 AND "conversationId" = $2`, [teamId, conversationId]);
  return rows[0]?.consecutiveReplies ?? 0;
}
