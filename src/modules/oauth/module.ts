// OAuth: the authorization server (oidc-provider) on the platform's own port, its state in
// PostgreSQL (bearer values hashed, secrets sealed, expired state pruned daily), its clients (svc
// oauth-clients, and GraphQL for system administrators) and its access tokens as credentials.
import { defineModule } from '../../app/module.ts';
import * as clientSchema from './oauth-clients.schema.ts';
import * as connectedAppSchema from './oauth-connected-apps.schema.ts';
import { oauthConfig } from './oauth.config.ts';
import { oauthAccessTokens } from './oauth-credentials.ts';
import { oauthEndpoints } from './oauth-endpoints.ts';
import { setOAuthIssuer } from './oauth-server.ts';
import { oauthJobs } from './oauth.jobs.ts';

export const oauthModule = defineModule({
  name: 'oauth',
  description: 'Delegated access: an OAuth 2.1 authorization server whose access tokens act for a consenting user in one team, within the scopes granted.',
  schema: { clientSchema, connectedAppSchema },
  config: oauthConfig,
  services: (services) => {
    services.authenticator.addTokenKind(oauthAccessTokens(services));
    return {};
  },
  httpEndpoints: oauthEndpoints,
  onListening: setOAuthIssuer,
  jobs: () => oauthJobs as never[],
});
