// The inbound SMTP listener that counts bounces and complaints. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // the inbound SMTP listener for delivery status notifications and complaint reports (docs/api/mail-feedback.md):
  // off unless a port is given (0 picks a free port: tests)
  INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  INBOUND_SMTP_HOST: z.string().default('0.0.0.0'),
  // the domain of addresses other areas hand out for mail to come back through this listener
  // (conversations' `reply+<token>@…` and `inbox+<key>@…`); default MAIL_BOUNCE_DOMAIN, else MAIL_FROM's domain
  INBOUND_MAIL_DOMAIN: z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'a domain name such as reply.example.org').optional(),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const mailFeedbackConfig = defineConfigSlice({
  settings,
});
