// The records of one page of a shared view, read through the data kernel: the view's collection,
// its saved filters (active records, or archived ones under an isArchived filter), its saved sort.
//
// The kernel pages in the orders its memberships index: createdAt, updatedAt and calculatedName.
// A saved sort on a field's value is applied here, in memory, over every match, when the view
// matches at most MEMORY_SORT_MAX records (read in one kernel scan); a larger view is ordered by
// the sort's built-in levels only (or newest first) and the page says so (`sortShortened`).
import type pg from 'pg';
import { findRecordPage, type FieldDefinition, indexKey, type RecordRow, scanRecords, valueShape, isDataType } from '../../kernel/index.ts';
import type { SharedView } from './views.shared-view.ts';

export const EMBED_PAGE_SIZE = 25;
export const EMBED_MAX_PAGE_SIZE = 100;
/** the deepest row a page reaches: page × pageSize beyond it is a 400 */
export const EMBED_MAX_OFFSET = 100_000;
export const MEMORY_SORT_MAX = 2_000;

type BuiltIn = 'createdAt' | 'updatedAt' | 'calculatedName';
const BUILT_INS: readonly string[] = ['createdAt', 'updatedAt', 'calculatedName'];

/** A record as a page shows it. */
export type PageRecord = Pick<RecordRow, 'id' | 'simplyId' | 'values' | 'calculatedName' | 'createdAt' | 'updatedAt'>;

export interface EmbedRows {
  rows: PageRecord[];
  total: number;
  /** the saved sort names field values the page could not order by (too many records) */
  sortShortened: boolean;
}

type Level = { builtIn: BuiltIn; descending: boolean } | { field: FieldDefinition; descending: boolean };

/** The saved sort's levels whose field still exists. */
function sortLevels(shared: SharedView): Level[] {
  return shared.config.sortOrder.flatMap((s): Level[] => {
    const descending = s.direction === 'desc';
    if (BUILT_INS.includes(s.field)) return [{ builtIn: s.field as BuiltIn, descending }];
    const field = shared.fieldsById.get(s.field);
    return field && isDataType(field.dataType) && valueShape(field.dataType).sortable ? [{ field, descending }] : [];
  });
}

type Key = string | number | boolean | Date | null;

function keyOf(level: Level, r: PageRecord): Key {
  if ('builtIn' in level) return level.builtIn === 'calculatedName' ? r.calculatedName.toLowerCase() : r[level.builtIn];
  const key = indexKey(level.field, r.values[level.field.dataFieldSimplyId]);
  if (key === null || Array.isArray(key)) return null;
  // decimal keys are decimal strings: compared as numbers (a double is exact enough to order a page)
  return valueShape(level.field.dataType as never).keyKind === 'decimal' ? Number(key) : key;
}

/** Empty values last whatever the direction; then the level's direction. */
function compareKeys(a: Key, b: Key, descending: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  const order = x < y ? -1 : x > y ? 1 : 0;
  return descending ? -order : order;
}

function sortInMemory(records: PageRecord[], levels: Level[]): PageRecord[] {
  const keyed = records.map((r) => ({ r, keys: levels.map((l) => keyOf(l, r)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < levels.length; i++) {
      const c = compareKeys(a.keys[i]!, b.keys[i]!, levels[i]!.descending);
      if (c !== 0) return c;
    }
    // newest first among equals, as the kernel's own pages
    return a.r.id === b.r.id ? 0 : a.r.id > b.r.id ? -1 : 1;
  });
  return keyed.map((k) => k.r);
}

export async function embedRows(pool: pg.Pool, shared: SharedView, page: { limit: number; offset: number }): Promise<EmbedRows> {
  const levels = sortLevels(shared);
  const scope = { teamId: shared.teamId, collectionId: shared.collection.id, filters: shared.filters, fieldsById: shared.fieldsById };
  if (levels.some((l) => 'field' in l)) {
    const matches = await scanRecords(pool, scope, { limit: MEMORY_SORT_MAX + 1 });
    if (matches.length <= MEMORY_SORT_MAX) {
      return { rows: sortInMemory(matches, levels).slice(page.offset, page.offset + page.limit), total: matches.length, sortShortened: false };
    }
  }
  const builtIn = levels.flatMap((l) => ('builtIn' in l ? [{ key: l.builtIn, descending: l.descending }] : []));
  const { rows, total } = await findRecordPage(pool, { ...scope, sort: builtIn.length ? builtIn : [{ key: 'createdAt', descending: true }], ...page });
  return { rows, total, sortShortened: builtIn.length < levels.length };
}
