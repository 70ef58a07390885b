// The pool's timestamptz reader gives the same instant as pg's default reader for every text
// PostgreSQL sends, and leaves what it does not recognise to the default.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { parseTimestamptz } from '../../src/db/timestamp-parser.ts';

const reference = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown;
const same = (text: string) => expect(String(parseTimestamptz(text)), text).toBe(String(reference(text)));

describe('parseTimestamptz', () => {
  it('reads ISO output with 0-6 fraction digits and hour, minute and second offsets like the default reader', () => {
    for (const fraction of ['', '.1', '.12', '.123', '.1234', '.12345', '.123456']) {
      for (const offset of ['+00', '-00', '+05', '-08', '+05:30', '-03:30', '+00:19:32', '-00:25:21', '+14']) {
        same(`2026-11-24 03:16:24${fraction}${offset}`);
        same(`1999-12-31 23:59:59${fraction}${offset}`);
        same(`2000-02-29 00:00:00${fraction}${offset}`);
      }
    }
    expect((parseTimestamptz('2026-11-24 03:16:24.987654+00') as Date).toISOString()).toBe('2026-11-24T03:16:24.987Z');
  });

  it('years below 100 stay themselves (Date.UTC would make them 19xx)', () => {
    same('0050-06-01 12:00:00+00');
    expect((parseTimestamptz('0050-06-01 12:00:00+00') as Date).getUTCFullYear()).toBe(50);
  });

  it('hands BC dates, infinities, long years and malformed text to the default reader', () => {
    for (const text of ['0044-03-15 12:00:00+00 BC', 'infinity', '-infinity', '12026-01-01 00:00:00+00', '2026-11-24T03:16:24+00', '2026-11-24 03:16:24.+00', '2026-11-24 3:16:24+00']) {
      same(text);
    }
  });

  it('reads what PostgreSQL sends in other session time zones', async () => {
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    try {
      for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Europe/Amsterdam']) {
        await client.query(`SET TimeZone = '${zone}'`);
        const { rows } = await client.query({ text: `SELECT '2026-11-24 03:16:24.123456Z'::timestamptz::text AS t, '1883-11-18 12:00:00Z'::timestamptz::text AS old`, rowMode: 'array' });
        for (const text of rows[0] as string[]) same(text);
        expect((parseTimestamptz((rows[0] as string[])[0]!) as Date).toISOString()).toBe('2026-11-24T03:16:24.123Z');
      }
    } finally {
      await client.end();
    }
  });
});
