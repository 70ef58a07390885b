// The current user's sign-in sessions with the built-in identity provider: one per sign-in (a
// refresh-token family), listed while it can still be refreshed. Revoking one ends its refresh
// tokens and its access tokens at once, on every instance (identity.service.ts endSession).
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, UnauthenticatedError, ValidationError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import type { UserSession } from '../../generated/prisma/client.ts';
import { endSession, userSessionId } from '../identity/index.ts';
import { describeSessionInput } from './user-sessions.input.ts';
import { currentUserId } from './user-devices.ts';

export interface SessionItem extends UserSession {
  /** when its refresh token lapses unless the app refreshes first */
  expiresAt: Date;
  isCurrent: boolean;
}

/** The sessions that can still be refreshed, each with the expiry of its live refresh token. */
async function live(ctx: RequestContext, sessions: UserSession[]): Promise<SessionItem[]> {
  if (!sessions.length) return [];
  const tokens = await ctx.services.prisma.refreshToken.findMany({
    where: { familyId: { in: sessions.map((s) => s.familyId) }, usedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    select: { familyId: true, expiresAt: true },
  });
  const expiry = new Map<string, Date>();
  for (const t of tokens) if ((expiry.get(t.familyId)?.getTime() ?? 0) < t.expiresAt.getTime()) expiry.set(t.familyId, t.expiresAt);
  const current = ctx.principal.sessionSimplyId ?? null;
  return sessions.flatMap((s) => {
    const expiresAt = expiry.get(s.familyId);
    return expiresAt ? [{ ...s, expiresAt, isCurrent: s.simplyId === current }] : [];
  });
}

/** Active sessions, most recently active first. */
export async function listMySessions(ctx: RequestContext): Promise<SessionItem[]> {
  const userId = currentUserId(ctx);
  const sessions = await ctx.services.prisma.userSession.findMany({ where: { userId, revokedAt: null }, orderBy: [{ lastActiveAt: 'desc' }, { id: 'desc' }] });
  return live(ctx, sessions);
}

/**
 * Describes the sign-in the calling access token belongs to (platform, device name, the app's user
 * agent) and marks it active now. It never creates credentials: a session only starts by signing in.
 */
export async function describeCurrentSession(ctx: RequestContext, raw: unknown): Promise<SessionItem> {
  const userId = currentUserId(ctx);
  const input = parseInput(describeSessionInput, raw, 'Invalid session description');
  const sid = ctx.principal.sessionSimplyId;
  if (!sid) {
    throw new ValidationError(
      'This access token has no sign-in session of the built-in identity provider; sessions of an external identity provider are managed by that provider',
    );
  }
  const [session] = await ctx.services.prisma.userSession.updateManyAndReturn({
    where: { simplyId: sid, userId, revokedAt: null },
    data: {
      ...(input.platform !== undefined ? { platform: input.platform } : {}),
      ...(input.deviceName !== undefined ? { deviceName: input.deviceName } : {}),
      ...(ctx.userAgent ? { userAgent: ctx.userAgent } : {}),
      lastActiveAt: new Date(),
    },
  });
  const [item] = session ? await live(ctx, [session]) : [];
  if (!item) throw new UnauthenticatedError('The sign-in session has ended');
  return item;
}

/** Signs a session out (the current one too); another person's or an ended session is 404. */
export async function revokeMySession(ctx: RequestContext, sessionSimplyId: string): Promise<boolean> {
  const userId = currentUserId(ctx);
  userSessionId.assert(sessionSimplyId, 'sessionSimplyId');
  const session = await ctx.services.prisma.userSession.findUnique({ where: { simplyId: sessionSimplyId }, select: { userId: true, familyId: true, revokedAt: true } });
  if (!session || session.userId !== userId || session.revokedAt) throw new NotFoundError('Session', sessionSimplyId);
  // of concurrent revocations only the one that ended it succeeds; the others find it gone, as a repeat would
  if (!(await endSession(ctx, session.familyId))) throw new NotFoundError('Session', sessionSimplyId);
  return true;
}
