// The raw SQL of records (hot paths and set-based writes; configuration CRUD goes through Prisma).
// Reads: one statement for a get, one for a page (its total from the record counters when
// unfiltered). A filtered page: one statement when it has few matches; else their count and a
// walk in sort order (and the page among all matches when the walk comes up short).
// Writes run inside one transaction: the record rows, their memberships (with the sort-key
// copies), their filter keys, and the SMART memberships that depend on them. Multi-row statements
// (unnest) keep a batch of 100 at a handful of round trips.
// Every statement is scoped by teamId first.
import pg from 'pg';
import { advisoryLocks } from '../../db/advisory-locks.ts';
import { type NormalizedFilter, normalizeFilters } from '../values/index.ts';
import type { CollectionDefinition, FieldDefinition, TeamSchema } from '../schema/team-schema.ts';
import { nameKeyOf } from './calculated-name.ts';
import { counterColumns, readCounts } from './record-counts.sql.ts';
import { compileFilters, keyMatches, type MatchScope, ownActiveMatches, probeCondition } from './record-filters.sql.ts';
import { type KeyRow, keyRowsFor, keyRowsOf, prefixOf } from './record-keys.ts';
import { requestCountFold } from './records.jobs.ts';
import { SqlParams } from '../../db/sql-params.ts';
import { statementName } from '../../db/statement-name.ts';
import { queryDecoded, readBoolean, type DecodedStatement, type RowValues } from '../../db/decoded-query.ts';
import { CoalescedLookups } from '../../db/coalesced-lookups.ts';
import { readRows } from '../../db/shared-reads.ts';
import { isoFromTimestampText } from '../../db/timestamp-parser.ts';
import { isoTime } from '../../app/iso-time.ts';

export interface RecordRow {
  id: bigint;
  simplyId: string;
  /** the collection the record was created in */
  collectionId: bigint;
  values: Record<string, unknown>;
  calculatedName: string;
  /** ISO 8601 (UTC, milliseconds), as every face writes it: a record read is not made a Date to be written out again */
  createdAt: string;
  updatedAt: string;
  isArchived: boolean;
}

const RECORD_COLUMNS = `r.id, r."simplyId", r."collectionId", r.values, r."calculatedName", r."createdAt", r."updatedAt"`;
const MEMBERSHIPS = `"DataRecordMembership" m`;
/**
 * What a page row hands back from its subquery `m` (RECORD_COLUMNS and the archive state): the
 * sort keys the subquery also carries order the rows but are not sent, so the pool does not read
 * two more timestamps, an id and a sort key per row.
 */
const PAGE_ROW_COLUMNS = `m.id, m."simplyId", m."collectionId", m.values, m."calculatedName", m."createdAt", m."updatedAt", m."isArchived"`;
/** what a page query orders and joins by (every SORT_COLUMNS entry) */
const MEMBERSHIP_COLUMNS = `m."teamId", m."recordId", m.state, m."recordCreatedAt", m."recordUpdatedAt", m."nameSort"`;

export function toRecordRow(row: Record<string, any>): RecordRow {
  return {
    id: BigInt(row.id),
    simplyId: row.simplyId,
    collectionId: BigInt(row.collectionId),
    values: row.values ?? {},
    calculatedName: row.calculatedName,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    isArchived: row.isArchived === true,
  };
}

/**
 * A record read by the statements that select RECORD_COLUMNS (or PAGE_ROW_COLUMNS) and then
 * "isArchived" first, decoded from PostgreSQL's text by position; the same values toRecordRow
 * reads from node-postgres's row objects (`timestamp` columns as UTC ISO text, `json` parsed).
 */
export function decodeRecordRow(v: RowValues): RecordRow {
  return {
    id: BigInt(v[0]!),
    simplyId: v[1]!,
    collectionId: BigInt(v[2]!),
    values: v[3] == null ? {} : (JSON.parse(v[3]) as Record<string, unknown>),
    calculatedName: v[4]!,
    createdAt: isoFromTimestampText(v[5]!),
    updatedAt: isoFromTimestampText(v[6]!),
    isArchived: readBoolean(v[7]!),
  };
}

