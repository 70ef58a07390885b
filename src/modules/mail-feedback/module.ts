// What receiving mail servers report back: bounces, complaints (inbound SMTP) and one-click unsubscribes,
// and the team's suppression list they fill, which people can also read and change (suppressions.*).
// docs/api/mail-feedback.md. The return paths and unsubscribe links it reads are minted by the mail
// area (src/modules/mail/mail-tokens.ts) when a message is stored.
import { defineModule } from '../../app/module.ts';
import { mailFeedbackConfig } from './mail-feedback.config.ts';
import type { InboundSmtpState } from './inbound-smtp.ts';
import { createInboundMailRegistry, type InboundMailRegistry } from './inbound-mail-handlers.ts';
import * as suppressionsSchema from './suppressions.schema.ts';
import { unsubscribeEndpoints } from './unsubscribe-endpoint.ts';

declare module '../../app/context.ts' {
  interface Services {
    /** the inbound SMTP listener's address once it listens (INBOUND_SMTP_PORT), else null */
    inboundSmtp: InboundSmtpState;
    /** other areas' handlers of mail to their own addresses (inbound-mail-handlers.ts) */
    inboundMail: InboundMailRegistry;
  }
}

export const mailFeedbackModule = defineModule({
  name: 'mail-feedback',
  description: "What receiving mail servers report back (bounces, complaints, one-click unsubscribes) and the team's suppression list.",
  config: mailFeedbackConfig,
  schema: { suppressionsSchema },
  services: () => ({ inboundSmtp: { address: null }, inboundMail: createInboundMailRegistry() }),
  httpEndpoints: (services) => unsubscribeEndpoints(services),
  // smtp-server and mailparser are loaded only where the listener runs
  listen: async (services) => (await import('./inbound-smtp.ts')).startInboundSmtp(services, services.inboundSmtp),
});
