// A person's own second factor (docs/api/authentication.md "Second factor (TOTP)"): status, setup,
// checking a code, confirming the setup (which hands out the recovery codes) and disabling. Every
// operation is the signed-in user's own (tier.signedInUser: first-party and external JWTs).
import { hashToken } from '../../app/auth/tokens.ts';
import type { RequestContext } from '../../app/context.ts';
import { ConflictError, IdpRequiredError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction } from '../../app/transaction.ts';
import { checkSecondFactor, lockedMfa, MFA_ENABLED, MFA_PENDING, sealContext, secretBox, type Verdict } from './mfa-check.ts';
import { newRecoveryCode, newTotpSecret, normalizeRecoveryCode, otpauthUri, qrCodeDataUrl, RECOVERY_CODE_COUNT } from './mfa.codes.ts';
import { codeInput, disableInput, secondFactorOf } from './mfa.input.ts';

export interface MfaStatus {
  enabled: boolean;
  pendingSetup: boolean;
  enabledAt: Date | null;
  recoveryCodesRemaining: number;
}

export interface MfaSetup {
  secret: string;
  otpauthUri: string;
  qrCodeDataUrl: string;
}

export interface MfaEnabled {
  enabledAt: Date;
  recoveryCodes: string[];
}

function signedInUser(ctx: RequestContext): { userId: bigint; userSimplyId: string } {
  const p = ctx.principal;
  // the tier lets only users through; this keeps the types honest
  if (p.kind !== 'USER' || p.userId === null || p.userSimplyId === null) throw new IdpRequiredError();
  return { userId: p.userId, userSimplyId: p.userSimplyId };
}

const notSetUp = () => new ConflictError('Multi-factor sign-in is not set up: start with POST /v1/users/me/mfa/setup');

export async function mfaStatus(ctx: RequestContext): Promise<MfaStatus> {
  const { userId } = signedInUser(ctx);
  const { prisma } = ctx.services;
  const mfa = await prisma.userMfa.findUnique({ where: { userId }, select: { status: true, enabledAt: true } });
  const enabled = mfa?.status === MFA_ENABLED;
  const recoveryCodesRemaining = enabled ? await prisma.mfaRecoveryCode.count({ where: { userId, usedAt: null } }) : 0;
  return { enabled, pendingSetup: mfa?.status === MFA_PENDING, enabledAt: enabled ? mfa.enabledAt : null, recoveryCodesRemaining };
}

/** A new secret waiting for its first code; replaces an unconfirmed one. Refused while enabled. */
export async function setupMfa(ctx: RequestContext): Promise<MfaSetup> {
  const { userId, userSimplyId } = signedInUser(ctx);
  const { prisma } = ctx.services;
  const { email } = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  const secret = newTotpSecret();
  const secretSealed = secretBox(ctx).seal(secret, sealContext(userSimplyId)) as Uint8Array<ArrayBuffer>;
  await runTransaction(prisma, async (tx) => {
    const current = await lockedMfa(tx, userId);
    if (current?.status === MFA_ENABLED) {
      throw new ConflictError('Multi-factor sign-in is already enabled: disable it first (DELETE /v1/users/me/mfa) to set up a new authenticator');
    }
    await tx.userMfa.upsert({
      where: { userId },
      create: { userId, secretSealed, status: MFA_PENDING },
      update: { secretSealed, status: MFA_PENDING, lastUsedStep: null, enabledAt: null },
    });
  });
  const uri = otpauthUri(secret, email);
  return { secret, otpauthUri: uri, qrCodeDataUrl: await qrCodeDataUrl(uri) };
}

/**
 * Whether a code matches the pending (or enabled) secret now. Nothing changes, the code stays usable;
 * a wrong code still counts as a failure for the rate limit, so this cannot be used to guess codes.
 */
export async function verifyMfaCode(ctx: RequestContext, raw: unknown): Promise<{ valid: boolean }> {
  const { userId, userSimplyId } = signedInUser(ctx);
  const { code } = parseInput(codeInput, raw, 'Invalid code');
  const verdict = await runTransaction(ctx.services.prisma, async (tx) => {
    const mfa = await lockedMfa(tx, userId);
    if (!mfa) throw notSetUp();
    return checkSecondFactor(tx, ctx, mfa, userSimplyId, { kind: 'totp', code }, false);
  });
  if (!verdict.ok && verdict.error.code !== 'INVALID_MFA_CODE') throw verdict.error;
  return { valid: verdict.ok };
}

/** Confirms a pending setup with a current code: enabled, and ten new recovery codes shown this once. */
export async function completeMfaSetup(ctx: RequestContext, raw: unknown): Promise<MfaEnabled> {
  const { userId, userSimplyId } = signedInUser(ctx);
  const { code } = parseInput(codeInput, raw, 'Invalid code');
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const enabledAt = new Date();
  const verdict: Verdict = await runTransaction(ctx.services.prisma, async (tx) => {
    const mfa = await lockedMfa(tx, userId);
    if (!mfa) throw notSetUp();
    if (mfa.status === MFA_ENABLED) throw new ConflictError('Multi-factor sign-in is already enabled');
    const check = await checkSecondFactor(tx, ctx, mfa, userSimplyId, { kind: 'totp', code }, true);
    if (!check.ok) return check;
    await tx.userMfa.update({ where: { userId }, data: { status: MFA_ENABLED, enabledAt } });
    await tx.mfaRecoveryCode.deleteMany({ where: { userId } });
    await tx.mfaRecoveryCode.createMany({ data: recoveryCodes.map((c) => ({ userId, codeHash: hashToken(normalizeRecoveryCode(c)!) })) });
    return check;
  });
  if (!verdict.ok) throw verdict.error;
  return { enabledAt, recoveryCodes };
}

/** Turns the second factor off (or drops an unconfirmed setup): needs a current code or a recovery code. */
export async function disableMfa(ctx: RequestContext, raw: unknown): Promise<boolean> {
  const { userId, userSimplyId } = signedInUser(ctx);
  const factor = secondFactorOf(parseInput(disableInput, raw, 'Invalid second factor'));
  const verdict = await runTransaction(ctx.services.prisma, async (tx) => {
    const mfa = await lockedMfa(tx, userId);
    if (!mfa) throw notSetUp();
    const check = await checkSecondFactor(tx, ctx, mfa, userSimplyId, factor, true);
    // the recovery codes go with it (cascade)
    if (check.ok) await tx.userMfa.delete({ where: { userId } });
    return check;
  });
  if (!verdict.ok) throw verdict.error;
  return true;
}
