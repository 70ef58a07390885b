// Bodies and queries of constituent authentication (docs/api/constituent-auth.md). Both faces
// validate with these: the REST table before the operation runs, the service for GraphQL.
import { z } from 'zod';
import { teamId } from '../../app/ids.ts';
import { parseEmail } from '../../kernel/index.ts';
import { constituentVerificationId } from './constituent-auth.ids.ts';

export const CONSTITUENT_METHODS = ['CODE', 'LINK'] as const;

/** An email address in the canonical form EMAIL_ADDRESS fields store; a phone number is refused by name (no SMS yet). */
const contactValue = z
  .string({ message: 'must be an email address' })
  .max(320, 'must be at most 320 characters')
  .transform((value, ctx) => {
    if (/^\s*\+?[\d\s().-]{6,}\s*$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'SMS delivery is not available yet: give an email address' });
      return z.NEVER;
    }
    const parsed = parseEmail(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: `must be an email address: ${parsed.message}` });
      return z.NEVER;
    }
    return parsed.value;
  });

const simplyIdOf = (kind: { is(v: string): boolean; prefix: string }, what: string) =>
  z.string({ message: `must be a ${what} id` }).refine((v) => kind.is(v), `must be a ${what} id (${kind.prefix}-XXXX-XXXX-XXXX)`);

export const initiateInput = z.strictObject({
  teamSimplyId: simplyIdOf(teamId, 'team'),
  contactValue,
  method: z.enum(CONSTITUENT_METHODS, { message: 'must be CODE or LINK' }),
});

/** What the session list shows for this sign-in. */
const deviceFields = {
  platform: z.enum(['ios', 'android', 'web'], { message: 'must be ios, android or web' }).nullish(),
  deviceName: z.string({ message: 'must be text' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').nullish(),
};

export const verifyInput = z
  .strictObject({
    verificationSimplyId: simplyIdOf(constituentVerificationId, 'verification'),
    code: z.string({ message: 'must be the 6 digits of the emailed code' }).regex(/^\d{6}$/, 'must be the 6 digits of the emailed code').optional(),
    token: z.string({ message: 'must be the token of the emailed link' }).min(1).max(200).optional(),
    ...deviceFields,
  })
  .superRefine((v, ctx) => {
    if ((v.code === undefined) === (v.token === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'give exactly one of code (CODE) and token (LINK)' });
    }
  });

export const verifyLinkQuery = z.strictObject({
  token: z.string({ message: 'must be the token of the emailed link' }).min(1, 'must be the token of the emailed link').max(200),
  ...deviceFields,
});

/** any string: a wrong token is a 401, not a 400 */
export const refreshInput = z.strictObject({ refreshToken: z.string({ message: 'must be the refresh token' }).max(200) });

export type InitiateInput = z.output<typeof initiateInput>;
export type VerifyInput = z.output<typeof verifyInput>;
export type VerifyLinkInput = z.output<typeof verifyLinkQuery>;