/** Live (not deleted) records by simplyId, with their archive state in their own collection. */
export async function findRecords(db: pg.Pool | pg.PoolClient, teamId: bigint, simplyIds: readonly string[]): Promise<RecordRow[]> {
  if (simplyIds.length === 0) return [];
  if (simplyIds.length === 1) {
    // a transaction reads alone (its own writes, its own connection); pool reads of one record share statements
    if (!(db instanceof pg.Pool)) return queryDecoded(db, oneRecord(teamId, simplyIds[0]!), decodeRecordRow);
    const row = await recordGets.lookup(db, teamId, simplyIds[0]!);
    return row ? [row] : [];
  }
  return queryDecoded(db, { text: `${FIND_RECORDS} r."simplyId" = ANY($2::text[])`, values: [teamId, simplyIds] }, decodeRecordRow);
}

/**
 * A page statement's records and the values of its first row (the columns after the record's:
 * its total, and the counter's pending rows). A page whose records come from a LEFT JOIN has one
 * row of nulls when it is empty. Identical page reads made together share a statement
 * (src/db/shared-reads.ts), so a page's rows are frozen: one page may be several callers' answer.
 */
async function readPage(db: pg.Pool, statement: DecodedStatement): Promise<{ rows: RecordRow[]; first: RowValues | null }> {
  const { rows, first } = await readRows(db, statement, decodePageRow);
  return { rows: first?.[0] === null ? [] : (rows as RecordRow[]), first };
}

function decodePageRow(v: RowValues): RecordRow | null {
  if (v[0] === null) return null;
  const row = decodeRecordRow(v);
  Object.freeze(row.values);
  return Object.freeze(row);
}

/** The collection simplyId each live record was created in, by record simplyId (reference checks). */
export async function findRecordHomes(db: pg.Pool | pg.PoolClient, teamId: bigint, simplyIds: readonly string[]): Promise<Map<string, string>> {
  const { rows } = await db.query(
    `SELECT r."simplyId", c."simplyId" AS "collectionSimplyId"
       FROM "DataRecord" r JOIN "DataCollection" c ON c."teamId" = r."teamId" AND c.id = r."collectionId"
      WHERE r."teamId" = $1 AND r."simplyId" = ANY($2::text[]) AND r."deletedAt" IS NULL`,
    [teamId, simplyIds],
  );
  return new Map(rows.map((r) => [r.simplyId as string, r.collectionSimplyId as string]));
}

// One record (every get) is a named statement on `simplyId = $2`: each pooled connection plans
// it once and keeps the generic plan (a unique-index lookup, as cheap as any custom plan). Planning
// the two-table join cost PostgreSQL ~0.2 ms per get, three times the lookup itself. The `ANY`
// form is not named: its generic plan assumes 10 ids, so PostgreSQL would plan every call anyway.
const FIND_RECORDS = `SELECT ${RECORD_COLUMNS}, (m.state = 'ARCHIVED') AS "isArchived"
   FROM "DataRecord" r
   LEFT JOIN "DataRecordMembership" m ON m."teamId" = r."teamId" AND m."collectionId" = r."collectionId" AND m."recordId" = r.id
  WHERE r."teamId" = $1 AND r."deletedAt" IS NULL AND`;

const oneRecord = (teamId: bigint, simplyId: string): DecodedStatement => ({ name: 'svc_find_record', text: `${FIND_RECORDS} r."simplyId" = $2`, values: [teamId, simplyId] });

// Record gets made together (one turn of the event loop, or waiting for a connection) are one
// statement (src/db/coalesced-lookups.ts).
// Up to 8 of them go in a statement of 8 fixed slots, the unused ones repeating the first id: a
// fixed number of parameters keeps one generic plan per connection, where `ANY($2)` of a varying
// array would be planned at every call (0.2 ms).
const GET_SLOTS = 8;
const FIND_RECORDS_IN_SLOTS = `${FIND_RECORDS} r."simplyId" IN (${Array.from({ length: GET_SLOTS }, (_, i) => `$${i + 2}`).join(', ')})`;
const recordGets = new CoalescedLookups<RecordRow>({
  slots: GET_SLOTS,
  statement: (teamId, simplyIds) =>
    simplyIds.length === 1
      ? oneRecord(teamId, simplyIds[0]!)
      : { name: 'svc_find_records_in_slots', text: FIND_RECORDS_IN_SLOTS, values: [teamId, ...Array.from({ length: GET_SLOTS }, (_, i) => simplyIds[i] ?? simplyIds[0])] },
  keyOf: (row) => row.simplyId,
  decode: decodeRecordRow,
});

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
 * Memberships a filtered page walks in sort order before it looks among all matches (enough for
 * the first page of a filter that matches a few percent of the collection), and the most matches
 * it reads directly instead of walking.
 */
