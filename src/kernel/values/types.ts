// Shared vocabulary of the typed-value layer (Document 1 §2.4): the data types, the field shape a
// codec needs, and the results every function here returns. Pure types and constants, no I/O.

/** The data types of Document 1 §2.4. "Further data types may exist": callers get a clear error for
 *  a type this list does not know instead of a silently stored, unvalidated value. */
export const DATA_TYPES = [
  'PLAIN_TEXT',
  'FORMATTED_TEXT',
  'NUMBER',
  'DECIMAL',
  'MONEY',
  'DATE',
  'DATE_TIME',
  'EMAIL_ADDRESS',
  'PHONE_NUMBER',
  'BOOLEAN',
  'URL',
  'PHYSICAL_ADDRESS',
  'SINGLE_DATA_RECORD',
  'MULTI_DATA_RECORD',
  'SINGLE_FILE',
  'MULTI_FILE',
  'SINGLE_IMAGE',
  'MULTI_IMAGE',
] as const;

export type DataType = (typeof DATA_TYPES)[number];

const DATA_TYPE_SET: ReadonlySet<string> = new Set(DATA_TYPES);

export function isDataType(value: unknown): value is DataType {
  return typeof value === 'string' && DATA_TYPE_SET.has(value);
}

/** What the value layer needs of a field definition. `dataType` is a plain string because it comes
 *  from storage; an unknown type is reported, never guessed. */
export interface FieldDef {
  dataFieldSimplyId: string;
  dataType: string;
  config?: unknown;
  isRequired?: boolean;
}

/** Ids a value points at. The caller checks, in one query per kind, that they exist in the same
 *  team (and, for `images`, that the file is an image). `files` come from *_FILE fields, `images`
 *  from *_IMAGE fields; the same id may appear in both lists when two fields share it. */
export interface References {
  records: string[];
  files: string[];
  images: string[];
}

export function emptyReferences(): References {
  return { records: [], files: [], images: [] };
}

/** Options shared by encoding and filter normalization. */
export interface ValueOptions {
  /** Recognizes a file simplyId. Files are not built yet; the default accepts `file-XXXX-XXXX-XXXX`. */
  isFileId?: (value: string) => boolean;
}

/** The outcome of one parse step: a normalized value or a human-readable reason. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** JSON-compatible stored forms (see docs/api/data-types.md for each type). */
export interface StoredAddress {
  line1: string;
  line2?: string;
  city: string;
  region?: string;
  postalCode?: string;
  countryCode: string;
}

export type StoredValue = string | number | boolean | string[] | StoredAddress;

/** What filters compare against and what sorts order by (see keys.ts). */
export type IndexKey = string | number | boolean;

/** How keys of a type compare: `decimal` keys are decimal strings that must be compared as numbers
 *  (SQL: cast to numeric); `text` keys are already lower-cased; `date`/`timestamp` keys are
 *  fixed-width ISO strings, so string order is time order. */
export type KeyKind = 'text' | 'integer' | 'decimal' | 'date' | 'timestamp' | 'boolean' | 'id';

// Limits (Document 1 §8 for search; the reference cap is ours).
export const MAX_REFERENCE_ITEMS = 1000;
export const MAX_IN_VALUES = 100;
export const MAX_FILTERS = 25;
