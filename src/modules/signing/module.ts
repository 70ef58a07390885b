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
  jobs: (services) => signingJobs(services),
});
