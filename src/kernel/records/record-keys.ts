// Stored values → DataRecordKey rows (prisma/schema/records.prisma). Numbers (integer, decimal) compare through
// `numKey`; every other kind through `prefix`, the first PREFIX_BYTES of the key's UTF-8 bytes.
// bytea compares byte by byte, which for UTF-8 is code-point order, so ranges and startsWith use
// a plain btree under any database collation; `textKey` holds the whole key for exact checks.
import { indexKey, type IndexKey, valueShape } from '../values/index.ts';
import { isDataType, type KeyKind } from '../values/types.ts';
import type { FieldDefinition } from '../schema/team-schema.ts';

export const PREFIX_BYTES = 200;

export interface KeyRow {
  fieldId: bigint;
  textKey: string | null;
  prefix: Buffer | null;
  numKey: string | null;
}

export function keyKindOf(field: FieldDefinition): KeyKind | null {
  return isDataType(field.dataType) ? valueShape(field.dataType).keyKind : null;
}

/** A list type: a record may hold several keys of the field. */
export function isMultiValued(field: FieldDefinition): boolean {
  return isDataType(field.dataType) && valueShape(field.dataType).multi;
}

export function isNumericKind(kind: KeyKind | null): boolean {
  return kind === 'integer' || kind === 'decimal';
}

/** Text form of a non-numeric key: booleans as 'true'/'false', everything else as is. */
export function keyText(key: IndexKey): string {
  return typeof key === 'string' ? key : String(key);
}

export function prefixOf(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= PREFIX_BYTES ? bytes : bytes.subarray(0, PREFIX_BYTES);
}

export function keyRowsFor(field: FieldDefinition, stored: unknown): KeyRow[] {
  const key = indexKey(field, stored);
  if (key === null) return [];
  const numeric = isNumericKind(keyKindOf(field));
  const keys = Array.isArray(key) ? key : [key];
  return keys.map((k) =>
    numeric
      ? { fieldId: field.id, textKey: null, prefix: null, numKey: String(k) }
      : { fieldId: field.id, textKey: keyText(k), prefix: prefixOf(keyText(k)), numKey: null },
  );
}

/** Key rows for every field of a record's values. */
export function keyRowsOf(fields: readonly FieldDefinition[], values: Record<string, unknown>): KeyRow[] {
  const rows: KeyRow[] = [];
  for (const field of fields) {
    const stored = values[field.dataFieldSimplyId];
    if (stored !== undefined && stored !== null) rows.push(...keyRowsFor(field, stored));
  }
  return rows;
}
