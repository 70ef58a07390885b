// Credentials: API keys, session tokens, and the hourly purge of expired tokens.
import { defineModule } from '../../app/module.ts';
import * as apiKeySchema from './api-keys.schema.ts';
import * as sessionTokenSchema from './session-tokens.schema.ts';
import { apiKeyId } from './credentials.ids.ts';
import { credentialJobs } from './credentials.jobs.ts';

export const credentialsModule = defineModule({
  name: 'credentials',
  description: 'API keys (shown once, stored hashed) and the short-lived, narrowed session tokens they mint.',
  schema: { apiKeySchema, sessionTokenSchema },
  ids: [apiKeyId],
  jobs: () => credentialJobs as never[],
});
