// Finding records by the value of a key field rather than by id. Values are compared the way search
// filters compare them, through the record keys: numbers numerically, text through its canonical
// lower-cased key, over the (teamId, fieldId, prefix | numKey, recordId) indexes, so a whole batch
// of values is one statement.
import type pg from 'pg';
import type { FieldDefinition } from '../schema/team-schema.ts';
import { isNumericKind, keyKindOf, keyRowsFor } from './record-keys.ts';

/** A value as a key lookup compares it; `key` is also how findRecordsByKey answers for it. */
export interface LookupKey {
  key: string;
  /** null for numeric fields */
  prefix: Buffer | null;
}

/** A field whose values can pick one record: single-valued, ordered, not a yes/no. */
export function isLookupField(field: FieldDefinition): boolean {
  const kind = keyKindOf(field);
  return kind !== null && kind !== 'boolean' && kind !== 'id' && !['FORMATTED_TEXT', 'PHYSICAL_ADDRESS'].includes(field.dataType);
}

/** The lookup key of a stored (encoded) value of the field; null when the value has none. */
export function lookupKeyOf(field: FieldDefinition, stored: unknown): LookupKey | null {
  const [row] = keyRowsFor(field, stored);
  if (!row) return null;
  return row.numKey !== null ? { key: row.numKey, prefix: null } : { key: row.textKey!, prefix: row.prefix };
}

/** key → simplyIds of the live (active or archived) records of the collection whose field holds it; keys no record holds are absent. */
export async function findRecordsByKey(db: pg.Pool | pg.PoolClient, teamId: bigint, collectionId: bigint, field: FieldDefinition, keys: readonly LookupKey[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (keys.length === 0) return out;
  const numeric = isNumericKind(keyKindOf(field));
  const wanted = numeric
    ? `(SELECT DISTINCT key FROM unnest($3::text[]) AS u(key)) w JOIN "DataRecordKey" k ON k."teamId" = $1 AND k."fieldId" = $2 AND k."numKey" = w.key::numeric`
    : `(SELECT DISTINCT key, prefix FROM unnest($3::text[], $5::bytea[]) AS u(key, prefix)) w
         JOIN "DataRecordKey" k ON k."teamId" = $1 AND k."fieldId" = $2 AND k.prefix = w.prefix AND k."textKey" = w.key`;
  const values: unknown[] = [teamId, field.id, keys.map((k) => k.key), collectionId];
  if (!numeric) values.push(keys.map((k) => k.prefix));
  const { rows } = await db.query(
    `SELECT w.key, r."simplyId"
       FROM ${wanted}
       JOIN "DataRecordMembership" m ON m."teamId" = $1 AND m."collectionId" = $4 AND m."recordId" = k."recordId" AND m.state IN ('ACTIVE', 'ARCHIVED')
       JOIN "DataRecord" r ON r."teamId" = $1 AND r.id = k."recordId" AND r."deletedAt" IS NULL`,
    values,
  );
  for (const row of rows as { key: string; simplyId: string }[]) {
    const ids = out.get(row.key) ?? [];
    if (!ids.includes(row.simplyId)) ids.push(row.simplyId);
    out.set(row.key, ids);
  }
  return out;
}
