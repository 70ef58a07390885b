// Field values in and out: validate + normalize one value, a whole `fields` object, and read stored
// values back in their wire form. Pure: existence checks of referenced ids are the caller's (one
// query per kind, fed by `references`), and so are field-level permissions.
import { ValidationError } from '../../app/errors.ts';
import type { Codec, CodecContext } from './codec.ts';
import { resolveFieldConfig } from './config.ts';
import { isPrefixedFileId } from './references.ts';
import { codecFor } from './registry.ts';
import {
  emptyReferences,
  type FieldDef,
  isDataType,
  type References,
  type StoredValue,
  type ValueOptions,
} from './types.ts';

export type EncodeResult =
  | {
      ok: true;
      /** Normalized stored value; null clears the field; undefined: the value was not supplied. */
      value: StoredValue | null | undefined;
      references: References;
    }
  | { ok: false; message: string };

interface Prepared {
  ok: true;
  codec: Codec<unknown, StoredValue>;
  config: unknown;
}

/** The codec and validated config of a field, or why the field cannot take values. */
export function prepareField(field: FieldDef): Prepared | { ok: false; message: string } {
  if (!isDataType(field.dataType)) return { ok: false, message: `has the unsupported data type ${field.dataType}` };
  const config = resolveFieldConfig(field.dataType, field.config);
  if (!config.ok) {
    const why = config.details.map((d) => `${d.field} ${d.message}`).join('; ');
    return { ok: false, message: `cannot be written: its configuration is invalid (${why})` };
  }
  return { ok: true, codec: codecFor(field.dataType), config: config.config };
}

export function codecContext(options: ValueOptions = {}): CodecContext {
  return { isFileId: options.isFileId ?? isPrefixedFileId };
}

/** null, or a blank string (what HTML forms send for an empty input), means "no value". */
function isEmptyInput(raw: unknown): boolean {
  return raw === null || (typeof raw === 'string' && raw.trim() === '');
}

function encodeIgnoringRequired(field: FieldDef, raw: unknown, ctx: CodecContext): EncodeResult {
  if (raw === undefined) return { ok: true, value: undefined, references: emptyReferences() };
  const prepared = prepareField(field);
  if (!prepared.ok) return prepared;
  if (isEmptyInput(raw)) return { ok: true, value: null, references: emptyReferences() };
  const encoded = prepared.codec.encode(raw, prepared.config, ctx);
  if (!encoded.ok) return encoded;
  const references = emptyReferences();
  if (encoded.value !== null) {
    const refs = prepared.codec.references?.(encoded.value);
    if (refs) for (const kind of ['records', 'files', 'images'] as const) references[kind].push(...(refs[kind] ?? []));
  }
  return { ok: true, value: encoded.value, references };
}

/** Validates and normalizes one value. `undefined` means "not supplied" (value undefined); `null`
 *  (or a blank string) clears (value null), which a required field refuses. */
export function encodeValue(field: FieldDef, raw: unknown, options: ValueOptions = {}): EncodeResult {
  const result = encodeIgnoringRequired(field, raw, codecContext(options));
  if (result.ok && result.value === null && field.isRequired) return { ok: false, message: 'is required and cannot be empty' };
  return result;
}

type Decode = (stored: unknown) => unknown;

/** Stored → wire for one field: its codec and resolved config, found once (see decodeValue). */
function buildDecoder(field: FieldDef): Decode {
  if (!isDataType(field.dataType)) return (stored) => stored ?? null;
  const codec = codecFor(field.dataType);
  // A broken config must not hide data: read with the type's defaults instead ({} is always valid).
  const resolved = resolveFieldConfig(field.dataType, field.config);
  const config = resolved.ok ? resolved.config : {};
  const decode = codec.decode;
  return (stored) => {
    if (stored === null || stored === undefined || !codec.isStored(stored)) return null;
    return decode ? decode(stored, config) : stored;
  };
}

// A page of records decodes every value of every shown field: the field's decoder is kept with its
// definition (and made again if its type or config object is replaced).
const decoders = new WeakMap<FieldDef, { dataType: string; config: unknown; decode: Decode }>();

function decoderFor(field: FieldDef): Decode {
  const kept = decoders.get(field);
  if (kept && kept.dataType === field.dataType && kept.config === field.config) return kept.decode;
  const decode = buildDecoder(field);
  decoders.set(field, { dataType: field.dataType, config: field.config, decode });
  return decode;
}

/** Stored → wire. Never throws: a stored value that does not fit the type (e.g. written before a
 *  type change) reads as null; a type this code does not know is returned unchanged. */
export function decodeValue(field: FieldDef, stored: unknown): unknown {
  return decoderFor(field)(stored);
}

/** Decodes a stored `fields` object (keyed by field simplyId) for the given field definitions;
 *  keys without a definition in `fields` (removed fields, or ones the caller may not read) are left out. */
export function decodeRecordFields(fields: readonly FieldDef[], stored: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!stored) return out;
  for (const field of fields) {
    const id = field.dataFieldSimplyId;
    if (Object.hasOwn(stored, id)) out[id] = decoderFor(field)(stored[id]);
  }
  return out;
}

