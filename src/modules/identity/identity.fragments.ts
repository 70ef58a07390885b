// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';
import { SESSION_USER } from '../users/index.ts';

/** A sign-in session (the access token, the refresh token and the user), or the challenge of its second step. */
export const AUTH_SESSION = fragment(
  'AuthSessionFields',
  'AuthSession',
  selection`accessToken tokenType expiresAt expiresIn refreshToken refreshTokenExpiresAt user { ${SESSION_USER} }
   mfaRequired mfaChallengeToken mfaChallengeExpiresAt`,
);
