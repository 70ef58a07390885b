// The suppression list's inputs (docs/api/mail-feedback.md "Suppression list"). Both faces validate
// with these: the REST table before the operation runs, the service again for GraphQL callers.
import { z } from 'zod';
import { parseEmail } from '../../kernel/index.ts';

/**
 * Why an address is on the list. The first three are written by the feedback this area receives;
 * MANUAL by a team member adding the address.
 */
export const SUPPRESSION_REASONS = ['UNSUBSCRIBED', 'HARD_BOUNCE', 'COMPLAINT', 'MANUAL'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export const SUPPRESSION_LIMITS = {
  /** RFC 5321 §4.5.3.1.3: a path holds at most 254 characters of address */
  address: 254,
  search: 254,
} as const;

/**
 * The address as an EMAIL_ADDRESS field of a record stores it (the domain in its Unicode form),
 * lower-cased: the composer compares suppressions with lower(recipient address), so this is the
 * form that matches.
 */
export const suppressionAddress = z.unknown().transform((raw, ctx) => {
  const parsed = parseEmail(raw);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.value.toLowerCase();
});

export const createSuppressionInput = z.object({ address: suppressionAddress }).strict();
export type CreateSuppressionInput = z.output<typeof createSuppressionInput>;

export const listSuppressionsInput = z.object({
  search: z
    .string()
    .max(SUPPRESSION_LIMITS.search, `must be at most ${SUPPRESSION_LIMITS.search} characters`)
    .transform((v) => v.trim().toLowerCase())
    .nullish(),
  reason: z.enum(SUPPRESSION_REASONS, { message: `must be one of ${SUPPRESSION_REASONS.join(', ')}` }).nullish(),
});
