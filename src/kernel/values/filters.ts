// Search filters (Document 1 §4.2), storage-agnostic: which operators each data type supports and
// how an operand is validated and brought into key space (keys.ts), so storage compares it with
// `indexKey` of stored values as is. Semantics per operator are in docs/api/data-types.md.
import type { ErrorDetail } from '../../app/errors.ts';
import { FILTER_OPERATORS, type FilterOperator } from './codec.ts';
import { codecContext, prepareField } from './encode.ts';
import { operatorsFor as codecOperators } from './registry.ts';
import { dateTimeOperand } from './temporal.ts';
import { plainText, textPattern } from './text.ts';
import { describeType } from './text-guards.ts';
import {
  type DataType,
  type FieldDef,
  fail,
  type IndexKey,
  isDataType,
  MAX_FILTERS,
  MAX_IN_VALUES,
  ok,
  type Parsed,
  type ValueOptions,
} from './types.ts';

export { FILTER_OPERATORS, type FilterOperator };

/** eq/ne: a key or null (is empty / is not empty); ranges: a key; in: 1-100 distinct keys;
 *  contains/startsWith: a lower-cased literal pattern (an id for contains on reference lists). */
export type FilterOperand = IndexKey | IndexKey[] | null;
export type FilterResult =
  | { ok: true; operator: FilterOperator; value: FilterOperand }
  /** `part` says what to fix: the field (unusable definition), the operator or the value. */
  | { ok: false; message: string; part: 'field' | 'operator' | 'value' };

const wrong = (part: 'field' | 'operator' | 'value', message: string): FilterResult => ({ ok: false, message, part });

export function isFilterOperator(value: unknown): value is FilterOperator {
  return typeof value === 'string' && (FILTER_OPERATORS as readonly string[]).includes(value);
}

export function operatorsFor(dataType: DataType): readonly FilterOperator[] {
  return codecOperators(dataType);
}

