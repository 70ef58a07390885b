// The one rule engine of space bookings: availability, slots, the slot grid, quotes and runs all ask
// it, and a run asks it again under the channel's lock before writing. Times are instants (epoch
// milliseconds); everything that depends on the calendar (weekly windows, the advance limit, the
// days of a grid) is worked out in the channel's IANA time zone through Temporal, so a window of
// 09:00-17:00 stays 09:00-17:00 local time on both sides of a daylight-saving change.
import { Temporal } from 'temporal-polyfill';
import type { AvailabilityPolicy } from './space-bookings.input.ts';
import { WEEKDAYS } from './space-bookings.input.ts';

export const DIAGNOSTIC_CODES = [
  'INVALID_BOOKING_TIME_RANGE',
  'BOOKING_LEAD_TIME_VIOLATION',
  'BOOKING_ADVANCE_LIMIT_EXCEEDED',
  'BOOKING_OUTSIDE_AVAILABILITY_WINDOW',
  'BOOKING_DURATION_OUT_OF_RANGE',
  'BOOKING_SLOT_INCREMENT_MISMATCH',
  'BOOKING_SPACE_UNAVAILABLE',
  'BOOKING_SPACE_OUT_OF_SCOPE',
  'BOOKING_SLOT_CONTENTION',
  'BOOKING_LINK_VERIFICATION_REQUIRED',
] as const;
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

export interface Diagnostic {
  code: DiagnosticCode;
  message: string;
  path?: string;
}

/** A span a space is taken: a booking's own time (the buffers are the policy's, added when compared). */
export interface BusySpan {
  spaceRecordSimplyId: string;
  startsAt: number;
  endsAt: number;
  bookingRecordSimplyId: string | null;
}

/** What a channel adds to its policy's rules (the policy itself is the calendar's). */
export interface ChannelRules {
  spaceRecordSimplyIds: readonly string[];
}

export interface BookingAsk {
  startsAt: number;
  endsAt: number;
  spaceRecordSimplyIds: readonly string[];
  now: number;
}

export interface SpaceVerdict {
  spaceRecordSimplyId: string;
  isAvailable: boolean;
  /** the bookings in the way (their times), for callers allowed to see them */
  conflicts: { startsAt: number; endsAt: number; bookingRecordSimplyId: string | null }[];
}

export interface Verdict {
  /** the rules the time itself breaks (same for every space) and the spaces' own problems */
  diagnostics: Diagnostic[];
  spaces: SpaceVerdict[];
}

const MINUTE = 60_000;

/** The windows of one local date as instants, cached per channel zone and date (a grid asks for each day many times). */
export class WindowCalendar {
  private readonly cache = new Map<string, { start: number; end: number }[]>();
  private readonly byDay: Map<number, { start: string; end: string }[]>;
  readonly policy: AvailabilityPolicy;
  constructor(policy: AvailabilityPolicy) {
    this.policy = policy;
    this.byDay = new Map();
    for (const w of policy.weeklyWindows) {
      const day = WEEKDAYS.indexOf(w.dayOfWeek) + 1;
      this.byDay.set(day, [...(this.byDay.get(day) ?? []), { start: w.start, end: w.end }]);
    }
  }

  /** the local date (YYYY-MM-DD) of an instant in the channel's zone */
  localDate(at: number): Temporal.PlainDate {
    return Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(this.policy.timeZone).toPlainDate();
  }

  windowsOn(date: Temporal.PlainDate): { start: number; end: number }[] {
    const key = date.toString();
    const hit = this.cache.get(key);
    if (hit) return hit;
    const windows = (this.byDay.get(date.dayOfWeek) ?? [])
      .map((w) => ({ start: this.instantAt(date, w.start), end: this.instantAt(date, w.end) }))
      .filter((w) => w.end > w.start)
      .sort((a, b) => a.start - b.start);
    this.cache.set(key, windows);
    return windows;
  }

