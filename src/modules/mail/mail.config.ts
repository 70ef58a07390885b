// Outgoing mail: the SMTP transport and the sender of platform mail. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // outgoing mail: smtp:// or smtps:// URL (credentials in it); unset keeps mail in the outbox table
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('svc platform <no-reply@svc.invalid>'),
  // the domain of per-recipient return paths (VERP, `bounces+<token>@<domain>`); default: MAIL_FROM's domain.
  // Its MX must reach the inbound listener for bounces and complaints to be counted
  MAIL_BOUNCE_DOMAIN: z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'a domain name such as bounces.example.org').optional(),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const mailConfig = defineConfigSlice({
  settings,
});
