// The calendar feed of a CALENDAR view (docs/api/data-views.md "The calendar feed"): an RFC 5545
// calendar written with ical-generator, one VEVENT per record and calendar date field link whose
// date is set. DATE fields make all-day events (VALUE=DATE, an end date inclusive in the view, so
// DTEND is the day after); DATE_TIME fields timed events in UTC. UIDs are stable: the record, the
// date field and the view, at the platform's host. DTSTAMP and LAST-MODIFIED are the record's
// updatedAt, so the same data always gives the same text.
//
// The records are read through the kernel in windows of WINDOW (keyset by record id), the next one
// read while this one is written out, and each window is sent as soon as it is written: the feed of
// a large view streams, and memory holds two windows. The ETag is computed before any of it, from
// the view, its schema and one kernel page (the total and the last change of the view's records).
//
// A record's events depend only on the record (its updatedAt) and the feed's layout (the view, its
// fields, the host: `layout`). When the feed was written before under the same layout (kept by
// views.ics-feed-cache.ts), only what changed since is read: the ids of the view's records (no
// values) and the records changed since that writing (an updatedAt filter, LATE_COMMIT_MS of margin
// for writes that committed after the writing with an earlier timestamp); every other record's
// events are taken from the writing. A change of one record then reads and writes one record. An
// id the writing does not know, or more than MAX_CHANGED changes, and the feed is read whole.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { onFirstUse } from '../../app/on-first-use.ts';
import { type FieldDefinition, findRecordPage, type NormalizedFilter, normalizeFilters, type RecordScan, scanRecordIds, scanRecords, type ScannedRecord, toDisplayText } from '../../kernel/index.ts';
import type { CalendarDateInfoFieldLink } from './views.config.ts';
import type { SharedView } from './views.shared-view.ts';
import { labelOf } from './views.service.ts';

const icalGenerator = onFirstUse<typeof import('ical-generator')>('ical-generator');

/** the most records one feed reads (the first ones created); the rest is left out */
export const FEED_MAX_RECORDS = 50_000;
const WINDOW = 2_500;
/** how many changed records a feed takes from a reading of its changes; more: it is read whole */
const MAX_CHANGED = 500;
/** how much older than the last writing's newest record a change may be and still be seen */
const LATE_COMMIT_MS = 60_000;
/** bumped when the feed's text changes for the same data, so clients' copies are not kept */
const FORMAT_VERSION = 'ics-1';
/** how often clients are asked to refresh (REFRESH-INTERVAL, X-PUBLISHED-TTL) */
const REFRESH_SECONDS = 3600;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

interface FeedLink {
  link: CalendarDateInfoFieldLink;
  start: FieldDefinition;
  /** a field of the start's type; null: none (a point in time, or one day) */
  end: FieldDefinition | null;
  allDay: boolean;
  label: string;
}

/** The calendar date links whose fields still fit: a DATE or DATE_TIME start, an end of its type. */
function feedLinks(shared: SharedView): FeedLink[] {
  return shared.config.calendarDateInfoFieldLinks.flatMap((link): FeedLink[] => {
    const start = shared.fieldsById.get(link.dataFieldSimplyId);
    if (!start || (start.dataType !== 'DATE' && start.dataType !== 'DATE_TIME')) return [];
    const end = link.endDataFieldSimplyId ? shared.fieldsById.get(link.endDataFieldSimplyId) : undefined;
    return [{ link, start, end: end && end.dataType === start.dataType && end !== start ? end : null, allDay: start.dataType === 'DATE', label: labelOf(link.label ?? start.title) }];
  });
}

function scanOf(shared: SharedView): RecordScan {
  return { teamId: shared.teamId, collectionId: shared.collection.id, filters: shared.filters, fieldsById: shared.fieldsById };
}

export interface FeedVersion {
  /** what the events of an unchanged record depend on besides the record */
  layout: string;
  /** a weak validator of the whole feed (the layout and the records) */
  etag: string;
}

const digest = (material: unknown) => createHash('sha256').update(JSON.stringify(material)).digest('base64url').slice(0, 32);

/**
 * The feed's version, without reading a record: the view (its revision), the fields it uses, the
 * collection, the host UIDs end with, and one kernel page ordered by updatedAt (the newest change
 * among the view's records, and their total: a change, an addition, a removal or a record leaving
 * the view's filter moves one of them).
 */
