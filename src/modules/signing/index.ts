// Signing requests: documents sent to several people to sign in order, with an audit trail and a
// signed PDF at the end (docs/api/signing-requests.md).
import { defineModule } from '../../app/module.ts';

export const signingModule = defineModule({
  name: 'signing',
  description: 'Signing requests: documents signed by several people in order, with an audit trail and a signed PDF.',
});
