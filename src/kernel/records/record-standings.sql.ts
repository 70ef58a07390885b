// Where records stand, by simplyId: what an area that keeps something about a record (a history, a
// session) needs to decide who may see it. Soft-deleted records are included, since what areas
// keep outlives the record. One statement whatever the number of ids.
import type pg from 'pg';
import type { MembershipState } from './record-memberships.sql.ts';

export interface RecordStanding {
  id: bigint;
  /** the collection the record was created in */
  collectionId: bigint;
  /** DELETED once the record was deleted, else its membership's state in its own collection */
  state: MembershipState;
}

/** simplyId → the record's standing, soft-deleted records included; unknown ids and ids of other teams are absent. */
export async function findRecordStandings(db: pg.Pool | pg.PoolClient, teamId: bigint, simplyIds: readonly string[]): Promise<Map<string, RecordStanding>> {
  if (simplyIds.length === 0) return new Map();
  const { rows } = await db.query(
    `SELECT r.id, r."simplyId", r."collectionId",
            CASE WHEN r."deletedAt" IS NOT NULL THEN 'DELETED' WHEN m.state = 'ARCHIVED' THEN 'ARCHIVED' ELSE 'ACTIVE' END AS state
       FROM "DataRecord" r
       LEFT JOIN "DataRecordMembership" m ON m."teamId" = r."teamId" AND m."collectionId" = r."collectionId" AND m."recordId" = r.id
      WHERE r."teamId" = $1 AND r."simplyId" = ANY($2::text[])`,
    [teamId, [...new Set(simplyIds)]],
  );
  return new Map(rows.map((r) => [r.simplyId as string, { id: BigInt(r.id), collectionId: BigInt(r.collectionId), state: r.state as MembershipState }]));
}

/**
 * The standing of one record as a subquery an area's own statement can start from, so a hot read
 * that needs the record and the area's rows stays one round trip (a record's message history). It
 * yields no row for an unknown id; else one row: "teamId", id, "collectionId", deleted, archived.
 * `teamParam` and `simplyIdParam` are the statement's placeholders (`$1`, `$2`).
 */
export function recordStandingSql(teamParam: string, simplyIdParam: string): string {
  return `SELECT r."teamId", r.id, r."collectionId", r."deletedAt" IS NOT NULL AS deleted, COALESCE(m.state = 'ARCHIVED', false) AS archived
            FROM "DataRecord" r
            LEFT JOIN "DataRecordMembership" m ON m."teamId" = r."teamId" AND m."collectionId" = r."collectionId" AND m."recordId" = r.id
           WHERE r."teamId" = ${teamParam} AND r."simplyId" = ${simplyIdParam}`;
}
