// One-to-many messages: composition, approval, scheduling, sending and delivery counts.
import { defineModule } from '../../app/module.ts';

export const outgoingMessagesModule = defineModule({
  name: 'outgoing-messages',
  description: 'One-to-many messages: composition, approval, scheduling, sending and delivery counts.',
});
