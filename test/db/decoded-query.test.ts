// Statements decoded by position give the rows node-postgres's own reading gives, on a pool and on
// a checked-out client, prepared by name once per connection; a failing decoder or statement is
// the query's error, and the pool stays usable. No result description is asked for. A pool
// statement's result is handed on only once every connection whose result was ready with it has
// been given its next statement.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool } from '../../src/db/prisma.ts';
import { queryDecoded } from '../../src/db/decoded-query.ts';
import { parseTimestampAsUtc } from '../../src/db/timestamp-parser.ts';

const ROWS = `SELECT g::bigint AS id, 'r' || g AS name, jsonb_build_object('n', g, 's', 'ä"\\') AS doc,
                     timestamp '2026-12-05 10:11:12.345' + g * interval '1 day' AS at, (g % 2 = 0) AS even, NULLIF(g, 2) AS maybe
                FROM generate_series(1, $1::int) g ORDER BY g`;

const decode = (v: readonly (string | null)[]) => ({
  id: BigInt(v[0]!),
  name: v[1],
  doc: JSON.parse(v[2]!) as unknown,
  at: parseTimestampAsUtc(v[3]!),
  even: v[4] === 't',
  maybe: v[5] === null ? null : Number(v[5]),
});

describe('queryDecoded', () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = createPool(inject('databaseUrl'), 1);
  });
  afterAll(() => pool.end());

  it('decodes the rows node-postgres reads, by name on a pool (one connection) and unnamed on a client', async () => {
    const { rows } = await pool.query({ text: ROWS, values: [3] });
    const expected = rows.map((r) => ({ id: BigInt(r.id), name: r.name, doc: r.doc, at: new Date(Date.UTC(2026, 11, 5 + Number(r.id), 10, 11, 12, 345)), even: r.even, maybe: r.maybe }));
    // twice by name: the second call runs the statement prepared by the first on that connection
    for (let i = 0; i < 4; i++) expect(await queryDecoded(pool, { name: 'test_decoded_rows', text: ROWS, values: [3] }, decode)).toEqual(expected);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      expect(await queryDecoded(client, { text: ROWS, values: [3] }, decode)).toEqual(expected);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await queryDecoded(pool, { text: ROWS, values: [0] }, decode)).toEqual([]);
  });

  it('asks PostgreSQL for no description of the result, and leaves the connection as it found it', async () => {
    const client = await pool.connect();
    try {
      const connection = (client as unknown as { connection: { describe: unknown; on(event: string, listener: () => void): void } }).connection;
      const describe = connection.describe;
      let descriptions = 0;
      connection.on('rowDescription', () => descriptions++);
      expect(await queryDecoded(client, { name: 'test_decoded_undescribed', text: ROWS, values: [2] }, (v) => v[1])).toEqual(['r1', 'r2']);
      expect(await queryDecoded(client, { name: 'test_decoded_undescribed', text: ROWS, values: [1] }, (v) => v[1])).toEqual(['r1']);
      expect(await queryDecoded(client, { text: ROWS, values: [0] }, (v) => v[1])).toEqual([]);
      expect(descriptions).toBe(0);
      expect(connection.describe).toBe(describe);
      // node-postgres's own query still asks for one
      await client.query({ text: ROWS, values: [1] });
      expect(descriptions).toBe(1);
    } finally {
      client.release();
    }
  });

  it('numbers the rows for the decoder', async () => {
    expect(await queryDecoded(pool, { text: ROWS, values: [3] }, (_v, index) => index)).toEqual([0, 1, 2]);
  });

  it('answers a decoder failure and a statement error as the query error, and the pool goes on', async () => {
    // (the pool closes a connection whose query failed: the name check comes first, on the connection of the first test)
    await expect(queryDecoded(pool, { name: 'test_decoded_rows', text: 'SELECT 2', values: [] }, decode)).rejects.toThrow(/Prepared statements must be unique/);
    const failing = () => {
      throw new Error('cannot decode');
    };
    await expect(queryDecoded(pool, { text: ROWS, values: [2] }, failing)).rejects.toThrow('cannot decode');
    await expect(queryDecoded(pool, { text: 'SELECT 1/0', values: [] }, decode)).rejects.toMatchObject({ code: '22012' });
    expect(await queryDecoded(pool, { text: 'SELECT $1::int + 1', values: [41] }, (v) => Number(v[0]))).toEqual([42]);
  });

  it("hands a pool statement's result on after every ready connection has its next statement", async () => {
    const two = createPool(inject('databaseUrl'), 2);
    try {
      // both connections open, so the statements below go out at once
      await Promise.all([two.query('SELECT 1'), two.query('SELECT 1')]);
      const seen: { id: number; waiting: number }[] = [];
      const statement = (id: number) =>
        queryDecoded(two, { text: 'SELECT $1::int, pg_sleep(0.02)', values: [id] }, (v) => Number(v[0])).then((rows) => {
          seen.push({ id: rows[0]!, waiting: two.waitingCount });
          return rows[0];
        });
      const results = [statement(1), statement(2), statement(3), statement(4)];
      // one turn of the loop: statements 1 and 2 go out, 3 and 4 wait for a connection
      await new Promise((resolve) => setImmediate(resolve));
      expect(two.waitingCount).toBe(2);
      // hold the loop until both results are in: the loop then reads the two connections in one turn
      const until = Date.now() + 1000;
      while (Date.now() < until);
      expect(await Promise.all(results)).toEqual([1, 2, 3, 4]);
      // when the first result was handed on, statements 3 and 4 had both gone out on the freed
      // connections (which of the two connections the loop read first is the system's choice)
      expect(seen[0]!.waiting).toBe(0);
      expect(seen.slice(0, 2).map((s) => s.id).sort()).toEqual([1, 2]);
      // an error is its own statement's only
      const [failed, fine] = await Promise.allSettled([
        queryDecoded(two, { text: 'SELECT 1/0', values: [] }, (v) => v[0]),
        queryDecoded(two, { text: 'SELECT 7', values: [] }, (v) => Number(v[0])),
      ]);
      expect(failed).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
      expect(fine).toEqual({ status: 'fulfilled', value: [7] });
    } finally {
      await two.end();
    }
  });
});
