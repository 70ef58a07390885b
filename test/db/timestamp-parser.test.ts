// The pool's timestamptz reader gives the same instant as pg's default reader for every text
// PostgreSQL sends, and leaves what it does not recognise to the default.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { isoFromTimestampText, parseTimestampAsUtc, parseTimestamptz, poolTypes } from '../../src/db/timestamp-parser.ts';
import { createPool } from '../../src/db/prisma.ts';

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

  it('reads zone-less timestamps (Prisma DateTime columns) as UTC whatever the process zone is', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/St_Johns';
    try {
      for (const [text, iso] of [
        ['2026-11-24 03:16:24.123', '2026-11-24T03:16:24.123Z'],
        ['2026-03-08 02:30:00', '2026-03-08T02:30:00.000Z'],
        ['1999-12-31 23:59:59.9', '1999-12-31T23:59:59.900Z'],
        ['0050-06-01 12:00:00', '0050-06-01T12:00:00.000Z'],
      ] as const) {
        expect((parseTimestampAsUtc(text) as Date).toISOString(), text).toBe(iso);
      }
      // what the fast path leaves to the default reader is still read as UTC
      expect((parseTimestampAsUtc('12026-01-01 10:00:00') as Date).toISOString()).toBe('+012026-01-01T10:00:00.000Z');
      expect(String(parseTimestampAsUtc('infinity'))).toBe(String(pg.types.getTypeParser(1114, 'text')('infinity')));
      expect(poolTypes.getTypeParser(1114, 'text')).toBe(parseTimestampAsUtc);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("the pool's sessions run in UTC and read back the timestamp columns Prisma writes", async () => {
    const pool = createPool(inject('databaseUrl'), 1);
    try {
      const { rows } = await pool.query(`SELECT current_setting('TimeZone') AS zone, '2026-11-24 03:16:24.5'::timestamp AS t, now()::timestamp(3) AS now`);
      expect(rows[0].zone).toBe('UTC');
      expect((rows[0].t as Date).toISOString()).toBe('2026-11-24T03:16:24.500Z');
      expect(Math.abs((rows[0].now as Date).getTime() - Date.now())).toBeLessThan(60_000);
    } finally {
      await pool.end();
    }
  });
});

describe('isoFromTimestampText', () => {
  it('writes what the UTC reader and toISOString write, for every fraction PostgreSQL sends and the texts it leaves to a Date', () => {
    const texts = ['0044-03-15 12:00:00 BC', '12026-01-01 10:00:00', '0050-06-01 12:00:00', '1999-12-31 23:59:59.999'];
    for (const fraction of ['', '.1', '.12', '.123', '.1234', '.12345', '.123456', '.5', '.05', '.005']) texts.push(`2026-11-24 03:16:24${fraction}`);
    for (const text of texts) expect(isoFromTimestampText(text), text).toBe((parseTimestampAsUtc(text) as Date).toISOString());
    expect(isoFromTimestampText('2026-11-24 03:16:24.5')).toBe('2026-11-24T03:16:24.500Z');
  });

  it('reads the texts a timestamp(3) column sends', async () => {
    const pool = createPool(inject('databaseUrl'), 1);
    try {
      // the query's own reader is bypassed: the column is read as text
      const { rows } = await pool.query(`SELECT t::timestamp(3)::text AS t FROM unnest(ARRAY['2026-11-24 03:16:24', '2026-11-24 03:16:24.1', '2026-11-24 03:16:24.12', '2026-11-24 03:16:24.1239']) AS t`);
      expect(rows.map((r) => isoFromTimestampText(r.t))).toEqual(['2026-11-24T03:16:24.000Z', '2026-11-24T03:16:24.100Z', '2026-11-24T03:16:24.120Z', '2026-11-24T03:16:24.124Z']);
    } finally {
      await pool.end();
    }
  });
});
