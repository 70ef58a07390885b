// The records of an export, read in keyset pages by record id over the collection's memberships
// (its primary key (teamId, collectionId, recordId) is the walk): each page is one index range,
// however far into the collection, and memory holds one page at a time. Filters are the
// record-search filters compiled by the records area; a record selection is resolved to internal
// ids once and walked in slices. Every statement names the team.
import type pg from 'pg';
import type { FieldDefinition } from '../../../kernel/index.ts';
import type { NormalizedFilter } from '../../../kernel/index.ts';
import { compileFilters } from '../../../kernel/index.ts';
import { SqlParams } from '../../../kernel/index.ts';

export interface ExportRecordRow {
  id: bigint;
  simplyId: string;
  values: Record<string, unknown>;
  calculatedName: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ExportQuery {
  teamId: bigint;
  collectionId: bigint;
  filters: readonly NormalizedFilter[];
  /** the fields filters may name (simplyId → definition) */
  fieldsById: ReadonlyMap<string, FieldDefinition>;
  /** internal ids of the selected records, ascending; null: no selection */
  recordIds: readonly bigint[] | null;
}

/** Internal ids of live records among `simplyIds`, ascending (ids of other teams are simply not found). */
export async function selectedRecordIds(db: pg.Pool, teamId: bigint, simplyIds: readonly string[]): Promise<bigint[]> {
  const { rows } = await db.query(`SELECT id FROM "DataRecord" WHERE "teamId" = $1 AND "simplyId" = ANY($2::text[]) AND "deletedAt" IS NULL ORDER BY id`, [teamId, simplyIds]);
  return rows.map((r) => BigInt(r.id));
}

/** The statement's conditions over membership `m` and record `r`, with the parameters they use. */
function conditions(q: ExportQuery, recordIds: readonly bigint[] | null): { sql: SqlParams; where: string[] } {
  const sql = new SqlParams();
  const team = sql.param(q.teamId);
  const compiled = compileFilters(q.filters, q.fieldsById, sql, team);
  const where = [`m."teamId" = ${team}`, `m."collectionId" = ${sql.param(q.collectionId)}`, `m.state = '${compiled.archived ? 'ARCHIVED' : 'ACTIVE'}'`, ...compiled.conditions];
  if (recordIds) where.push(`m."recordId" = ANY(${sql.param(recordIds.map(String))}::bigint[])`);
  return { sql, where };
}

const RECORD_JOIN = `JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"`;

/** How many records the export will hold (its progress total). */
export async function countExportRecords(db: pg.Pool, q: ExportQuery): Promise<number> {
  if (q.recordIds && q.recordIds.length === 0) return 0;
  const { sql, where } = conditions(q, q.recordIds);
  const { rows } = await db.query(`SELECT count(*)::int AS total FROM "DataRecordMembership" m ${RECORD_JOIN} WHERE ${where.join(' AND ')}`, sql.values);
  return rows[0].total as number;
}

export interface ExportPage {
  rows: ExportRecordRow[];
  /** the cursor of the following page; null: this was the last one */
  next: bigint | null;
}

/** The page after record id `after` (0n: from the start): at most `limit` rows, by record id. */
export async function exportPage(db: pg.Pool, q: ExportQuery, after: bigint, limit: number): Promise<ExportPage> {
  // a selection is walked in slices of its sorted ids, so no statement carries more than `limit`
  // of them; a slice whose records the filters all drop is an empty page, not the end
  let slice: bigint[] | null = null;
  if (q.recordIds) {
    slice = q.recordIds.filter((id) => id > after).slice(0, limit);
    if (slice.length === 0) return { rows: [], next: null };
  }
  const { sql, where } = conditions(q, slice);
  where.push(`m."recordId" > ${sql.param(String(after))}::bigint`);
  const { rows } = await db.query(
    `SELECT r.id, r."simplyId", r.values, r."calculatedName", r."createdAt", r."updatedAt"
       FROM "DataRecordMembership" m ${RECORD_JOIN}
      WHERE ${where.join(' AND ')}
      ORDER BY m."recordId"
      LIMIT ${sql.param(limit)}`,
    sql.values,
  );
  const page = rows.map((r) => ({ ...r, id: BigInt(r.id), values: r.values ?? {} }) as ExportRecordRow);
  if (slice) return { rows: page, next: slice.length === limit ? slice[slice.length - 1]! : null };
  return { rows: page, next: page.length === limit ? page[page.length - 1]!.id : null };
}
