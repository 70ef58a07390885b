// Keys: the comparable form of a stored value that filters match and sorts order by. Storage can
// materialize them (a typed column, an expression index, a JSONB key document) and compare them
// with normalized filter operands (filters.ts) directly. Computed here, in one place, so that
// lower-casing and decimal canonicalization agree between what is indexed and what is searched.
import { compareDecimalStrings } from './decimal.ts';
import { prepareField } from './encode.ts';
import { codecFor, valueShape } from './registry.ts';
import { type FieldDef, type IndexKey, isDataType, type KeyKind } from './types.ts';

/** The key of a stored value: a scalar, an array of keys for multi-valued types, or null when the
 *  value is empty (or does not fit the type). */
export function indexKey(field: FieldDef, stored: unknown): IndexKey | IndexKey[] | null {
  if (stored === null || stored === undefined) return null;
  const prepared = prepareField(field);
  if (!prepared.ok || !prepared.codec.isStored(stored)) return null;
  return prepared.codec.key(stored, prepared.config);
}

/** The key records are ordered by on this field; null for empty values and for types that do not
 *  sort (FORMATTED_TEXT, PHYSICAL_ADDRESS, references). */
export function sortKey(field: FieldDef, stored: unknown): IndexKey | null {
  if (!isDataType(field.dataType) || !valueShape(field.dataType).sortable) return null;
  const key = indexKey(field, stored);
  return Array.isArray(key) ? null : key;
}

/** Orders two keys of one kind; null (empty) sorts last in ascending order, as SQL NULLS LAST. */
export function compareKeys(kind: KeyKind, a: IndexKey | null, b: IndexKey | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  switch (kind) {
    case 'integer':
      return (a as number) - (b as number);
    case 'decimal':
      return compareDecimalStrings(String(a), String(b));
    case 'boolean':
      return Number(a) - Number(b);
    default:
      // text keys are lower-cased; date/timestamp keys are fixed-width ISO strings.
      return compareCodePoints(String(a), String(b));
  }
}

/** Code-point order, which is UTF-8 byte order: what a C-collated text index gives, so in-memory
 *  and storage orderings agree (plain `<` on strings compares UTF-16 units, which differs above
 *  U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++; // same surrogate pair in both strings
  }
  return a.length - b.length;
}

/** One line of text for a stored value: what display-name formulas insert and what contains on
 *  FORMATTED_TEXT / PHYSICAL_ADDRESS searches (lower-cased). Empty string for no value. */
export function toDisplayText(field: FieldDef, stored: unknown): string {
  if (stored === null || stored === undefined) return '';
  if (!isDataType(field.dataType)) return typeof stored === 'string' ? stored : '';
  const prepared = prepareField(field);
  const codec = codecFor(field.dataType);
  if (!prepared.ok || !codec.isStored(stored)) return '';
  return codec.text(stored, prepared.config);
}
