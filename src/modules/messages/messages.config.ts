// Mail-domain verification: which DNS servers answer. README.md "Configuration" explains each setting.
import { z } from 'zod';
import { defineConfigSlice } from '../../app/config.ts';

const settings = z.object({
  // mail-domain verification: the DNS servers asked for the TXT records (ip or ip:port, comma-separated; IPv6 as [addr]:port); unset: the system's resolvers
  MAIL_DOMAIN_DNS_SERVERS: z
    .string()
    .regex(/^\s*((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]+)(:\d{1,5})?\s*(,\s*|$))+$/, 'a comma-separated list of ip or ip:port')
    .optional(),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const messagesConfig = defineConfigSlice({
  settings,
});
