// Record reads: one statement for a get, one for a page (two for a filtered page the first
// memberships in sort order cannot fill; plus a COUNT when the page cannot tell the total).
// Every statement is scoped by teamId first.
import type pg from 'pg';
import type { NormalizedFilter } from '../collections/values/index.ts';
import type { FieldDefinition } from '../collections/team-schema.ts';
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
const MEMBERSHIPS = `"DataRecordMembership" m`;
/** what a page query orders and joins by (every SORT_COLUMNS entry) */
const MEMBERSHIP_COLUMNS = `m."teamId", m."recordId", m.state, m."recordCreatedAt", m."recordUpdatedAt", m."nameSort"`;

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
  const { rows } =
    simplyIds.length === 1
      ? await db.query({ name: 'svc_find_record', text: `${FIND_RECORDS} r."simplyId" = $2`, values: [teamId, simplyIds[0]] })
      : await db.query(`${FIND_RECORDS} r."simplyId" = ANY($2::text[])`, [teamId, simplyIds]);
  return rows.map(toRecordRow);
}

// One record (every get) is a named statement on `simplyId = $2`: each pooled connection plans
// it once and keeps the generic plan (a unique-index lookup, as cheap as any custom plan). Planning
// the two-table join cost PostgreSQL ~0.2 ms per get, three times the lookup itself. The `ANY`
// form is not named: its generic plan assumes 10 ids, so PostgreSQL would plan every call anyway.
const FIND_RECORDS = `SELECT ${RECORD_COLUMNS}, (m.state = 'ARCHIVED') AS "isArchived"
   FROM "DataRecord" r
   LEFT JOIN "DataRecordMembership" m ON m."teamId" = r."teamId" AND m."collectionId" = r."collectionId" AND m."recordId" = r.id
  WHERE r."teamId" = $1 AND r."deletedAt" IS NULL AND`;

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

/**
 * Memberships scanned in sort order before a filtered page falls back to the planner's own plan:
 * enough for the first page of a filter that matches a few percent of the collection.
 */
const WALK_ROWS_PER_PAGE_ROW = 20;
const MIN_WALK_ROWS = 500;
const MAX_WALK_ROWS = 20_000;

export async function findRecordPage(db: pg.Pool, q: PageQuery): Promise<{ rows: RecordRow[]; total: number }> {
  const sql = new SqlParams();
  const team = sql.param(q.teamId);
  const collection = sql.param(q.collectionId);
  const compiled = compileFilters(q.filters, q.fieldsById, sql, team);
  const scope = [`m."teamId" = ${team}`, `m."collectionId" = ${collection}`, `m.state = '${compiled.archived ? 'ARCHIVED' : 'ACTIVE'}'`];
  const where = [...scope, ...compiled.conditions].join(' AND ');
  const first = q.sort[0]!;
  const order = [...q.sort.map((s) => `${SORT_COLUMNS[s.key]} ${s.descending ? 'DESC' : 'ASC'}`), `m."recordId" ${first.descending ? 'DESC' : 'ASC'}`].join(', ');
  const recordJoin = `JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"`;
  const filterJoin = compiled.needsRecord ? recordJoin : '';
  const countParams = [...sql.values];
  const limit = sql.param(q.limit);
  const offset = sql.param(q.offset);
  // The page is chosen on memberships alone (and the record row only when a condition reads it);
  // the record rows are then read for the page's rows, not for every match before the sort.
  const pageOf = (memberships: string, filter: string, withTotal: boolean) =>
    `SELECT ${RECORD_COLUMNS}, (m.state = 'ARCHIVED') AS "isArchived"${withTotal ? ', m.total' : ''}
       FROM (SELECT ${MEMBERSHIP_COLUMNS}${withTotal ? ', count(*) OVER ()::int AS total' : ''} FROM ${memberships} ${filterJoin}
              WHERE ${filter}
              ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}) m
       ${recordJoin}
      ORDER BY ${order}`;
  const filtered = compiled.conditions.length > 0;
  let rows: RecordRow[] | null = null;
  let total: number | null = null;
  if (filtered) {
    // Walk first: the first memberships in sort order, filtered. A filter that matches a good
    // share of the collection fills the page from a few hundred rows, where the planner, which
    // cannot see how often a key occurs within one field (fieldId and prefix are correlated),
    // would otherwise join every match and sort them. Only a full page is a right answer: the
    // walk may have stopped short of matches further on.
    const walkRows = Math.min(MAX_WALK_ROWS, Math.max(MIN_WALK_ROWS, (q.offset + q.limit) * WALK_ROWS_PER_PAGE_ROW));
    const walk = `(SELECT ${MEMBERSHIP_COLUMNS} FROM ${MEMBERSHIPS} WHERE ${scope.join(' AND ')} ORDER BY ${order} LIMIT ${walkRows}) m`;
    const walked = await db.query(pageOf(walk, compiled.conditions.join(' AND '), false), sql.values);
    if (walked.rows.length === q.limit) rows = walked.rows.map(toRecordRow);
  }
  if (!rows) {
    // A filtered page the walk could not fill is found among all matches, so it carries their
    // count (a window over the same rows) instead of a second statement that would join the key
    // probes again. An unfiltered page stays a LIMIT on the index order, counted apart.
    const page = await db.query(pageOf(MEMBERSHIPS, where, filtered), sql.values);
    rows = page.rows.map(toRecordRow);
    if (filtered && page.rows.length > 0) total = page.rows[0].total;
  }
  if (total !== null) return { rows, total };
  // a short, non-empty page (or an empty first page) already tells the total
  if (rows.length < q.limit && (rows.length > 0 || q.offset === 0)) return { rows, total: q.offset + rows.length };
  const count = await db.query(`SELECT count(*)::int AS total FROM ${MEMBERSHIPS} ${filterJoin} WHERE ${where}`, countParams);
  return { rows, total: count.rows[0].total };
}
