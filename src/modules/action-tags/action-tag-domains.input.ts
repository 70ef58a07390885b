// Resolver domain bodies (docs/api/action-tags.md "Custom domains"): a host name normalized as
// mail domains are (lower case, punycode, no trailing dot; IP literals and single labels refused).
import { z } from 'zod';
import { domainName } from '../messages/index.ts';

export const createActionTagDomainInput = z.object({ domain: domainName }).strict();

export type CreateActionTagDomainInput = z.output<typeof createActionTagDomainInput>;
