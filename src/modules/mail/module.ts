// Outgoing mail: `services.mail` stores a message and queues its delivery over SMTP; team admins
// read the outgoing-mail table.
import { defineModule } from '../../app/module.ts';
import { mailConfig } from './mail.config.ts';
import { createMailer } from './create-mailer.ts';
import { mailId } from './mail.ids.ts';
import * as schema from './mail.schema.ts';
import { mailJobs } from './mail.jobs.ts';
import type { Mailer } from './mailer.ts';

declare module '../../app/context.ts' {
  interface Services {
    /** outgoing mail: stored, then sent by a job over SMTP (or kept in the outbox table) */
    mail: Mailer;
  }
}

export const mailModule = defineModule({
  name: 'mail',
  description: 'Outgoing mail of the team: every message the platform sent or keeps, with its delivery state.',
  config: mailConfig,
  schema,
  ids: [mailId],
  services: (services) => ({ mail: createMailer(services) }),
  jobs: (services) => mailJobs(services) as never[],
  // the one-click unsubscribe links of messages stored from now on point at this server
  onListening: (services, baseUrl) => services.mail.setBaseUrl(baseUrl),
});