const WALK_ROWS_PER_PAGE_ROW = 20;
const MIN_WALK_ROWS = 500;
const MAX_WALK_ROWS = 20_000;

/** A page bound written into a statement's text: only a non-negative safe integer gets there. */
function pageInteger(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a page bound: ${n}`);
  return n;
}

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
  if (!filtered) {
    // An unfiltered page is a LIMIT on the index order; its total is the collection's counter
    // (record-counts.sql.ts), read by the same statement as two one-time subqueries: one round
    // trip, and the total is of the page's snapshot. The page stays the statement's outer side,
    // so its rows come out in index order with nothing to sort. A page with no rows (past the end,
    // or an empty collection) carries no counter: it is read on its own then.
    // LIMIT and OFFSET are written into the text (checked integers): PostgreSQL's generic plan
    // assumes a parameter LIMIT or OFFSET covers a tenth of the collection and would hash-join
    // every record. The first page, by far the most read, is a named statement: planned once
    // per connection and reused, which more than halves the database's work per list request.
    const text = `SELECT ${RECORD_COLUMNS}, (m.state = 'ARCHIVED') AS "isArchived", ${counterColumns(team, collection, compiled.archived ? 'archived' : 'active')}
         FROM (SELECT ${MEMBERSHIP_COLUMNS} FROM ${MEMBERSHIPS} WHERE ${where} ORDER BY ${order} LIMIT ${pageInteger(q.limit)} OFFSET ${pageInteger(q.offset)}) m
         ${recordJoin}
        ORDER BY ${order}`;
    const values = countParams;
    const { rows, first } = await readPage(db, q.offset === 0 ? { name: statementName(text), text, values } : { text, values });
    if (first) {
      requestCountFold(db, q.teamId, q.collectionId, Number(first[9]));
      return { rows, total: Number(first[8]) };
    }
    const counts = (await readCounts(db, q.teamId, [q.collectionId])).get(String(q.collectionId));
    if (counts) requestCountFold(db, q.teamId, q.collectionId, counts.deltaRows);
    return { rows, total: counts ? (compiled.archived ? counts.archived : counts.active) : 0 };
  }
  const matchScope: MatchScope = { team, collection, collectionId: q.collectionId, state: compiled.archived ? 'ARCHIVED' : 'ACTIVE' };
  // Pages among at most this many matches are read from the matches themselves (one membership
  // read each), not from a walk (a probe per filter per membership, which may come up short).
  const fewMatches = Math.min(MAX_WALK_ROWS, Math.max(MIN_WALK_ROWS, (q.offset + q.limit) * WALK_ROWS_PER_PAGE_ROW));
  let total: number | null = null;
  const own = ownActiveMatches(compiled, matchScope);
  if (own) {
    // Matches first, from their keys (ownActiveMatches): counted, and when there are few, their
    // page too, in the same statement. The page's subquery runs only then (a one-time filter on
    // the count), so a broad filter costs the count and not a membership read per match.
    const { rows: found, first } = await readPage(db, {
      text: `WITH matches AS MATERIALIZED (SELECT d."recordId" FROM ${own.from} WHERE ${own.where.join(' AND ')}),
            counted AS (SELECT count(*)::int AS total FROM matches)
       SELECT ${PAGE_ROW_COLUMNS}, c.total
         FROM counted c
         LEFT JOIN (SELECT ${RECORD_COLUMNS}, (m.state = 'ARCHIVED') AS "isArchived", m."recordId", m."recordCreatedAt", m."recordUpdatedAt", m."nameSort"
                      FROM (SELECT ${MEMBERSHIP_COLUMNS} FROM matches d JOIN ${MEMBERSHIPS} ON m."teamId" = ${team} AND m."collectionId" = ${collection} AND m."recordId" = d."recordId"
                             WHERE (SELECT total FROM counted) <= ${fewMatches}
                             ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}) m
                      ${recordJoin}) m ON true
        ORDER BY ${order}`,
      values: sql.values,
    });
    total = Number(first![8]);
    if (total <= fewMatches) return { rows: found, total };
  }
  // Walk: the first memberships in sort order, each probed for the filters in turn (see
  // probeCondition). A filter that matches a good share of the collection fills the page from a
  // few hundred rows, where the planner, which cannot see how many keys one field holds, would
  // otherwise join every match and sort them. Only a full page is a right answer: the walk may
  // have stopped short of matches further on.
  const walk = `(SELECT ${MEMBERSHIP_COLUMNS} FROM ${MEMBERSHIPS} WHERE ${scope.join(' AND ')} ORDER BY ${order} LIMIT ${fewMatches}) m`;
  const eachRow = [...compiled.rowConditions, ...compiled.probes.map((p) => probeCondition(p, team, 'm."recordId"', true))];
  const walked = await readPage(db, { text: pageOf(walk, eachRow.join(' AND '), false), values: sql.values });
  let rows: RecordRow[];
  const matches = keyMatches(compiled, matchScope);
  if (walked.rows.length === q.limit) {
    rows = walked.rows;
  } else {
    // A page the walk could not fill is found among all matches, and carries their count (a
    // window over the same rows) unless it is known.
    const withTotal = total === null;
    const page = await readPage(db, { text: matches ? pageOf(matches.from, matches.where.join(' AND '), withTotal) : pageOf(MEMBERSHIPS, where, withTotal), values: sql.values });
    rows = page.rows;
    if (total === null && page.first) total = Number(page.first[8]);
    if (total === null && q.offset === 0) total = 0;
  }
  if (total !== null) return { rows, total };
  // a full page from the walk, or a page past the end
  const counted = matches ? `${matches.from} ${filterJoin} WHERE ${matches.where.join(' AND ')}` : `${MEMBERSHIPS} ${filterJoin} WHERE ${where}`;
  const count = await db.query(`SELECT count(*)::int AS total FROM ${counted}`, countParams);
  return { rows, total: count.rows[0].total };
}

// ------------------------------------------------------------------------------------------
// Writes

type Db = pg.PoolClient;

export interface NewRecord {
  simplyId: string;
  values: Record<string, unknown>;
  calculatedName: string;
}

export async function insertRecords(db: Db, teamId: bigint, collection: CollectionDefinition, fields: readonly FieldDefinition[], records: readonly NewRecord[]): Promise<RecordRow[]> {
  if (records.length === 0) return [];
  const inserted = await db.query(
    // nameKey is lower-cased here like every filter operand (JavaScript toLowerCase), not with SQL
    // lower(), which folds differently (İ, final Σ) and would make exact names unsearchable
    `INSERT INTO "DataRecord" ("simplyId", "teamId", "collectionId", values, "calculatedName", "nameKey")
     SELECT s, $1, $2, v::json, n, k FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS t(s, v, n, k)
     RETURNING id, "simplyId", "collectionId", values, "calculatedName", "createdAt", "updatedAt"`,
    [
      teamId,
      collection.id,
      records.map((r) => r.simplyId),
      records.map((r) => JSON.stringify(r.values)),
      records.map((r) => r.calculatedName),
      records.map((r) => nameKeyOf(r.calculatedName)),
    ],
  );
  const rows = inserted.rows.map(toRecordRow);
  await db.query(
    `INSERT INTO "DataRecordMembership" ("teamId", "collectionId", "recordId", state, "recordCreatedAt", "recordUpdatedAt", "nameSort")
     SELECT $1, $2, id, 'ACTIVE', c, c, ns FROM unnest($3::bigint[], $4::timestamptz[], $5::bytea[]) AS t(id, c, ns)`,
    [teamId, collection.id, rows.map((r) => r.id), rows.map((r) => r.createdAt), rows.map((r) => prefixOf(nameKeyOf(r.calculatedName)))],
  );
  const keys: { recordId: bigint; key: KeyRow }[] = [];
  for (const row of rows) for (const key of keyRowsOf(fields, row.values)) keys.push({ recordId: row.id, key });
  await insertKeys(db, teamId, keys);
  return rows;
}

async function insertKeys(db: Db, teamId: bigint, keys: { recordId: bigint; key: KeyRow }[]): Promise<void> {
  if (keys.length === 0) return;
  await db.query(
    `INSERT INTO "DataRecordKey" ("teamId", "recordId", "fieldId", "textKey", prefix, "numKey")
     SELECT $1, r, f, t, p, n FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::bytea[], $6::numeric[]) AS u(r, f, t, p, n)`,
    [teamId, keys.map((k) => k.recordId), keys.map((k) => k.key.fieldId), keys.map((k) => k.key.textKey), keys.map((k) => k.key.prefix), keys.map((k) => k.key.numKey)],
  );
}

/** Locks live records for update and returns them (the "before" of an update or delete). */
export async function lockRecords(db: Db, teamId: bigint, simplyIds: readonly string[]): Promise<RecordRow[]> {
  if (simplyIds.length === 0) return [];
  const { rows } = await db.query(
    `SELECT r.id, r."simplyId", r."collectionId", r.values, r."calculatedName", r."createdAt", r."updatedAt",
            EXISTS (SELECT 1 FROM "DataRecordMembership" m WHERE m."teamId" = r."teamId" AND m."collectionId" = r."collectionId" AND m."recordId" = r.id AND m.state = 'ARCHIVED') AS "isArchived"
       FROM "DataRecord" r
      WHERE r."teamId" = $1 AND r."simplyId" = ANY($2::text[]) AND r."deletedAt" IS NULL
      ORDER BY r.id
      FOR UPDATE OF r`,
    [teamId, simplyIds],
  );
  return rows.map(toRecordRow);
}

export interface RecordUpdate {
  before: RecordRow;
  values: Record<string, unknown>;
  calculatedName: string;
  /** fields whose stored value changed */
  changedFields: FieldDefinition[];
}

export async function updateRecords(db: Db, teamId: bigint, updates: readonly RecordUpdate[]): Promise<RecordRow[]> {
  if (updates.length === 0) return [];
  const updated = await db.query(
    // clock_timestamp(), not now() (the transaction's start): the rows were locked since, so
    // updatedAt follows the order in which concurrent writers of a record committed
    `UPDATE "DataRecord" r SET values = u.v::json, "calculatedName" = u.n, "nameKey" = u.k, "updatedAt" = clock_timestamp()
       FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) AS u(id, v, n, k)
      WHERE r."teamId" = $1 AND r.id = u.id
      RETURNING r.id, r."simplyId", r."collectionId", r.values, r."calculatedName", r."createdAt", r."updatedAt"`,
    [teamId, updates.map((u) => u.before.id), updates.map((u) => JSON.stringify(u.values)), updates.map((u) => u.calculatedName), updates.map((u) => nameKeyOf(u.calculatedName))],
  );
  const rows = updated.rows.map(toRecordRow);
  const archived = new Map(updates.map((u) => [String(u.before.id), u.before.isArchived]));
  for (const row of rows) row.isArchived = archived.get(String(row.id)) ?? false;
  await db.query(
    `UPDATE "DataRecordMembership" m SET "recordUpdatedAt" = u.t, "nameSort" = u.ns
       FROM unnest($2::bigint[], $3::timestamptz[], $4::bytea[]) AS u(id, t, ns)
      WHERE m."teamId" = $1 AND m."recordId" = u.id`,
    [teamId, rows.map((r) => r.id), rows.map((r) => r.updatedAt), rows.map((r) => prefixOf(nameKeyOf(r.calculatedName)))],
  );
  // replace the keys of changed fields only
  const stale: { recordId: bigint; fieldId: bigint }[] = [];
  const keys: { recordId: bigint; key: KeyRow }[] = [];
  for (const u of updates) {
    for (const field of u.changedFields) {
      stale.push({ recordId: u.before.id, fieldId: field.id });
      for (const key of keyRowsFor(field, u.values[field.dataFieldSimplyId])) keys.push({ recordId: u.before.id, key });
    }
  }
  if (stale.length > 0) {
    await db.query(
      `DELETE FROM "DataRecordKey" k USING unnest($2::bigint[], $3::bigint[]) AS s(r, f)
        WHERE k."teamId" = $1 AND k."recordId" = s.r AND k."fieldId" = s.f`,
      [teamId, stale.map((s) => s.recordId), stale.map((s) => s.fieldId)],
    );
  }
  await insertKeys(db, teamId, keys);
  return rows;
}

/** Soft delete (Document 1 §3): the row stays, every membership becomes DELETED. */
export async function softDeleteRecords(db: Db, teamId: bigint, ids: readonly bigint[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(`UPDATE "DataRecord" SET "deletedAt" = now() WHERE "teamId" = $1 AND id = ANY($2::bigint[])`, [teamId, ids]);
  await db.query(`UPDATE "DataRecordMembership" SET state = 'DELETED' WHERE "teamId" = $1 AND "recordId" = ANY($2::bigint[])`, [teamId, ids]);
}

/**
 * Recomputes SMART memberships over `source` for the given records (all records when null):
 * drop them, then insert those whose source membership matches the criteria, in the source
 * membership's state. Criteria that no longer validate (a field was removed) match nothing.
 * A full resync holds its collection's lock exclusively and record-level syncs share it, so a
 * resync never reads records while another writer's sync is uncommitted (nor the reverse), and
 * concurrent resyncs run one after the other. The insert still tolerates a row a concurrent
 * writer committed after this statement's delete: it takes the fresh values.
 */
export async function syncSmartMemberships(db: Db, schema: TeamSchema, source: CollectionDefinition, recordIds: readonly bigint[] | null, only?: CollectionDefinition): Promise<void> {
  const smart = only ? [only] : schema.smartCollectionsOver(source);
  if (smart.length === 0 || (recordIds && recordIds.length === 0)) return;
  const fields = schema.fieldsOf(source);
  const fieldsById = new Map(fields.map((f) => [f.dataFieldSimplyId, f]));
  const locks = advisoryLocks('smartMemberships', smart.map((c) => `${schema.teamId}:${c.id}`), recordIds ? 'shared' : 'exclusive');
  await db.query(locks.text, locks.values);
  for (const collection of smart) {
    const drop = new SqlParams();
    const scope = recordIds ? ` AND "recordId" = ANY(${drop.param(recordIds)}::bigint[])` : '';
    await db.query(`DELETE FROM "DataRecordMembership" WHERE "teamId" = ${drop.param(schema.teamId)} AND "collectionId" = ${drop.param(collection.id)}${scope}`, drop.values);
    const sql = new SqlParams();
    const team = sql.param(schema.teamId);
    const target = sql.param(collection.id);
    const normalized = normalizeFilters(fields, collection.filterCriteria ?? []);
    if (!normalized.ok) continue;
    const compiled = compileFilters(normalized.filters.filter((f) => f.field !== 'isArchived'), fieldsById, sql, team);
    const where = [
      `m."teamId" = ${team}`,
      `m."collectionId" = ${sql.param(source.id)}`,
      `m.state <> 'DELETED'`,
      ...(recordIds ? [`m."recordId" = ANY(${sql.param(recordIds)}::bigint[])`] : []),
      ...compiled.conditions,
    ].join(' AND ');
    await db.query(
      `INSERT INTO "DataRecordMembership" ("teamId", "collectionId", "recordId", state, "recordCreatedAt", "recordUpdatedAt", "nameSort")
       SELECT m."teamId", ${target}, m."recordId", m.state, m."recordCreatedAt", m."recordUpdatedAt", m."nameSort"
         FROM "DataRecordMembership" m JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"
        WHERE ${where}
       ON CONFLICT ("teamId", "collectionId", "recordId") DO UPDATE
         SET state = EXCLUDED.state, "recordCreatedAt" = EXCLUDED."recordCreatedAt", "recordUpdatedAt" = EXCLUDED."recordUpdatedAt", "nameSort" = EXCLUDED."nameSort"`,
      sql.values,
    );
  }
}
