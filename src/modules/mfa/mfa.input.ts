// Bodies of the second-factor operations (docs/api/authentication.md "Second factor (TOTP)").
import { z } from 'zod';

/** The 6 digits an authenticator app shows; spaces (as some apps group them) are ignored. */
export const totpCode = z
  .string()
  .max(20)
  .transform((s) => s.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'must be the 6 digits your authenticator app shows'));

/** POST /v1/users/me/mfa/verify and /complete-setup */
export const codeInput = z.strictObject({ code: totpCode });

/**
 * A second factor: a current code or one recovery code (xxxx-xxxx-xxxx; case, spaces and hyphens do
 * not matter). `code` also takes a recovery code, so a form with one field works.
 */
export const secondFactorFields = {
  code: z.string().trim().min(1).max(40).optional(),
  recoveryCode: z.string().trim().min(1).max(40).optional(),
};

/** Exactly one of `code` and `recoveryCode`. */
export function oneSecondFactor(value: { code?: string | undefined; recoveryCode?: string | undefined }, ctx: z.RefinementCtx): void {
  const given = (value.code !== undefined ? 1 : 0) + (value.recoveryCode !== undefined ? 1 : 0);
  if (given !== 1) ctx.addIssue({ code: 'custom', path: [given === 0 ? 'code' : 'recoveryCode'], message: 'give exactly one of code and recoveryCode' });
}

/** DELETE /v1/users/me/mfa */
export const disableInput = z.strictObject(secondFactorFields).superRefine(oneSecondFactor);

export type SecondFactor = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string; field: 'code' | 'recoveryCode' };

/** Which factor validated fields hold: six digits in `code` are a TOTP code, anything else a recovery code. */
export function secondFactorOf(value: { code?: string | undefined; recoveryCode?: string | undefined }): SecondFactor {
  if (value.recoveryCode !== undefined) return { kind: 'recovery', code: value.recoveryCode, field: 'recoveryCode' };
  const digits = (value.code ?? '').replace(/\s/g, '');
  return /^\d{6}$/.test(digits) ? { kind: 'totp', code: digits } : { kind: 'recovery', code: value.code ?? '', field: 'code' };
}
