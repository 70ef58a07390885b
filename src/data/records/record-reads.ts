// Record reads: one statement for a get, one for a page (plus a COUNT when the page cannot tell
// the total). Every statement is scoped by teamId first.
import type pg from 'pg';
import type { NormalizedFilter } from '../values/index.ts';
import type { FieldDefinition } from '../schema/team-schema.ts';
import { compileFilters } from './record-filters.ts';
import { SqlParams } from './sql.ts';

export interface RecordRow {
  id: bigint;
  simplyId: string;
  /** the collection the record was created in */
  collectionId: bigint;
  values: Record<string, unknown>;
  calculatedName: string;
  createdAt: Date;
  updatedAt: Date;
  isArchived: boolean;
}

const RECORD_COLUMNS = `r.id, r."simplyId", r."collectionId", r.values, r."calculatedName", r."createdAt", r."updatedAt"`;

export function toRecordRow(row: Record<string, any>): RecordRow {
  return {
    id: BigInt(row.id),
    simplyId: row.simplyId,
    collectionId: BigInt(row.collectionId),
    values: row.values ?? {},
    calculatedName: row.calculatedName,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    isArchived: row.isArchived === true,
  };
}

/** Live (not deleted) records by simplyId, with their archive state in their own collection. */
export async function findRecords(db: pg.Pool | pg.PoolClient, teamId: bigint, simplyIds: readonly string[]): Promise<RecordRow[]> {
  if (simplyIds.length === 0) return [];
  const { rows } = await db.query(
    `SELECT ${RECORD_COLUMNS}, (m.state = 'ARCHIVED') AS "isArchived"
       FROM "DataRecord" r
       LEFT JOIN "DataRecordMembership" m ON m."teamId" = r."teamId" AND m."collectionId" = r."collectionId" AND m."recordId" = r.id
      WHERE r."teamId" = $1 AND r."simplyId" = ANY($2::text[]) AND r."deletedAt" IS NULL`,
    [teamId, simplyIds],
  );
  return rows.map(toRecordRow);
}

export type SortKey = 'createdAt' | 'updatedAt' | 'calculatedName';
export interface SortSpec {
  key: SortKey;
  descending: boolean;
}

const SORT_COLUMNS: Record<SortKey, string> = {
  createdAt: 'm."recordCreatedAt"',
  updatedAt: 'm."recordUpdatedAt"',
  calculatedName: 'm."nameSort"',
};

/** Document 1 §8: comma list, `-` for descending; unknown keys fall back to createdAt; default -createdAt. */
export function parseSort(raw: string | null | undefined): SortSpec[] {
  const specs: SortSpec[] = [];
  for (const part of (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const descending = part.startsWith('-');
    const name = descending ? part.slice(1) : part;
    const key: SortKey = name === 'updatedAt' || name === 'calculatedName' ? name : 'createdAt';
    if (!specs.some((s) => s.key === key)) specs.push({ key, descending });
  }
  return specs.length ? specs : [{ key: 'createdAt', descending: true }];
}

export interface PageQuery {
  teamId: bigint;
  collectionId: bigint;
  filters: readonly NormalizedFilter[];
  fieldsById: ReadonlyMap<string, FieldDefinition>;
  sort: SortSpec[];
  limit: number;
  offset: number;
}

export async function findRecordPage(db: pg.Pool, q: PageQuery): Promise<{ rows: RecordRow[]; total: number }> {
  const sql = new SqlParams();
  const team = sql.param(q.teamId);
  const collection = sql.param(q.collectionId);
  const compiled = compileFilters(q.filters, q.fieldsById, sql, team);
  const where = [`m."teamId" = ${team}`, `m."collectionId" = ${collection}`, `m.state = '${compiled.archived ? 'ARCHIVED' : 'ACTIVE'}'`, ...compiled.conditions].join(' AND ');
  const first = q.sort[0]!;
  const order = [...q.sort.map((s) => `${SORT_COLUMNS[s.key]} ${s.descending ? 'DESC' : 'ASC'}`), `m."recordId" ${first.descending ? 'DESC' : 'ASC'}`].join(', ');
  const countParams = [...sql.values];
  const page = await db.query(
    `SELECT ${RECORD_COLUMNS}, (m.state = 'ARCHIVED') AS "isArchived"
       FROM "DataRecordMembership" m
       JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"
      WHERE ${where}
      ORDER BY ${order}
      LIMIT ${sql.param(q.limit)} OFFSET ${sql.param(q.offset)}`,
    sql.values,
  );
  const rows = page.rows.map(toRecordRow);
  // a short, non-empty page (or an empty first page) already tells the total
  if (rows.length < q.limit && (rows.length > 0 || q.offset === 0)) return { rows, total: q.offset + rows.length };
  const join = compiled.needsRecord ? `JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"` : '';
  const count = await db.query(`SELECT count(*)::int AS total FROM "DataRecordMembership" m ${join} WHERE ${where}`, countParams);
  return { rows, total: count.rows[0].total };
}
