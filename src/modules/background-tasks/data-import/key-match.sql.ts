// Which records of the collection an UPDATE or UPSERT row means: the live records whose key field
// holds the row's key. Keys are compared the way search filters compare them (the DataRecordKey
// rows: numbers numerically, text through its canonical lower-cased key), through the
// (teamId, fieldId, prefix | numKey, recordId) indexes: one statement per chunk of rows.
import type pg from 'pg';
import { encodeValue } from '../../../kernel/index.ts';
import type { FieldDefinition } from '../../../kernel/index.ts';
import { isNumericKind, keyKindOf, keyRowsFor } from '../../../kernel/index.ts';

type Db = pg.Pool | pg.PoolClient;

/** The key of a cell as DataRecordKey holds it, or why the cell cannot be a key. */
export function keyOfCell(field: FieldDefinition, raw: unknown): { ok: true; key: string; prefix: Buffer | null } | { ok: false; message: string } {
  const encoded = encodeValue(field, raw);
  if (!encoded.ok) return { ok: false, message: encoded.message };
  if (encoded.value === null || encoded.value === undefined) return { ok: false, message: 'is empty: the key column needs a value on every row' };
  const [row] = keyRowsFor(field, encoded.value);
  if (!row) return { ok: false, message: 'cannot be used as a key' };
  return row.numKey !== null ? { ok: true, key: row.numKey, prefix: null } : { ok: true, key: row.textKey!, prefix: row.prefix };
}

/** A field whose values can pick one record: single-valued, ordered, not a yes/no. */
export function isKeyField(field: FieldDefinition): boolean {
  const kind = keyKindOf(field);
  return kind !== null && kind !== 'boolean' && kind !== 'id' && !['FORMATTED_TEXT', 'PHYSICAL_ADDRESS'].includes(field.dataType);
}

/** key → simplyIds of the live (active or archived) records of the collection holding it. */
export async function recordsByKey(db: Db, teamId: bigint, collectionId: bigint, field: FieldDefinition, keys: readonly { key: string; prefix: Buffer | null }[]): Promise<Map<string, string[]>> {
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
