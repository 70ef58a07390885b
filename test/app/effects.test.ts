// Keyed effects (src/app/effects.ts) against the real database: a key is claimed once, a repeat
// answers with the first claim's settled result, concurrent claims of one key take turns (one
// wins, the other waits and then finds the winner's result), a rolled-back claim leaves nothing,
// and the same holds through a Prisma transaction.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimEffect, effectOnce, findEffect } from '../../src/app/effects.ts';
import { inTransaction, runTransaction } from '../../src/app/transaction.ts';
import { createPool, createPrisma } from '../../src/db/prisma.ts';
import type { PrismaClient } from '../../src/generated/prisma/client.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';

let database: ThrowawayDatabase;
let pool: pg.Pool;
let prisma: PrismaClient;
let nextTeam = 1n;
/** a team id of the test's own: keys of different tests never meet */
const team = () => nextTeam++;

beforeAll(async () => {
  database = await createMigratedDatabase('effects');
  pool = createPool(database.url, 6, 'effects-test');
  prisma = createPrisma(pool);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await database?.drop();
});

const rows = async (teamId: bigint) => (await pool.query(`SELECT key, result FROM "EffectKey" WHERE "teamId" = $1 ORDER BY key`, [teamId])).rows;

describe('claimEffect', () => {
  it('claims a key once; a later claim finds the settled result, per team', async () => {
    const [a, b] = [team(), team()];
    const first = await inTransaction(pool, async (db) => {
      const claim = await claimEffect<{ id: string }>(db, a, 'exe-1:act-1:rec-1');
      if (claim.claimed) await claim.settle({ id: 'made-once' });
      return claim.claimed;
    });
    expect(first).toBe(true);
    const again = await inTransaction(pool, (db) => claimEffect<{ id: string }>(db, a, 'exe-1:act-1:rec-1'));
    expect(again).toEqual({ claimed: false, result: { id: 'made-once' } });
    // the same key in another team is another effect
    expect((await inTransaction(pool, (db) => claimEffect(db, b, 'exe-1:act-1:rec-1'))).claimed).toBe(true);
    expect(await findEffect(pool, a, 'exe-1:act-1:rec-1')).toEqual({ result: { id: 'made-once' } });
    expect(await findEffect(pool, a, 'exe-1:act-2:rec-1')).toBeNull();
  });

  it('two concurrent claims of one key: one wins, the other waits and answers with its result', async () => {
    const teamId = team();
    const made: string[] = [];
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstClaimed!: () => void;
    const firstHasClaimed = new Promise<void>((resolve) => (firstClaimed = resolve));
    const run = (who: string, hold: boolean) =>
      inTransaction(pool, async (db) => {
        const claim = await claimEffect<string>(db, teamId, 'exe-2:act-1:-');
        if (!claim.claimed) return { who, claimed: false, result: claim.result };
        made.push(who);
        if (hold) {
          firstClaimed();
          await firstHolds;
        }
        await claim.settle(`made by ${who}`);
        return { who, claimed: true, result: `made by ${who}` };
      });
    const first = run('first', true);
    await firstHasClaimed;
    // the second claim waits on the first's uncommitted row
    const second = run('second', false);
    const waiting = await Promise.race([second.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]);
    expect(waiting).toBe('waiting');
    releaseFirst();
    expect(await Promise.all([first, second])).toEqual([
      { who: 'first', claimed: true, result: 'made by first' },
      { who: 'second', claimed: false, result: 'made by first' },
    ]);
    expect(made).toEqual(['first']);
    expect(await rows(teamId)).toEqual([{ key: 'exe-2:act-1:-', result: 'made by first' }]);
  });

  it('many claims at once: exactly one effect', async () => {
    const teamId = team();
    const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => inTransaction(pool, (db) => effectOnce(db, teamId, 'exe-3:act-1:-', async () => ({ by: i })))));
    const winners = outcomes.filter((o) => !o.replayed);
    expect(winners).toHaveLength(1);
    for (const o of outcomes) expect(o.result).toEqual(winners[0]!.result);
  });

  it('a claim whose transaction rolls back leaves nothing: the next claim wins', async () => {
    const teamId = team();
    await expect(
      inTransaction(pool, async (db) => {
        await claimEffect(db, teamId, 'exe-4:act-1:-');
        throw new Error('the effect failed');
      }),
    ).rejects.toThrow('the effect failed');
    expect(await rows(teamId)).toEqual([]);
    const again = await inTransaction(pool, (db) => effectOnce(db, teamId, 'exe-4:act-1:-', async () => 'second try'));
    expect(again).toEqual({ replayed: false, result: 'second try' });
  });

  it('works in a Prisma transaction too', async () => {
    const teamId = team();
    const first = await runTransaction(prisma, (tx) => effectOnce(tx, teamId, 'exe-5:act-1:-', async () => ({ n: 1 })));
    const second = await runTransaction(prisma, (tx) => effectOnce(tx, teamId, 'exe-5:act-1:-', async () => ({ n: 2 })));
    expect(first).toEqual({ replayed: false, result: { n: 1 } });
    expect(second).toEqual({ replayed: true, result: { n: 1 } });
  });

  it('refuses an empty or overlong key', async () => {
    await expect(inTransaction(pool, (db) => claimEffect(db, team(), ''))).rejects.toThrow(/effect key/);
    await expect(inTransaction(pool, (db) => claimEffect(db, team(), 'x'.repeat(501)))).rejects.toThrow(/effect key/);
  });
});
