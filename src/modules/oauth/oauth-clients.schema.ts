// GraphQL face of the authorization server's clients: what `svc oauth-clients` does, for a system
// administrator (a platform operator: clients are not a team's). The secret of a confidential
// client is in the creation's answer only.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { NotFoundError } from '../../app/errors.ts';
import { type OAuthClientView, oauthClientsFor, type RegisteredClient } from './oauth-clients.service.ts';

const OAuthClientRef = builder.objectRef<OAuthClientView>('OAuthClient').implement({
  description: 'A client of the OAuth authorization server, registered by an operator or by itself (public clients).',
  fields: (t) => ({
    clientId: t.exposeString('clientId'),
    name: t.exposeString('name'),
    redirectUris: t.exposeStringList('redirectUris'),
    firstParty: t.exposeBoolean('firstParty', { description: 'may skip the consent screen for a signed-in user' }),
    allowances: t.exposeStringList('allowances', { description: 'team-assistant, svc-spaces: the surfaces that accept only allowed clients' }),
    confidential: t.exposeBoolean('confidential', { description: 'authenticates with a secret at the token endpoint' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreatedOAuthClientRef = builder.objectRef<{ client: OAuthClientView; registered: RegisteredClient }>('CreatedOAuthClient').implement({
  fields: (t) => ({
    client: t.field({ type: OAuthClientRef, resolve: (c) => c.client }),
    clientSecret: t.string({ nullable: true, description: 'confidential clients only; shown in this answer and never again', resolve: (c) => c.registered.clientSecret ?? null }),
  }),
});

const CreateOAuthClientInput = builder.inputType('CreateOAuthClientInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    redirectUris: t.stringList({ required: true, description: 'https, http on a loopback host, or a private-use scheme (com.example.app:/callback); at most 10' }),
    firstParty: t.boolean(),
    allowances: t.stringList({ description: 'team-assistant, svc-spaces' }),
    confidential: t.boolean(),
  }),
});

builder.queryFields((t) => ({
  oauthClients: t.field({
    type: [OAuthClientRef],
    authScopes: tier.systemAdmin,
    description: 'Every client of the authorization server, oldest first (never a secret).',
    resolve: (_root, _args, ctx) => oauthClientsFor(ctx.services).listClients(),
  }),
}));

builder.mutationFields((t) => ({
  createOAuthClient: t.field({
    type: CreatedOAuthClientRef,
    authScopes: tier.systemAdmin,
    args: { input: t.arg({ type: CreateOAuthClientInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const clients = oauthClientsFor(ctx.services);
      const registered = await clients.registerClient({
        name: input.name,
        redirectUris: input.redirectUris,
        firstParty: input.firstParty ?? false,
        allowances: input.allowances ?? [],
        confidential: input.confidential ?? false,
      });
      const client = (await clients.getClient(registered.clientId))!;
      return { client, registered };
    },
  }),
  revokeOAuthClient: t.boolean({
    authScopes: tier.systemAdmin,
    description: 'Deletes the client and every token, code and grant issued to it.',
    args: { clientId: t.arg.string({ required: true }) },
    resolve: async (_root, { clientId }, ctx) => {
      if (!(await oauthClientsFor(ctx.services).revokeClient(clientId))) throw new NotFoundError('OAuth client', clientId);
      return true;
    },
  }),
}));
