// DATE (a calendar day, no time zone) and DATE_TIME (an instant). Parsed by hand instead of with
// `new Date(string)`: the built-in parser accepts non-ISO shapes, rolls 2026-02-30 over to March,
// and reads an offset-less timestamp in the server's zone.
import { defineCodec } from './codec.ts';
import type { FieldConfigOf } from './config.ts';
import { describeType } from './text-guards.ts';
import { fail, ok, type Parsed } from './types.ts';

const RANGE_OPERATORS = ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'in'] as const;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Checks year 0001-9999 and a real day of that month; returns a reason or null. */
function calendarProblem(year: number, month: number, day: number): string | null {
  if (year < 1) return 'year must be between 0001 and 9999';
  if (month < 1 || month > 12) return 'month must be between 01 and 12';
  if (day < 1 || day > daysInMonth(year, month)) return `day ${String(day).padStart(2, '0')} does not exist in ${year}-${String(month).padStart(2, '0')}`;
  return null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD`, a real calendar date. */
export function parseDate(raw: unknown): Parsed<string> {
  if (typeof raw !== 'string') return fail(`must be an ISO 8601 date string (YYYY-MM-DD), not ${describeType(raw)}`);
  const text = raw.trim();
  const m = DATE.exec(text);
  if (!m) {
    if (DATE_TIME.test(text)) return fail('must be a date without a time (YYYY-MM-DD); this field is a DATE, not a DATE_TIME');
    return fail('must be an ISO 8601 date (YYYY-MM-DD)');
  }
  const problem = calendarProblem(Number(m[1]), Number(m[2]), Number(m[3]));
  return problem ? fail(problem) : ok(text);
}

// RFC 3339 / ISO 8601 extended format: date, "T" (or "t" or a space), hours and minutes, optional
// seconds and fraction, and a required offset: Z, ±HH:MM, ±HHMM or ±HH.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;
const FIRST_INSTANT = new Date('0001-01-01T00:00:00.000Z').getTime();
const LAST_INSTANT = new Date('9999-12-31T23:59:59.999Z').getTime();

/** An ISO 8601 timestamp with an explicit offset, normalized to UTC `YYYY-MM-DDTHH:mm:ss.sssZ`
 *  (fixed width, so string order is time order). Digits beyond milliseconds are truncated. */
export function parseDateTime(raw: unknown): Parsed<string> {
  if (raw instanceof Date) {
    const t = raw.getTime();
    if (Number.isNaN(t)) return fail('is an invalid date');
    if (t < FIRST_INSTANT || t > LAST_INSTANT) return fail('must be between years 0001 and 9999');
    return ok(raw.toISOString());
  }
  if (typeof raw !== 'string') return fail(`must be an ISO 8601 timestamp string, not ${describeType(raw)}`);
  const text = raw.trim();
  const m = DATE_TIME.exec(text);
  if (!m) {
    if (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?$/.test(text)) {
      return fail('needs a time-zone offset such as "Z" or "+02:00"; a timestamp without one is ambiguous');
    }
    if (DATE.test(text)) return fail('must include a time and an offset, e.g. 2026-03-01T09:30:00Z');
    return fail('must be an ISO 8601 timestamp such as 2026-03-01T09:30:00Z or 2026-03-01T10:30:00+01:00');
  }
  const [, y, mo, d, h, mi, s = '0', frac = '', z, sign, oh = '0', om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const problem = calendarProblem(year, month, day);
  if (problem) return fail(problem);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  // No 24:00 and no leap second 60: neither has a distinct instant in this representation.
  if (hour > 23 || minute > 59 || second > 59) return fail('has an impossible time of day');
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (offsetHours > 23 || offsetMinutes > 59) return fail('has an impossible offset');
  const millis = Number(frac.padEnd(3, '0').slice(0, 3));
  // setUTCFullYear, because Date.UTC maps years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const offset = z ? 0 : (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  const t = date.getTime() - offset * 60_000;
  if (t < FIRST_INSTANT || t > LAST_INSTANT) return fail('must be between years 0001 and 9999 in UTC');
  return ok(new Date(t).toISOString());
}

export const date = defineCodec<FieldConfigOf<'DATE'>, string>({
  shape: { keyKind: 'date', multi: false, sortable: true },
  operators: RANGE_OPERATORS,
  encode: (raw) => parseDate(raw),
  isStored: (v): v is string => typeof v === 'string' && DATE.test(v),
  key: (stored) => stored,
  text: (stored) => stored,
  operand: (raw) => parseDate(raw),
});

/** DATE_TIME filter operand: a timestamp, or a bare date meaning midnight UTC of that day. */
export function dateTimeOperand(raw: unknown): Parsed<string> {
  if (typeof raw === 'string' && DATE.test(raw.trim())) {
    const day = parseDate(raw);
    return day.ok ? ok(`${day.value}T00:00:00.000Z`) : day;
  }
  return parseDateTime(raw);
}

export const dateTime = defineCodec<FieldConfigOf<'DATE_TIME'>, string>({
  shape: { keyKind: 'timestamp', multi: false, sortable: true },
  operators: RANGE_OPERATORS,
  encode: (raw) => parseDateTime(raw),
  isStored: (v): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v),
  key: (stored) => stored,
  text: (stored) => stored,
  operand: dateTimeOperand,
});
