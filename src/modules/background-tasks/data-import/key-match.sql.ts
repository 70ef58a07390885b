// Which records of the collection an UPDATE or UPSERT row means: the live records whose key field
// holds the row's key, found by the kernel's key lookup (keys compare as search filters compare
// them), one statement per chunk of rows.
import { encodeValue, type FieldDefinition, type LookupKey, lookupKeyOf } from '../../../kernel/index.ts';

/** The lookup key of a cell, or why the cell cannot be a key. */
export function keyOfCell(field: FieldDefinition, raw: unknown): ({ ok: true } & LookupKey) | { ok: false; message: string } {
  const encoded = encodeValue(field, raw);
  if (!encoded.ok) return { ok: false, message: encoded.message };
  if (encoded.value === null || encoded.value === undefined) return { ok: false, message: 'is empty: the key column needs a value on every row' };
  const key = lookupKeyOf(field, encoded.value);
  return key ? { ok: true, ...key } : { ok: false, message: 'cannot be used as a key' };
}
