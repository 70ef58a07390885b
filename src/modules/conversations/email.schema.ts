// The email channel's GraphQL (docs/api/conversations.md "Email"): the attachments an inbound mail
// carried, on every message (empty for the others), and the team's email addresses.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { ConversationMessageRef } from './conversations.schema.ts';
import { ATTACHMENT_STATUSES, messageAttachments, teamEmailAddresses, type AttachmentView, type EmailAddresses } from './email.service.ts';

const TABLE_READ = tier.standardScopedFeature('conversations:read', 'DATA_CONVERSATIONS_VIEW', 'VIEW');

const AttachmentStatusEnum = builder.enumType('ConversationAttachmentStatus', { values: ATTACHMENT_STATUSES });

const AttachmentRef = builder.objectRef<AttachmentView>('ConversationMessageAttachment').implement({
  description: 'A file an inbound email carried. It is inspected and scanned like any upload before it becomes a file of the team.',
  fields: (t) => ({
    filename: t.string({ resolve: (a) => a.filename }),
    contentType: t.string({ description: 'as the mail declared it', resolve: (a) => a.contentType }),
    sizeBytes: t.int({ resolve: (a) => a.sizeBytes }),
    status: t.field({ type: AttachmentStatusEnum, description: 'PENDING while inspected, STORED (fileSimplyId set), REJECTED (reason)', resolve: (a) => a.status }),
    fileSimplyId: t.string({ nullable: true, description: 'the team file, once inspected and stored', resolve: (a) => a.fileSimplyId }),
    reason: t.string({
      nullable: true,
      description: 'why it was not stored: UNSUPPORTED_TYPE, TOO_LARGE, TOO_MANY, or the inspection’s rejection (MALWARE_DETECTED, …)',
      resolve: (a) => a.reason,
    }),
  }),
});

builder.objectField(ConversationMessageRef, 'attachments', (t) =>
  t.field({
    type: [AttachmentRef],
    description: 'the files an inbound email carried (empty for other messages)',
    resolve: (m, _args, ctx) => messageAttachments(ctx, m),
  }),
);

const EmailAddressesRef = builder.objectRef<EmailAddresses>('ConversationEmailAddresses').implement({
  description: 'Where mail reaches the team’s conversations.',
  fields: (t) => ({
    inboundAddress: t.string({ description: 'inbox+<key>@<domain>: mail to it that continues no conversation starts a new EMAIL conversation', resolve: (a) => a.inboundAddress }),
    domain: t.string({ description: 'the inbound mail domain (INBOUND_MAIL_DOMAIN); each conversation’s reply address is reply+<token>@ it', resolve: (a) => a.domain }),
  }),
});

builder.queryFields((t) => ({
  conversationEmailAddresses: t.field({
    type: EmailAddressesRef,
    description: 'The team’s inbound email address and the domain of conversation reply addresses.',
    authScopes: TABLE_READ,
    resolve: (_root, _args, ctx) => teamEmailAddresses(ctx),
  }),
}));
