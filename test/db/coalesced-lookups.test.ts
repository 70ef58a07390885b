// Reads by key made in one turn of the event loop, or that wait for a pool connection together, go
// out as one statement per scope, of at most `slots` keys; each read gets its own key's row (or
// nothing), also when two reads ask for one key. A lone read goes alone. A failing statement fails
// the reads it held and no others; a pool that cannot connect fails every read waiting, and none hangs.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool } from '../../src/db/prisma.ts';
import { CoalescedLookups, type LookupStatements } from '../../src/db/coalesced-lookups.ts';

const SLOTS = 3;
// a row for every key but those starting with "none"; "boom" is not a number
const ROWS = (slots: string) => `SELECT s.k, $1::bigint::text AS scope FROM (VALUES ${slots}) s(k)
  WHERE s.k NOT LIKE 'none%' AND CASE WHEN s.k = 'boom' THEN s.k::int ELSE 1 END = 1`;

const sent: string[][] = [];
const spec: LookupStatements<{ key: string; scope: string }> = {
  slots: SLOTS,
  statement: (scope, keys) => {
    sent.push([...keys]);
    return keys.length === 1
      ? { name: 'test_lookup_one', text: ROWS('($2::text)'), values: [scope, keys[0]] }
      : { name: 'test_lookup_slots', text: ROWS('($2::text), ($3::text), ($4::text)'), values: [scope, ...Array.from({ length: SLOTS }, (_, i) => keys[i] ?? keys[0])] };
  },
  keyOf: (row) => row.key,
  decode: (values) => ({ key: values[0]!, scope: values[1]! }),
};

describe('CoalescedLookups', () => {
  let pool: pg.Pool;
  const lookups = new CoalescedLookups(spec);
  beforeAll(() => {
    pool = createPool(inject('databaseUrl'), 1);
  });
  afterAll(() => pool.end());
  const sentSince = (from: number) => sent.slice(from).filter((keys) => keys[0] !== '');

  it('sends a lone read alone, with the one-key statement', async () => {
    const from = sent.length;
    expect(await lookups.lookup(pool, 1n, 'a')).toEqual({ key: 'a', scope: '1' });
    expect(await lookups.lookup(pool, 1n, 'none-1')).toBeUndefined();
    expect(sentSince(from)).toEqual([['a'], ['none-1']]);
  });

  it('sends the reads of one turn of the event loop together when a connection is free', async () => {
    const from = sent.length;
    const rows = await Promise.all(['f', 'g', 'none-3', 'f'].map((key) => lookups.lookup(pool, 3n, key)));
    expect(rows).toEqual([{ key: 'f', scope: '3' }, { key: 'g', scope: '3' }, undefined, { key: 'f', scope: '3' }]);
    expect(sentSince(from)).toEqual([['f', 'g', 'none-3']]);
  });

  it('sends the reads that waited together as statements of at most `slots` keys per scope, each answered with its own row', async () => {
    const held = await pool.connect();
    const from = sent.length;
    const one = ['a', 'b', 'c', 'd', 'e', 'a', 'none-2'].map((key) => lookups.lookup(pool, 1n, key));
    const two = ['a', 'b'].map((key) => lookups.lookup(pool, 2n, key));
    held.release();
    const [ones, twos] = await Promise.all([Promise.all(one), Promise.all(two)]);
    expect(ones).toEqual([...['a', 'b', 'c', 'd', 'e', 'a'].map((key) => ({ key, scope: '1' })), undefined]);
    expect(twos).toEqual([{ key: 'a', scope: '2' }, { key: 'b', scope: '2' }]);
    // two reads of one key get equal rows, not one shared object
    expect(ones[5]).not.toBe(ones[0]);
    // keys of one statement are distinct: the second "a" rode with "d" and "e"
    expect(sentSince(from)).toEqual([['a', 'b', 'c'], ['a', 'b'], ['d', 'e', 'a'], ['none-2']]);
  });

  it('fails the reads of a failing statement only, and keeps serving', async () => {
    const held = await pool.connect();
    const batch = ['x', 'boom', 'y', 'z'].map((key) => lookups.lookup(pool, 1n, key).then((row) => row, (error: Error) => error));
    held.release();
    const [x, boom, y, z] = await Promise.all(batch);
    for (const failed of [x, boom, y]) expect((failed as pg.DatabaseError).code).toBe('22P02');
    expect(z).toEqual({ key: 'z', scope: '1' });
    expect(await lookups.lookup(pool, 1n, 'after')).toEqual({ key: 'after', scope: '1' });
  });

  it('fails every waiting read when the pool cannot connect, and the next read too', async () => {
    const nowhere = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/nothing', max: 1 });
    try {
      const reads = ['p', 'q', 'r', 's', 't'].map((key) => lookups.lookup(nowhere, 1n, key).then(() => null, (error: Error) => error));
      for (const error of await Promise.all(reads)) expect((error as NodeJS.ErrnoException)?.code).toBe('ECONNREFUSED');
      await expect(lookups.lookup(nowhere, 1n, 'u')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await nowhere.end();
    }
  });
});
