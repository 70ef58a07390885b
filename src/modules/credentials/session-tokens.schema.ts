// GraphQL face of session tokens. REST: rest-adapter/routes/credentials.ts.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, prismaById } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { createSessionToken, findSessionToken, revokeSessionToken } from './session-tokens.service.ts';

export const SessionTokenRef = builder.prismaObject('SessionToken', {
  description: 'Inspection view: never the token value.',
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    expired: t.boolean({ resolve: (s) => s.expiresAt.getTime() <= Date.now() }),
    revoked: t.boolean({ resolve: (s) => s.revokedAt !== null }),
    featurePermissions: t.exposeStringList('featurePermissions'),
    oauthScopes: t.exposeStringList('oauthScopes'),
    metadata: t.expose('metadata', { type: 'JSON', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

type Issued = Awaited<ReturnType<typeof createSessionToken>>;

const IssuedSessionTokenRef = builder.objectRef<Issued>('IssuedSessionToken').implement({
  description: 'Returned once, on creation: the only time the token value is shown.',
  fields: (t) => ({
    token: t.exposeString('token'),
    id: t.string({ resolve: (i) => i.row.simplyId }),
    expiresAt: t.field({ type: 'DateTime', resolve: (i) => i.row.expiresAt }),
    featurePermissions: t.stringList({ resolve: (i) => i.row.featurePermissions }),
    oauthScopes: t.stringList({ resolve: (i) => i.row.oauthScopes }),
    metadata: t.field({ type: 'JSON', nullable: true, resolve: (i) => i.row.metadata }),
    createdAt: t.field({ type: 'DateTime', resolve: (i) => i.row.createdAt }),
  }),
});

const CreateSessionTokenInput = builder.inputType('CreateSessionTokenInput', {
  fields: (t) => ({
    expiresInMinutes: t.int({ description: '1-1440, default 60' }),
    featurePermissions: t.stringList({ description: 'omit to inherit all of the creating key' }),
    oauthScopes: t.stringList({ description: 'omit for schema:read and records:read' }),
    metadata: t.field({ type: 'JSON' }),
  }),
});

builder.queryFields((t) => ({
  sessionToken: t.prismaField({
    type: 'SessionToken',
    authScopes: tier.standard,
    ...prismaById(t.arg, 'sessionTokenId', findSessionToken),
  }),
}));

builder.mutationFields((t) => ({
  createSessionToken: t.field({
    type: IssuedSessionTokenRef,
    authScopes: tier.apiKey,
    args: { input: t.arg({ type: CreateSessionTokenInput, required: false }) },
    resolve: (_root, args, ctx) =>
      // metadata: null is a value of its own (no metadata); other nulls mean "not given"
      createSessionToken(ctx, givenFields(args.input ?? {}, ['metadata'])),
  }),
  revokeSessionToken: t.boolean({
    authScopes: tier.standard,
    ...byId(t.arg, 'sessionTokenId', revokeSessionToken),
  }),
}));
