// Messages: what a team sends to constituents. So far its simple message templates, its senders
// and the mail domains their addresses belong to; composition, sending and delivery tracking
// follow (issue 16).
import { defineModule } from '../../app/module.ts';
import * as mailDomainsSchema from './mail-domains.schema.ts';
import * as messageSendersSchema from './message-senders.schema.ts';
import * as messageTemplatesSchema from './message-templates.schema.ts';
import { mailDomainId, messageSenderId, messageTemplateId } from './messages.ids.ts';

export const messagesModule = defineModule({
  name: 'messages',
  description: 'Messages to constituents: simple message templates, senders and verified mail domains (composition, sending and delivery tracking follow).',
  schema: { messageTemplatesSchema, mailDomainsSchema, messageSendersSchema },
  ids: [messageTemplateId, mailDomainId, messageSenderId],
});
