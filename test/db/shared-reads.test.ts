// Identical named reads on a pool share one statement while it has not been sent: those of one
// turn of the event loop, and those that wait for a connection together. A read made after the
// statement was sent gets a statement of its own (it sees what was committed before it asked).
// Different parameters, unnamed statements and a checked-out client run alone. Every reader gets
// its own array of the rows; a failing statement fails its readers only.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool } from '../../src/db/prisma.ts';
import { readRows } from '../../src/db/shared-reads.ts';

// every execution draws a new number: readers of one statement see the same one
const DRAW = `SELECT nextval('shared_reads_test')::text AS drawn, $1::text AS asked, pg_sleep($2::float8)`;
const draw = (db: pg.Pool | pg.PoolClient, asked: string, { sleep = 0, name = 'test_shared_draw' }: { sleep?: number; name?: string } = {}) =>
  readRows(db, { name: name || undefined, text: DRAW, values: [asked, sleep] }, (values) => ({ drawn: values[0]!, asked: values[1]! }));

describe('readRows', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = createPool(inject('databaseUrl'), 1);
    await pool.query('CREATE SEQUENCE IF NOT EXISTS shared_reads_test');
  });
  afterAll(() => pool.end());

  it('sends the identical reads of one turn as one statement, each reader with its own array', async () => {
    const [a, b, c, other] = await Promise.all([draw(pool, 'x'), draw(pool, 'x'), draw(pool, 'x'), draw(pool, 'y')]);
    expect(a.rows).toEqual([{ drawn: a.rows[0]!.drawn, asked: 'x' }]);
    expect(b.rows).toEqual(a.rows);
    expect(c.rows).toEqual(a.rows);
    expect(b.rows).not.toBe(a.rows);
    expect(a.first).toEqual([a.rows[0]!.drawn, 'x', '']);
    expect(other.rows[0]!.drawn).not.toBe(a.rows[0]!.drawn);
  });

  it('shares a statement waiting for a connection with the identical reads that arrive meanwhile', async () => {
    const held = await pool.connect();
    const waiting = [draw(pool, 'w'), draw(pool, 'w')];
    await new Promise((resolve) => setTimeout(resolve, 20));
    waiting.push(draw(pool, 'w'));
    held.release();
    const drawn = new Set((await Promise.all(waiting)).map((r) => r.rows[0]!.drawn));
    expect(drawn.size).toBe(1);
  });

  it('gives a read made after the statement was sent a statement of its own', async () => {
    const first = draw(pool, 'late', { sleep: 0.2 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = draw(pool, 'late', { sleep: 0.2 });
    const [a, b] = await Promise.all([first, second]);
    expect(b.rows[0]!.drawn).not.toBe(a.rows[0]!.drawn);
  });

  it('runs unnamed statements and a checked-out client alone', async () => {
    const unnamed = await Promise.all([draw(pool, 'u', { name: '' }), draw(pool, 'u', { name: '' })]);
    expect(unnamed[1].rows[0]!.drawn).not.toBe(unnamed[0].rows[0]!.drawn);
    const client = await pool.connect();
    try {
      const alone = await Promise.all([draw(client, 'c'), draw(client, 'c')]);
      expect(alone[1].rows[0]!.drawn).not.toBe(alone[0].rows[0]!.drawn);
    } finally {
      client.release();
    }
  });

  it('fails the readers of a failing statement only, and keeps serving', async () => {
    const failing = (asked: string) => readRows(pool, { name: 'test_shared_fail', text: 'SELECT $1::int::text', values: [asked] }, (values) => values[0]);
    const results = await Promise.all([failing('boom'), failing('boom'), failing('7')].map((p) => p.then((r) => r, (error: pg.DatabaseError) => error)));
    expect((results[0] as pg.DatabaseError).code).toBe('22P02');
    expect((results[1] as pg.DatabaseError).code).toBe('22P02');
    expect(results[2]).toEqual({ rows: ['7'], first: ['7'] });
    expect((await failing('8')).rows).toEqual(['8']);
  });

  it('fails every waiting reader when the pool cannot connect', async () => {
    const nowhere = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/nothing', max: 1 });
    try {
      const reads = [draw(nowhere, 'n'), draw(nowhere, 'n'), draw(nowhere, 'm')].map((p) => p.then(() => null, (error: Error) => error));
      for (const error of await Promise.all(reads)) expect((error as NodeJS.ErrnoException)?.code).toBe('ECONNREFUSED');
      await expect(draw(nowhere, 'n')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await nowhere.end();
    }
  });
});
