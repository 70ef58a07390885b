// Sign-in bodies (docs/api/authentication.md).
import { z } from 'zod';
import { oneSecondFactor, secondFactorFields } from '../mfa/index.ts';

/** What the REST body of POST /v1/auth/login must hold; other fields are ignored there. */
export const loginFields = {
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(1).max(200),
  /** what the sign-in session list shows for this sign-in */
  platform: z.enum(['ios', 'android', 'web']).nullish(),
  deviceName: z.string().trim().min(1).max(100).nullish(),
};

export const loginInput = z.object(loginFields).strict();

/** POST /v1/auth/refresh and /logout: the refresh token (any string; a wrong one is a 401, not a 400) */
export const refreshTokenBody = z.object({ refreshToken: z.string() });

/** POST /v1/auth/login/mfa: the challenge of the password step and a current code or a recovery code */
export const loginMfaInput = z
  .strictObject({ mfaChallengeToken: z.string().min(1).max(200), ...secondFactorFields })
  .superRefine(oneSecondFactor);
