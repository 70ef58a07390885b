// Data view body (docs/api/data-views.md) and its `config`, validated strictly against the
// collection the view belongs to: columns and sort fields are that collection's field simplyIds,
// filters follow the record search rules (collections/values, normalizeFilters).
import { z } from 'zod';
import { localizedTextSchema } from '../../app/localized-text.ts';
import { type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { simplyIdPattern } from '../../app/ids.ts';
import { type FieldDefinition, isDataType, normalizeFilters, valueShape } from '../../kernel/index.ts';

export const VIEW_TYPES = ['LIST', 'DETAIL', 'CALENDAR', 'TABLE', 'MAP', 'PIVOT', 'CHART', 'STATS'] as const;
export type ViewType = (typeof VIEW_TYPES)[number];

export const MAX_VIEW_COLUMNS = 200;
export const MAX_VIEW_SORTS = 10;
export const MAX_VIEW_DESCRIPTION = 2000;
export const SORTABLE_BUILT_INS = ['createdAt', 'updatedAt', 'calculatedName'] as const;
const CONFIG_KEYS = ['columns', 'filters', 'sortOrder'] as const;

/** Internal names: 2-64 characters, lower-case letters, digits, "_" and "-", from a letter to a letter or digit. */
export const INTERNAL_NAME_MIN = 2;
export const INTERNAL_NAME_MAX = 64;
/** what a request may carry at all (longer is a 400 of its own) */
export const INTERNAL_NAME_INPUT_MAX = 200;

export interface NameProblem {
  code: 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_CHARACTERS' | 'MUST_START_WITH_LETTER' | 'MUST_END_WITH_LETTER_OR_DIGIT';
  message: string;
}

/** Why an internal name is not well-formed (empty: it is). Availability is checked against the team separately. */
export function internalNameProblems(name: string): NameProblem[] {
  const problems: NameProblem[] = [];
  if (name.length < INTERNAL_NAME_MIN) problems.push({ code: 'TOO_SHORT', message: `must be at least ${INTERNAL_NAME_MIN} characters` });
  if (name.length > INTERNAL_NAME_MAX) problems.push({ code: 'TOO_LONG', message: `must be at most ${INTERNAL_NAME_MAX} characters (got ${name.length})` });
  const bad = [...new Set([...name].filter((ch) => !/^[a-z0-9_-]$/.test(ch)))];
  if (bad.length > 0) {
    problems.push({ code: 'INVALID_CHARACTERS', message: `may hold only lower-case letters a-z, digits, "_" and "-" (not ${bad.slice(0, 5).map((ch) => JSON.stringify(ch)).join(', ')})` });
  }
  if (name.length > 0 && !/^[a-z]/.test(name)) problems.push({ code: 'MUST_START_WITH_LETTER', message: 'must start with a letter a-z' });
  if (name.length > 1 && !/[a-z0-9]$/.test(name)) problems.push({ code: 'MUST_END_WITH_LETTER_OR_DIGIT', message: 'must end with a letter or a digit' });
  return problems;
}

/** An optional internal name in a body: null or absent = none; a malformed one is a 400 naming the field. */
export const internalNameInput = z
  .string()
  .max(INTERNAL_NAME_INPUT_MAX, `must be at most ${INTERNAL_NAME_MAX} characters`)
  .nullable()
  .default(null)
  .superRefine((name, ctx) => {
    if (name === null) return;
    for (const p of internalNameProblems(name)) ctx.addIssue({ code: 'custom', message: p.message });
  });

export const descriptionInput = z
  .string()
  .trim()
  .max(MAX_VIEW_DESCRIPTION)
  .nullable()
  .default(null)
  .transform((v) => (v === '' ? null : v));

export const dataViewInput = z
  .object({
    dataCollectionSimplyId: z.string().regex(simplyIdPattern(), 'must be a collection simplyId (XXXX-XXXX-XXXX)'),
    name: localizedTextSchema,
    description: descriptionInput,
    internalName: internalNameInput,
    enumDataViewTypeId: z.enum(VIEW_TYPES, { message: `must be one of ${VIEW_TYPES.join(', ')}` }),
    isPublished: z.boolean().default(false),
    // validated against the collection by validateViewConfig
    config: z.unknown().optional(),
  })
  .strict();

export type DataViewInput = z.output<typeof dataViewInput>;

export interface ViewSort {
  field: string;
  direction: 'asc' | 'desc';
}

export interface ViewConfig {
  columns: string[];
  filters: { field: string; operator: string; value: unknown }[];
  sortOrder: ViewSort[];
}

/** A stored config read back with every key present (older or hand-written rows may lack some). */
export function readViewConfig(stored: unknown): ViewConfig {
  const c = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  return {
    columns: Array.isArray(c.columns) ? (c.columns as string[]) : [],
    filters: Array.isArray(c.filters) ? (c.filters as ViewConfig['filters']) : [],
    sortOrder: Array.isArray(c.sortOrder) ? (c.sortOrder as ViewSort[]) : [],
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks `config` against the fields records of the view's collection carry (`fields`: a SMART
 * collection's are its source's) and returns what is stored. Every problem is reported, each
 * naming its path (`config.columns[2]`, `config.filters[0].operator`, `config.sortOrder[1].field`).
 * The filters are stored as given ({ field, operator, value }), not in their normalized key form.
 */
export function validateViewConfig(fields: readonly FieldDefinition[], raw: unknown): ViewConfig {
  if (raw === undefined || raw === null) return { columns: [], filters: [], sortOrder: [] };
  if (!isObject(raw)) throw new ValidationError('config must be an object { columns, filters, sortOrder }', [{ field: 'config', message: 'must be an object' }]);
  const details: ErrorDetail[] = [];
  const config = checkViewConfig(fields, raw, details, CONFIG_KEYS);
  if (details.length > 0) throw new ValidationError('Invalid view config', details);
  return config;
}

/**
 * The checks of `validateViewConfig` on an object, adding each problem to `details` instead of
 * throwing; keys other than `allowedKeys` are problems. Administration (views.admin.input.ts)
 * adds its own keys and checks around it.
 */
export function checkViewConfig(fields: readonly FieldDefinition[], raw: Record<string, unknown>, details: ErrorDetail[], allowedKeys: readonly string[]): ViewConfig {
  for (const key of Object.keys(raw)) {
    if (!allowedKeys.includes(key)) details.push({ field: `config.${key}`, message: `unknown key; allowed: ${allowedKeys.join(', ')}` });
  }
  const byId = new Map(fields.map((f) => [f.dataFieldSimplyId, f]));

  const columns: string[] = [];
  if (raw.columns !== undefined && raw.columns !== null) {
    if (!Array.isArray(raw.columns)) details.push({ field: 'config.columns', message: 'must be an array of field simplyIds' });
    else if (raw.columns.length > MAX_VIEW_COLUMNS) details.push({ field: 'config.columns', message: `at most ${MAX_VIEW_COLUMNS} columns (got ${raw.columns.length})` });
    else {
      raw.columns.forEach((column: unknown, i) => {
        const at = `config.columns[${i}]`;
        if (typeof column !== 'string' || !byId.has(column)) {
          details.push({ field: at, message: `${typeof column === 'string' ? column : 'the value'} is not a field of this collection` });
        } else if (columns.includes(column)) details.push({ field: at, message: `${column} is listed more than once` });
        else columns.push(column);
      });
    }
  }

  let filters: ViewConfig['filters'] = [];
  if (raw.filters !== undefined && raw.filters !== null) {
    const normalized = normalizeFilters(fields, raw.filters);
    if (!normalized.ok) details.push(...normalized.details.map((d) => ({ ...d, field: `config.${d.field ?? 'filters'}` })));
    else filters = (raw.filters as Record<string, unknown>[]).map((f) => ({ field: f.field as string, operator: f.operator as string, value: f.value ?? null }));
  }

  const sortOrder = checkSortList(fields, raw.sortOrder, 'config.sortOrder', MAX_VIEW_SORTS, details, { builtIns: SORTABLE_BUILT_INS, verb: 'sorted on' });
  return { columns, filters, sortOrder };
}

/**
 * A list of `{ field, direction }` (a sort order, or grouping levels): at most `max` entries, each
 * field once, a sortable field of the collection or one of `builtIns`.
 */
export function checkSortList(
  fields: readonly FieldDefinition[],
  raw: unknown,
  path: string,
  max: number,
  details: ErrorDetail[],
  options: { builtIns: readonly string[]; verb: string },
): ViewSort[] {
  const out: ViewSort[] = [];
  if (raw === undefined || raw === null) return out;
  const byId = new Map(fields.map((f) => [f.dataFieldSimplyId, f]));
  const { builtIns, verb } = options;
  if (!Array.isArray(raw)) {
    details.push({ field: path, message: 'must be an array of { field, direction }' });
    return out;
  }
  if (raw.length > max) {
    details.push({ field: path, message: `at most ${max} entries (got ${raw.length})` });
    return out;
  }
  raw.forEach((entry: unknown, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(entry)) return details.push({ field: at, message: 'must be an object { field, direction }' });
    const extra = Object.keys(entry).filter((k) => k !== 'field' && k !== 'direction');
    for (const key of extra) details.push({ field: `${at}.${key}`, message: 'unknown key; allowed: field, direction' });
    const { field, direction } = entry;
    let ok = extra.length === 0;
    if (typeof field !== 'string' || (!builtIns.includes(field) && !byId.has(field))) {
      details.push({ field: `${at}.field`, message: builtIns.length ? `must be a field simplyId of this collection or one of ${builtIns.join(', ')}` : 'must be a field simplyId of this collection' });
      ok = false;
    } else if (byId.has(field)) {
      const def = byId.get(field)!;
      if (!isDataType(def.dataType) || !valueShape(def.dataType).sortable) {
        details.push({ field: `${at}.field`, message: `${field} (${def.dataType}) cannot be ${verb}` });
        ok = false;
      }
    }
    if (direction !== 'asc' && direction !== 'desc') {
      details.push({ field: `${at}.direction`, message: 'must be "asc" or "desc"' });
      ok = false;
    }
    if (!ok) return;
    if (out.some((s) => s.field === field)) return details.push({ field: `${at}.field`, message: `${field as string} is ${verb} more than once` });
    out.push({ field: field as string, direction: direction as ViewSort['direction'] });
  });
  return out;
}