export async function feedVersion(pool: pg.Pool, shared: SharedView, host: string): Promise<FeedVersion> {
  const { rows, total } = await findRecordPage(pool, { ...scanOf(shared), sort: [{ key: 'updatedAt', descending: true }], limit: 1, offset: 0 });
  const fields = [...shared.columns.map((c) => c.field), ...feedLinks(shared).flatMap((l) => (l.end ? [l.start, l.end] : [l.start]))];
  const layout = digest([
    FORMAT_VERSION,
    host,
    shared.view.simplyId,
    shared.view.updatedAt.getTime(),
    shared.collection.updatedAt.getTime(),
    ...fields.map((f) => `${f.dataFieldSimplyId}:${f.updatedAt.getTime()}`),
  ]);
  return { layout, etag: `W/"${digest([layout, total, rows[0]?.simplyId ?? '', rows[0] ? Date.parse(rows[0].updatedAt) : 0])}"` };
}

/** Whether an If-None-Match header names this ETag (weak comparison, RFC 9110 13.1.2). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

function dayOf(stored: unknown): Date | null {
  const m = typeof stored === 'string' ? DATE.exec(stored) : null;
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

function instantOf(stored: unknown): Date | null {
  if (typeof stored !== 'string') return null;
  const at = new Date(stored);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The events of one record, written before: valid while the record's updatedAt is `stamp`. */
export interface WrittenEvents {
  stamp: number;
  text: string;
}

/** A writing of the feed under one layout: each record's events, and the newest record's updatedAt. */
export class WrittenFeed {
  readonly events = new Map<bigint, WrittenEvents>();
  newest = 0;

  note(id: bigint, events: WrittenEvents): void {
    this.events.set(id, events);
    if (events.stamp > this.newest) this.newest = events.stamp;
  }
}

/** One record's events: one per link whose start is set ('' when none is). */
function recordText(calendar: InstanceType<ReturnType<typeof icalGenerator>['ICalCalendar']>, shared: SharedView, links: readonly FeedLink[], host: string, r: ScannedRecord): string {
  const name = r.calculatedName || r.simplyId;
  const several = links.length > 1;
  let description: string | null = null;
  for (const fl of links) {
    const stored = r.values[fl.start.dataFieldSimplyId];
    const start = fl.allDay ? dayOf(stored) : instantOf(stored);
    if (!start) continue;
    const endValue = fl.end ? (fl.allDay ? dayOf(r.values[fl.end.dataFieldSimplyId]) : instantOf(r.values[fl.end.dataFieldSimplyId])) : null;
    // the end date of an all-day entry is its last day; DTEND is exclusive, so the day after
    const end = endValue && (fl.allDay ? (endValue >= start ? new Date(endValue.getTime() + DAY_MS) : null) : endValue > start ? endValue : null);
    description ??= shared.columns
      .map((c) => [c.label, toDisplayText(c.field, r.values[c.field.dataFieldSimplyId])] as const)
      .filter(([, text]) => text !== '')
      .map(([label, text]) => `${label}: ${text}`)
      .join('\n');
    calendar.createEvent({
      id: `${r.simplyId}.${fl.start.dataFieldSimplyId}.${shared.view.simplyId}@${host}`,
      start,
      ...(end ? { end } : {}),
      allDay: fl.allDay,
      summary: several ? `${name} · ${fl.label}` : name,
      ...(description ? { description } : {}),
      stamp: new Date(r.updatedAt),
      lastModified: new Date(r.updatedAt),
    });
  }
  const text = calendar
    .events()
    .map((e) => e.toString())
    .join('');
  calendar.clear();
  return text;
}

/** The events of one window of records, read whole; each record's go into `now`. */
function windowText(shared: SharedView, links: readonly FeedLink[], host: string, records: readonly ScannedRecord[], now: WrittenFeed): string {
  const { ICalCalendar } = icalGenerator();
  // a scratch calendar without a time zone: ical-generator writes every instant in UTC ("…Z")
  const calendar = new ICalCalendar();
  let out = '';
  for (const r of records) {
    const text = recordText(calendar, shared, links, host, r);
    now.note(r.id, { stamp: Date.parse(r.updatedAt), text });
    out += text;
  }
  return out;
}

