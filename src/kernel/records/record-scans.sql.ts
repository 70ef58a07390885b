// Walks over the records of a collection that match search filters, in record-id order, for work
// that visits every match once (an export, a bulk change) rather than a sorted page. A walk is
// keyset-paged by record id over the membership primary key (teamId, collectionId, recordId), so
// each page is one index range however deep into the collection, and memory holds one page.
import type pg from 'pg';
import type { FieldDefinition } from '../schema/team-schema.ts';
import type { NormalizedFilter } from '../values/index.ts';
import { compileFilters } from './record-filters.sql.ts';
import type { RecordRow } from './records.sql.ts';
import { SqlParams } from '../../db/sql-params.ts';

type Db = pg.Pool | pg.PoolClient;

export interface RecordScan {
  teamId: bigint;
  collectionId: bigint;
  /** normalized search filters: active records, or archived ones under an isArchived filter */
  filters: readonly NormalizedFilter[];
  /** the fields the filters may name (simplyId → definition) */
  fieldsById: ReadonlyMap<string, FieldDefinition>;
  /** only records among these internal ids; null or absent: the whole collection */
  recordIds?: readonly bigint[] | null;
}

export interface ScanWindow {
  /** records with a greater id only; absent: from the start */
  after?: bigint;
  limit: number;
}

// a deleted record's memberships are DELETED, so the state condition of every scan leaves it out
const RECORD_JOIN = `JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"`;

/** The scan's conditions over membership `m` and record `r`, with the parameters they use. */
function scanWhere(scan: RecordScan, after?: bigint): { sql: SqlParams; where: string } {
  const sql = new SqlParams();
  const team = sql.param(scan.teamId);
  const compiled = compileFilters(scan.filters, scan.fieldsById, sql, team);
  const where = [`m."teamId" = ${team}`, `m."collectionId" = ${sql.param(scan.collectionId)}`, `m.state = '${compiled.archived ? 'ARCHIVED' : 'ACTIVE'}'`, ...compiled.conditions];
  if (scan.recordIds) where.push(`m."recordId" = ANY(${sql.param(scan.recordIds.map(String))}::bigint[])`);
  if (after !== undefined) where.push(`m."recordId" > ${sql.param(String(after))}::bigint`);
  return { sql, where: where.join(' AND ') };
}

function isEmpty(scan: RecordScan): boolean {
  return scan.recordIds?.length === 0;
}

/** How many records the scan matches. */
export async function countScannedRecords(db: Db, scan: RecordScan): Promise<number> {
  if (isEmpty(scan)) return 0;
  const { sql, where } = scanWhere(scan);
  const { rows } = await db.query(`SELECT count(*)::int AS total FROM "DataRecordMembership" m ${RECORD_JOIN} WHERE ${where}`, sql.values);
  return rows[0].total as number;
}

/** A record as a walk reads it: what an export or a bulk change needs, nothing per row beyond. */
export type ScannedRecord = Pick<RecordRow, 'id' | 'simplyId' | 'values' | 'calculatedName' | 'createdAt' | 'updatedAt'>;

/** The matching records of one window, whole, by ascending id. */
export async function scanRecords(db: Db, scan: RecordScan, window: ScanWindow): Promise<ScannedRecord[]> {
  if (isEmpty(scan)) return [];
  const { sql, where } = scanWhere(scan, window.after);
  const { rows } = await db.query(
    `SELECT r.id, r."simplyId", r.values, r."calculatedName", r."createdAt", r."updatedAt"
       FROM "DataRecordMembership" m ${RECORD_JOIN}
      WHERE ${where}
      ORDER BY m."recordId"
      LIMIT ${sql.param(window.limit)}`,
    sql.values,
  );
  // a walk reads whole collections: rows stay as pg gives them but for the id and the values
  return rows.map((r) => ({ ...r, id: BigInt(r.id), values: r.values ?? {} }) as ScannedRecord);
}

/** The ids of the matching records of one window, by ascending id, without reading their values. */
export async function scanRecordIds(db: Db, scan: RecordScan, window: ScanWindow): Promise<{ id: bigint; simplyId: string }[]> {
  if (isEmpty(scan)) return [];
  const { sql, where } = scanWhere(scan, window.after);
  const { rows } = await db.query(
    `SELECT m."recordId" AS id, r."simplyId" FROM "DataRecordMembership" m ${RECORD_JOIN}
      WHERE ${where}
      ORDER BY m."recordId"
      LIMIT ${sql.param(window.limit)}`,
    sql.values,
  );
  return rows.map((r) => ({ id: BigInt(r.id), simplyId: r.simplyId as string }));
}
