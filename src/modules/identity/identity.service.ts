// The built-in first-party identity provider: email + password sign-in issuing 1-hour JWTs and
// rotating refresh tokens. Presenting an already-used refresh token revokes its whole family
// (a stolen token is detected the first time both parties use it).
import { randomUUID } from 'node:crypto';
import { publishCredentialInvalidation } from '../../app/auth/credential-invalidation.ts';
import { REFRESH_TOKEN_PREFIX, hashToken, newRefreshToken } from '../../app/auth/tokens.ts';
import type { RequestContext } from '../../app/context.ts';
import { RateLimitError, UnauthenticatedError } from '../../app/errors.ts';
import { RateLimiter } from '../../app/http/rate-limiter.ts';
import { parseInput } from '../../app/validate.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../app/auth/passwords.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { issueMfaChallenge, mfaEnabledFor, passMfaChallenge, type IssuedMfaChallenge } from '../mfa/index.ts';
import { loginInput, loginMfaInput } from './identity.input.ts';
import { userSessionId } from './identity.ids.ts';

/** Guessing passwords is slowed per address and per account, whatever the general API limit (one pair per instance). */
export interface SignInThrottle {
  perAddress: RateLimiter;
  perAccount: RateLimiter;
}

export function createSignInThrottle(): SignInThrottle {
  return { perAddress: new RateLimiter(20, 20), perAccount: new RateLimiter(10, 10) };
}

export interface IssuedSession {
  accessToken: string;
  expiresAt: Date;
  refreshToken: string;
  refreshTokenExpiresAt: Date;
  userId: bigint;
}

/** What the password step gives: a session, or (multi-factor sign-in enabled) a challenge for the second step. */
export type SignInOutcome = IssuedSession | IssuedMfaChallenge;

export async function login(ctx: RequestContext, raw: unknown): Promise<SignInOutcome> {
  const input = parseInput(loginInput, raw, 'Invalid sign-in request');
  const { perAddress, perAccount } = ctx.services.signInThrottle;
  const wait = Math.max(perAddress.take(ctx.clientIp), perAccount.take(input.email));
  if (wait > 0) throw new RateLimitError(wait);
  const user = await ctx.services.prisma.user.findUnique({ where: { email: input.email } });
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok || !user.passwordHash || !user.isActive) {
    throw new UnauthenticatedError('The email or password is wrong, or the user is deactivated');
  }
  const about = { platform: input.platform ?? null, deviceName: input.deviceName ?? null };
  if (await mfaEnabledFor(ctx, user.id)) return issueMfaChallenge(ctx, user.id, about);
  return startSession(ctx, user.id, user.simplyId, about);
}

/** The second step of a sign-in with multi-factor sign-in: the challenge and a code give the session. */
export async function completeMfaLogin(ctx: RequestContext, raw: unknown): Promise<IssuedSession> {
  const input = parseInput(loginMfaInput, raw, 'Invalid second sign-in step');
  const passed = await passMfaChallenge(ctx, input);
  return startSession(ctx, passed.userId, passed.userSimplyId, { platform: passed.platform, deviceName: passed.deviceName });
}

/** A new sign-in session (a refresh-token family) for a user who has proven who they are. */
export async function startSession(
  ctx: RequestContext,
  userId: bigint,
  userSimplyId: string,
  about: { platform: string | null; deviceName: string | null },
): Promise<IssuedSession> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { lastLoggedIn: new Date() } });
    const session = await tx.userSession.create({
      data: { simplyId: userSessionId.create(), userId, familyId: randomUUID(), platform: about.platform, deviceName: about.deviceName, userAgent: ctx.userAgent ?? null },
    });
    return issueSession(ctx, userId, userSimplyId, session, tx);
  });
}

async function issueSession(
  ctx: RequestContext,
  userId: bigint,
  userSimplyId: string,
  session: { simplyId: string; familyId: string },
  db: Tx,
): Promise<IssuedSession> {
  const { config, jwt } = ctx.services;
  const { familyId } = session;
  const access = await jwt.issueAccessToken(userSimplyId, session.simplyId);
  const refreshToken = newRefreshToken();
  const refreshTokenExpiresAt = new Date(Date.now() + config.REFRESH_TOKEN_TTL_DAYS * 86_400_000);
  await db.refreshToken.create({ data: { userId, tokenHash: hashToken(refreshToken), familyId, expiresAt: refreshTokenExpiresAt } });
  return { accessToken: access.token, expiresAt: access.expiresAt, refreshToken, refreshTokenExpiresAt, userId };
}

export async function refresh(ctx: RequestContext, refreshToken: string): Promise<IssuedSession> {
  if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) throw new UnauthenticatedError('The refresh token is not valid');
  const { prisma } = ctx.services;
  const row = await prisma.refreshToken.findUnique({ where: { tokenHash: hashToken(refreshToken) }, include: { user: true } });
  const session = row ? await prisma.userSession.findUnique({ where: { familyId: row.familyId } }) : null;
  if (!row || !session || session.revokedAt || row.revokedAt || row.expiresAt.getTime() <= Date.now() || !row.user.isActive) {
    throw new UnauthenticatedError('The refresh token is not valid or has expired');
  }
  // claim it atomically: of two concurrent uses only one wins; the other is treated as reuse. Claim and
  // successor commit together, so the loser (waiting on the claim's row lock) revokes the successor too.
  const issued = await runTransaction(prisma, async (tx) => {
    const claimed = await tx.refreshToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
    if (claimed.count === 0) return null;
    await tx.userSession.update({ where: { id: session.id }, data: { lastActiveAt: new Date() } });
    return issueSession(ctx, row.userId, row.user.simplyId, session, tx);
  });
  if (!issued) {
    await endSession(ctx, row.familyId);
    throw new UnauthenticatedError('The refresh token was already used; its session has been ended');
  }
  return issued;
}

/**
 * Ends a sign-in session: its refresh tokens stop working and, through the credential cache
 * invalidation every instance hears, so do its access tokens. Returns false when it was already ended.
 */
export async function endSession(ctx: RequestContext, familyId: string): Promise<boolean> {
  const { prisma, notifier, authenticator } = ctx.services;
  const now = new Date();
  const ended = await runTransaction(prisma, async (tx) => {
    await tx.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: now } });
    const sessions = await tx.userSession.updateManyAndReturn({ where: { familyId, revokedAt: null }, data: { revokedAt: now }, select: { userId: true } });
    return sessions[0] ?? null;
  });
  if (!ended) return false;
  await publishCredentialInvalidation(notifier, authenticator, { userId: ended.userId });
  return true;
}

export async function logout(ctx: RequestContext, refreshToken: string): Promise<boolean> {
  if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) return true;
  const { prisma } = ctx.services;
  const row = await prisma.refreshToken.findUnique({ where: { tokenHash: hashToken(refreshToken) }, select: { familyId: true } });
  if (row) await endSession(ctx, row.familyId);
  return true;
}
