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

export const dataViewInput = z
  .object({
    dataCollectionSimplyId: z.string().regex(simplyIdPattern(), 'must be a collection simplyId (XXXX-XXXX-XXXX)'),
    name: localizedTextSchema,
    description: z
      .string()
      .trim()
      .max(MAX_VIEW_DESCRIPTION)
      .nullable()
      .default(null)
      .transform((v) => (v === '' ? null : v)),
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
  for (const key of Object.keys(raw)) {
    if (!(CONFIG_KEYS as readonly string[]).includes(key)) details.push({ field: `config.${key}`, message: `unknown key; allowed: ${CONFIG_KEYS.join(', ')}` });
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

  const sortOrder: ViewSort[] = [];
  if (raw.sortOrder !== undefined && raw.sortOrder !== null) {
    if (!Array.isArray(raw.sortOrder)) details.push({ field: 'config.sortOrder', message: 'must be an array of { field, direction }' });
    else if (raw.sortOrder.length > MAX_VIEW_SORTS) details.push({ field: 'config.sortOrder', message: `at most ${MAX_VIEW_SORTS} sort entries (got ${raw.sortOrder.length})` });
    else {
      raw.sortOrder.forEach((entry: unknown, i) => {
        const at = `config.sortOrder[${i}]`;
        if (!isObject(entry)) return details.push({ field: at, message: 'must be an object { field, direction }' });
        const extra = Object.keys(entry).filter((k) => k !== 'field' && k !== 'direction');
        for (const key of extra) details.push({ field: `${at}.${key}`, message: 'unknown key; allowed: field, direction' });
        const { field, direction } = entry;
        let ok = extra.length === 0;
        if (typeof field !== 'string' || (!(SORTABLE_BUILT_INS as readonly string[]).includes(field) && !byId.has(field))) {
          details.push({ field: `${at}.field`, message: `must be a field simplyId of this collection or one of ${SORTABLE_BUILT_INS.join(', ')}` });
          ok = false;
        } else if (byId.has(field)) {
          const def = byId.get(field)!;
          if (!isDataType(def.dataType) || !valueShape(def.dataType).sortable) {
            details.push({ field: `${at}.field`, message: `${field} (${def.dataType}) cannot be sorted` });
            ok = false;
          }
        }
        if (direction !== 'asc' && direction !== 'desc') {
          details.push({ field: `${at}.direction`, message: 'must be "asc" or "desc"' });
          ok = false;
        }
        if (!ok) return;
        if (sortOrder.some((s) => s.field === field)) return details.push({ field: `${at}.field`, message: `${field as string} is sorted on more than once` });
        sortOrder.push({ field: field as string, direction: direction as ViewSort['direction'] });
      });
    }
  }

  if (details.length > 0) throw new ValidationError('Invalid view config', details);
  return { columns, filters, sortOrder };
}