/** Applies one operand parser to each item of an `in` list: 1-100 scalars, duplicates dropped. */
function inList(value: unknown, parse: (raw: unknown) => Parsed<IndexKey>): Parsed<IndexKey[]> {
  if (!Array.isArray(value)) return fail(`in takes an array of values, not ${describeType(value)}`);
  if (value.length === 0 || value.length > MAX_IN_VALUES) return fail(`in takes 1 to ${MAX_IN_VALUES} values (got ${value.length})`);
  const keys: IndexKey[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  value.forEach((item, i) => {
    if (problems.length >= 5) return;
    if (item === null || typeof item === 'object') {
      problems.push(`item ${i} must be a scalar (string, number or boolean)`);
      return;
    }
    const parsed = parse(item);
    if (!parsed.ok) {
      problems.push(`item ${i} ${parsed.message}`);
      return;
    }
    const dedupe = `${typeof parsed.value}:${String(parsed.value)}`;
    if (!seen.has(dedupe)) {
      seen.add(dedupe);
      keys.push(parsed.value);
    }
  });
  return problems.length ? fail(problems.join('; ')) : ok(keys);
}

/** Validates a filter on a custom field and normalizes its operand to key space. */
export function normalizeFilter(field: FieldDef, operator: string, value: unknown, options: ValueOptions = {}): FilterResult {
  if (!isFilterOperator(operator)) return wrong('operator', `unknown operator ${JSON.stringify(operator)}; use one of ${FILTER_OPERATORS.join(', ')}`);
  const prepared = prepareField(field);
  if (!prepared.ok) return wrong('field', prepared.message);
  const { codec, config } = prepared;
  if (!codec.operators.includes(operator)) {
    return wrong('operator', `${operator} does not apply to ${field.dataType} fields; use ${codec.operators.join(', ')}`);
  }
  if (value === undefined) return wrong('value', 'is required (use null with eq/ne to find empty or non-empty values)');
  if (value === null && operator !== 'eq' && operator !== 'ne') return wrong('value', `${operator} needs a value; only eq and ne take null`);
  const ctx = codecContext(options);
  const operand = (raw: unknown) => codec.operand(raw, config, ctx);
  switch (operator) {
    case 'eq':
    case 'ne':
      return value === null ? { ok: true, operator, value: null } : done(operator, operand(value));
    case 'in':
      return done(operator, inList(value, operand));
    case 'contains':
      // On reference lists contains means "includes this id".
      return done(operator, codec.shape.multi ? operand(value) : codec.pattern!(value, config, 'contains'));
    case 'startsWith':
      return done(operator, codec.pattern!(value, config, 'startsWith'));
    default:
      return done(operator, operand(value));
  }
}

function done(operator: FilterOperator, parsed: Parsed<FilterOperand>): FilterResult {
  return parsed.ok ? { ok: true, operator, value: parsed.value } : wrong('value', parsed.message);
}

// ---------------------------------------------------------------------------------------------
// Built-in filter fields (Document 1 §4.2).

export const SYSTEM_FILTER_FIELDS = ['calculatedName', 'createdAt', 'updatedAt', 'isArchived'] as const;
export type SystemFilterField = (typeof SYSTEM_FILTER_FIELDS)[number];

export const SYSTEM_FILTER_OPERATORS: Record<SystemFilterField, readonly FilterOperator[]> = {
  calculatedName: ['eq', 'ne', 'contains', 'startsWith'],
  createdAt: ['gt', 'lt', 'gte', 'lte'],
  updatedAt: ['gt', 'lt', 'gte', 'lte'],
  // isArchived true searches archived memberships instead of active ones.
  isArchived: ['eq'],
};

export function isSystemFilterField(value: unknown): value is SystemFilterField {
  return typeof value === 'string' && (SYSTEM_FILTER_FIELDS as readonly string[]).includes(value);
}

/** Validates a filter on a built-in field. calculatedName keys are lower-cased like text fields;
 *  createdAt/updatedAt take an ISO 8601 timestamp (or a date, meaning midnight UTC). */
export function normalizeSystemFilter(name: SystemFilterField, operator: string, value: unknown): FilterResult {
  if (!isFilterOperator(operator)) return wrong('operator', `unknown operator ${JSON.stringify(operator)}; use one of ${FILTER_OPERATORS.join(', ')}`);
  const allowed = SYSTEM_FILTER_OPERATORS[name];
  if (!allowed.includes(operator)) return wrong('operator', `${operator} does not apply to ${name}; use ${allowed.join(', ')}`);
  if (name === 'isArchived') return typeof value === 'boolean' ? { ok: true, operator, value } : wrong('value', 'must be true or false');
  if (name === 'calculatedName') {
    if (operator === 'contains' || operator === 'startsWith') return done(operator, textPattern(value));
    return done(operator, plainText.operand(value, {}, codecContext()));
  }
  return done(operator, dateTimeOperand(value));
}

// ---------------------------------------------------------------------------------------------
// A whole `filters` array of a search body.

export interface NormalizedFilter {
  /** A field simplyId or a built-in field name. */
  field: string;
  /** The field's data type; null for built-in fields. */
  dataType: DataType | null;
  operator: FilterOperator;
  value: FilterOperand;
}

export type FiltersResult = { ok: true; filters: NormalizedFilter[] } | { ok: false; details: ErrorDetail[] };

/** Validates the search body's `filters` (up to 25, AND-ed) against the collection's fields (pass
 *  only the fields the caller may read). Errors name `filters[i].field|operator|value`. */
export function normalizeFilters(fields: readonly FieldDef[], filters: unknown, options: ValueOptions = {}): FiltersResult {
  if (filters === undefined || filters === null) return { ok: true, filters: [] };
  if (!Array.isArray(filters)) return { ok: false, details: [{ field: 'filters', message: 'must be an array of { field, operator, value }' }] };
  if (filters.length > MAX_FILTERS) {
    return { ok: false, details: [{ field: 'filters', message: `at most ${MAX_FILTERS} filters (got ${filters.length})` }] };
  }
  const byId = new Map(fields.map((f) => [f.dataFieldSimplyId, f]));
  const details: ErrorDetail[] = [];
  const out: NormalizedFilter[] = [];
  filters.forEach((item: unknown, i) => {
    const at = `filters[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      details.push({ field: at, message: 'must be an object { field, operator, value }' });
      return;
    }
    const { field: name, operator, value } = item as Record<string, unknown>;
    if (typeof name !== 'string') {
      details.push({ field: `${at}.field`, message: 'must be a field simplyId or one of calculatedName, createdAt, updatedAt, isArchived' });
      return;
    }
    if (typeof operator !== 'string') {
      details.push({ field: `${at}.operator`, message: 'is required' });
      return;
    }
    let result: FilterResult;
    let dataType: DataType | null = null;
    if (isSystemFilterField(name)) {
      result = normalizeSystemFilter(name, operator, value);
    } else {
      const field = byId.get(name);
      if (!field || !isDataType(field.dataType)) {
        details.push({ field: `${at}.field`, message: `${name} is not a field of this collection` });
        return;
      }
      dataType = field.dataType;
      result = normalizeFilter(field, operator, value, options);
    }
    if (!result.ok) {
      details.push({ field: `${at}.${result.part}`, message: result.message });
      return;
    }
    out.push({ field: name, dataType, operator: result.operator, value: result.value });
  });
  return details.length ? { ok: false, details } : { ok: true, filters: out };
}
