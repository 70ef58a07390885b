// Records looked up the way other areas keep them (a signing request's source record, an audit
// entry's subject): by internal id or simplyId, soft-deleted records included, since those
// references outlive the record's deletion. One statement whatever the number of ids; ids of
// another team are not found.
import type pg from 'pg';
import { type RecordRow, toRecordRow } from './records.sql.ts';

type Db = pg.Pool | pg.PoolClient;

export interface StoredRecord extends RecordRow {
  /** set once the record was deleted (the row stays, Document 1 §3) */
  deletedAt: Date | null;
}

/** The records of these internal ids, soft-deleted ones included, in no particular order. */
export async function findRecordsById(db: Db, teamId: bigint, ids: readonly bigint[]): Promise<StoredRecord[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query(
    `SELECT r.id, r."simplyId", r."collectionId", r.values, r."calculatedName", r."createdAt", r."updatedAt", r."deletedAt", (m.state = 'ARCHIVED') AS "isArchived"
       FROM "DataRecord" r
       LEFT JOIN "DataRecordMembership" m ON m."teamId" = r."teamId" AND m."collectionId" = r."collectionId" AND m."recordId" = r.id
      WHERE r."teamId" = $1 AND r.id = ANY($2::bigint[])`,
    [teamId, [...new Set(ids)]],
  );
  return rows.map((row) => ({ ...toRecordRow(row), deletedAt: row.deletedAt ?? null }));
}

/** The simplyId of each record by internal id, soft-deleted ones included: for views that show stored references, without reading values. */
export async function recordSimplyIds(db: Db, teamId: bigint, ids: readonly bigint[]): Promise<Map<bigint, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query(`SELECT id, "simplyId" FROM "DataRecord" WHERE "teamId" = $1 AND id = ANY($2::bigint[])`, [teamId, [...new Set(ids)]]);
  return new Map(rows.map((r) => [BigInt(r.id), r.simplyId as string]));
}

/** The collection each record was created in, by record simplyId, soft-deleted records included (a record's history outlives it). */
export async function recordCollectionIds(db: Db, teamId: bigint, simplyIds: readonly string[]): Promise<Map<string, bigint>> {
  if (simplyIds.length === 0) return new Map();
  const { rows } = await db.query(`SELECT "simplyId", "collectionId" FROM "DataRecord" WHERE "teamId" = $1 AND "simplyId" = ANY($2::text[])`, [teamId, [...new Set(simplyIds)]]);
  return new Map(rows.map((r) => [r.simplyId as string, BigInt(r.collectionId)]));
}