  /**
   * The first instant whose wall-clock time on that date is at least `time` (24:00: the next day's
   * start). A time the clocks skip (02:30 when they jump from 02:00 to 03:00) is the jump itself,
   * so a window loses only what the change takes; a time that happens twice is its first occurrence.
   */
  private instantAt(date: Temporal.PlainDate, time: string): number {
    const [h, m] = time.split(':').map(Number) as [number, number];
    const wall = (h === 24 ? date.add({ days: 1 }) : date).toPlainDateTime(new Temporal.PlainTime(h === 24 ? 0 : h, m));
    const zoned = wall.toZonedDateTime(this.policy.timeZone, { disambiguation: 'earlier' });
    if (Temporal.PlainDateTime.compare(zoned.toPlainDateTime(), wall) === 0) return zoned.epochMilliseconds;
    return (zoned.getTimeZoneTransition('next') ?? zoned).epochMilliseconds;
  }

  private limitFor: { now: number; limit: number } | null = null;
  private closures: [number, number][] | null = null;

  /** closure i as instants */
  closure(i: number): [number, number] {
    this.closures ??= this.policy.closures.map((c) => [Date.parse(c.startsAt), Date.parse(c.endsAt)]);
    return this.closures[i]!;
  }

  /** the latest instant a booking may start: now plus the advance limit in calendar days of the zone */
  advanceLimit(now: number): number {
    if (this.limitFor?.now !== now) {
      const limit = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(this.policy.timeZone).add({ days: this.policy.maximumAdvanceDays }).epochMilliseconds;
      this.limitFor = { now, limit };
    }
    return this.limitFor.limit;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A weekly window on one date, as instants. */
export interface WindowSpan {
  start: number;
  end: number;
}

/**
 * The time rules: the same for every space asked about. `within`: the window of the start's local
 * date that holds the booking, when the caller took the start from it (the slot grid), so it is not
 * looked up again; every other rule is checked all the same.
 */
export function checkTime(calendar: WindowCalendar, ask: BookingAsk, within?: WindowSpan): Diagnostic[] {
  const p = calendar.policy;
  const out: Diagnostic[] = [];
  if (!(ask.endsAt > ask.startsAt)) {
    return [{ code: 'INVALID_BOOKING_TIME_RANGE', message: 'endsAt must be after startsAt', path: 'endsAt' }];
  }
  if (ask.startsAt < ask.now + p.leadTimeMinutes * MINUTE) {
    out.push({ code: 'BOOKING_LEAD_TIME_VIOLATION', message: `Bookings must start at least ${p.leadTimeMinutes} minutes from now`, path: 'startsAt' });
  }
  if (ask.startsAt > calendar.advanceLimit(ask.now)) {
    out.push({ code: 'BOOKING_ADVANCE_LIMIT_EXCEEDED', message: `Bookings may start at most ${p.maximumAdvanceDays} days ahead`, path: 'startsAt' });
  }
  const duration = (ask.endsAt - ask.startsAt) / MINUTE;
  if (duration < p.minimumDurationMinutes || duration > p.maximumDurationMinutes) {
    out.push({ code: 'BOOKING_DURATION_OUT_OF_RANGE', message: `A booking lasts ${p.minimumDurationMinutes} to ${p.maximumDurationMinutes} minutes (this one: ${duration})`, path: 'endsAt' });
  }
  const window = within ?? calendar.windowsOn(calendar.localDate(ask.startsAt)).find((w) => ask.startsAt >= w.start && ask.endsAt <= w.end);
  if (!window) {
    out.push({ code: 'BOOKING_OUTSIDE_AVAILABILITY_WINDOW', message: `${iso(ask.startsAt)} to ${iso(ask.endsAt)} is not inside one of the weekly windows (${p.timeZone})`, path: 'startsAt' });
  } else if ((ask.startsAt - window.start) % (p.slotIncrementMinutes * MINUTE) !== 0) {
    out.push({ code: 'BOOKING_SLOT_INCREMENT_MISMATCH', message: `Bookings start every ${p.slotIncrementMinutes} minutes from ${iso(window.start)}`, path: 'startsAt' });
  }
  for (const [i, c] of p.closures.entries()) {
    const [from, to] = calendar.closure(i);
    if (from < ask.endsAt && to > ask.startsAt) {
      out.push({ code: 'BOOKING_SPACE_UNAVAILABLE', message: `The channel is closed from ${iso(from)} to ${iso(to)}${c.reason ? `: ${c.reason}` : ''}`, path: `closures[${i}]` });
    }
  }
  return out;
}

/**
 * Everything: the time rules, then each space (in the channel? taken, buffers included?). `busy`
 * holds the spans of the asked spaces that can matter; `ignoreBooking` is the booking being edited.
 */
export function checkBooking(calendar: WindowCalendar, rules: ChannelRules, ask: BookingAsk, busy: readonly BusySpan[], ignoreBooking?: string, within?: WindowSpan): Verdict {
  const diagnostics = checkTime(calendar, ask, within);
  const inScope = new Set(rules.spaceRecordSimplyIds);
  const p = calendar.policy;
  const pad = (p.bufferBeforeMinutes + p.bufferAfterMinutes) * MINUTE;
  const spaces: SpaceVerdict[] = [];
  ask.spaceRecordSimplyIds.forEach((space, i) => {
    if (!inScope.has(space)) {
      diagnostics.push({ code: 'BOOKING_SPACE_OUT_OF_SCOPE', message: `Space ${space} is not bookable through this channel`, path: `spaceRecordSimplyIds[${i}]` });
      spaces.push({ spaceRecordSimplyId: space, isAvailable: false, conflicts: [] });
      return;
    }
    // two bookings' buffered spans must not overlap: [s - before, e + after) against the other's
    const conflicts = busy
      .filter((b) => b.spaceRecordSimplyId === space && (ignoreBooking === undefined || b.bookingRecordSimplyId !== ignoreBooking))
      .filter((b) => b.startsAt < ask.endsAt + pad && b.endsAt > ask.startsAt - pad)
      .map((b) => ({ startsAt: b.startsAt, endsAt: b.endsAt, bookingRecordSimplyId: b.bookingRecordSimplyId }));
    if (conflicts.length > 0) {
      diagnostics.push({ code: 'BOOKING_SPACE_UNAVAILABLE', message: `Space ${space} is already booked at that time`, path: `spaceRecordSimplyIds[${i}]` });
    }
    spaces.push({ spaceRecordSimplyId: space, isAvailable: conflicts.length === 0, conflicts });
  });
  const timeBlocks = diagnostics.some((d) => d.path?.startsWith('closures') || d.code === 'INVALID_BOOKING_TIME_RANGE');
  if (timeBlocks) for (const s of spaces) s.isAvailable = false;
  return { diagnostics, spaces };
}

/** Whether nothing stands in the way. */
export const bookable = (v: Verdict): boolean => v.diagnostics.length === 0;

/**
 * The slots of one space on the local dates from..to: each window's starts every increment from the
 * window's start, kept when the whole booking passes every rule. The property test compares this
 * with asking checkBooking about every minute.
 */
export function slotGrid(calendar: WindowCalendar, rules: ChannelRules, space: string, from: Temporal.PlainDate, to: Temporal.PlainDate, durationMinutes: number, now: number, busy: readonly BusySpan[]) {
  const days: { date: string; slots: { startsAt: number; endsAt: number }[] }[] = [];
  const step = calendar.policy.slotIncrementMinutes * MINUTE;
  const length = durationMinutes * MINUTE;
  const mine = busy.filter((b) => b.spaceRecordSimplyId === space);
  for (let date = from; Temporal.PlainDate.compare(date, to) <= 0; date = date.add({ days: 1 })) {
    const slots: { startsAt: number; endsAt: number }[] = [];
    for (const w of calendar.windowsOn(date)) {
      for (let start = w.start; start + length <= w.end; start += step) {
        const verdict = checkBooking(calendar, rules, { startsAt: start, endsAt: start + length, spaceRecordSimplyIds: [space], now }, mine, undefined, w);
        if (bookable(verdict)) slots.push({ startsAt: start, endsAt: start + length });
      }
    }
    days.push({ date: date.toString(), slots });
  }
  return days;
}

/** The channel's duration when the caller names none: its default, else its minimum. */
export const defaultDuration = (p: AvailabilityPolicy): number => p.defaultDurationMinutes ?? p.minimumDurationMinutes;
