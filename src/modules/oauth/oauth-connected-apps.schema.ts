// GraphQL face of a person's connected apps: the OAuth grants they gave, and revoking one.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { type ConnectedApp, listConnectedApps, revokeConnectedApp } from './oauth-connected-apps.service.ts';

const ConnectedAppRef = builder.objectRef<ConnectedApp>('OAuthConnectedApp').implement({
  description: 'An application the signed-in user allowed to act for them in one team (an OAuth grant).',
  fields: (t) => ({
    grantId: t.exposeString('grantId', { description: 'revokeOAuthConnectedApp takes it' }),
    clientId: t.exposeString('clientId'),
    clientName: t.exposeString('clientName'),
    teamSimplyId: t.exposeString('teamSimplyId'),
    teamName: t.exposeString('teamName', { nullable: true }),
    scopes: t.exposeStringList('scopes'),
    resources: t.exposeStringList('resources', { description: 'v1 (the API) or mcp (the MCP endpoint)' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'when one of its tokens was last used, to within about a minute; null: never' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryFields((t) => ({
  oauthConnectedApps: t.field({
    type: [ConnectedAppRef],
    description: "The signed-in user's connected apps (OAuth grants), newest first. Signed-in users only (API keys and session tokens: IDP_REQUIRED).",
    authScopes: tier.signedInUser,
    resolve: (_root, _args, ctx) => listConnectedApps(ctx),
  }),
}));

builder.mutationFields((t) => ({
  revokeOAuthConnectedApp: t.boolean({
    description: 'Revokes one of the signed-in user’s connected apps: the grant and all its tokens, at once on every instance. Another person’s grant is NOT_FOUND.',
    authScopes: tier.signedInUser,
    args: { grantId: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await revokeConnectedApp(ctx, args.grantId);
      return true;
    },
  }),
}));
