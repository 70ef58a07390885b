// Messages: what a team sends to constituents. So far its simple message templates; composition,
// sending, delivery tracking and senders follow (issue 16).
import { defineModule } from '../../app/module.ts';
import * as schema from './message-templates.schema.ts';
import { messageTemplateId } from './messages.ids.ts';

export const messagesModule = defineModule({
  name: 'messages',
  description: 'Messages to constituents: simple message templates (composition, sending and delivery tracking follow).',
  schema,
  ids: [messageTemplateId],
});
