// Mail-domain verification: which DNS servers answer, and which domains the operator vouches for.
// README.md "Configuration" explains each setting.
import { z } from 'zod';
import { type Config, defineConfigSlice } from '../../app/config.ts';
import { normalizeDomain } from './mail-domains.input.ts';

const listedDomains = (raw: string) => raw.split(',').map((d) => d.trim()).filter(Boolean);

const settings = z.object({
  // mail-domain verification: the DNS servers asked for the TXT records (ip or ip:port, comma-separated; IPv6 as [addr]:port); unset: the system's resolvers
  MAIL_DOMAIN_DNS_SERVERS: z
    .string()
    .regex(/^\s*((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]+)(:\d{1,5})?\s*(,\s*|$))+$/, 'a comma-separated list of ip or ip:port')
    .optional(),
  // domains whose addresses count as verified senders for every team, without DNS record or confirmation mail (comma-separated)
  MAIL_PREVERIFIED_DOMAINS: z
    .string()
    .refine((raw) => listedDomains(raw).every((d) => normalizeDomain(d).ok), 'a comma-separated list of domain names such as example.org,example.com')
    .optional(),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
}

export const messagesConfig = defineConfigSlice({
  settings,
});

/** MAIL_PREVERIFIED_DOMAINS as stored domains are (lower case, ASCII form). */
export function preverifiedDomains(config: Pick<Config, 'MAIL_PREVERIFIED_DOMAINS'>): Set<string> {
  const domains = listedDomains(config.MAIL_PREVERIFIED_DOMAINS ?? '').flatMap((d) => {
    const checked = normalizeDomain(d);
    return checked.ok ? [checked.domain] : [];
  });
  return new Set(domains);
}
