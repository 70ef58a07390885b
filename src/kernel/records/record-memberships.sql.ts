// Which collections records belong to: a record is a member of the collection it was created in
// and of the SMART collections whose criteria it meets, each membership ACTIVE, ARCHIVED or (once
// the record is deleted) DELETED. One statement whatever the number of records.
import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

export type MembershipState = 'ACTIVE' | 'ARCHIVED' | 'DELETED';

export interface CollectionMember {
  id: bigint;
  simplyId: string;
  state: MembershipState;
  /** the record itself was deleted (its row stays, Document 1 §3) */
  deleted: boolean;
}

/** The records among `simplyIds` with a membership of the collection in any state, deleted records included; others are left out. */
export async function findCollectionMembers(db: Db, teamId: bigint, collectionId: bigint, simplyIds: readonly string[]): Promise<CollectionMember[]> {
  if (simplyIds.length === 0) return [];
  const { rows } = await db.query(
    `SELECT r.id, r."simplyId", m.state, r."deletedAt" IS NOT NULL AS deleted
       FROM "DataRecord" r
       JOIN "DataRecordMembership" m ON m."teamId" = r."teamId" AND m."collectionId" = $3 AND m."recordId" = r.id
      WHERE r."teamId" = $1 AND r."simplyId" = ANY($2::text[])`,
    [teamId, simplyIds, collectionId],
  );
  return rows.map((r) => ({ id: BigInt(r.id), simplyId: r.simplyId as string, state: r.state as MembershipState, deleted: r.deleted === true }));
}

/** The collections each record is a (not DELETED) member of, ascending, by record id; a record in none is absent. */
export async function memberCollectionIds(db: Db, teamId: bigint, recordIds: readonly bigint[]): Promise<Map<bigint, bigint[]>> {
  const out = new Map<bigint, bigint[]>();
  if (recordIds.length === 0) return out;
  const { rows } = await db.query(
    `SELECT "recordId", "collectionId" FROM "DataRecordMembership"
      WHERE "teamId" = $1 AND "recordId" = ANY($2::bigint[]) AND state <> 'DELETED'
      ORDER BY "recordId", "collectionId"`,
    [teamId, recordIds.map(String)],
  );
  for (const r of rows) {
    const recordId = BigInt(r.recordId);
    const ids = out.get(recordId);
    if (ids) ids.push(BigInt(r.collectionId));
    else out.set(recordId, [BigInt(r.collectionId)]);
  }
  return out;
}
