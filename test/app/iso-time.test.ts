import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/app/iso-time.ts';

describe('isoTime', () => {
  it('writes what toISOString writes, across the years it formats itself and the ones it leaves to it', () => {
    const samples = [
      Date.UTC(2026, 11, 5, 22, 8, 34, 385),
      Date.UTC(2000, 0, 1, 0, 0, 0, 0),
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(1000, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      -62198755200000, // year 0
      -8.64e15,
      8.64e15,
    ];
    for (let t = Date.UTC(1970, 0, 1); t < Date.UTC(2100, 0, 1); t += 7_919_123_457) samples.push(t);
    for (const t of samples) expect(isoTime(new Date(t))).toBe(new Date(t).toISOString());
  });

  it('refuses an invalid date as toISOString does', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
