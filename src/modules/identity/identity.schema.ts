// GraphQL face of the first-party identity provider. REST: rest-adapter/routes/auth.ts.
import { builder } from '../../app/builder.ts';
import { login, logout, refresh, type IssuedSession } from './login.service.ts';
import { UserRef } from '../users/user.schema.ts';

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
      resolve: (query, s, _a, ctx) => ctx.services.prisma.user.findUniqueOrThrow({ ...query, where: { id: s.userId } }),
    }),
  }),
});

builder.mutationFields((t) => ({
  login: t.field({
    type: AuthSessionRef,
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => login(ctx, args),
  }),
  refreshAccessToken: t.field({
    type: AuthSessionRef,
    args: { refreshToken: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => refresh(ctx, args.refreshToken),
  }),
  logout: t.boolean({
    description: 'Ends the sign-in session the refresh token belongs to.',
    args: { refreshToken: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => logout(ctx, args.refreshToken),
  }),
}));
