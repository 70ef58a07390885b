// GraphQL face of a team's mail domains (docs/api/messages.md "Senders and mail domains"). REST:
// rest-adapter/routes/messages.ts. Privileged: OUTGOING_MESSAGES_SEND edit (team admins pass);
// session and OAuth tokens never.
import type { TeamMailDomain } from '../../generated/prisma/client.ts';
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { createMailDomain, deleteMailDomain, listMailDomains, verificationOf, verifyMailDomain } from './mail-domains.service.ts';

export const MANAGE_SENDERS = tier.privileged('OUTGOING_MESSAGES_SEND', 'EDIT');

type DomainItem = { row: TeamMailDomain };

const MailDomainStatusEnum = builder.enumType('MailDomainStatus', { values: ['PENDING', 'VERIFIED'] as const });

const MailDomainVerificationRef = builder.objectRef<ReturnType<typeof verificationOf>>('MailDomainVerification').implement({
  description: 'The DNS record that proves the team controls the domain: publish it, then call verify.',
  fields: (t) => ({
    recordType: t.string({ description: 'always TXT', resolve: (v) => v.recordType }),
    recordName: t.string({ description: '_svc-verification.<domain>', resolve: (v) => v.recordName }),
    recordValue: t.string({ description: 'svc-domain-verification=<token>, exactly', resolve: (v) => v.recordValue }),
  }),
});

const MailDomainRef = builder.objectRef<DomainItem>('MailDomain').implement({
  description: 'A mail domain of the team; once VERIFIED, senders may use its addresses.',
  fields: (t) => ({
    ...simplyIdFields(t, 'mailDomainSimplyId'),
    domain: t.string({ description: 'lower case, ASCII (punycode) form', resolve: (d) => d.row.domain }),
    status: t.field({ type: MailDomainStatusEnum, resolve: (d) => d.row.status as never }),
    verification: t.field({ type: MailDomainVerificationRef, resolve: (d) => verificationOf(d.row) }),
    verifiedAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.row.verifiedAt }),
    lastCheckedAt: t.field({ type: 'DateTime', nullable: true, description: 'the last verify call', resolve: (d) => d.row.lastCheckedAt }),
    lastCheckError: t.string({ nullable: true, description: 'why the last check did not find the record; null after a successful one', resolve: (d) => d.row.lastCheckError }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.row.createdAt }),
  }),
});

const MailDomainPageRef = pageType('MailDomainPage', MailDomainRef);

const CreateMailDomainInput = builder.inputType('CreateMailDomainInput', {
  fields: (t) => ({ domain: t.string({ required: true, description: 'e.g. example.org; stored lower case in ASCII form' }) }),
});

const item = (row: TeamMailDomain): DomainItem => ({ row });

builder.queryFields((t) => ({
  mailDomains: t.field({
    type: MailDomainPageRef,
    description: "The team's mail domains, oldest first. Privileged (OUTGOING_MESSAGES_SEND edit).",
    authScopes: MANAGE_SENDERS,
    args: pageArgs(t.arg),
    resolve: withArgs(async (ctx, args: Parameters<typeof listMailDomains>[1]) => {
      const page = await listMailDomains(ctx, args);
      return { nodes: page.nodes.map(item), pagination: page.pagination };
    }),
  }),
}));

builder.mutationFields((t) => ({
  createMailDomain: t.field({
    type: MailDomainRef,
    description: 'Adds a domain (PENDING) and answers the TXT record to publish. The same domain twice: 409. Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: MANAGE_SENDERS,
    args: { input: t.arg({ type: CreateMailDomainInput, required: true }) },
    resolve: async (_root, args, ctx) => item(await createMailDomain(ctx, givenFields(args.input))),
  }),
  verifyMailDomain: t.field({
    type: MailDomainRef,
    description: 'Looks the TXT record up now: VERIFIED, or still PENDING with lastCheckError saying why. Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: MANAGE_SENDERS,
    ...byId(t.arg, 'mailDomainSimplyId', async (ctx, id) => item(await verifyMailDomain(ctx, id))),
  }),
  deleteMailDomain: t.boolean({
    description: 'Removes the domain; 409 while active senders use it. Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: MANAGE_SENDERS,
    ...byId(t.arg, 'mailDomainSimplyId', deleteMailDomain),
  }),
}));
