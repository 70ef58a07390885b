// The merge history: one row per merge of a conversation into another, closed by its unmerge; and
// the chat widget visitor a merge lets see the conversation it went into (ConversationWidgetThread).
import type pg from 'pg';
import { big, type Db } from './sql-helpers.ts';

export interface MergeRow {
  id: bigint;
  simplyId: string;
  sourceId: bigint;
  targetId: bigint;
  sourceSimplyId: string;
  targetSimplyId: string;
  targetBefore: {
    dataRecordId?: string | null;
    dataRecordSimplyId?: string | null;
    recordLinkSource?: string | null;
    linked?: boolean;
    /** the widget visitor the merge let see the target (ids as strings: JSON) */
    widgetThread?: CarriedThread;
  };
  mergedAt: Date;
  mergedByKind: string;
  mergedById: string | null;
  unmergedAt: Date | null;
  unmergedByKind: string | null;
  unmergedById: string | null;
}

const MERGE_COLUMNS = `g.id, g."simplyId", g."sourceId", g."targetId", s."simplyId" AS "sourceSimplyId", t."simplyId" AS "targetSimplyId", g."targetBefore",
  g."mergedAt", g."mergedByKind", g."mergedById", g."unmergedAt", g."unmergedByKind", g."unmergedById"`;
const MERGE_JOINS = `JOIN "Conversation" s ON s."teamId" = g."teamId" AND s.id = g."sourceId"
  JOIN "Conversation" t ON t."teamId" = g."teamId" AND t.id = g."targetId"`;

function mergeOf(row: Record<string, unknown>): MergeRow {
  return { ...(row as unknown as MergeRow), id: big(row.id), sourceId: big(row.sourceId), targetId: big(row.targetId) };
}

export async function insertMerge(
  db: pg.PoolClient,
  m: { simplyId: string; teamId: bigint; sourceId: bigint; targetId: bigint; targetBefore: object; byKind: string; byId: string | null },
): Promise<MergeRow> {
  const { rows } = await db.query(
    `WITH g AS (
       INSERT INTO "ConversationMerge" ("simplyId", "teamId", "sourceId", "targetId", "targetBefore", "mergedByKind", "mergedById")
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *
     )
     SELECT ${MERGE_COLUMNS} FROM g ${MERGE_JOINS}`,
    [m.simplyId, m.teamId, m.sourceId, m.targetId, JSON.stringify(m.targetBefore), m.byKind, m.byId],
  );
  return mergeOf(rows[0]);
}

/** The merge that put the source where it is now (the one not undone). */
export async function openMergeOf(db: pg.PoolClient, teamId: bigint, sourceId: bigint): Promise<MergeRow | null> {
  const { rows } = await db.query(
    `SELECT ${MERGE_COLUMNS} FROM "ConversationMerge" g ${MERGE_JOINS}
      WHERE g."teamId" = $1 AND g."sourceId" = $2 AND g."unmergedAt" IS NULL ORDER BY g.id DESC LIMIT 1`,
    [teamId, sourceId],
  );
  return rows[0] ? mergeOf(rows[0]) : null;
}

export async function closeMerge(db: pg.PoolClient, teamId: bigint, id: bigint, by: { kind: string; id: string | null }): Promise<MergeRow> {
  const { rows } = await db.query(
    `WITH g AS (
       UPDATE "ConversationMerge" SET "unmergedAt" = now(), "unmergedByKind" = $3, "unmergedById" = $4 WHERE "teamId" = $1 AND id = $2 RETURNING *
     )
     SELECT ${MERGE_COLUMNS} FROM g ${MERGE_JOINS}`,
    [teamId, id, by.kind, by.id],
  );
  return mergeOf(rows[0]);
}

/** Every merge the conversation took part in, as source or target, oldest first. */
export async function mergesOf(db: Db, teamId: bigint, conversationId: bigint): Promise<MergeRow[]> {
  const { rows } = await db.query(
    `SELECT ${MERGE_COLUMNS} FROM "ConversationMerge" g ${MERGE_JOINS}
      WHERE g."teamId" = $1 AND (g."sourceId" = $2 OR g."targetId" = $2) ORDER BY g."mergedAt", g.id`,
    [teamId, conversationId],
  );
  return rows.map(mergeOf);
}


// ---- the widget visitor of a merged thread ----

/** A chat widget visitor's tie to a conversation (ids as strings, as kept in targetBefore). */
export interface CarriedThread {
  widgetId: string;
  visitorId: string;
}

/** The widget visitor whose conversation this is (or who was given it by a merge), or null. */
export async function widgetThreadOf(db: pg.PoolClient, teamId: bigint, conversationId: bigint): Promise<CarriedThread | null> {
  const { rows } = await db.query(`SELECT "widgetId", "visitorId" FROM "ConversationWidgetThread" WHERE "teamId" = $1 AND "conversationId" = $2`, [teamId, conversationId]);
  return rows[0] ? { widgetId: String(rows[0].widgetId), visitorId: String(rows[0].visitorId) } : null;
}

/**
 * Lets the visitor see the conversation theirs was merged into. The target is no preview, whatever
 * the source was: it stays in analytics. False when the target has a visitor of its own already.
 */
export async function carryWidgetThread(db: pg.PoolClient, teamId: bigint, targetId: bigint, thread: CarriedThread): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO "ConversationWidgetThread" ("teamId", "conversationId", "widgetId", "visitorId", "isSimulated") VALUES ($1, $2, $3, $4, false)
     ON CONFLICT ("teamId", "conversationId") DO NOTHING`,
    [teamId, targetId, BigInt(thread.widgetId), BigInt(thread.visitorId)],
  );
  return rowCount === 1;
}

/** Takes back what carryWidgetThread gave: only the same visitor's tie to that conversation. */
export async function dropCarriedWidgetThread(db: pg.PoolClient, teamId: bigint, conversationId: bigint, thread: CarriedThread): Promise<void> {
  await db.query(`DELETE FROM "ConversationWidgetThread" WHERE "teamId" = $1 AND "conversationId" = $2 AND "widgetId" = $3 AND "visitorId" = $4`, [
    teamId,
    conversationId,
    BigInt(thread.widgetId),
    BigInt(thread.visitorId),
  ]);
}
