// GraphQL face of message senders (docs/api/messages.md "Senders and mail domains"). REST:
// rest-adapter/routes/messages.ts. Reading: standard tier with OUTGOING_MESSAGES_VIEW or
// OUTGOING_MESSAGES_SEND (view level is enough); managing: privileged, OUTGOING_MESSAGES_SEND edit.
import type { MessageSender } from '../../generated/prisma/client.ts';
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, patchById, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { MANAGE_SENDERS } from './mail-domains.schema.ts';
import { MESSAGE_SENDER_LIMITS } from './message-senders.input.ts';
import { createMessageSender, deleteMessageSender, listMessageSenders, resendSenderVerification, updateMessageSender } from './message-senders.service.ts';
import { senderIsVerified } from './sender-verification.ts';
import { MessageDeliveryMethodEnum } from './message-templates.schema.ts';

/**
 * The standard tier with either feature: `$any` of the two standardFeature tiers (tiers.ts), each
 * checking the team itself, so a caller without a credential or team is told that (401, 400).
 */
const READ_SENDERS = {
  $any: {
    ...tier.standardFeature('OUTGOING_MESSAGES_VIEW', 'VIEW'),
    $any: tier.standardFeature('OUTGOING_MESSAGES_SEND', 'VIEW'),
  },
} as const;

type SenderItem = { row: MessageSender };

const SenderVerificationStatusEnum = builder.enumType('SenderVerificationStatus', {
  description: 'PENDING until the address is confirmed by its link (or its domain is verified); only a VERIFIED sender can send.',
  values: ['PENDING', 'VERIFIED'] as const,
});

const MessageSenderRef = builder.objectRef<SenderItem>('MessageSender').implement({
  description: 'Who messages come from: a name and an address (EMAIL) of a verified domain, or confirmed by a link mailed to it.',
  fields: (t) => ({
    ...simplyIdFields(t, 'messageSenderSimplyId'),
    name: t.string({ description: 'the display name of the From header', resolve: (s) => s.row.name }),
    deliveryMethod: t.field({ type: MessageDeliveryMethodEnum, resolve: (s) => s.row.deliveryMethod as never }),
    emailAddress: t.string({ nullable: true, description: 'EMAIL senders', resolve: (s) => s.row.emailAddress }),
    phoneNumber: t.string({ nullable: true, description: 'SMS and WhatsApp senders (none yet)', resolve: (s) => s.row.phoneNumber }),
    isDefault: t.boolean({ description: "the channel's default sender (exactly one while the channel has any)", resolve: (s) => s.row.isDefault }),
    verificationStatus: t.field({
      type: SenderVerificationStatusEnum,
      description: 'VERIFIED: on a verified (or operator pre-verified) domain, or its address confirmed; PENDING: waiting for the confirmation link',
      resolve: (s, _args, ctx) => (senderIsVerified(ctx.services.config, s.row) ? 'VERIFIED' : 'PENDING'),
    }),
    verifiedAt: t.field({ type: 'DateTime', nullable: true, description: 'when it became verified; null while PENDING', resolve: (s) => s.row.verifiedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.row.updatedAt }),
  }),
});

const MessageSenderPageRef = pageType('MessageSenderPage', MessageSenderRef);

// strings and booleans rather than enums and literals, so a wrong value is the documented 400 naming the field on both faces
const CreateMessageSenderInput = builder.inputType('CreateMessageSenderInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: `1-${MESSAGE_SENDER_LIMITS.name} characters, one line` }),
    deliveryMethod: t.string({ description: 'EMAIL (the default; the only channel with senders so far)' }),
    emailAddress: t.string({ required: true, description: 'on a VERIFIED mail domain of the team: verified at once; any other: PENDING until confirmed by the link mailed to it' }),
    isDefault: t.boolean({ description: "true: becomes the channel's default (the first sender always does)" }),
  }),
});

const UpdateMessageSenderInput = builder.inputType('UpdateMessageSenderInput', {
  description: 'Fields left out stay as they are. isDefault takes only true (make another sender the default to move it).',
  fields: (t) => ({
    name: t.string(),
    isDefault: t.boolean(),
  }),
});

const item = (row: MessageSender): SenderItem => ({ row });

builder.queryFields((t) => ({
  messageSenders: t.field({
    type: MessageSenderPageRef,
    description: "The team's active senders, oldest first (OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND).",
    authScopes: READ_SENDERS,
    args: { ...pageArgs(t.arg), deliveryMethod: t.arg.string() },
    resolve: withArgs(async (ctx, args: Parameters<typeof listMessageSenders>[1]) => {
      const page = await listMessageSenders(ctx, args);
      return { nodes: page.nodes.map(item), pagination: page.pagination };
    }),
  }),
}));

builder.mutationFields((t) => ({
  createMessageSender: t.field({
    type: MessageSenderRef,
    description: 'An EMAIL sender: VERIFIED on a verified domain of the team, else PENDING with a confirmation link mailed to the address. Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: MANAGE_SENDERS,
    args: { input: t.arg({ type: CreateMessageSenderInput, required: true }) },
    resolve: async (_root, args, ctx) => item(await createMessageSender(ctx, givenFields(args.input))),
  }),
  updateMessageSender: t.field({
    type: MessageSenderRef,
    description: 'Rename, or make it the default of its channel. Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: MANAGE_SENDERS,
    ...patchById(t.arg, 'messageSenderSimplyId', UpdateMessageSenderInput, async (ctx, id, input) => item(await updateMessageSender(ctx, id, input))),
  }),
  resendMessageSenderVerification: t.field({
    type: MessageSenderRef,
    description: 'Mails a new confirmation link to a PENDING sender (the previous one stops working); verified: 409; within a minute of the last: 429. Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: MANAGE_SENDERS,
    ...byId(t.arg, 'messageSenderSimplyId', async (ctx, id) => item(await resendSenderVerification(ctx, id))),
  }),
  deleteMessageSender: t.boolean({
    description: 'Archives the sender (again: 404); a default hands over to the oldest remaining sender. Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: MANAGE_SENDERS,
    ...byId(t.arg, 'messageSenderSimplyId', deleteMessageSender),
  }),
}));
