// GraphQL face of outgoing messages (docs/api/outgoing-messages.md). REST:
// rest-adapter/routes/outgoing-messages.ts. Reading: the standard tier with OUTGOING_MESSAGES_VIEW
// or OUTGOING_MESSAGES_SEND (view level is enough); composing, readiness, status moves and test
// sends: privileged, OUTGOING_MESSAGES_SEND edit (session and OAuth tokens never).
import type { MessageSender, OutgoingMessage, OutgoingMessageTemplate } from '../../generated/prisma/client.ts';
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, patchById, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { MessageDeliveryMethodEnum } from '../messages/index.ts';
import { createOutgoingMessage, updateOutgoingMessage } from './composer.service.ts';
import { CONTENT_TYPES, MESSAGE_STATUSES, OUTGOING_MESSAGE_LIMITS } from './outgoing-messages.input.ts';
import {
  findMessage,
  listOutgoingMessages,
  listSentMessages,
  messageStats,
  messageStatus,
  recipientsOf,
  senderOf,
  templateOf,
  type MessageStats,
  type MessageStatusAggregate,
} from './outgoing-messages.service.ts';
import type { SelectionView } from './recipient-selection.ts';
import { sendReadiness, type ReadinessItem, type SendReadiness } from './send-readiness.ts';
import { setOutgoingMessageStatus } from './status-moves.ts';
import { testSendOutgoingMessage, type TestSendResult } from './test-send.ts';

/** The standard tier with either feature (the pattern of message-senders.schema.ts). */
export const READ_MESSAGES = {
  $any: {
    ...tier.standardFeature('OUTGOING_MESSAGES_VIEW', 'VIEW'),
    $any: tier.standardFeature('OUTGOING_MESSAGES_SEND', 'VIEW'),
  },
} as const;

export const COMPOSE = tier.privileged('OUTGOING_MESSAGES_SEND', 'EDIT');

type MessageItem = { row: OutgoingMessage };
const item = (row: OutgoingMessage): MessageItem => ({ row });

export const OutgoingMessageStatusEnum = builder.enumType('OutgoingMessageStatus', { values: MESSAGE_STATUSES });
const MessageContentTypeEnum = builder.enumType('MessageContentType', { values: CONTENT_TYPES });

const OutgoingMessageSenderRef = builder.objectRef<MessageSender>('OutgoingMessageSender').implement({
  description: 'The sender a message names (GET /v1/message-senders lists the team\'s senders).',
  fields: (t) => ({
    id: t.string({ description: 'the messageSenderSimplyId', resolve: (s) => s.simplyId }),
    name: t.string({ resolve: (s) => s.name }),
    emailAddress: t.string({ nullable: true, resolve: (s) => s.emailAddress }),
    archived: t.boolean({ description: 'deleted since it was chosen: sending is blocked until another is chosen', resolve: (s) => s.archivedAt !== null }),
  }),
});

const OutgoingMessageTemplateLinkRef = builder.objectRef<OutgoingMessageTemplate>('OutgoingMessageTemplateLink').implement({
  description: 'The message template a message was started from or linked to (GET /v1/outgoing-message-templates/{id} has the whole template).',
  fields: (t) => ({
    id: t.string({ description: 'the outgoingMessageTemplateSimplyId', resolve: (m) => m.simplyId }),
    name: t.string({ resolve: (m) => m.name }),
    archived: t.boolean({ description: 'archived since it was linked: the message keeps the link; it cannot be linked anew', resolve: (m) => m.archivedAt !== null }),
  }),
});

const OutgoingMessageRecipientsRef = builder.objectRef<SelectionView>('OutgoingMessageRecipients').implement({
  description: 'Who receives the message: records of a collection, narrowed by a view and filters, at the address in an email field.',
  fields: (t) => ({
    dataCollectionSimplyId: t.string({ nullable: true, description: 'null if the collection was deleted since', resolve: (s) => s.dataCollectionSimplyId }),
    dataViewSimplyId: t.string({ nullable: true, resolve: (s) => s.dataViewSimplyId }),
    filters: t.field({ type: 'JSON', description: '[{ field, operator, value }] in the record-search filter language, AND-ed', resolve: (s) => s.filters }),
    emailFieldSimplyId: t.string({ nullable: true, description: 'the EMAIL_ADDRESS field holding each recipient\'s address', resolve: (s) => s.emailFieldSimplyId }),
  }),
});

