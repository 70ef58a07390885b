// Bodies of view administration (docs/api/data-views.md "Administration"): the admin detail
// (PUT …/admin-detail), the three kinds of field links and their reorder. Shapes are checked
// here (zod, shared with the REST table); what depends on the view's collection and type is
// checked against them by validateAdminConfig and the link rules.
import { z } from 'zod';
import { type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { localizedTextSchema } from '../../app/localized-text.ts';
import type { FieldDefinition } from '../../kernel/index.ts';
import {
  AGGREGATIONS,
  CALENDAR_MODES,
  type CalendarSettings,
  GROUPING_TYPES,
  type MapSettings,
  WEEK_STARTS,
} from './views.config.ts';
import { LOCATION_TYPES } from './views.link-rules.ts';
import { checkSortList, checkViewConfig, descriptionInput, internalNameInput, VIEW_TYPES, type ViewConfig, type ViewSort, type ViewType } from './views.input.ts';

export const MAX_GROUPING_LEVELS = 3;
export const MAX_TIME_ZONE_LENGTH = 64;
const ADMIN_CONFIG_KEYS = ['columns', 'filters', 'sortOrder', 'grouping', 'calendar', 'map'] as const;
const ID_MAX = 64;

/** PUT …/admin-detail: every editable setting of the view (links have their own routes; `config.columns` sets the display links). */
export const dataViewAdminInput = z
  .object({
    name: localizedTextSchema,
    description: descriptionInput,
    internalName: internalNameInput,
    enumDataViewTypeId: z.enum(VIEW_TYPES, { message: `must be one of ${VIEW_TYPES.join(', ')}` }),
    isPublished: z.boolean({ message: 'must be true or false' }),
    // checked against the collection and the type by validateAdminConfig
    config: z.record(z.string(), z.unknown(), { message: 'must be an object { columns?, filters, sortOrder, grouping, calendar, map }' }),
  })
  .strict();
export type DataViewAdminInput = z.output<typeof dataViewAdminInput>;

const fieldId = (what = 'a field simplyId of the view\u2019s collection') => z.string({ message: `must be ${what}` }).min(1, `must be ${what}`).max(ID_MAX);
const optionalLabel = localizedTextSchema.nullable();
const aggregation = z.enum(AGGREGATIONS, { message: `must be one of ${AGGREGATIONS.join(', ')}` }).nullable();
const operator = z.string().min(1, 'must be a search operator').max(32).nullable();
const color = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour #RRGGBB').nullable();

export const displayLinkInput = z.object({ dataFieldSimplyId: fieldId(), label: optionalLabel.default(null), aggregation: aggregation.default(null) }).strict();
export const displayLinkUpdate = z.object({ dataFieldSimplyId: fieldId().optional(), label: optionalLabel.optional(), aggregation: aggregation.optional() }).strict();

export const filterLinkInput = z.object({ dataFieldSimplyId: fieldId(), label: optionalLabel.default(null), defaultOperator: operator.default(null) }).strict();
export const filterLinkUpdate = z.object({ dataFieldSimplyId: fieldId().optional(), label: optionalLabel.optional(), defaultOperator: operator.optional() }).strict();

export const calendarLinkInput = z
  .object({
    dataFieldSimplyId: fieldId('a DATE or DATE_TIME field simplyId of the view\u2019s collection'),
    endDataFieldSimplyId: fieldId().nullable().default(null),
    label: optionalLabel.default(null),
    color: color.default(null),
  })
  .strict();
export const calendarLinkUpdate = z
  .object({
    dataFieldSimplyId: fieldId('a DATE or DATE_TIME field simplyId of the view\u2019s collection').optional(),
    endDataFieldSimplyId: fieldId().nullable().optional(),
    label: optionalLabel.optional(),
    color: color.optional(),
  })
  .strict();

/** PUT …/<links>/reorder */
export const reorderLinksInput = z
  .object({ orderedLinkSimplyIds: z.array(z.string().max(ID_MAX), { message: 'must be an array of link simplyIds' }).max(200, 'at most 200 links') })
  .strict();

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface AdminConfig extends ViewConfig {
  /** config.columns was given: the display links become exactly these fields */
  columnsGiven: boolean;
  grouping: ViewSort[];
  calendar: Partial<CalendarSettings> | null;
  map: Partial<MapSettings> | null;
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function checkCalendar(raw: unknown, type: ViewType, details: ErrorDetail[]): Partial<CalendarSettings> | null {
  if (raw === undefined || raw === null) return null;
  if (type !== 'CALENDAR') {
    details.push({ field: 'config.calendar', message: `calendar settings apply only to CALENDAR views; send null for a ${type} view` });
    return null;
  }
  if (!isObject(raw)) {
    details.push({ field: 'config.calendar', message: 'must be an object { defaultMode, weekStartsOn, timeZone }' });
    return null;
  }
  const out: Partial<CalendarSettings> = {};
  for (const key of Object.keys(raw)) {
    if (!['defaultMode', 'weekStartsOn', 'timeZone'].includes(key)) details.push({ field: `config.calendar.${key}`, message: 'unknown key; allowed: defaultMode, weekStartsOn, timeZone' });
  }
  const { defaultMode, weekStartsOn, timeZone } = raw;
  if (defaultMode !== undefined && defaultMode !== null) {
    if ((CALENDAR_MODES as readonly unknown[]).includes(defaultMode)) out.defaultMode = defaultMode as CalendarSettings['defaultMode'];
    else details.push({ field: 'config.calendar.defaultMode', message: `must be one of ${CALENDAR_MODES.join(', ')}` });
  }
  if (weekStartsOn !== undefined && weekStartsOn !== null) {
    if ((WEEK_STARTS as readonly unknown[]).includes(weekStartsOn)) out.weekStartsOn = weekStartsOn as CalendarSettings['weekStartsOn'];
    else details.push({ field: 'config.calendar.weekStartsOn', message: `must be one of ${WEEK_STARTS.join(', ')}` });
  }
  if (timeZone !== undefined && timeZone !== null) {
    if (typeof timeZone === 'string' && timeZone.length <= MAX_TIME_ZONE_LENGTH && isTimeZone(timeZone)) out.timeZone = timeZone;
    else details.push({ field: 'config.calendar.timeZone', message: 'must be an IANA time zone such as "Europe/Berlin" or "UTC"' });
  }
  return out;
}

function checkMap(raw: unknown, type: ViewType, byId: ReadonlyMap<string, FieldDefinition>, details: ErrorDetail[]): Partial<MapSettings> | null {
  if (raw === undefined || raw === null) return null;
  if (type !== 'MAP') {
    details.push({ field: 'config.map', message: `map settings apply only to MAP views; send null for a ${type} view` });
    return null;
  }
  if (!isObject(raw)) {
    details.push({ field: 'config.map', message: 'must be an object { locationFieldSimplyId, defaultZoom }' });
    return null;
  }
  const out: Partial<MapSettings> = {};
  for (const key of Object.keys(raw)) {
    if (!['locationFieldSimplyId', 'defaultZoom'].includes(key)) details.push({ field: `config.map.${key}`, message: 'unknown key; allowed: locationFieldSimplyId, defaultZoom' });
  }
  const { locationFieldSimplyId, defaultZoom } = raw;
  if (locationFieldSimplyId !== undefined && locationFieldSimplyId !== null) {
    const field = typeof locationFieldSimplyId === 'string' ? byId.get(locationFieldSimplyId) : undefined;
    if (!field) details.push({ field: 'config.map.locationFieldSimplyId', message: `${typeof locationFieldSimplyId === 'string' ? locationFieldSimplyId.slice(0, ID_MAX) : 'the value'} is not a field of this collection` });
    else if (!(LOCATION_TYPES as readonly string[]).includes(field.dataType)) {
      details.push({ field: 'config.map.locationFieldSimplyId', message: `the location must be a PHYSICAL_ADDRESS field; ${field.dataFieldSimplyId} is ${field.dataType}` });
    } else out.locationFieldSimplyId = field.dataFieldSimplyId;
  }
  if (defaultZoom !== undefined && defaultZoom !== null) {
    if (Number.isInteger(defaultZoom) && (defaultZoom as number) >= 1 && (defaultZoom as number) <= 20) out.defaultZoom = defaultZoom as number;
    else details.push({ field: 'config.map.defaultZoom', message: 'must be a whole number from 1 to 20' });
  }
  return out;
}

/**
 * The admin detail's `config` checked against the collection's fields and the view's (new) type.
 * Every problem is reported, each naming its path under `config`.
 */
export function validateAdminConfig(fields: readonly FieldDefinition[], type: ViewType, raw: Record<string, unknown>): AdminConfig {
  const details: ErrorDetail[] = [];
  const base = checkViewConfig(fields, raw, details, ADMIN_CONFIG_KEYS);
  const byId = new Map(fields.map((f) => [f.dataFieldSimplyId, f]));
  let grouping: ViewSort[] = [];
  if (raw.grouping !== undefined && raw.grouping !== null && !(Array.isArray(raw.grouping) && raw.grouping.length === 0) && !GROUPING_TYPES.includes(type)) {
    details.push({ field: 'config.grouping', message: `${type} views do not group records (grouping applies to ${GROUPING_TYPES.join(', ')}); send []` });
  } else {
    // the fields records can be ordered by are the ones they can be grouped by
    grouping = checkSortList(fields, raw.grouping, 'config.grouping', MAX_GROUPING_LEVELS, details, { builtIns: [], verb: 'grouped by' });
  }
  const calendar = checkCalendar(raw.calendar, type, details);
  const map = checkMap(raw.map, type, byId, details);
  if (details.length > 0) throw new ValidationError('Invalid view configuration', details);
  return { ...base, columnsGiven: raw.columns !== undefined && raw.columns !== null, grouping, calendar, map };
}
