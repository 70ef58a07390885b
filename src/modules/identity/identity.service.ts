// The built-in first-party identity provider: email + password sign-in issuing 1-hour JWTs and
// rotating refresh tokens. Presenting an already-used refresh token revokes its whole family
// (a stolen token is detected the first time both parties use it).
import { randomUUID } from 'node:crypto';
import { REFRESH_TOKEN_PREFIX, hashToken, newRefreshToken } from '../../app/auth/tokens.ts';
import type { RequestContext } from '../../app/context.ts';
import { RateLimitError, UnauthenticatedError } from '../../app/errors.ts';
import { RateLimiter } from '../../app/http/rate-limiter.ts';
import { parseInput } from '../../app/validate.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../app/auth/passwords.ts';
import { runTransaction, type Tx } from '../../db/transaction.ts';
import { loginInput } from './identity.input.ts';

// Guessing passwords is slowed per address and per account, whatever the general API limit.
const attemptsPerAddress = new RateLimiter(20, 20);
const attemptsPerAccount = new RateLimiter(10, 10);

export interface IssuedSession {
  accessToken: string;
  expiresAt: Date;
  refreshToken: string;
  refreshTokenExpiresAt: Date;
  userId: bigint;
}

export async function login(ctx: RequestContext, raw: unknown): Promise<IssuedSession> {
  const input = parseInput(loginInput, raw, 'Invalid sign-in request');
  const wait = Math.max(attemptsPerAddress.take(ctx.clientIp), attemptsPerAccount.take(input.email));
  if (wait > 0) throw new RateLimitError(wait);
  const user = await ctx.services.prisma.user.findUnique({ where: { email: input.email } });
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok || !user.passwordHash || !user.isActive) {
    throw new UnauthenticatedError('The email or password is wrong, or the user is deactivated');
  }
  await ctx.services.prisma.user.update({ where: { id: user.id }, data: { lastLoggedIn: new Date() } });
  return issueSession(ctx, user.id, user.simplyId, randomUUID());
}

async function issueSession(ctx: RequestContext, userId: bigint, userSimplyId: string, familyId: string, db: Tx = ctx.services.prisma): Promise<IssuedSession> {
  const { config, jwt } = ctx.services;
  const access = await jwt.issueAccessToken(userSimplyId);
  const refreshToken = newRefreshToken();
  const refreshTokenExpiresAt = new Date(Date.now() + config.REFRESH_TOKEN_TTL_DAYS * 86_400_000);
  await db.refreshToken.create({ data: { userId, tokenHash: hashToken(refreshToken), familyId, expiresAt: refreshTokenExpiresAt } });
  return { accessToken: access.token, expiresAt: access.expiresAt, refreshToken, refreshTokenExpiresAt, userId };
}

export async function refresh(ctx: RequestContext, refreshToken: string): Promise<IssuedSession> {
  if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) throw new UnauthenticatedError('The refresh token is not valid');
  const { prisma } = ctx.services;
  const row = await prisma.refreshToken.findUnique({ where: { tokenHash: hashToken(refreshToken) }, include: { user: true } });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now() || !row.user.isActive) {
    throw new UnauthenticatedError('The refresh token is not valid or has expired');
  }
  // claim it atomically: of two concurrent uses only one wins; the other is treated as reuse. Claim and
  // successor commit together, so the loser (waiting on the claim's row lock) revokes the successor too.
  const issued = await runTransaction(prisma, async (tx) => {
    const claimed = await tx.refreshToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
    return claimed.count === 0 ? null : issueSession(ctx, row.userId, row.user.simplyId, row.familyId, tx);
  });
  if (!issued) {
    await prisma.refreshToken.updateMany({ where: { familyId: row.familyId, revokedAt: null }, data: { revokedAt: new Date() } });
    throw new UnauthenticatedError('The refresh token was already used; its session has been ended');
  }
  return issued;
}

export async function logout(ctx: RequestContext, refreshToken: string): Promise<boolean> {
  if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) return true;
  const { prisma } = ctx.services;
  const row = await prisma.refreshToken.findUnique({ where: { tokenHash: hashToken(refreshToken) }, select: { familyId: true } });
  if (row) await prisma.refreshToken.updateMany({ where: { familyId: row.familyId, revokedAt: null }, data: { revokedAt: new Date() } });
  return true;
}
