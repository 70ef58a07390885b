// The first-party identity provider: password login, refresh and logout.
import { defineModule } from '../../app/module.ts';
import * as schema from './identity.schema.ts';
import { userSessionId } from './identity.ids.ts';
import { createSignInThrottle, type SignInThrottle } from './identity.service.ts';

declare module '../../app/context.ts' {
  interface Services {
    /** sign-in attempts counted per address and per account, in this instance */
    signInThrottle: SignInThrottle;
  }
}

export const identityModule = defineModule({
  name: 'identity',
  description: 'Sign-in with the first-party identity provider: password login, token refresh and logout.',
  schema,
  ids: [userSessionId],
  services: () => ({ signInThrottle: createSignInThrottle() }),
});
