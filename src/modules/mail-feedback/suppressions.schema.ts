// GraphQL face of the suppression list (docs/api/mail-feedback.md "Suppression list"). REST:
// rest-adapter/routes/mail-feedback.ts. Privileged (never a session or OAuth token) with
// OUTGOING_MESSAGES_SEND, the feature of sending: view to read the list, edit to change it.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageArgs, withArgs } from '../../app/graphql/args.ts';
import { pageType } from '../../app/graphql/page.ts';
import { SUPPRESSION_LIMITS, SUPPRESSION_REASONS } from './suppressions.input.ts';
import { addSuppression, listSuppressions, removeSuppression, type ListSuppressionsArgs, type Suppression } from './suppressions.service.ts';

const FEATURE = 'OUTGOING_MESSAGES_SEND';

export const MessageSuppressionReasonEnum = builder.enumType('MessageSuppressionReason', {
  values: {
    UNSUBSCRIBED: { description: "the recipient used the message's one-click unsubscribe" },
    HARD_BOUNCE: { description: 'the receiving server reported a permanent failure (5.x.x)' },
    COMPLAINT: { description: 'the recipient marked the message as spam' },
    MANUAL: { description: 'added by a team member' },
  } satisfies Record<(typeof SUPPRESSION_REASONS)[number], unknown>,
});

export const MessageSuppressionRef = builder.objectRef<Suppression>('MessageSuppression').implement({
  description: 'An address the team does not mail: the composer skips it (recipient state SUPPRESSED).',
  fields: (t) => ({
    address: t.exposeString('address', { description: 'lower-cased' }),
    reason: t.field({ type: MessageSuppressionReasonEnum, resolve: (s) => s.reason as never }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
    mailSimplyId: t.exposeString('mailSimplyId', { nullable: true, description: 'the mail the feedback was about (GET /v1/mail-messages/{mailSimplyId}); null for MANUAL' }),
    outgoingMessageSimplyId: t.exposeString('outgoingMessageSimplyId', { nullable: true, description: 'the composed message that mail was sent for, if any' }),
  }),
});

const MessageSuppressionPageRef = pageType('MessageSuppressionPage', MessageSuppressionRef);

const MessageSuppressionAdditionRef = builder.objectRef<{ created: boolean; suppression: Suppression }>('MessageSuppressionAddition').implement({
  fields: (t) => ({
    created: t.exposeBoolean('created', { description: 'true: added now; false: the address was already on the list and stays as it was' }),
    suppression: t.field({ type: MessageSuppressionRef, resolve: (a) => a.suppression }),
  }),
});

const CreateMessageSuppressionInput = builder.inputType('CreateMessageSuppressionInput', {
  fields: (t) => ({
    address: t.string({ required: true, description: `an email address of at most ${SUPPRESSION_LIMITS.address} characters; stored lower-cased` }),
  }),
});

builder.queryFields((t) => ({
  messageSuppressions: t.field({
    type: MessageSuppressionPageRef,
    description: "The team's suppressed addresses, newest first (privileged: OUTGOING_MESSAGES_SEND view).",
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    args: {
      ...pageArgs(t.arg),
      search: t.arg.string({ description: 'text the address contains (case-insensitive)' }),
      // a string rather than the enum, so a wrong value is the documented 400 naming the argument on both faces
      reason: t.arg.string({ description: `only addresses suppressed for this reason: ${SUPPRESSION_REASONS.join(', ')}` }),
    },
    resolve: withArgs((ctx, args: ListSuppressionsArgs) => listSuppressions(ctx, args)),
  }),
}));

builder.mutationFields((t) => ({
  createMessageSuppression: t.field({
    type: MessageSuppressionAdditionRef,
    description: 'Add an address with reason MANUAL (privileged: OUTGOING_MESSAGES_SEND edit); one already on the list is answered as it is, created false.',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { input: t.arg({ type: CreateMessageSuppressionInput, required: true }) },
    resolve: (_root, args, ctx) => addSuppression(ctx, args.input),
  }),
  deleteMessageSuppression: t.boolean({
    description: 'Take an address off the list so it is mailed again (privileged: OUTGOING_MESSAGES_SEND edit); not on the list: 404.',
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { address: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => removeSuppression(ctx, args.address),
  }),
}));
