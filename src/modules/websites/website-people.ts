// The people the websites area names in its answers (authors, resolvers, creators) by their
// simplyId: one read for every id of a response.
import type { Tx } from '../../app/transaction.ts';

export async function userSimplyIds(db: Pick<Tx, '$queryRawUnsafe'>, ids: (bigint | null)[]): Promise<Map<bigint, string>> {
  const wanted = [...new Set(ids.filter((id): id is bigint => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db.$queryRawUnsafe<{ id: bigint; simplyId: string }[]>('SELECT id, "simplyId" FROM "User" WHERE id = ANY($1::bigint[])', wanted);
  return new Map(rows.map((r) => [r.id, r.simplyId]));
}

/** One person's simplyId (null: nobody, or gone). */
export async function userSimplyId(db: Pick<Tx, '$queryRawUnsafe'>, id: bigint | null): Promise<string | null> {
  return id === null ? null : ((await userSimplyIds(db, [id])).get(id) ?? null);
}
