// Record writes inside one transaction: the record rows, their memberships (with the sort-key
// copies), their filter keys, and the SMART memberships that depend on them. Multi-row statements
// (unnest) keep a batch of 100 at a handful of round trips.
import type pg from 'pg';
import type { CollectionDefinition, FieldDefinition, TeamSchema } from '../collections/team-schema.ts';
import { normalizeFilters } from '../collections/values/index.ts';
import { nameKeyOf } from './calculated-name.ts';
import { compileFilters } from './record-filters.ts';
import { type RecordRow, toRecordRow } from './record-reads.ts';
import { type KeyRow, keyRowsFor, keyRowsOf, prefixOf } from './record-keys.ts';
import { SqlParams } from './sql.ts';

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
     SELECT s, $1, $2, v::jsonb, n, k FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS t(s, v, n, k)
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
    `UPDATE "DataRecord" r SET values = u.v::jsonb, "calculatedName" = u.n, "nameKey" = u.k, "updatedAt" = now()
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
 */
export async function syncSmartMemberships(db: Db, schema: TeamSchema, source: CollectionDefinition, recordIds: readonly bigint[] | null, only?: CollectionDefinition): Promise<void> {
  const smart = only ? [only] : schema.smartCollectionsOver(source);
  if (smart.length === 0 || (recordIds && recordIds.length === 0)) return;
  const fields = schema.fieldsOf(source);
  const fieldsById = new Map(fields.map((f) => [f.dataFieldSimplyId, f]));
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
        WHERE ${where}`,
      sql.values,
    );
  }
}
