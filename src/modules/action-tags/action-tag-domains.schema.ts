// GraphQL face of action tags' resolver domains (docs/api/action-tags.md "Custom domains"). REST:
// rest-adapter/routes/action-tags/domains.ts. Privileged TEAM_ADMIN_SVC_TAGS (view to read, edit
// to write); a paid plan, in the service.
import type { ActionTagDomain } from '../../generated/prisma/client.ts';
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import {
  createActionTagDomain,
  deleteActionTagDomain,
  domainVerificationOf,
  getActionTagDomain,
  listActionTagDomains,
  verifyActionTagDomain,
} from './action-tag-domains.service.ts';

const READ = tier.privileged('TEAM_ADMIN_SVC_TAGS', 'VIEW');
const WRITE = tier.privileged('TEAM_ADMIN_SVC_TAGS', 'EDIT');

type DomainItem = { row: ActionTagDomain };

const ActionTagDomainStatusEnum = builder.enumType('ActionTagDomainStatus', {
  description: 'PENDING until a verify call finds the TXT record; VERIFIED: the domain serves the team’s publicUrls',
  values: ['PENDING', 'VERIFIED'] as const,
});

const ActionTagDomainCertificateStatusEnum = builder.enumType('ActionTagDomainCertificateStatus', {
  description:
    'What https://<domain>/ presented at the last verify call. UNCHECKED: never verified; VALID: a trusted certificate for the name; MISSING: no address record or no TLS answer; INVALID: a certificate browsers refuse (untrusted, expired or for another name)',
  values: ['UNCHECKED', 'VALID', 'MISSING', 'INVALID'] as const,
});

const ActionTagDomainVerificationRef = builder.objectRef<ReturnType<typeof domainVerificationOf>>('ActionTagDomainVerification').implement({
  description: 'The DNS record that proves the team controls the domain: publish it, then call verify.',
  fields: (t) => ({
    recordType: t.string({ description: 'always TXT', resolve: (v) => v.recordType }),
    recordName: t.string({ description: '_svc-verification.<domain>', resolve: (v) => v.recordName }),
    recordValue: t.string({ description: 'svc-domain-verification=<token>, exactly', resolve: (v) => v.recordValue }),
  }),
});

const ActionTagDomainRef = builder.objectRef<DomainItem>('ActionTagDomain').implement({
  description: 'A host name of the team’s own that serves its action tags’ publicUrls once VERIFIED.',
  fields: (t) => ({
    ...simplyIdFields(t, 'actionTagsDomainSimplyId'),
    domain: t.string({ description: 'lower case, ASCII (punycode) form', resolve: (d) => d.row.domain }),
    status: t.field({ type: ActionTagDomainStatusEnum, resolve: (d) => d.row.status as never }),
    verification: t.field({ type: ActionTagDomainVerificationRef, resolve: (d) => domainVerificationOf(d.row) }),
    verifiedAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.row.verifiedAt }),
    certificateStatus: t.field({ type: ActionTagDomainCertificateStatusEnum, resolve: (d) => d.row.certificateStatus as never }),
    certificateExpiresAt: t.field({ type: 'DateTime', nullable: true, description: 'of the certificate seen at the last verify call', resolve: (d) => d.row.certificateExpiresAt }),
    certificateError: t.string({ nullable: true, description: 'why the certificate is not VALID', resolve: (d) => d.row.certificateError }),
    lastCheckedAt: t.field({ type: 'DateTime', nullable: true, description: 'the last verify call', resolve: (d) => d.row.lastCheckedAt }),
    lastCheckError: t.string({ nullable: true, description: 'why the last check did not find the TXT record; null after a successful one', resolve: (d) => d.row.lastCheckError }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.row.createdAt }),
  }),
});

const ActionTagDomainPageRef = pageType('ActionTagDomainPage', ActionTagDomainRef);

const CreateActionTagDomainInput = builder.inputType('CreateActionTagDomainInput', {
  fields: (t) => ({ domain: t.string({ required: true, description: 'e.g. go.example.org; stored lower case in ASCII form' }) }),
});

const item = (row: ActionTagDomain): DomainItem => ({ row });

builder.queryFields((t) => ({
  actionTagDomains: t.field({
    type: ActionTagDomainPageRef,
    description: "The team's action-tag resolver domains, oldest first (TEAM_ADMIN_SVC_TAGS view; paid plan).",
    authScopes: READ,
    args: pageArgs(t.arg),
    resolve: withArgs(async (ctx, args: Parameters<typeof listActionTagDomains>[1]) => {
      const page = await listActionTagDomains(ctx, args);
      return { nodes: page.nodes.map(item), pagination: page.pagination };
    }),
  }),
  actionTagDomain: t.field({
    type: ActionTagDomainRef,
    authScopes: READ,
    ...byId(t.arg, 'actionTagsDomainSimplyId', async (ctx, id) => item(await getActionTagDomain(ctx, id))),
  }),
}));

builder.mutationFields((t) => ({
  createActionTagDomain: t.field({
    type: ActionTagDomainRef,
    description: 'Adds a domain (PENDING) and answers the TXT record to publish; the plan’s domainAllowance bounds how many (TEAM_ADMIN_SVC_TAGS edit; paid plan).',
    authScopes: WRITE,
    args: { input: t.arg({ type: CreateActionTagDomainInput, required: true }) },
    resolve: async (_root, args, ctx) => item(await createActionTagDomain(ctx, givenFields(args.input))),
  }),
  verifyActionTagDomain: t.field({
    type: ActionTagDomainRef,
    description: 'Looks the TXT record and the certificate up now: VERIFIED, or still PENDING with lastCheckError saying why (TEAM_ADMIN_SVC_TAGS edit).',
    authScopes: WRITE,
    ...byId(t.arg, 'actionTagsDomainSimplyId', async (ctx, id) => item(await verifyActionTagDomain(ctx, id))),
  }),
  deleteActionTagDomain: t.boolean({
    description: 'Removes the domain: publicUrls under it stop resolving (TEAM_ADMIN_SVC_TAGS edit).',
    authScopes: WRITE,
    ...byId(t.arg, 'actionTagsDomainSimplyId', deleteActionTagDomain),
  }),
}));
