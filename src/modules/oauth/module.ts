// OAuth: the storage of the authorization server (oidc-provider's state in PostgreSQL, bearer
// values hashed, secrets sealed) and its daily clean-up. The server itself is not mounted yet.
import { defineModule } from '../../app/module.ts';
import { oauthJobs } from './oauth.jobs.ts';

export const oauthModule = defineModule({
  name: 'oauth',
  description: 'The OAuth authorization server\'s state in PostgreSQL: bearer values stored hashed, secrets sealed, expired state pruned daily.',
  jobs: () => oauthJobs as never[],
});
