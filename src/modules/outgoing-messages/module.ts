// One-to-many messages: composition, approval, scheduling, sending through the mail transport
// (pg-boss jobs at MESSAGE_SEND_RATE) and the delivery counts read from the recipient rows.
import { defineModule } from '../../app/module.ts';
import { outgoingMessagesConfig } from './outgoing-messages.config.ts';
import * as messageSettingsSchema from './message-settings.schema.ts';
import { outgoingMessageJobs } from './outgoing-messages.jobs.ts';
import { outgoingMessageId } from './outgoing-messages.ids.ts';
import * as outgoingMessagesSchema from './outgoing-messages.schema.ts';

export const outgoingMessagesModule = defineModule({
  name: 'outgoing-messages',
  description: 'One-to-many messages: composition, approval, scheduling, sending and delivery counts.',
  config: outgoingMessagesConfig,
  schema: { outgoingMessagesSchema, messageSettingsSchema },
  ids: [outgoingMessageId],
  jobs: (services) => outgoingMessageJobs(services),
});
