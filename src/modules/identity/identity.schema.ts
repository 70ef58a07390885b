// GraphQL face of the first-party identity provider. REST: rest-adapter/routes/identity.ts.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, withArgs } from '../../app/graphql/args.ts';
import { loadUser, UserRef } from '../users/index.ts';
import { completeMfaLogin, login, logout, refresh, type IssuedSession, type SignInOutcome } from './identity.service.ts';

const session = (s: SignInOutcome): IssuedSession | null => ('accessToken' in s ? s : null);
const challenge = (s: SignInOutcome) => ('mfaChallengeToken' in s ? s : null);

// One type for both outcomes of the password step, so clients that select the token fields keep
// working: with multi-factor sign-in the token fields are null and the challenge fields are set.
const AuthSessionRef = builder.objectRef<SignInOutcome>('AuthSession').implement({
  description: 'A sign-in session, or (mfaRequired) the challenge of a password sign-in that still needs its second factor.',
  fields: (t) => ({
    accessToken: t.string({ nullable: true, description: 'a JWT; send as "Authorization: Bearer <accessToken>" (null while mfaRequired)', resolve: (s) => session(s)?.accessToken ?? null }),
    tokenType: t.string({ nullable: true, resolve: (s) => (session(s) ? 'Bearer' : null) }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => session(s)?.expiresAt ?? null }),
    expiresIn: t.int({
      nullable: true,
      description: 'seconds',
      resolve: (s) => {
        const issued = session(s);
        return issued ? Math.round((issued.expiresAt.getTime() - Date.now()) / 1000) : null;
      },
    }),
    refreshToken: t.string({ nullable: true, description: 'single use; each refresh returns a new one', resolve: (s) => session(s)?.refreshToken ?? null }),
    refreshTokenExpiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => session(s)?.refreshTokenExpiresAt ?? null }),
    user: t.prismaField({
      type: UserRef,
      nullable: true,
      description: 'null while mfaRequired: nothing about the account is shown before the second factor',
      resolve: (query, s, _a, ctx) => {
        const issued = session(s);
        return issued ? loadUser(ctx, issued.userId, query) : null;
      },
    }),
    mfaRequired: t.boolean({ description: 'true: no tokens yet; send a code with mfaChallengeToken to completeMfaLogin', resolve: (s) => challenge(s) !== null }),
    mfaChallengeToken: t.string({ nullable: true, description: 'single use, 5 minutes, at most 5 wrong codes', resolve: (s) => challenge(s)?.mfaChallengeToken ?? null }),
    mfaChallengeExpiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => challenge(s)?.mfaChallengeExpiresAt ?? null }),
  }),
});

builder.mutationFields((t) => ({
  login: t.field({
    type: AuthSessionRef,
    authScopes: tier.publicLink,
    args: {
      email: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      platform: t.arg.string({ description: 'ios, android or web: shown in the sign-in session list' }),
      deviceName: t.arg.string({ description: 'shown in the sign-in session list (at most 100 characters)' }),
    },
    resolve: withArgs(login),
  }),
  completeMfaLogin: t.field({
    type: AuthSessionRef,
    description: 'The second step of a sign-in with multi-factor sign-in: the challenge of login and a current code or a recovery code.',
    authScopes: tier.publicLink,
    args: {
      mfaChallengeToken: t.arg.string({ required: true }),
      code: t.arg.string({ description: 'the 6 digits of the authenticator app (or a recovery code)' }),
      recoveryCode: t.arg.string({ description: 'one of the recovery codes (each works once)' }),
    },
    resolve: (_root, args, ctx) =>
      completeMfaLogin(ctx, { mfaChallengeToken: args.mfaChallengeToken, code: args.code ?? undefined, recoveryCode: args.recoveryCode ?? undefined }),
  }),
  refreshAccessToken: t.field({
    type: AuthSessionRef,
    authScopes: tier.publicLink,
    ...byId(t.arg, 'refreshToken', refresh),
  }),
  logout: t.boolean({
    description: 'Ends the sign-in session the refresh token belongs to.',
    authScopes: tier.publicLink,
    ...byId(t.arg, 'refreshToken', logout),
  }),
}));
