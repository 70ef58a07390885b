// Credentials: API keys, session tokens, and the hourly purge of expired tokens.
import { defineModule } from '../../app/module.ts';
import * as apiKeySchema from './api-key.schema.ts';
import * as sessionTokenSchema from './session-token.schema.ts';
import { credentialJobs } from './credentials.jobs.ts';

export const credentialsModule = defineModule({
  name: 'credentials',
  schema: { apiKeySchema, sessionTokenSchema },
  jobs: () => credentialJobs as never[],
});
