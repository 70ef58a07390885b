// DATE and DATE_TIME: real calendar dates, explicit offsets, UTC normalization.
import { describe, expect, it } from 'vitest';
import { accept, reject } from './helpers.ts';

describe('DATE', () => {
  it.each(['2026-03-01', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31', '2026-12-31'])('accepts %s', (raw) => {
    expect(accept('DATE', raw)).toBe(raw);
  });

  it('trims surrounding spaces', () => {
    expect(accept('DATE', ' 2026-03-01 ')).toBe('2026-03-01');
  });

  it.each([
    ['2026-02-30', /day 30 does not exist in 2026-02/],
    ['2023-02-29', /day 29 does not exist in 2023-02/],
    ['1900-02-29', /day 29 does not exist/], // century years are leap only when divisible by 400
    ['2026-04-31', /day 31 does not exist/],
    ['2026-13-01', /month/],
    ['2026-00-10', /month/],
    ['2026-01-00', /day 00/],
    ['0000-01-01', /year/],
  ])('refuses the impossible date %s', (raw, message) => {
    expect(reject('DATE', raw)).toMatch(message);
  });

  it.each(['2026-3-1', '20260301', '26-03-01', '2026/03/01', '01.03.2026', '+002026-03-01', 'March 1, 2026', '2026-03'])(
    'refuses the non-ISO shape %s',
    (raw) => {
      expect(reject('DATE', raw)).toMatch(/ISO 8601 date \(YYYY-MM-DD\)/);
    },
  );

  it('explains when a timestamp is sent to a DATE field', () => {
    expect(reject('DATE', '2026-03-01T10:00:00Z')).toMatch(/not a DATE_TIME/);
  });

  it.each([20260301, new Date('2026-03-01'), {}])('refuses the non-string %j', (raw) => {
    expect(reject('DATE', raw)).toMatch(/date string/);
  });
});

describe('DATE_TIME', () => {
  it.each([
    ['2026-03-01T09:30:00Z', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01T09:30:00.123Z', '2026-03-01T09:30:00.123Z'],
    ['2026-03-01T11:30:00+02:00', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01T04:30:00-05:00', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01T15:00:00+0530', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01T10:30:00+01', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01T09:30:00-00:00', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01t09:30:00z', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01 09:30:00Z', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01T09:30Z', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01T09:30:00,5Z', '2026-03-01T09:30:00.500Z'],
    ['2026-03-01T09:30:00.123456789Z', '2026-03-01T09:30:00.123Z'],
    ['2026-03-01T09:30:00.9999Z', '2026-03-01T09:30:00.999Z'],
  ])('accepts %s as %s', (raw, expected) => {
    expect(accept('DATE_TIME', raw)).toBe(expected);
  });

  it('crosses day, month, year and leap-day boundaries when converting to UTC', () => {
    expect(accept('DATE_TIME', '2026-01-01T00:30:00+01:00')).toBe('2025-12-31T23:30:00.000Z');
    expect(accept('DATE_TIME', '2024-02-28T23:00:00-02:00')).toBe('2024-02-29T01:00:00.000Z');
    expect(accept('DATE_TIME', '2024-03-01T00:15:00+14:00')).toBe('2024-02-29T10:15:00.000Z');
  });

  it('handles years before 100 without the Date.UTC 19xx mapping', () => {
    expect(accept('DATE_TIME', '0050-06-01T00:00:00Z')).toBe('0050-06-01T00:00:00.000Z');
  });

  it('accepts a Date object (GraphQL DateTime scalars parse to one)', () => {
    expect(accept('DATE_TIME', new Date('2026-03-01T09:30:00Z'))).toBe('2026-03-01T09:30:00.000Z');
    expect(reject('DATE_TIME', new Date('nope'))).toMatch(/invalid date/);
  });

  it('refuses a timestamp without an offset: it is ambiguous', () => {
    expect(reject('DATE_TIME', '2026-03-01T09:30:00')).toMatch(/time-zone offset/);
    expect(reject('DATE_TIME', '2026-03-01T09:30:00.123')).toMatch(/time-zone offset/);
  });

  it('refuses a bare date', () => {
    expect(reject('DATE_TIME', '2026-03-01')).toMatch(/must include a time/);
  });

  it.each([
    ['2026-02-30T10:00:00Z', /day 30 does not exist/],
    ['2023-02-29T10:00:00Z', /day 29 does not exist/],
    ['2026-03-01T24:00:00Z', /impossible time/],
    ['2026-03-01T23:60:00Z', /impossible time/],
    ['2026-12-31T23:59:60Z', /impossible time/],
    ['2026-03-01T10:00:00+24:00', /impossible offset/],
    ['2026-03-01T10:00:00+05:60', /impossible offset/],
    ['0001-01-01T00:30:00+01:00', /between years 0001 and 9999/],
    ['9999-12-31T23:30:00-01:00', /between years 0001 and 9999/],
  ])('refuses %s', (raw, message) => {
    expect(reject('DATE_TIME', raw)).toMatch(message);
  });

  it.each(['2026-03-01T9:30:00Z', '2026-03-01T09:30:00 Z', '2026-03-01T09:30:00+2:00', 'Sun, 01 Mar 2026 09:30:00 GMT', '1772357400000', 'now'])(
    'refuses the non-ISO form %s',
    (raw) => {
      expect(reject('DATE_TIME', raw)).toMatch(/ISO 8601 timestamp/);
    },
  );

  it.each([1772357400000, true, {}])('refuses the non-string %j', (raw) => {
    expect(reject('DATE_TIME', raw)).toMatch(/timestamp string/);
  });
});
