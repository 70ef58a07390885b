// Constituent authentication: the people a team's records describe prove they own an email address
// (a one-time code or a magic link) and get short-lived tokens of their own (docs/api/constituent-auth.md).
import { defineModule } from '../../app/module.ts';

export const constituentAuthModule = defineModule({
  name: 'constituent-auth',
  description: 'Constituent sign-in by emailed code or magic link, with rotating tokens of their own.',
});