export const OutgoingMessageRef = builder.objectRef<MessageItem>('OutgoingMessage').implement({
  description: 'A one-to-many message the team composes, approves, schedules and sends.',
  fields: (t) => ({
    ...simplyIdFields(t, 'outgoingMessageSimplyId'),
    internalName: t.string({ description: 'the team\'s own name for the message; recipients never see it', resolve: (m) => m.row.internalName }),
    subjectLine: t.string({ nullable: true, description: 'EMAIL only; may hold merge tags', resolve: (m) => m.row.subjectLine }),
    deliveryMethod: t.field({ type: MessageDeliveryMethodEnum, resolve: (m) => m.row.deliveryMethod as never }),
    contentType: t.field({ type: MessageContentTypeEnum, description: 'which body is the message: htmlContent (HTML) or textContent (PLAIN_TEXT)', resolve: (m) => m.row.contentType as never }),
    textContent: t.string({ nullable: true, description: 'the plain-text body (the text version of an HTML message); merge tags', resolve: (m) => m.row.textContent }),
    htmlContent: t.string({ nullable: true, description: 'the HTML body; merge tags (values are escaped)', resolve: (m) => m.row.htmlContent }),
    sender: t.field({ type: OutgoingMessageSenderRef, nullable: true, description: 'null: the team\'s default EMAIL sender when it is sent', resolve: (m, _a, ctx) => senderOf(ctx, m.row) }),
    template: t.field({ type: OutgoingMessageTemplateLinkRef, nullable: true, description: 'the message template it was started from or linked to; null when none', resolve: (m, _a, ctx) => templateOf(ctx, m.row) }),
    recipients: t.field({ type: OutgoingMessageRecipientsRef, nullable: true, description: 'null until recipients are chosen', resolve: (m, _a, ctx) => recipientsOf(ctx, m.row) }),
    status: t.field({ type: OutgoingMessageStatusEnum, resolve: (m) => m.row.status as never }),
    scheduledAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.row.scheduledAt }),
    sendStartedAt: t.field({ type: 'DateTime', nullable: true, description: 'when it entered SENDING', resolve: (m) => m.row.sendStartedAt }),
    sentAt: t.field({ type: 'DateTime', nullable: true, description: 'when every recipient had been handed to the mail transport', resolve: (m) => m.row.sentAt }),
    approvedAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.row.approvedAt }),
    approvedBy: t.string({ nullable: true, description: 'the credential that approved it (user or API key simplyId)', resolve: (m) => m.row.approvedById }),
    errorMessage: t.string({ nullable: true, description: 'why it is ERROR_SENDING', resolve: (m) => m.row.errorMessage }),
    totalRecipients: t.int({ description: 'recipients resolved when sending started (0 before)', resolve: (m) => m.row.totalRecipients }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (m) => m.row.updatedAt }),
  }),
});

const OutgoingMessagePageRef = pageType('OutgoingMessagePage', OutgoingMessageRef);

const MessageStatusRef = builder.objectRef<MessageStatusAggregate>('MessageStatusSummary').implement({
  description: 'A message\'s status and its recipients\' delivery counts, counted now (they keep changing after sending).',
  fields: (t) => ({
    status: t.field({ type: OutgoingMessageStatusEnum, resolve: (s) => s.status as never }),
    totalRecipients: t.exposeInt('totalRecipients'),
    delivered: t.exposeInt('delivered', { description: 'accepted by the receiving mail server and not bounced since (SENT and DELIVERED)' }),
    bounced: t.exposeInt('bounced'),
    complained: t.exposeInt('complained'),
  }),
});

const statsFields = ['totalRecipients', 'pending', 'queued', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'attempted'] as const;
const MessageStatsRef = builder.objectRef<MessageStats>('OutgoingMessageStats').implement({
  description: 'Recipients per delivery state, and rates over the recipients handed to the mail transport (attempted).',
  fields: (t) => ({
    ...(Object.fromEntries(statsFields.map((f) => [f, t.exposeInt(f)])) as Record<(typeof statsFields)[number], ReturnType<typeof t.exposeInt>>),
    deliveryRate: t.exposeFloat('deliveryRate', { description: '(sent + delivered) / attempted, 0-1, 4 decimals; 0 when nothing was attempted' }),
    bounceRate: t.exposeFloat('bounceRate', { description: 'bounced / attempted' }),
    complaintRate: t.exposeFloat('complaintRate', { description: 'complained / attempted' }),
  }),
});

