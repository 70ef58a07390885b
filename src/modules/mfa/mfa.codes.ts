// The secret material of the second factor: TOTP secrets and codes (RFC 6238 through otplib, the
// settings every authenticator app understands) and one-time recovery codes.
import { randomInt } from 'node:crypto';
import { constantTimeEqual } from '../../app/auth/tokens.ts';
import { generateSecret, generateURI, verify } from 'otplib';
import type QRCode from 'qrcode';
import { onFirstUse } from '../../app/on-first-use.ts';

const qrcode = onFirstUse<typeof QRCode>('qrcode');

/** What authenticator apps show above the account name. */
export const MFA_ISSUER = 'svc platform';

const PERIOD_SECONDS = 30;
const DIGITS = 6;

/** A new base32 secret of 20 random bytes (160 bits, as RFC 4226 recommends). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** otpauth://totp/<issuer>:<email>?secret=…&issuer=…, with the defaults spelled out (some apps do not assume them). */
export function otpauthUri(secret: string, email: string): string {
  const uri = generateURI({ issuer: MFA_ISSUER, label: email, secret });
  return `${uri}&algorithm=SHA1&digits=${DIGITS}&period=${PERIOD_SECONDS}`;
}

export function qrCodeDataUrl(uri: string): Promise<string> {
  return qrcode().toDataURL(uri, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, width: 256 });
}

/**
 * The time step a code matches, within one step either side of now (clock drift), and only after
 * `afterStep` (a step already used cannot be used again); null when it matches none of them.
 */
export async function matchTotpStep(secret: string, code: string, afterStep: bigint | null): Promise<bigint | null> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: PERIOD_SECONDS,
    period: PERIOD_SECONDS,
    digits: DIGITS,
    algorithm: 'sha1',
    ...(afterStep === null ? {} : { afterTimeStep: Number(afterStep) }),
  });
  // the functional API's result type covers HOTP too; a TOTP match carries its time step
  if (!result.valid || !('timeStep' in result)) return null;
  const step = BigInt(result.timeStep);
  return afterStep !== null && step <= afterStep ? null : step;
}

// No 0/O, 1/I: a code read off paper is typed back without guessing.
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const RECOVERY_GROUPS = 3;
const RECOVERY_GROUP_LENGTH = 4;
export const RECOVERY_CODE_COUNT = 10;

/** xxxx-xxxx-xxxx: 12 characters of 32, 60 random bits. */
export function newRecoveryCode(): string {
  const groups = Array.from({ length: RECOVERY_GROUPS }, () =>
    Array.from({ length: RECOVERY_GROUP_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(''),
  );
  return groups.join('-');
}

/** The stored form's input: upper case, without separators and spaces; null when it cannot be a recovery code. */
export function normalizeRecoveryCode(code: string): string | null {
  const plain = code.toUpperCase().replace(/[\s-]/g, '');
  if (plain.length !== RECOVERY_GROUPS * RECOVERY_GROUP_LENGTH) return null;
  for (const c of plain) if (!RECOVERY_ALPHABET.includes(c)) return null;
  return plain;
}

/** The row whose stored hash equals `hash`; every row is compared, each in constant time. */
export function findHash<T extends { codeHash: string }>(rows: readonly T[], hash: string): T | null {
  let found: T | null = null;
  for (const row of rows) if (constantTimeEqual(row.codeHash, hash) && !found) found = row;
  return found;
}
