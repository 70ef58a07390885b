// What a schema change does to existing records, run after the schema transaction commits and
// against a freshly loaded schema: display names (calculatedName, nameKey, and the nameSort copy
// in every membership of the record) and SMART memberships. Synchronous for now, in batches of
// 1000 records, each batch one short transaction that locks its rows (a concurrent record write
// waits, then computes its own name against the new schema).
import type pg from 'pg';
import { calculateName, nameKeyOf } from '../records/calculated-name.ts';
import { prefixOf } from '../records/record-keys.ts';
import { syncSmartMemberships } from '../records/records.sql.ts';
import { loadTeamSchema } from './team-schema.ts';
import { criteriaFields } from './schema-admin.ts';
import { inTransaction } from '../../app/transaction.ts';

export const RECOMPUTE_BATCH = 1000;

/**
 * Recomputes the display names of the live records created in `collectionId`; returns how many
 * changed. SMART collections over it whose criteria read `calculatedName` are resynced afterwards.
 * `updatedAt` is left alone: a name follows from the schema, it is not an edit of the record.
 */
export async function recomputeRecordNames(pool: pg.Pool, teamId: bigint, collectionId: bigint): Promise<number> {
  const schema = await loadTeamSchema(pool, teamId);
  const collection = schema.collectionsById.get(collectionId);
  if (!collection || collection.type === 'SMART') return 0;
  const fields = schema.fieldsOf(collection);
  const formula = schema.fieldSource(collection).calculatedNameFormula;
  let after = 0n;
  let changed = 0;
  for (;;) {
    const batch = await inTransaction(pool, async (db) => {
      const { rows } = await db.query(
        `SELECT id, values, "calculatedName" FROM "DataRecord"
          WHERE "teamId" = $1 AND "collectionId" = $2 AND id > $3 AND "deletedAt" IS NULL
          ORDER BY id LIMIT ${RECOMPUTE_BATCH} FOR UPDATE`,
        [teamId, collectionId, after],
      );
      const updates: { id: bigint; name: string }[] = [];
      for (const row of rows) {
        const name = calculateName(formula, fields, row.values ?? {});
        if (name !== row.calculatedName) updates.push({ id: BigInt(row.id), name });
      }
      if (updates.length > 0) {
        await db.query(
          `UPDATE "DataRecord" r SET "calculatedName" = u.n, "nameKey" = u.k
             FROM unnest($2::bigint[], $3::text[], $4::text[]) AS u(id, n, k)
            WHERE r."teamId" = $1 AND r.id = u.id`,
          [teamId, updates.map((u) => u.id), updates.map((u) => u.name), updates.map((u) => nameKeyOf(u.name))],
        );
        await db.query(
          `UPDATE "DataRecordMembership" m SET "nameSort" = u.ns
             FROM unnest($2::bigint[], $3::bytea[]) AS u(id, ns)
            WHERE m."teamId" = $1 AND m."recordId" = u.id`,
          [teamId, updates.map((u) => u.id), updates.map((u) => prefixOf(nameKeyOf(u.name)))],
        );
      }
      return { count: rows.length, last: rows.length > 0 ? BigInt(rows[rows.length - 1].id) : after, changed: updates.length };
    });
    changed += batch.changed;
    after = batch.last;
    if (batch.count < RECOMPUTE_BATCH) break;
  }
  if (changed > 0) {
    for (const smart of schema.smartCollectionsOver(collection)) {
      if (criteriaFields(smart).includes('calculatedName')) {
        await inTransaction(pool, (db) => syncSmartMemberships(db, schema, collection, null, smart));
      }
    }
  }
  return changed;
}

/** Rebuilds the memberships of one SMART collection from its criteria (no-op when archived). */
export async function resyncSmartCollection(pool: pg.Pool, teamId: bigint, smartId: bigint): Promise<void> {
  const schema = await loadTeamSchema(pool, teamId);
  const smart = schema.collectionsById.get(smartId);
  if (!smart || smart.type !== 'SMART' || smart.isArchived) return;
  const source = schema.fieldSource(smart);
  if (source.id === smart.id) return;
  await inTransaction(pool, (db) => syncSmartMemberships(db, schema, source, null, smart));
}

export const KEY_DELETE_BATCH = 10_000;

/** Deletes the filter keys of a removed field, in batches (a removed field's keys are never read
 *  again, so leftovers after a failure are harmless). */
export async function dropFieldKeys(pool: pg.Pool, teamId: bigint, fieldId: bigint): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `DELETE FROM "DataRecordKey" WHERE id IN (SELECT id FROM "DataRecordKey" WHERE "teamId" = $1 AND "fieldId" = $2 LIMIT ${KEY_DELETE_BATCH})`,
      [teamId, fieldId],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < KEY_DELETE_BATCH) return total;
  }
}
