// Composed messages: the send rate over every instance. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // composed messages (docs/api/outgoing-messages.md "Sending"): recipients handed to the mail
  // transport per second, over every instance together
  MESSAGE_SEND_RATE: z.coerce.number().int().min(1).max(10_000).default(200),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const outgoingMessagesConfig = defineConfigSlice({
  settings,
});
