// A tag's scan entries, newest first (docs/api/action-tags.md "Scans"): limit default 100, max 500.
// The entry never carries an address or its hash; the user agent is gone after seven days.
import type { RequestContext } from '../../app/context.ts';
import { paginationOf, type PaginationShape } from '../../app/paging.ts';
import { parseInput } from '../../app/validate.ts';
import type { ActionTagScan } from '../../generated/prisma/client.ts';
import { requireActionTagAccess } from './action-tag-plan.ts';
import { scansQuery } from './action-tags.input.ts';
import { tagOf } from './action-tags.service.ts';

export interface ScanPage {
  nodes: ActionTagScan[];
  pagination: PaginationShape;
}

export async function listActionTagScans(ctx: RequestContext, simplyId: string, raw: { limit?: number | null; offset?: number | null }): Promise<ScanPage> {
  const q = parseInput(scansQuery, Object.fromEntries(Object.entries(raw).filter(([, v]) => v != null)), 'Invalid paging parameters');
  await requireActionTagAccess(ctx);
  const db = ctx.services.prisma;
  const tag = await tagOf(ctx, db, simplyId);
  const paging = { limit: q.limit ?? 100, offset: q.offset ?? 0 };
  const where = { teamId: tag.teamId, actionTagId: tag.id };
  const nodes = await db.actionTagScan.findMany({ where, orderBy: [{ scannedAt: 'desc' }, { id: 'desc' }], skip: paging.offset, take: paging.limit });
  return { nodes, pagination: await paginationOf(nodes.length, paging, () => db.actionTagScan.count({ where })) };
}
