// The whole stored configuration of a view (DataView.config), as administration reads and writes
// it: the public `columns`, `filters` and `sortOrder` (views.input.ts), grouping, calendar and map
// settings, and the three kinds of field links, each link with its own simplyId. Everything lives
// in the one JSON document, so every change is part of the team schema snapshot (schemaWrite) and
// a view exports as one portable object. `columns` is kept equal to the display links' fields.
import { createHash } from 'node:crypto';
import type { LocalizedText } from '../../app/localized-text.ts';
import { readViewConfig, type ViewConfig, type ViewSort, type ViewType } from './views.input.ts';
import { viewFieldLinkId } from './views.ids.ts';

export const AGGREGATIONS = ['COUNT', 'SUM', 'AVERAGE', 'MIN', 'MAX'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export const CALENDAR_MODES = ['MONTH', 'WEEK', 'DAY', 'AGENDA'] as const;
export const WEEK_STARTS = ['MONDAY', 'SUNDAY', 'SATURDAY'] as const;

export interface DisplayFieldLink {
  id: string;
  dataFieldSimplyId: string;
  /** shown instead of the field's title; null: the title */
  label: LocalizedText | null;
  /** PIVOT, CHART and STATS views: how values are summarized; null: COUNT there, nothing elsewhere */
  aggregation: Aggregation | null;
}

export interface FilterFieldLink {
  id: string;
  dataFieldSimplyId: string;
  label: LocalizedText | null;
  /** the operator the filter control starts with (a search operator of the field's type); null: the client's choice */
  defaultOperator: string | null;
}

export interface CalendarDateInfoFieldLink {
  id: string;
  /** a DATE or DATE_TIME field: when the entry starts (DATE: all day) */
  dataFieldSimplyId: string;
  /** a field of the same type: when it ends; null: a point in time (or one day) */
  endDataFieldSimplyId: string | null;
  label: LocalizedText | null;
  /** #RRGGBB */
  color: string | null;
}

export interface CalendarSettings {
  defaultMode: (typeof CALENDAR_MODES)[number];
  weekStartsOn: (typeof WEEK_STARTS)[number];
  /** IANA time zone DATE_TIME values are shown in */
  timeZone: string;
}

export interface MapSettings {
  /** a PHYSICAL_ADDRESS field of the collection */
  locationFieldSimplyId: string | null;
  /** 1 (the world) to 20 (a building); null: fit the records shown */
  defaultZoom: number | null;
}

export const DEFAULT_CALENDAR: CalendarSettings = { defaultMode: 'MONTH', weekStartsOn: 'MONDAY', timeZone: 'UTC' };
export const DEFAULT_MAP: MapSettings = { locationFieldSimplyId: null, defaultZoom: null };

export interface LinkLists {
  displayFieldLinks: DisplayFieldLink[];
  filterFieldLinks: FilterFieldLink[];
  calendarDateInfoFieldLinks: CalendarDateInfoFieldLink[];
}

export type LinkListKey = keyof LinkLists;

export interface StoredViewConfig extends ViewConfig, LinkLists {
  grouping: ViewSort[];
  /** as stored; null: the defaults (CALENDAR views) */
  calendar: Partial<CalendarSettings> | null;
  /** as stored; null: the defaults (MAP views) */
  map: Partial<MapSettings> | null;
}

/** View types that summarize records instead of listing them: display links carry an aggregation. */
export const AGGREGATED_TYPES: readonly ViewType[] = ['PIVOT', 'CHART', 'STATS'];
/** View types that group records (config.grouping). */
export const GROUPING_TYPES: readonly ViewType[] = ['LIST', 'TABLE', 'PIVOT', 'CHART', 'STATS'];
/** View types that need at least one grouping level to show anything. */
export const GROUPING_REQUIRED_TYPES: readonly ViewType[] = ['PIVOT', 'CHART'];

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/**
 * The id of a display link of a view stored before links existed (only `columns`): derived from the
 * view and the field, so it is the same on every read until the links are first written.
 */
function derivedLinkId(viewSimplyId: string, fieldSimplyId: string): string {
  const bytes = createHash('sha256').update(`${viewSimplyId}:display:${fieldSimplyId}`).digest();
  const chars = [...bytes.subarray(0, 12)].map((b) => ALPHABET[b % ALPHABET.length]);
  return `${viewFieldLinkId.prefix}-${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8, 12).join('')}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const label = (v: unknown): LocalizedText | null => (typeof v === 'string' || isObject(v) ? (v as LocalizedText) : null);

function links<T>(raw: unknown, read: (item: Record<string, unknown>) => T | null): T[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    if (!isObject(item) || typeof item.id !== 'string' || typeof item.dataFieldSimplyId !== 'string') return [];
    const link = read(item);
    return link ? [link] : [];
  });
}

/** Reads a stored config with every key present; tolerant of older and hand-written documents. */
export function readStoredConfig(viewSimplyId: string, stored: unknown): StoredViewConfig {
  const base = readViewConfig(stored);
  const c = isObject(stored) ? stored : {};
  const displayFieldLinks = Array.isArray(c.displayFieldLinks)
    ? links<DisplayFieldLink>(c.displayFieldLinks, (l) => ({
        id: l.id as string,
        dataFieldSimplyId: l.dataFieldSimplyId as string,
        label: label(l.label),
        aggregation: (AGGREGATIONS as readonly unknown[]).includes(l.aggregation) ? (l.aggregation as Aggregation) : null,
      }))
    : base.columns.filter((f) => typeof f === 'string').map((f) => ({ id: derivedLinkId(viewSimplyId, f), dataFieldSimplyId: f, label: null, aggregation: null }));
  return {
    ...base,
    grouping: Array.isArray(c.grouping) ? (c.grouping as ViewSort[]).filter((g) => isObject(g) && typeof g.field === 'string') : [],
    calendar: isObject(c.calendar) ? (c.calendar as Partial<CalendarSettings>) : null,
    map: isObject(c.map) ? (c.map as Partial<MapSettings>) : null,
    displayFieldLinks,
    filterFieldLinks: links<FilterFieldLink>(c.filterFieldLinks, (l) => ({
      id: l.id as string,
      dataFieldSimplyId: l.dataFieldSimplyId as string,
      label: label(l.label),
      defaultOperator: text(l.defaultOperator),
    })),
    calendarDateInfoFieldLinks: links<CalendarDateInfoFieldLink>(c.calendarDateInfoFieldLinks, (l) => ({
      id: l.id as string,
      dataFieldSimplyId: l.dataFieldSimplyId as string,
      endDataFieldSimplyId: text(l.endDataFieldSimplyId),
      label: label(l.label),
      color: text(l.color),
    })),
  };
}

/** The calendar settings in effect: CALENDAR views only. */
export function effectiveCalendar(type: ViewType, config: StoredViewConfig): CalendarSettings | null {
  return type === 'CALENDAR' ? { ...DEFAULT_CALENDAR, ...(config.calendar ?? {}) } : null;
}

/** The map settings in effect: MAP views only. */
export function effectiveMap(type: ViewType, config: StoredViewConfig): MapSettings | null {
  return type === 'MAP' ? { ...DEFAULT_MAP, ...(config.map ?? {}) } : null;
}

/**
 * The document stored: `columns` follows the display links (the fields that still exist, in link
 * order), so the standard view detail and the export show what administration configured.
 */
export function toStored(config: StoredViewConfig, fieldExists: (fieldSimplyId: string) => boolean): Record<string, unknown> {
  const columns = [...new Set(config.displayFieldLinks.map((l) => l.dataFieldSimplyId).filter(fieldExists))];
  return {
    columns,
    filters: config.filters,
    sortOrder: config.sortOrder,
    grouping: config.grouping,
    calendar: config.calendar,
    map: config.map,
    displayFieldLinks: config.displayFieldLinks,
    filterFieldLinks: config.filterFieldLinks,
    calendarDateInfoFieldLinks: config.calendarDateInfoFieldLinks,
  };
}
