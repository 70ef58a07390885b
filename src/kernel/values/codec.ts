// The contract every data type implements. One codec per type; registry.ts maps types to codecs.
import type { IndexKey, KeyKind, Parsed, References, StoredValue } from './types.ts';

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'in', 'contains', 'startsWith'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface ValueShape {
  /** How index keys of this type compare (see keys.ts). */
  keyKind: KeyKind;
  /** The stored value is an array; filters match its elements ("includes"). */
  multi: boolean;
  /** Whether ordering records by this field means something. */
  sortable: boolean;
}

export interface CodecContext {
  isFileId: (value: string) => boolean;
}

export interface Codec<C, S extends StoredValue> {
  shape: ValueShape;
  /** Filter operators this type supports (Document 1 §4.2 lists the full set). */
  operators: readonly FilterOperator[];
  /** Validates and normalizes a defined, non-null input. A `null` result means "empty" and clears
   *  the field (""/whitespace text, [] for lists, an address with every part blank). */
  encode(raw: unknown, config: C, ctx: CodecContext): Parsed<S | null>;
  /** Recognizes a stored value of this type; anything else reads as null (never throws). */
  isStored(value: unknown): value is S;
  /** Stored → wire. Absent means identity. */
  decode?(stored: S, config: C): unknown;
  /** The key (array of keys when multi) filters compare with and sorts order by. */
  key(stored: S, config: C): IndexKey | IndexKey[];
  /** One line of text, for display-name formulas and text search. */
  text(stored: S, config: C): string;
  references?(stored: S): Partial<References>;
  /** A filter operand for eq/ne/in items/range bounds, in key space. Config limits (min, max,
   *  maxLength...) do not apply: a filter may ask for values outside what can be stored. */
  operand(raw: unknown, config: C, ctx: CodecContext): Parsed<IndexKey>;
  /** A contains/startsWith operand for text-like types, in key space. */
  pattern?(raw: unknown, config: C, operator: 'contains' | 'startsWith'): Parsed<string>;
}

/** Identity helper that keeps each codec's config and stored types checked. */
export function defineCodec<C, S extends StoredValue>(codec: Codec<C, S>): Codec<C, S> {
  return codec;
}
