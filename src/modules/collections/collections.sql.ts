// Raw SQL of the collections area's hot paths.
import type { RequestContext } from '../../app/context.ts';
import { requestLoader } from '../../app/request-loader.ts';

/** Active records per collection id, for every collection a request touches, in one query. */
export function recordCountLoader(ctx: RequestContext, teamId: bigint) {
  return requestLoader<bigint, number>(
    ctx,
    'collection.recordCount',
    async (ids) => {
      const { rows } = await ctx.services.pool.query(
        `SELECT "collectionId", count(*)::int AS n FROM "DataRecordMembership"
          WHERE "teamId" = $1 AND "collectionId" = ANY($2::bigint[]) AND state = 'ACTIVE' GROUP BY "collectionId"`,
        [teamId, ids],
      );
      const counts = new Map(rows.map((r) => [String(r.collectionId), r.n as number]));
      return ids.map((id) => counts.get(String(id)) ?? 0);
    },
    (id) => String(id),
  );
}
