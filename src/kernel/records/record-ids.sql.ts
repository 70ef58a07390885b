// Records' internal ids, for work that holds many records by id (walking a selection in id order)
// without reading their values.
import type pg from 'pg';

/** Internal ids of the live records among `simplyIds`, ascending; unknown ids and ids of other teams are not found. */
export async function liveRecordIds(db: pg.Pool | pg.PoolClient, teamId: bigint, simplyIds: readonly string[]): Promise<bigint[]> {
  if (simplyIds.length === 0) return [];
  const { rows } = await db.query(`SELECT id FROM "DataRecord" WHERE "teamId" = $1 AND "simplyId" = ANY($2::text[]) AND "deletedAt" IS NULL ORDER BY id`, [teamId, simplyIds]);
  return rows.map((r) => BigInt(r.id));
}
