// The one place a person's second-factor code is checked. Every check runs in a transaction that
// holds the person's UserMfa row lock, so that concurrent requests on any instance take turns: a
// code's time step is recorded before the next request can present it again (replay), and the
// shared failure count (MfaFailure) is read and written under the same lock.
import { hashToken } from '../../app/auth/tokens.ts';
import type { RequestContext } from '../../app/context.ts';
import { RateLimitError, type ApiError } from '../../app/errors.ts';
import { secretBoxFor } from '../../app/secret-box.ts';
import type { Tx } from '../../app/transaction.ts';
import type { UserMfa } from '../../generated/prisma/client.ts';
import { findHash, matchTotpStep, normalizeRecoveryCode } from './mfa.codes.ts';
import { InvalidMfaCodeError } from './mfa.errors.ts';
import type { SecondFactor } from './mfa.input.ts';

export const MFA_ENABLED = 'ENABLED';
export const MFA_PENDING = 'PENDING';

/** Failed codes allowed per person within the window, whatever the route or instance. */
export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_MS = 15 * 60_000;

export type Verdict = { ok: true } | { ok: false; error: ApiError };

/** The sealed secret is bound to its owner: a box copied onto another person's row does not open. */
export function sealContext(userSimplyId: string): string {
  return `mfa:${userSimplyId}`;
}

export function secretBox(ctx: RequestContext) {
  return secretBoxFor(ctx.services.config.secretsKeyFile);
}

/** The person's second factor, locked until the transaction ends (null when none is set up). */
export async function lockedMfa(tx: Tx, userId: bigint): Promise<UserMfa | null> {
  await tx.$queryRaw`SELECT "userId" FROM "UserMfa" WHERE "userId" = ${userId} FOR UPDATE`;
  return tx.userMfa.findUnique({ where: { userId } });
}

/** Seconds until the person may try a code again (0: now). */
async function failureWait(tx: Tx, userId: bigint, now: Date): Promise<number> {
  const recent = await tx.mfaFailure.findMany({
    where: { userId, failedAt: { gte: new Date(now.getTime() - FAILURE_WINDOW_MS) } },
    orderBy: { failedAt: 'desc' },
    take: MAX_FAILURES,
    select: { failedAt: true },
  });
  if (recent.length < MAX_FAILURES) return 0;
  // once the oldest of the last MAX_FAILURES leaves the window, one more try is allowed
  const oldest = recent[MAX_FAILURES - 1]!.failedAt.getTime();
  return Math.max(1, Math.ceil((oldest + FAILURE_WINDOW_MS - now.getTime()) / 1000));
}

async function recordFailure(tx: Tx, userId: bigint, now: Date): Promise<void> {
  await tx.mfaFailure.create({ data: { userId, failedAt: now } });
  await tx.mfaFailure.deleteMany({ where: { userId, failedAt: { lt: new Date(now.getTime() - FAILURE_WINDOW_MS) } } });
}

/**
 * Checks a factor against `mfa` (locked by the caller's transaction). A TOTP code matches the current
 * step or one either side, and only a step after the last one used; a recovery code only while
 * enabled, and only one not used yet. With `consume`, a match is used up (its step recorded, the
 * recovery code marked). A miss is recorded as a failure, so the caller must commit, not throw: the
 * verdict carries the error to throw afterwards.
 */
export async function checkSecondFactor(tx: Tx, ctx: RequestContext, mfa: UserMfa, userSimplyId: string, factor: SecondFactor, consume: boolean): Promise<Verdict> {
  const now = new Date();
  const wait = await failureWait(tx, mfa.userId, now);
  if (wait > 0) return { ok: false, error: new RateLimitError(wait) };

  if (factor.kind === 'totp') {
    const secret = secretBox(ctx).open(mfa.secretSealed, sealContext(userSimplyId));
    const step = await matchTotpStep(secret, factor.code, mfa.lastUsedStep);
    if (step !== null) {
      if (consume) await tx.userMfa.update({ where: { userId: mfa.userId }, data: { lastUsedStep: step } });
      return { ok: true };
    }
  } else if (mfa.status === MFA_ENABLED) {
    const normalized = normalizeRecoveryCode(factor.code);
    if (normalized) {
      const unused = await tx.mfaRecoveryCode.findMany({ where: { userId: mfa.userId, usedAt: null }, select: { id: true, codeHash: true } });
      const match = findHash(unused, hashToken(normalized));
      if (match) {
        if (consume) await tx.mfaRecoveryCode.update({ where: { id: match.id }, data: { usedAt: now } });
        return { ok: true };
      }
    }
  }
  await recordFailure(tx, mfa.userId, now);
  return { ok: false, error: new InvalidMfaCodeError(factor.kind === 'totp' ? 'code' : factor.field) };
}