export interface FieldError {
  /** The field simplyId, or null when the `fields` input as a whole is wrong. */
  field: string | null;
  dataType?: string;
  message: string;
}

export interface RecordFieldsResult {
  /** No errors and, on create, no missing required field. */
  ok: boolean;
  /** Normalized values of the supplied known fields, keyed by field simplyId; null clears. */
  values: Record<string, StoredValue | null>;
  /** Input keys that are not field simplyIds of the collection (skipped; report in meta.warnings). */
  unknownKeys: string[];
  /** Create only: required fields not supplied, or supplied empty. */
  missingRequired: string[];
  /** Every invalid value, not only the first. */
  errors: FieldError[];
  /** Union of referenced ids, each listed once. */
  references: References;
  /** Referenced ids per field simplyId (fields with references only), for error messages. */
  referencedBy: Record<string, References>;
}

export interface EncodeRecordOptions extends ValueOptions {
  mode: 'create' | 'update';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Validates a record's `fields` input against the collection's field definitions.
 *  create: required fields must have a value. update (PATCH and PUT, which merge the same way):
 *  only supplied fields are written, and a required field cannot be cleared. */
export function encodeRecordFields(fields: readonly FieldDef[], input: unknown, options: EncodeRecordOptions): RecordFieldsResult {
  const result: RecordFieldsResult = {
    ok: false,
    values: {},
    unknownKeys: [],
    missingRequired: [],
    errors: [],
    references: emptyReferences(),
    referencedBy: {},
  };
  const source = input === undefined ? {} : input;
  if (!isPlainObject(source)) {
    result.errors.push({ field: null, message: 'must be an object keyed by field simplyId' });
    return result;
  }
  const byId = new Map(fields.map((f) => [f.dataFieldSimplyId, f]));
  result.unknownKeys = Object.keys(source).filter((key) => !byId.has(key));
  const ctx = codecContext(options);
  const seen = { records: new Set<string>(), files: new Set<string>(), images: new Set<string>() };

  for (const field of byId.values()) {
    const id = field.dataFieldSimplyId;
    const raw = Object.hasOwn(source, id) ? source[id] : undefined;
    const encoded = encodeIgnoringRequired(field, raw, ctx);
    if (!encoded.ok) {
      result.errors.push({ field: id, dataType: field.dataType, message: encoded.message });
      continue;
    }
    const empty = encoded.value === null || encoded.value === undefined;
    if (field.isRequired && empty) {
      if (options.mode === 'create') result.missingRequired.push(id);
      else if (encoded.value === null) result.errors.push({ field: id, dataType: field.dataType, message: 'is required and cannot be cleared' });
    }
    if (encoded.value === undefined) continue;
    result.values[id] = encoded.value;
    const refs = encoded.references;
    if (refs.records.length || refs.files.length || refs.images.length) {
      result.referencedBy[id] = refs;
      for (const kind of ['records', 'files', 'images'] as const) {
        for (const ref of refs[kind]) {
          if (!seen[kind].has(ref)) {
            seen[kind].add(ref);
            result.references[kind].push(ref);
          }
        }
      }
    }
  }
  result.ok = result.errors.length === 0 && result.missingRequired.length === 0;
  return result;
}

/** Turns the caller's verdict on referenced ids into field errors. `problem` returns a message for
 *  an id that fails (not found in the team, outside the target collection, not an image), or null.
 *  Example: `referenceErrors(r.referencedBy, (kind, id) => found[kind].has(id) ? null : 'was not found')`. */
export function referenceErrors(
  referencedBy: Record<string, References>,
  problem: (kind: keyof References, id: string, fieldSimplyId: string) => string | null,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [fieldId, refs] of Object.entries(referencedBy)) {
    const messages: string[] = [];
    for (const kind of ['records', 'files', 'images'] as const) {
      const noun = kind === 'records' ? 'record' : kind === 'files' ? 'file' : 'image';
      for (const id of refs[kind]) {
        const message = problem(kind, id, fieldId);
        if (message) messages.push(`${noun} ${id} ${message}`);
      }
    }
    if (messages.length) errors.push({ field: fieldId, message: messages.join('; ') });
  }
  return errors;
}

/** The 400 VALIDATION_ERROR for a failed encodeRecordFields (plus any reference errors), with one
 *  detail per field named `<path>.<fieldSimplyId>`; null when there is nothing to report. */
export function toValidationError(
  result: Pick<RecordFieldsResult, 'errors' | 'missingRequired'>,
  { path = 'fields', extra = [] as FieldError[] } = {},
): ValidationError | null {
  const errors = [...result.errors, ...extra];
  if (errors.length === 0 && result.missingRequired.length === 0) return null;
  const details = [
    ...errors.map((e) => ({ field: e.field === null ? path : `${path}.${e.field}`, message: e.message })),
    ...result.missingRequired.map((id) => ({ field: `${path}.${id}`, message: 'is required' })),
  ];
  const message =
    errors.length === 0
      ? `Missing required field${result.missingRequired.length > 1 ? 's' : ''}: ${result.missingRequired.join(', ')}`
      : `Invalid value${details.length > 1 ? 's' : ''} for ${details.map((d) => d.field).join(', ')}`;
  return new ValidationError(message, details);
}
