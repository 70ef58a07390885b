// Keyed effects: a side effect a job makes exactly once, however often the job runs.
//
// pg-boss hands a job whose worker died to another worker, which runs it again from the start; an
// effect the dead worker committed (a created record, a wizard run) must not happen twice. The
// effect's own transaction claims the job's key for it (an EffectKey row, INSERT … ON CONFLICT DO
// NOTHING) before it writes, and settles the claim with what it produced. The row commits exactly
// when the effect does, so a repeat finds it and answers with the first run's result (the created
// record's simplyId) instead of writing; a rolled-back attempt leaves no row and the retry does the
// effect. Two runs claiming at once take turns: the second waits on the first's uncommitted row and
// then, if the first committed, finds it.
//
// Usage (docs/architecture.md, "Keyed effects"):
//   const claim = await claimEffect(db, teamId, key);         // first statement of the transaction
//   if (!claim.claimed) return claim.result;                   // done before: answer as then
//   const made = await doTheEffect(db);
//   await claim.settle({ dataRecordSimplyId: made.simplyId }); // what a repeat answers with
// or `effectOnce(db, teamId, key, () => doTheEffect(db))`. `findEffect` reads a key outside the
// transaction, so a repeat can skip work (validation, reads) that only the first run needs.
//
// A key names its unit of work first (an automation execution's simplyId carries its kind's
// prefix), so keys of different jobs never meet: `<execution>:<action>:<record>` for automations.
import type pg from 'pg';
import type { Tx } from './transaction.ts';

/** Where a claim runs: a pg connection in a transaction (`inTransaction`) or a Prisma transaction. */
export type EffectDb = Pick<pg.ClientBase, 'query'> | Tx;

/** A claim's answer. Results are stored as JSON (jsonb): plain data, no bigint or Date. */
export type EffectClaim<T> =
  | {
      claimed: true;
      /** stores what the effect produced, for a repeat to answer with (in the same transaction) */
      settle(result: T): Promise<void>;
    }
  | {
      claimed: false;
      /** what the first run settled, or null when it settled nothing */
      result: T | null;
    };

/** The most a key may hold: keys are built from ids, never from user text of any length. */
export const MAX_EFFECT_KEY_LENGTH = 500;

function checkKey(key: string): void {
  if (key.length === 0 || key.length > MAX_EFFECT_KEY_LENGTH) throw new Error(`An effect key takes 1 to ${MAX_EFFECT_KEY_LENGTH} characters (got ${key.length})`);
}

async function run<R>(db: EffectDb | pg.Pool, sql: string, params: unknown[]): Promise<R[]> {
  if ('$queryRawUnsafe' in db) return db.$queryRawUnsafe<R[]>(sql, ...params);
  return (await db.query(sql, params)).rows as R[];
}

/**
 * Claims `key` for an effect about to be made in `db`'s transaction. `claimed: false` means an
 * earlier, committed run made it: do nothing and answer with `result`. Call it before the effect's
 * writes, so a concurrent run of the same key waits here instead of writing too.
 */
export async function claimEffect<T = unknown>(db: EffectDb, teamId: bigint, key: string): Promise<EffectClaim<T>> {
  checkKey(key);
  const inserted = await run(db, `INSERT INTO "EffectKey" ("teamId", key) VALUES ($1::bigint, $2) ON CONFLICT DO NOTHING RETURNING 1 AS claimed`, [teamId, key]);
  if (inserted.length === 0) {
    // a new statement: under READ COMMITTED it sees the row the conflicting run committed
    const [row] = await run<{ result: T | null }>(db, `SELECT result FROM "EffectKey" WHERE "teamId" = $1::bigint AND key = $2`, [teamId, key]);
    return { claimed: false, result: row?.result ?? null };
  }
  return {
    claimed: true,
    settle: async (result: T) => {
      await run(db, `UPDATE "EffectKey" SET result = $3::jsonb WHERE "teamId" = $1::bigint AND key = $2`, [teamId, key, JSON.stringify(result)]);
    },
  };
}

/** The effect made under `key` (its settled result, null when it settled nothing), or null when none was made. */
export async function findEffect<T = unknown>(db: EffectDb | pg.Pool, teamId: bigint, key: string): Promise<{ result: T | null } | null> {
  checkKey(key);
  const [row] = await run<{ result: T | null }>(db, `SELECT result FROM "EffectKey" WHERE "teamId" = $1::bigint AND key = $2`, [teamId, key]);
  return row ? { result: row.result ?? null } : null;
}

/**
 * `effect` once per key, in `db`'s transaction: claimed, made and settled with its result; or, when
 * an earlier run made it, not made again (`replayed: true` with that run's result).
 */
export async function effectOnce<T>(
  db: EffectDb,
  teamId: bigint,
  key: string,
  effect: () => Promise<T>,
): Promise<{ replayed: false; result: T } | { replayed: true; result: T | null }> {
  const claim = await claimEffect<T>(db, teamId, key);
  if (!claim.claimed) return { replayed: true, result: claim.result };
  const result = await effect();
  await claim.settle(result);
  return { replayed: false, result };
}
