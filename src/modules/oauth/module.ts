// OAuth: the authorization server's configuration and storage (oidc-provider's state in PostgreSQL,
// bearer values hashed, secrets sealed), its clients (svc oauth-clients, and GraphQL for system
// administrators) and the daily clean-up of its state. The server itself is not mounted yet.
import { defineModule } from '../../app/module.ts';
import * as clientSchema from './oauth-clients.schema.ts';
import { oauthJobs } from './oauth.jobs.ts';

export const oauthModule = defineModule({
  name: 'oauth',
  description: 'The OAuth authorization server\'s state in PostgreSQL: bearer values stored hashed, secrets sealed, expired state pruned daily.',
  schema: { clientSchema },
  jobs: () => oauthJobs as never[],
});
