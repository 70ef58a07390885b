// Messages: the message templates (the simple ones and their authoring), the senders and the mail
// domains their addresses belong to. Composing and sending is the outgoing-messages area; what
// comes back, mail-feedback.
import { defineModule } from '../../app/module.ts';
import { messagesConfig } from './messages.config.ts';
import * as mailDomainsSchema from './mail-domains.schema.ts';
import * as messageSendersSchema from './message-senders.schema.ts';
import * as messageTemplatesSchema from './message-templates.schema.ts';
import * as outgoingMessageTemplatesSchema from './outgoing-message-templates.schema.ts';
import { mailDomainId, messageSenderId, messageTemplateId } from './messages.ids.ts';
import { senderVerificationEndpoints } from './sender-verification-endpoint.ts';

export const messagesModule = defineModule({
  name: 'messages',
  description: 'Message templates and their authoring, senders and the verified mail domains their addresses belong to.',
  config: messagesConfig,
  schema: { messageTemplatesSchema, outgoingMessageTemplatesSchema, mailDomainsSchema, messageSendersSchema },
  ids: [messageTemplateId, mailDomainId, messageSenderId],
  // senders' confirmation links: a page and its button, outside /v1
  httpEndpoints: (services) => senderVerificationEndpoints(services),
});
