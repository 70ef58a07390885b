// Record totals per collection and membership state, read from "DataRecordCountDelta" instead of
// counting memberships (docs/architecture.md "Record totals"). Triggers on
// "DataRecordMembership" (migration 20261124031640_record_count_deltas) insert one delta row per
// statement and collection in the writer's transaction; a collection's totals are the sums of its
// rows. Here: the reads, the fold that compacts a collection's rows into one, and the recount
// that checks (and repairs) the counters against the memberships.
import type pg from 'pg';
import { advisoryLock } from '../../db/advisory-locks.ts';
import { inTransaction } from '../../app/transaction.ts';

type Db = pg.Pool | pg.PoolClient;

/** Delta rows a read tolerates for one collection before it asks for a fold (records.jobs.ts). */
export const FOLD_THRESHOLD = 64;

export interface RecordCounts {
  active: number;
  archived: number;
  /** delta rows summed: above FOLD_THRESHOLD the collection is due a fold */
  deltaRows: number;
}

/**
 * The counter of one collection in one membership state, and its delta rows, as two columns
 * (total, "deltaRows") of one-time subqueries, for a statement that reads them together with
 * something else (the unfiltered record page). Within one statement the counts and the memberships
 * come from the same snapshot, so they agree.
 */
export function counterColumns(team: string, collection: string, state: 'active' | 'archived'): string {
  const rows = `FROM "DataRecordCountDelta" d WHERE d."teamId" = ${team} AND d."collectionId" = ${collection}`;
  return `(SELECT coalesce(sum(d.${state}), 0)::bigint ${rows}) AS total, (SELECT count(*)::int ${rows}) AS "deltaRows"`;
}

/** Counts of the given collections, by collection id (a collection without rows has none). */
export async function readCounts(db: Db, teamId: bigint, collectionIds: readonly bigint[]): Promise<Map<string, RecordCounts>> {
  const { rows } = await db.query(
    `SELECT d."collectionId", sum(d.active)::bigint AS active, sum(d.archived)::bigint AS archived, count(*)::int AS "deltaRows"
       FROM "DataRecordCountDelta" d WHERE d."teamId" = $1 AND d."collectionId" = ANY($2::bigint[])
      GROUP BY d."collectionId"`,
    [teamId, collectionIds],
  );
  return new Map(rows.map((r) => [String(r.collectionId), { active: Number(r.active), archived: Number(r.archived), deltaRows: r.deltaRows as number }]));
}

/**
 * Folds each given collection's delta rows into one (none when they sum to zero), in one statement.
 *
 * Correct while writers and other folds run:
 * - Writers only insert. The fold deletes rows of its snapshot and inserts their sum in the same
 *   transaction, so every reader sees either all the old rows or their sum: the same totals. A
 *   delta committed after the fold's snapshot is not seen, not deleted, and keeps counting.
 * - Two folds at once: each locks the rows it takes (FOR UPDATE SKIP LOCKED) and leaves the rows
 *   another fold has locked to that fold. A row is therefore deleted and summed by exactly one
 *   fold, no fold waits for another (nor deadlocks with one), and a row the other fold deleted is
 *   never summed twice. The collection may be left with one row per fold; the next fold joins them.
 *   The sum rows are newer than both folds' snapshots, so neither takes the other's.
 * - A fold that fails rolls back whole: the old rows are still there.
 * Returns the number of rows removed (the deleted ones minus the sums written).
 */
export async function foldCounts(db: Db, collections: readonly { teamId: bigint; collectionId: bigint }[]): Promise<number> {
  if (collections.length === 0) return 0;
  const { rows } = await db.query(
    `WITH taken AS (
       SELECT d.id FROM "DataRecordCountDelta" d
         JOIN unnest($1::bigint[], $2::bigint[]) AS t("teamId", "collectionId") ON d."teamId" = t."teamId" AND d."collectionId" = t."collectionId"
          FOR UPDATE OF d SKIP LOCKED
     ), gone AS (
       DELETE FROM "DataRecordCountDelta" d USING taken WHERE d.id = taken.id
       RETURNING d."teamId", d."collectionId", d.active, d.archived
     ), folded AS (
       INSERT INTO "DataRecordCountDelta" ("teamId", "collectionId", active, archived)
       SELECT "teamId", "collectionId", sum(active), sum(archived) FROM gone
        GROUP BY "teamId", "collectionId"
       HAVING sum(active) <> 0 OR sum(archived) <> 0
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM gone)::int - (SELECT count(*) FROM folded)::int AS removed`,
    [collections.map((c) => c.teamId), collections.map((c) => c.collectionId)],
  );
  return rows[0].removed as number;
}

/** Collections folded per statement by the sweep: keeps each fold's transaction short. */
const SWEEP_BATCH = 500;

/**
 * The periodic fold: every collection with more than one delta row, a batch at a time in key
 * order (each collection at most once per sweep, however busy the writers are), and the rows of
 * collections that no longer exist (their memberships are no longer counted either). A row
 * inserted by a transaction still in flight is invisible here and survives.
 */
