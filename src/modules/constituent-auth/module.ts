// Constituent authentication: the people a team's records describe prove they own an email address
// (a one-time code or a magic link) and get short-lived tokens of their own (docs/api/constituent-auth.md).
import { defineModule } from '../../app/module.ts';
import * as schema from './constituent-auth.schema.ts';
import { constituentSessionId, constituentVerificationId } from './constituent-auth.ids.ts';
import { createRuntime, setLinkBaseUrl, type ConstituentAuthRuntime } from './runtime.ts';

declare module '../../app/context.ts' {
  interface Services {
    /** code hashing and the magic links' base URL of constituent sign-in */
    constituentAuth: ConstituentAuthRuntime;
  }
}

export const constituentAuthModule = defineModule({
  name: 'constituent-auth',
  description: 'Constituent sign-in by emailed code or magic link, with rotating tokens of their own.',
  schema,
  ids: [constituentVerificationId, constituentSessionId],
  services: ({ config }) => ({ constituentAuth: createRuntime(config) }),
  onListening: (services, baseUrl) => setLinkBaseUrl(services.constituentAuth, services.config, baseUrl),
});