const ReadinessItemRef = builder.objectRef<ReadinessItem>('OutgoingMessageReadinessItem').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

const SendReadinessRef = builder.objectRef<SendReadiness>('OutgoingMessageSendReadiness').implement({
  description: 'Whether the message can be scheduled or sent now: blockers stop it, warnings do not.',
  fields: (t) => ({
    ready: t.exposeBoolean('ready'),
    blockers: t.field({ type: [ReadinessItemRef], resolve: (r) => r.blockers }),
    warnings: t.field({ type: [ReadinessItemRef], resolve: (r) => r.warnings }),
    estimatedRecipients: t.int({ nullable: true, description: 'distinct addresses it would go to now, suppressed ones left out', resolve: (r) => r.estimatedRecipients }),
  }),
});

const TestSendRef = builder.objectRef<TestSendResult>('OutgoingMessageTestSend').implement({
  fields: (t) => ({ mailSimplyIds: t.stringList({ description: 'one mail per address, in the order given (GET /v1/mail-messages/{id})', resolve: (r) => r.mailSimplyIds }) }),
});

const RecipientsInput = builder.inputType('OutgoingMessageRecipientsInput', {
  fields: (t) => ({
    dataCollectionSimplyId: t.string({ description: 'required: the collection whose records receive the message' }),
    dataViewSimplyId: t.string({ description: 'a data view of that collection: its saved filters apply too' }),
    filters: t.field({ type: 'JSON', description: '[{ field, operator, value }], at most 25, AND-ed (the record-search filter language)' }),
    emailFieldSimplyId: t.string({ description: 'the EMAIL_ADDRESS field holding the address' }),
  }),
});


// strings rather than enums and date-times, so a wrong value is the documented 400 naming the field on both faces
const CreateOutgoingMessageInput = builder.inputType('CreateOutgoingMessageInput', {
  fields: (t) => ({
    internalName: t.string({ required: true, description: `1-${OUTGOING_MESSAGE_LIMITS.internalName} characters` }),
    subjectLine: t.string({ description: `EMAIL only; one line of at most ${OUTGOING_MESSAGE_LIMITS.subjectLine} characters; merge tags` }),
    deliveryMethod: t.string({ description: 'EMAIL, SMS, WHATSAPP, FACEBOOK; default: the template\'s, else EMAIL' }),
    contentType: t.string({ description: 'HTML or PLAIN_TEXT; default: the template\'s designFormat, else HTML' }),
    textContent: t.string(),
    htmlContent: t.string(),
    messageSenderSimplyId: t.string({ description: 'default: the team\'s default sender of the channel, when sending' }),
    outgoingMessageTemplateSimplyId: t.string({ description: 'an active message template of the team and channel; fills deliveryMethod, contentType, subjectLine, htmlContent (with its preheader) and textContent left out' }),
    recipients: t.field({ type: RecipientsInput }),
    scheduledAt: t.string({ description: 'ISO 8601, in the future' }),
  }),
});

const UpdateOutgoingMessageInput = builder.inputType('UpdateOutgoingMessageInput', {
  description: 'DRAFT only. Fields left out stay as they are; null clears; recipients is replaced whole.',
  fields: (t) => ({
    internalName: t.string(),
    subjectLine: t.string(),
    deliveryMethod: t.string(),
    contentType: t.string(),
    textContent: t.string(),
    htmlContent: t.string(),
    messageSenderSimplyId: t.string(),
    outgoingMessageTemplateSimplyId: t.string({ description: 'links the template (copies nothing); null unlinks' }),
    recipients: t.field({ type: RecipientsInput }),
    scheduledAt: t.string(),
  }),
});

const SetStatusInput = builder.inputType('SetOutgoingMessageStatusInput', {
  fields: (t) => ({
    status: t.string({ required: true, description: 'the status to move to (docs: "Status moves")' }),
    scheduledAt: t.string({ description: 'with SCHEDULED: when to send (ISO 8601, in the future)' }),
  }),
});

const TestSendInput = builder.inputType('TestSendOutgoingMessageInput', {
  fields: (t) => ({
    to: t.stringList({ description: `1-${OUTGOING_MESSAGE_LIMITS.testRecipients} addresses` }),
    dataRecordSimplyId: t.string({ description: 'a record of the recipients\' collection whose values fill the merge tags' }),
  }),
});


