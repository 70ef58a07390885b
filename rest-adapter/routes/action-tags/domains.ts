// /v1/action-tags/domains → src/modules/action-tags/action-tag-domains.schema.ts (docs/api/action-tags.md
// "Custom domains"). The documents leave the methods open: list GET, create POST, verify POST, remove DELETE.
import { createActionTagDomainInput } from '../../../src/modules/action-tags/action-tag-domains.input.ts';
import { ACTION_TAG_DOMAIN } from '../../../src/modules/action-tags/action-tag-domains.fragments.ts';
import type { RouteExtension } from '../../route.ts';
import { actOn, createOne, getOne, listPage } from '../../route-shapes.ts';

const LIST = '/v1/action-tags/domains';
const ONE = `${LIST}/{actionTagsDomainSimplyId}`;
const WHO = 'TEAM_ADMIN_SVC_TAGS; a paid plan';

export const actionTagDomainRoutes = [
  createOne({
    path: LIST,
    summary: 'Add an action-tag domain',
    description: `{ domain }: a host name of the team's own for publicUrls, PENDING with the TXT record to publish; at most the plan's domainAllowance; the same domain twice is 409 (${WHO}, edit)`,
    name: 'CreateActionTagDomain',
    inputType: 'CreateActionTagDomainInput',
    body: createActionTagDomainInput,
    example: { domain: 'go.example.org' },
    select: ACTION_TAG_DOMAIN,
  }),
  listPage({ path: LIST, summary: 'List action-tag domains', description: `The team's resolver domains, oldest first: limit, offset (${WHO}, view)`, name: 'ActionTagDomains', select: ACTION_TAG_DOMAIN }),
  getOne({ path: ONE, summary: 'Get an action-tag domain', description: `One resolver domain with its verification and certificate state (${WHO}, view)`, name: 'ActionTagDomain', select: ACTION_TAG_DOMAIN }),
  actOn({
    method: 'POST',
    path: `${ONE}/verify`,
    summary: 'Verify an action-tag domain',
    description: `Look the TXT record and the certificate of https://<domain>/ up now: VERIFIED, or the status kept with lastCheckError; 409 ACTION_TAG_DOMAIN_TAKEN when another team holds the name (${WHO}, edit)`,
    name: 'VerifyActionTagDomain',
    select: ACTION_TAG_DOMAIN,
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Remove an action-tag domain', description: `publicUrls under it stop resolving (${WHO}, edit)`, name: 'DeleteActionTagDomain' }),
];

// the documents name the item path without a method ("remove … by actionTagsDomainSimplyId"), so
// reading one domain there is covered by that entry too: no extension
export const actionTagDomainExtensions: Record<string, RouteExtension> = {};
