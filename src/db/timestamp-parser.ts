// Timestamp readers for the pool's own queries. Every record row carries two timestamps, and pg's
// default reader (postgres-date) runs a regular expression and builds a local Date first; these
// read the ISO output PostgreSQL sends ("2026-11-24 03:16:24.123456+00", DateStyle ISO) by
// position and hand anything else (BC, infinity, 5-digit years, other DateStyles) to the default.
//
// Prisma's DateTime columns are `timestamp(3)` without a zone and hold UTC. pg's default reads such
// a value in the Node process's local zone; here it is read as UTC, as Prisma reads it, and the
// pool's sessions run with TimeZone=UTC (createPool) so SQL's now() writes UTC too: raw SQL and
// Prisma agree whatever zone the machine is set to.
import pg from 'pg';

const TIMESTAMP_OID = 1114;
const TIMESTAMPTZ_OID = 1184;
type Reader = (text: string) => Date | string | number;
const defaultTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as Reader;
// the default zone-less reader would use the local zone: an explicit UTC offset makes it read UTC
const defaultTimestamp: Reader = (text) => defaultTimestamptz(/[+-]\d\d(:\d\d){0,2}$| BC$/.test(text) || !/^\d/.test(text) ? text : `${text}+00`);

const digit = (s: string, i: number) => s.charCodeAt(i) - 48;
const two = (s: string, i: number) => digit(s, i) * 10 + digit(s, i + 1);
const isDigits = (s: string, from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
};

export function parseTimestamptz(text: string): Date | string | number {
  return readIso(text, true, defaultTimestamptz);
}

/** `timestamp` (without zone) text, as UTC. */
export function parseTimestampAsUtc(text: string): Date | string | number {
  return readIso(text, false, defaultTimestamp);
}

function readIso(text: string, zoned: boolean, fallback: Reader): Date | string | number {
  if (text.length < (zoned ? 22 : 19) || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) {
    return fallback(text);
  }
  if (!isDigits(text, 0, 4) || !isDigits(text, 5, 7) || !isDigits(text, 8, 10) || !isDigits(text, 11, 13) || !isDigits(text, 14, 16) || !isDigits(text, 17, 19)) {
    return fallback(text);
  }
  let i = 19;
  let millis = 0;
  if (text.charCodeAt(i) === 46) {
    const start = ++i;
    while (i < text.length && i - start < 6 && isDigits(text, i, i + 1)) i++;
    if (i === start) return fallback(text);
    // milliseconds, as Date keeps them (the default reader truncates the same way)
    millis = Number(text.slice(start, Math.min(i, start + 3)).padEnd(3, '0'));
  }
  const sign = zoned ? text.charCodeAt(i) : 43;
  let offsetSeconds = 0;
  if (zoned) {
    if ((sign !== 43 && sign !== 45) || !isDigits(text, i + 1, i + 3)) return fallback(text);
    offsetSeconds = two(text, i + 1) * 3600;
    i += 3;
    if (text.charCodeAt(i) === 58 && isDigits(text, i + 1, i + 3)) {
      offsetSeconds += two(text, i + 1) * 60;
      i += 3;
      if (text.charCodeAt(i) === 58 && isDigits(text, i + 1, i + 3)) {
        offsetSeconds += two(text, i + 1);
        i += 3;
      }
    }
  }
  if (i !== text.length) return fallback(text);
  const year = two(text, 0) * 100 + two(text, 2);
  const utc = Date.UTC(year, two(text, 5) - 1, two(text, 8), two(text, 11), two(text, 14), two(text, 17), millis);
  const date = new Date(utc - (sign === 43 ? 1 : -1) * offsetSeconds * 1000);
  // Date.UTC maps years 0-99 to 1900-1999
  if (year < 100) date.setUTCFullYear(date.getUTCFullYear() - 1900);
  return date;
}

/**
 * `timestamp` (without zone, UTC) text as ISO 8601 with milliseconds, the form every face writes
 * (Date.prototype.toISOString's), without making a Date: a page of records hands out 50 timestamps,
 * and reading each into a Date only to write it out again was a tenth of what the page allocated.
 * PostgreSQL's ISO output drops trailing zeros of the fraction ("…:41.7", "…:41"); anything but
 * "YYYY-MM-DD HH:MM:SS[.f…]" (BC, 5-digit years, infinity) goes through a Date.
 */
export function isoFromTimestampText(text: string): string {
  const length = text.length;
  if (length >= 19 && length <= 26 && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45 && text.charCodeAt(10) === 32 && text.charCodeAt(13) === 58 && text.charCodeAt(16) === 58) {
    if (length === 23 && text.charCodeAt(19) === 46) return `${text.slice(0, 10)}T${text.slice(11)}Z`;
    if (length === 19) return `${text.slice(0, 10)}T${text.slice(11)}.000Z`;
    if (text.charCodeAt(19) === 46 && length > 20) {
      const fraction = length > 23 ? text.slice(20, 23) : text.slice(20).padEnd(3, '0');
      return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
    }
  }
  const date = parseTimestampAsUtc(text);
  return date instanceof Date ? date.toISOString() : String(date);
}

/** Type readers for the pool's own queries (Prisma's adapter brings its own). */
export const poolTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary' && oid === TIMESTAMPTZ_OID) return parseTimestamptz;
    if (format !== 'binary' && oid === TIMESTAMP_OID) return parseTimestampAsUtc;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};
