// Multi-factor sign-in: a person's TOTP second factor (setup, confirmation, recovery codes,
// disabling) and the team view of who has it. Password sign-in asks for it (src/modules/identity).
import { defineModule } from '../../app/module.ts';
import * as schema from './mfa.schema.ts';

export const mfaModule = defineModule({
  name: 'mfa',
  description: 'TOTP multi-factor sign-in: setup with a QR code, recovery codes, disabling, and the team compliance view.',
  schema,
});
