// The second step of a password sign-in for people with multi-factor sign-in enabled: the password
// step hands out a challenge (a random token, stored hashed, 5 minutes, single use, at most 5 wrong
// codes) and the second step trades it and a code for a sign-in session (src/modules/identity).
import type { RequestContext } from '../../app/context.ts';
import { UnauthenticatedError } from '../../app/errors.ts';
import { hashToken } from '../../app/auth/tokens.ts';
import { randomSecret } from '../../app/ids.ts';
import { runTransaction } from '../../app/transaction.ts';
import type { MfaChallenge } from '../../generated/prisma/client.ts';
import { checkSecondFactor, lockedMfa, MFA_ENABLED, type Verdict } from './mfa-check.ts';
import { secondFactorOf } from './mfa.input.ts';

export const MFA_CHALLENGE_PREFIX = 'svc_mfa_';
export const MFA_CHALLENGE_TTL_MS = 5 * 60_000;
export const MFA_CHALLENGE_MAX_ATTEMPTS = 5;

export interface IssuedMfaChallenge {
  mfaChallengeToken: string;
  mfaChallengeExpiresAt: Date;
}

/** Who proved both factors, and what the sign-in session list will show for them. */
export interface PassedChallenge {
  userId: bigint;
  userSimplyId: string;
  platform: string | null;
  deviceName: string | null;
}

export async function mfaEnabledFor(ctx: RequestContext, userId: bigint): Promise<boolean> {
  const mfa = await ctx.services.prisma.userMfa.findUnique({ where: { userId }, select: { status: true } });
  return mfa?.status === MFA_ENABLED;
}

export async function issueMfaChallenge(ctx: RequestContext, userId: bigint, about: { platform: string | null; deviceName: string | null }): Promise<IssuedMfaChallenge> {
  const { prisma } = ctx.services;
  const token = MFA_CHALLENGE_PREFIX + randomSecret();
  const now = Date.now();
  const expiresAt = new Date(now + MFA_CHALLENGE_TTL_MS);
  // lapsed challenges are useless; clearing them here keeps the table to the sign-ins in progress
  await prisma.mfaChallenge.deleteMany({ where: { expiresAt: { lt: new Date(now - MFA_CHALLENGE_TTL_MS) } } });
  await prisma.mfaChallenge.create({ data: { tokenHash: hashToken(token), userId, platform: about.platform, deviceName: about.deviceName, expiresAt } });
  return { mfaChallengeToken: token, mfaChallengeExpiresAt: expiresAt };
}

const challengeInvalid = () => new UnauthenticatedError('The sign-in challenge is not valid, was already used, had too many wrong codes or has expired: sign in again with your password');

function usable(c: MfaChallenge | null): c is MfaChallenge {
  return c !== null && c.consumedAt === null && c.attempts < MFA_CHALLENGE_MAX_ATTEMPTS && c.expiresAt.getTime() > Date.now();
}

/**
 * Checks the second factor against a challenge. A wrong code uses up one of the challenge's attempts
 * (and counts against the person's failure limit); the right one consumes the challenge.
 */
export async function passMfaChallenge(ctx: RequestContext, input: { mfaChallengeToken: string; code?: string | undefined; recoveryCode?: string | undefined }): Promise<PassedChallenge> {
  const { prisma } = ctx.services;
  if (!input.mfaChallengeToken.startsWith(MFA_CHALLENGE_PREFIX)) throw challengeInvalid();
  const found = await prisma.mfaChallenge.findUnique({ where: { tokenHash: hashToken(input.mfaChallengeToken) } });
  if (!usable(found)) throw challengeInvalid();
  const user = await prisma.user.findUnique({ where: { id: found.userId }, select: { simplyId: true, isActive: true } });
  if (!user?.isActive) throw challengeInvalid();
  const factor = secondFactorOf(input);

  const verdict: Verdict = await runTransaction(prisma, async (tx) => {
    const mfa = await lockedMfa(tx, found.userId);
    // read again under the person's lock: concurrent attempts on one challenge take turns
    const challenge = await tx.mfaChallenge.findUnique({ where: { id: found.id } });
    // disabled or reset since the password step: that sign-in starts over
    if (!usable(challenge) || mfa?.status !== MFA_ENABLED) return { ok: false, error: challengeInvalid() };
    const check = await checkSecondFactor(tx, ctx, mfa, user.simplyId, factor, true);
    if (check.ok) {
      await tx.mfaChallenge.update({ where: { id: challenge.id }, data: { consumedAt: new Date() } });
    } else if (check.error.code === 'INVALID_MFA_CODE') {
      await tx.mfaChallenge.update({ where: { id: challenge.id }, data: { attempts: { increment: 1 } } });
    }
    return check;
  });
  if (!verdict.ok) throw verdict.error;
  return { userId: found.userId, userSimplyId: user.simplyId, platform: found.platform, deviceName: found.deviceName };
}
