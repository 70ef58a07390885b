// The content-gap tally (conversation-ai.prisma ConversationContentGap): one row per normalized
// question of a team, counted up in the same transaction as the hand-back or reply that found the
// gap (so a retried AI job counts a question once), and read most-asked first.
import type pg from 'pg';
import type { Paging } from '../../app/paging.ts';
import type { Db } from './sql-helpers.ts';

export interface ContentGapRow {
  questionKey: string;
  sampleQuestion: string;
  askedCount: number;
  firstAskedAt: Date;
  lastAskedAt: Date;
  sampleConversationSimplyId: string;
  language: string | null;
}

export interface GapSighting {
  teamId: bigint;
  questionKey: string;
  sampleQuestion: string;
  conversationSimplyId: string;
  language: string | null;
}

/** Counts one more asking of the question; the latest asking becomes the sample. */
export async function countContentGap(db: pg.PoolClient, g: GapSighting): Promise<void> {
  await db.query(
    `INSERT INTO "ConversationContentGap" ("teamId", "questionKey", "sampleQuestion", "sampleConversationSimplyId", language, "askedCount", "firstAskedAt", "lastAskedAt")
     VALUES ($1, $2, $3, $4, $5, 1, now(), now())
     ON CONFLICT ("teamId", "questionKey") DO UPDATE SET
       "askedCount" = "ConversationContentGap"."askedCount" + 1, "lastAskedAt" = now(),
       "sampleQuestion" = excluded."sampleQuestion", "sampleConversationSimplyId" = excluded."sampleConversationSimplyId",
       language = coalesce(excluded.language, "ConversationContentGap".language)`,
    [g.teamId, g.questionKey, g.sampleQuestion, g.conversationSimplyId, g.language],
  );
}

const COLUMNS = `"questionKey", "sampleQuestion", "askedCount", "firstAskedAt", "lastAskedAt", "sampleConversationSimplyId", language`;

export async function contentGapPage(db: Db, teamId: bigint, since: Date | null, paging: Paging): Promise<ContentGapRow[]> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM "ConversationContentGap"
      WHERE "teamId" = $1 AND ($2::timestamp IS NULL OR "lastAskedAt" >= $2::timestamp)
      ORDER BY "askedCount" DESC, "lastAskedAt" DESC, id DESC LIMIT $3 OFFSET $4`,
    [teamId, since, paging.limit, paging.offset],
  );
  return rows as ContentGapRow[];
}

export async function countContentGaps(db: Db, teamId: bigint, since: Date | null): Promise<number> {
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM "ConversationContentGap" WHERE "teamId" = $1 AND ($2::timestamp IS NULL OR "lastAskedAt" >= $2::timestamp)`, [teamId, since]);
  return rows[0].n as number;
}