/** `updatedAt >= at` in the record search's normal form. */
function changedSince(at: number): NormalizedFilter {
  const normalized = normalizeFilters([], [{ field: 'updatedAt', operator: 'gte', value: new Date(at).toISOString() }]);
  if (!normalized.ok) throw new Error('the updatedAt filter is not accepted by the record search');
  return normalized.filters[0]!;
}

/**
 * The feed's events from the changes since `before` (see the file comment), or null when it must
 * be read whole. All ids are read first: whether the writing can be used is known before any event
 * is sent.
 */
async function changedText(pool: pg.Pool, shared: SharedView, links: readonly FeedLink[], host: string, before: WrittenFeed, now: WrittenFeed): Promise<string | null> {
  const scan = scanOf(shared);
  const changes = await findRecordPage(pool, {
    ...scan,
    filters: [...scan.filters, changedSince(before.newest - LATE_COMMIT_MS)],
    sort: [{ key: 'updatedAt', descending: true }],
    limit: MAX_CHANGED + 1,
    offset: 0,
  });
  if (changes.rows.length > MAX_CHANGED) return null;
  const changed = new Map(changes.rows.map((r) => [r.id, r]));
  const ids: bigint[] = [];
  for (let after: bigint | undefined; ids.length < FEED_MAX_RECORDS; ) {
    const window = await scanRecordIds(pool, scan, { after, limit: Math.min(WINDOW * 4, FEED_MAX_RECORDS - ids.length) });
    for (const w of window) ids.push(w.id);
    if (window.length < WINDOW * 4) break;
    after = window.at(-1)!.id;
  }
  if (ids.some((id) => !changed.has(id) && !before.events.has(id))) return null;
  const { ICalCalendar } = icalGenerator();
  const calendar = new ICalCalendar();
  const parts: string[] = [];
  for (const id of ids) {
    const record = changed.get(id);
    const kept = before.events.get(id);
    // checked above: an id that is not among the changes is in the writing
    const stamp = record ? Date.parse(record.updatedAt) : Number.NaN;
    const events = record && stamp !== kept?.stamp ? { stamp, text: recordText(calendar, shared, links, host, record) } : kept!;
    now.note(id, events);
    parts.push(events.text);
  }
  return parts.join('');
}

/** The calendar's lines before its events, and the one after. */
function envelope(shared: SharedView): { head: string; foot: string } {
  const { ICalCalendar } = icalGenerator();
  const calendar = new ICalCalendar({ name: shared.title, prodId: { company: 'svc', product: 'data views' }, ttl: REFRESH_SECONDS });
  // where clients should show the times: the view's calendar time zone (the times themselves are UTC)
  if (shared.calendar) calendar.x([{ key: 'X-WR-TIMEZONE', value: shared.calendar.timeZone }]);
  const text = calendar.toString();
  const end = 'END:VCALENDAR';
  return { head: text.slice(0, text.lastIndexOf(end)), foot: `${end}\r\n` };
}

/**
 * The feed's text in pieces, in order: the calendar's head, its events, its end. `before`: the
 * last writing under this layout (or null); `now` receives this writing's events.
 */
export async function* feedText(pool: pg.Pool, shared: SharedView, host: string, before: WrittenFeed | null, now: WrittenFeed): AsyncGenerator<string> {
  const { head, foot } = envelope(shared);
  yield head;
  const links = feedLinks(shared);
  const fromChanges = links.length > 0 && before ? await changedText(pool, shared, links, host, before, now) : null;
  if (fromChanges !== null) yield fromChanges;
  else if (links.length > 0) {
    now.events.clear();
    const scan = scanOf(shared);
    let read = 0;
    let next: Promise<ScannedRecord[]> | null = scanRecords(pool, scan, { limit: WINDOW });
    while (next) {
      const records: ScannedRecord[] = await next;
      read += records.length;
      next = records.length === WINDOW && read < FEED_MAX_RECORDS ? scanRecords(pool, scan, { after: records.at(-1)!.id, limit: Math.min(WINDOW, FEED_MAX_RECORDS - read) }) : null;
      // a reader that goes away leaves the read ahead unawaited: its failure must not be unhandled
      next?.catch(() => {});
      yield windowText(shared, links, host, records, now);
    }
  }
  yield foot;
}
