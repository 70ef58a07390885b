// What the current user opened lately in the selected team, newest first, kept to the newest
// RECENT_VISITS_KEPT per person and team.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import { runTransaction } from '../../app/transaction.ts';
import type { RecentVisit } from '../../generated/prisma/client.ts';
import { RECENT_VISITS_KEPT, recentVisitsQuery, recordVisitInput } from './recent-visits.input.ts';
import { recentVisitId } from './users.ids.ts';
import { currentUserId } from './user-devices.ts';

function owner(ctx: RequestContext) {
  return { userId: currentUserId(ctx), teamId: requireTeam(ctx).id };
}

export function listRecentVisits(ctx: RequestContext, args: { limit?: number | null }): Promise<RecentVisit[]> {
  const where = owner(ctx);
  const { limit } = parseInput(recentVisitsQuery, { limit: args.limit ?? undefined }, 'Invalid recent-visits query');
  return ctx.services.prisma.recentVisit.findMany({ where, orderBy: [{ visitedAt: 'desc' }, { id: 'desc' }], take: limit });
}

/** Records a visit: a new entity goes on top, a visited one moves there (with the title and url given now). */
export async function recordVisit(ctx: RequestContext, raw: unknown): Promise<RecentVisit> {
  const { userId, teamId } = owner(ctx);
  const input = parseInput(recordVisitInput, raw, 'Invalid visit');
  const described = { title: input.title ?? null, url: input.url ?? null, visitedAt: new Date() };
  return runTransaction(ctx.services.prisma, async (tx) => {
    // concurrent visits would each see at most the bound and trim nothing: they take turns
    const lock = advisoryLock('recentVisits', `${userId}:${teamId}`);
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    const visit = await tx.recentVisit.upsert({
      where: { userId_teamId_entityType_entityId: { userId, teamId, entityType: input.entityType, entityId: input.entityId } },
      create: { simplyId: recentVisitId.create(), userId, teamId, entityType: input.entityType, entityId: input.entityId, ...described },
      update: described,
    });
    const beyond = await tx.recentVisit.findMany({
      where: { userId, teamId },
      orderBy: [{ visitedAt: 'desc' }, { id: 'desc' }],
      skip: RECENT_VISITS_KEPT,
      select: { id: true },
    });
    if (beyond.length) await tx.recentVisit.deleteMany({ where: { id: { in: beyond.map((v) => v.id) } } });
    return visit;
  });
}

/** Forgets the current user's visits in the selected team. */
export async function clearRecentVisits(ctx: RequestContext): Promise<{ cleared: number }> {
  const { count } = await ctx.services.prisma.recentVisit.deleteMany({ where: owner(ctx) });
  return { cleared: count };
}
