// GraphQL face of the current user's sign-in sessions.
// REST: /v1/users/me/sessions in rest-adapter/routes/users.ts.
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import { suppliedFields } from '../../app/graphql/input-fields.ts';
import { describeCurrentSession, listMySessions, revokeMySession, type SessionItem } from './user-sessions.service.ts';

const SignInSessionRef = builder.objectRef<SessionItem>('SignInSession').implement({
  description: 'One sign-in with the built-in identity provider (its refresh tokens and the access tokens they issue)',
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    sessionSimplyId: t.exposeString('simplyId'),
    platform: t.exposeString('platform', { nullable: true }),
    deviceName: t.exposeString('deviceName', { nullable: true }),
    userAgent: t.exposeString('userAgent', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
    lastActiveAt: t.field({ type: 'DateTime', resolve: (s) => s.lastActiveAt }),
    expiresAt: t.field({ type: 'DateTime', description: 'when it ends unless refreshed before', resolve: (s) => s.expiresAt }),
    isCurrent: t.exposeBoolean('isCurrent', { description: 'the session of the access token that asks' }),
  }),
});

const DescribeInput = builder.inputType('DescribeSessionInput', {
  fields: (t) => ({ platform: t.string({ description: 'ios, android or web; null clears' }), deviceName: t.string({ description: 'null clears' }) }),
});

builder.queryFields((t) => ({
  mySessions: t.field({
    type: [SignInSessionRef],
    description: 'Your active sign-in sessions, most recently active first',
    authScopes: tier.signedInUser,
    resolve: (_root, _args, ctx) => listMySessions(ctx),
  }),
}));

builder.mutationFields((t) => ({
  describeCurrentSession: t.field({
    type: SignInSessionRef,
    description: 'Names the platform and device of the sign-in this access token belongs to, and marks it active',
    authScopes: tier.signedInUser,
    args: { input: t.arg({ type: DescribeInput }) },
    resolve: (_root, args, ctx) => describeCurrentSession(ctx, args.input ? suppliedFields(args.input) : {}),
  }),
  revokeMySession: t.boolean({
    description: 'Signs that session out at once: its refresh and access tokens stop working',
    authScopes: tier.signedInUser,
    args: { sessionSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => revokeMySession(ctx, args.sessionSimplyId),
  }),
}));
