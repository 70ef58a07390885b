// GraphQL face of the first-party identity provider. REST: rest-adapter/routes/identity.ts.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, withArgs } from '../../app/graphql/args.ts';
import { loadUser } from '../users/users.service.ts';
import { UserRef } from '../users/users.schema.ts';
import { login, logout, refresh, type IssuedSession } from './identity.service.ts';

const AuthSessionRef = builder.objectRef<IssuedSession>('AuthSession').implement({
  fields: (t) => ({
    accessToken: t.exposeString('accessToken', { description: 'a JWT; send as "Authorization: Bearer <accessToken>"' }),
    tokenType: t.string({ resolve: () => 'Bearer' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    expiresIn: t.int({ description: 'seconds', resolve: (s) => Math.round((s.expiresAt.getTime() - Date.now()) / 1000) }),
    refreshToken: t.exposeString('refreshToken', { description: 'single use; each refresh returns a new one' }),
    refreshTokenExpiresAt: t.expose('refreshTokenExpiresAt', { type: 'DateTime' }),
    user: t.prismaField({
      type: UserRef,
      resolve: (query, s, _a, ctx) => loadUser(ctx, s.userId, query),
    }),
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
