// What the area's statements share: the pool or a transaction's connection, BIGINT columns (pg
// returns them as strings) as bigints like Prisma's, numbered parameters, and a conversation's thread.
import type pg from 'pg';

export type Db = pg.Pool | pg.PoolClient;

export const big = (v: unknown): bigint => BigInt(v as string);
export const bigOrNull = (v: unknown): bigint | null => (v == null ? null : BigInt(v as string));

/** `thread(id)`: the conversation $2 of team $1 and every conversation merged into it, at any depth. */
export const THREAD = `thread(id) AS (
    SELECT $2::bigint
    UNION
    SELECT m.id FROM "Conversation" m JOIN thread t ON m."mergedIntoId" = t.id WHERE m."teamId" = $1
  )`;

/** A statement's parameters, numbered as they are added. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