export async function foldAllCounts(db: pg.Pool, options: { batch?: number } = {}): Promise<{ collections: number; removed: number }> {
  const batchSize = options.batch ?? SWEEP_BATCH;
  let collections = 0;
  let removed = 0;
  const orphans = await db.query(
    `DELETE FROM "DataRecordCountDelta" d
      WHERE NOT EXISTS (SELECT 1 FROM "DataCollection" c WHERE c."teamId" = d."teamId" AND c.id = d."collectionId")`,
  );
  removed += orphans.rowCount ?? 0;
  let after: [bigint, bigint] = [-1n, -1n];
  for (;;) {
    const { rows } = await db.query(
      `SELECT "teamId", "collectionId" FROM "DataRecordCountDelta"
        WHERE ("teamId", "collectionId") > ($1::bigint, $2::bigint)
        GROUP BY "teamId", "collectionId" HAVING count(*) > 1
        ORDER BY "teamId", "collectionId" LIMIT $3`,
      [...after, batchSize],
    );
    if (rows.length === 0) break;
    const batch = rows.map((r) => ({ teamId: BigInt(r.teamId), collectionId: BigInt(r.collectionId) }));
    collections += batch.length;
    removed += await foldCounts(db, batch);
    if (batch.length < batchSize) break;
    const last = batch.at(-1)!;
    after = [last.teamId, last.collectionId];
  }
  return { collections, removed };
}

export type CountedState = 'ACTIVE' | 'ARCHIVED';

/** A collection and state whose counter disagrees with its memberships. */
export interface CountMismatch {
  teamSimplyId: string;
  collectionSimplyId: string;
  teamId: bigint;
  collectionId: bigint;
  state: CountedState;
  /** memberships in that state */
  counted: number;
  /** what the counters say */
  recorded: number;
  /** a correcting delta row was written */
  fixed: boolean;
}

export interface CountCheck {
  /** collections compared */
  collections: number;
  mismatches: CountMismatch[];
}

/**
 * Recounts the memberships of every collection (of one team, or all) per state and compares them
 * with the counters. Both sides are read by one statement, so they come from one snapshot and agree
 * for any mix of committed writes: a difference is a real drift, not a race. With `fix`, the same
 * statement inserts one correcting delta row per drifting collection (the difference, which later
 * writes do not change), under a transaction-scoped advisory lock.
 */
export async function checkCounts(pool: pg.Pool, options: { teamId?: bigint; fix?: boolean } = {}): Promise<CountCheck> {
  const fix = options.fix === true;
  const check = async (db: Db) => {
    const { rows } = await db.query(
      `WITH compared AS (
         SELECT c."teamId", c.id AS "collectionId", t."simplyId" AS "teamSimplyId", c."simplyId" AS "collectionSimplyId",
                m.active AS "countedActive", m.archived AS "countedArchived", d.active AS "recordedActive", d.archived AS "recordedArchived"
           FROM "DataCollection" c
           JOIN "Team" t ON t.id = c."teamId"
          CROSS JOIN LATERAL (
                SELECT count(*) FILTER (WHERE state = 'ACTIVE')::bigint AS active, count(*) FILTER (WHERE state = 'ARCHIVED')::bigint AS archived
                  FROM "DataRecordMembership" WHERE "teamId" = c."teamId" AND "collectionId" = c.id) m
          CROSS JOIN LATERAL (
                SELECT coalesce(sum(active), 0)::bigint AS active, coalesce(sum(archived), 0)::bigint AS archived
                  FROM "DataRecordCountDelta" WHERE "teamId" = c."teamId" AND "collectionId" = c.id) d
          WHERE $1::bigint IS NULL OR c."teamId" = $1
       ), drift AS (
         SELECT * FROM compared WHERE "countedActive" <> "recordedActive" OR "countedArchived" <> "recordedArchived"
       ), repaired AS (
         INSERT INTO "DataRecordCountDelta" ("teamId", "collectionId", active, archived)
         SELECT "teamId", "collectionId", "countedActive" - "recordedActive", "countedArchived" - "recordedArchived" FROM drift WHERE $2::boolean
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM compared)::int AS collections, (SELECT count(*) FROM repaired)::int AS repaired,
              (SELECT coalesce(json_agg(json_build_object(
                 'teamId', "teamId"::text, 'collectionId', "collectionId"::text, 'teamSimplyId', "teamSimplyId", 'collectionSimplyId', "collectionSimplyId",
                 'countedActive', "countedActive", 'countedArchived', "countedArchived", 'recordedActive', "recordedActive", 'recordedArchived', "recordedArchived")
               ORDER BY "teamSimplyId", "collectionSimplyId"), '[]') FROM drift) AS drift`,
      [options.teamId ?? null, fix],
    );
    return rows[0] as { collections: number; drift: Record<string, any>[] };
  };
  const result = fix
    ? await inTransaction(pool, async (db) => {
        // two concurrent `--fix` runs would otherwise both write the same correction
        const lock = advisoryLock('recordCountRepair', 'all');
        await db.query(lock.text, lock.values);
        return check(db);
      })
    : await check(pool);
  const mismatches: CountMismatch[] = [];
  for (const row of result.drift) {
    for (const [state, counted, recorded] of [
      ['ACTIVE', row.countedActive, row.recordedActive],
      ['ARCHIVED', row.countedArchived, row.recordedArchived],
    ] as const) {
      if (counted === recorded) continue;
      mismatches.push({
        teamSimplyId: row.teamSimplyId,
        collectionSimplyId: row.collectionSimplyId,
        teamId: BigInt(row.teamId),
        collectionId: BigInt(row.collectionId),
        state,
        counted: Number(counted),
        recorded: Number(recorded),
        fixed: fix,
      });
    }
  }
  return { collections: result.collections, mismatches };
}
