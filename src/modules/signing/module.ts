// Signing requests: documents signed by several people in order, with an audit trail and a
// signed PDF at the end (docs/api/signing-requests.md).
import { defineModule } from '../../app/module.ts';
import * as signingSchema from './signing.schema.ts';
import * as signingSettingsSchema from './signing-settings.schema.ts';
import { signingJobs } from './signing-completion.ts';
import { signingRequestId, signingSignerId } from './signing.ids.ts';

export const signingModule = defineModule({
  name: 'signing',
  description: 'Signing requests: documents signed by several people in order, with an audit trail and a signed PDF.',
  schema: { signingSchema, signingSettingsSchema },
  ids: [signingRequestId, signingSignerId],
  services: () => ({ signingLinks: { baseUrl: null } }),
  jobs: (services) => signingJobs(services),
  // links of requests without a signingBaseUrl point at this server's signing endpoints (PUBLIC_BASE_URL wins)
  onListening: (services, baseUrl) => {
    services.signingLinks.baseUrl = baseUrl;
  },
});