builder.queryFields((t) => ({
  messageStatus: t.field({
    type: MessageStatusRef,
    description: 'Status and delivery counts, counted now (OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND).',
    authScopes: READ_MESSAGES,
    ...byId(t.arg, 'messageSimplyId', messageStatus),
  }),
  outgoingMessages: t.field({
    type: OutgoingMessagePageRef,
    description: "The team's outgoing messages, newest first (OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND).",
    authScopes: READ_MESSAGES,
    args: { ...pageArgs(t.arg), status: t.arg.string(), deliveryMethod: t.arg.string() },
    resolve: withArgs(async (ctx, args: Parameters<typeof listOutgoingMessages>[1]) => {
      const page = await listOutgoingMessages(ctx, args);
      return { nodes: page.nodes.map(item), pagination: page.pagination };
    }),
  }),
  sentOutgoingMessages: t.field({
    type: OutgoingMessagePageRef,
    description: "The team's SENT messages, most recently sent first (OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND).",
    authScopes: READ_MESSAGES,
    args: { ...pageArgs(t.arg), deliveryMethod: t.arg.string() },
    resolve: withArgs(async (ctx, args: Parameters<typeof listSentMessages>[1]) => {
      const page = await listSentMessages(ctx, args);
      return { nodes: page.nodes.map(item), pagination: page.pagination };
    }),
  }),
  outgoingMessage: t.field({
    type: OutgoingMessageRef,
    description: 'One outgoing message with its content, sender and recipients (OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND).',
    authScopes: READ_MESSAGES,
    ...byId(t.arg, 'outgoingMessageSimplyId', async (ctx, id) => item(await findMessage(ctx, id))),
  }),
  outgoingMessageStats: t.field({
    type: MessageStatsRef,
    description: 'Recipients per delivery state and rates (OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND).',
    authScopes: READ_MESSAGES,
    ...byId(t.arg, 'outgoingMessageSimplyId', messageStats),
  }),
  outgoingMessageSendReadiness: t.field({
    type: SendReadinessRef,
    description: 'Blockers and warnings before scheduling or sending. Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: COMPOSE,
    ...byId(t.arg, 'outgoingMessageSimplyId', sendReadiness),
  }),
}));

builder.mutationFields((t) => ({
  createOutgoingMessage: t.field({
    type: OutgoingMessageRef,
    description: 'A new DRAFT. Privileged (OUTGOING_MESSAGES_SEND edit); recipients also need read access to the collection.',
    authScopes: COMPOSE,
    args: { input: t.arg({ type: CreateOutgoingMessageInput, required: true }) },
    resolve: async (_root, args, ctx) => item(await createOutgoingMessage(ctx, givenFields(args.input))),
  }),
  updateOutgoingMessage: t.field({
    type: OutgoingMessageRef,
    description: 'Change a DRAFT (else 409 MESSAGE_NOT_EDITABLE). Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: COMPOSE,
    ...patchById(t.arg, 'outgoingMessageSimplyId', UpdateOutgoingMessageInput, async (ctx, id, input) => item(await updateOutgoingMessage(ctx, id, input))),
  }),
  setOutgoingMessageStatus: t.field({
    type: OutgoingMessageRef,
    description: 'Move the message (submit, approve, withdraw, schedule, send, cancel). Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: COMPOSE,
    args: { outgoingMessageSimplyId: t.arg.string({ required: true }), input: t.arg({ type: SetStatusInput, required: true }) },
    resolve: async (_root, args, ctx) => item(await setOutgoingMessageStatus(ctx, args.outgoingMessageSimplyId, givenFields(args.input))),
  }),
  testSendOutgoingMessage: t.field({
    type: TestSendRef,
    description: 'Mail a rendered copy, marked as a test, to up to five addresses now. Privileged (OUTGOING_MESSAGES_SEND edit).',
    authScopes: COMPOSE,
    args: { outgoingMessageSimplyId: t.arg.string({ required: true }), input: t.arg({ type: TestSendInput, required: true }) },
    resolve: (_root, args, ctx) => testSendOutgoingMessage(ctx, args.outgoingMessageSimplyId, givenFields(args.input)),
  }),
}));
