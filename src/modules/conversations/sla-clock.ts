// Business-time arithmetic for SLA clocks: "N minutes of business time after an instant", in a
// calendar of weekly opening hours in an IANA time zone, with whole-day holidays. Each local day's
// opening hours are turned into real instants by luxon in that zone, so a day that loses or gains
// an hour at a daylight-saving change counts the hours it really has (09:00-17:00 on the day
// Berlin moves its clocks is still 8 real hours, and 00:00-24:00 that day is 23).
import { DateTime } from 'luxon';

export interface OpeningHours {
  /** 1 Monday … 7 Sunday (ISO) */
  weekday: number;
  /** "HH:MM" local */
  start: string;
  /** "HH:MM" local, after start; "24:00" is the end of the day */
  end: string;
}

export interface BusinessCalendar {
  timeZone: string;
  /** empty: open around the clock (holidays still closed) */
  hours: readonly OpeningHours[];
  /** "YYYY-MM-DD" local dates that are closed */
  holidays: ReadonlySet<string>;
}

/** How far ahead a due time is looked for: a calendar open less than this finds none (null). */
const MAX_DAYS = 3 * 366;

function at(day: DateTime, hhmm: string): DateTime {
  if (hhmm === '24:00') return day.plus({ days: 1 }).startOf('day');
  const [hour, minute] = hhmm.split(':').map(Number);
  // a time inside a spring-forward gap moves forward by the gap (luxon), which is what a clock on the wall does
  return day.set({ hour, minute, second: 0, millisecond: 0 });
}

/** The open intervals of one local day, as epoch milliseconds, in order. */
function openIntervals(calendar: BusinessCalendar, day: DateTime): [number, number][] {
  if (calendar.holidays.has(day.toISODate()!)) return [];
  if (calendar.hours.length === 0) return [[day.toMillis(), day.plus({ days: 1 }).startOf('day').toMillis()]];
  return calendar.hours
    .filter((h) => h.weekday === day.weekday)
    .map((h) => [at(day, h.start).toMillis(), at(day, h.end).toMillis()] as [number, number])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
}

/** The instant `minutes` of business time after `from`; null when the calendar is not open that long within three years. */
export function addBusinessMinutes(calendar: BusinessCalendar, from: Date, minutes: number): Date | null {
  let remaining = minutes * 60_000;
  const start = from.getTime();
  let day = DateTime.fromMillis(start, { zone: calendar.timeZone }).startOf('day');
  for (let i = 0; i < MAX_DAYS; i++, day = day.plus({ days: 1 }).startOf('day')) {
    for (const [a, b] of openIntervals(calendar, day)) {
      const open = Math.max(a, start);
      if (b <= open) continue;
      if (b - open >= remaining) return new Date(open + remaining);
      remaining -= b - open;
    }
  }
  return null;
}

/** Whether `zone` is an IANA time zone luxon (and Intl) knows. */
export function isTimeZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}
