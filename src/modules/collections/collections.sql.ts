// Raw SQL of the collections area's hot paths.
import type { RequestContext } from '../../app/context.ts';
import { requestLoader } from '../../app/request-loader.ts';
import { readCounts, requestCountFold } from '../../kernel/index.ts';

/**
 * Active records per collection id, for every collection a request touches, in one query of the
 * record counters (record-counts.sql.ts): a few index entries per collection, however many
 * records it holds. SMART collections are counted the same way: their memberships are rows too.
 */
export function recordCountLoader(ctx: RequestContext, teamId: bigint) {
  return requestLoader<bigint, number>(
    ctx,
    'collection.recordCount',
    async (ids) => {
      const counts = await readCounts(ctx.services.pool, teamId, ids);
      for (const [collectionId, c] of counts) requestCountFold(ctx.services.pool, teamId, BigInt(collectionId), c.deltaRows);
      return ids.map((id) => counts.get(String(id))?.active ?? 0);
    },
    (id) => String(id),
  );
}
