// The collection records were created in, for records of several teams at once: work that runs over
// a batch spanning teams (an outbox dispatch) asks once for all of it rather than once per team.
import type pg from 'pg';

export interface TeamRecordRef {
  teamId: bigint | string;
  simplyId: string;
}

export interface RecordCollection {
  teamId: string;
  recordSimplyId: string;
  collectionSimplyId: string;
}

/** Each record's collection (by simplyIds), soft-deleted records included; unknown records are left out. Every pair is looked up in its own team. */
export async function collectionsOfTeamRecords(db: pg.Pool | pg.PoolClient, records: readonly TeamRecordRef[]): Promise<RecordCollection[]> {
  if (records.length === 0) return [];
  const { rows } = await db.query<RecordCollection>(
    `SELECT r."teamId"::text AS "teamId", r."simplyId" AS "recordSimplyId", c."simplyId" AS "collectionSimplyId"
       FROM unnest($1::bigint[], $2::text[]) AS k(t, s)
       JOIN "DataRecord" r ON r."teamId" = k.t AND r."simplyId" = k.s
       JOIN "DataCollection" c ON c."teamId" = r."teamId" AND c.id = r."collectionId"`,
    [records.map((r) => String(r.teamId)), records.map((r) => r.simplyId)],
  );
  return rows;
}
