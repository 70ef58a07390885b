// /v1/messages and /v1/outgoing-messages → src/modules/outgoing-messages/outgoing-messages.schema.ts;
// /v1/message-settings → message-settings.schema.ts (docs/api/outgoing-messages.md).
import { z } from 'zod';
import {
  MESSAGE,
  MESSAGE_SETTINGS,
  MESSAGE_STATUS,
  OUTGOING_MESSAGE,
  OUTGOING_MESSAGE_STATS,
  OUTGOING_MESSAGE_SUMMARY,
  SEND_READINESS,
  TEST_SEND_RESULT,
} from '../../src/modules/outgoing-messages/outgoing-messages.fragments.ts';
import {
  createOutgoingMessageInput,
  DELIVERY_METHODS,
  MESSAGE_STATUSES,
  messageSettingsInput,
  setOutgoingMessageStatusInput,
  testSendInput,
  updateOutgoingMessageInput,
} from '../../src/modules/outgoing-messages/outgoing-messages.input.ts';
import { defineRoutes, type RouteExtension } from '../route.ts';
import { createOne, getOne, listPage, updateOne } from '../route-shapes.ts';

const READ = 'OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND';
const COMPOSE = 'privileged: OUTGOING_MESSAGES_SEND edit';
const MESSAGES = '/v1/messages';
const MESSAGE_ID = `${MESSAGES}/{messageSimplyId}`;
const OUTGOING = '/v1/outgoing-messages';
const ONE = `${OUTGOING}/{outgoingMessageSimplyId}`;

const statusFilter = { type: 'String', schema: z.string().optional().describe(`only messages in this status: ${MESSAGE_STATUSES.join(', ')}`) };
const channelFilter = { type: 'String', schema: z.string().optional().describe(`only messages of this channel: ${DELIVERY_METHODS.join(', ')}`) };

const APPROVAL_SETTING = 'the team\'s approval setting for composed messages (docs/api/outgoing-messages.md "Approval setting"): the documents name approval but no route to turn it on';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'GET /v1/message-settings': { reason: APPROVAL_SETTING },
  'PUT /v1/message-settings': { reason: APPROVAL_SETTING },
};

export const outgoingMessageRoutes = defineRoutes([
  listPage({
    path: MESSAGES,
    summary: 'List messages',
    description: `The team's messages, newest first (${READ}): status, deliveryMethod, limit, offset`,
    name: 'Messages',
    // the standard read of the composer's messages: the same field as /v1/outgoing-messages, a smaller selection
    field: 'outgoingMessages',
    select: MESSAGE,
    filters: { status: statusFilter, deliveryMethod: channelFilter },
  }),
  getOne({ path: MESSAGE_ID, summary: 'Get a message', description: `One message (${READ})`, name: 'Message', field: 'outgoingMessage', arg: 'outgoingMessageSimplyId', select: MESSAGE }),
  getOne({
    path: `${MESSAGE_ID}/status`,
    summary: "Get a message's delivery status",
    description: `Status and delivery counts (totalRecipients, delivered, bounced, complained), counted now: they keep changing after sending (${READ})`,
    name: 'MessageStatus',
    select: MESSAGE_STATUS,
  }),
  listPage({
    path: OUTGOING,
    summary: 'List outgoing messages',
    description: `The team's outgoing messages, newest first (${READ}): status, deliveryMethod, limit, offset`,
    name: 'OutgoingMessages',
    select: OUTGOING_MESSAGE_SUMMARY,
    filters: { status: statusFilter, deliveryMethod: channelFilter },
  }),
  listPage({
    path: `${OUTGOING}/sent`,
    summary: 'List sent outgoing messages',
    description: `The team's SENT messages, most recently sent first (${READ}): deliveryMethod, limit, offset`,
    name: 'SentOutgoingMessages',
    select: OUTGOING_MESSAGE_SUMMARY,
    filters: { deliveryMethod: channelFilter },
  }),
  createOne({
    path: OUTGOING,
    summary: 'Create an outgoing message',
    description: `Compose a DRAFT (${COMPOSE}): { internalName, subjectLine?, deliveryMethod?, contentType?, textContent?, htmlContent?, messageSenderSimplyId?, outgoingMessageTemplateSimplyId?, recipients?, scheduledAt? }; a template fills deliveryMethod, contentType, subjectLine and the bodies left out`,
    name: 'CreateOutgoingMessage',
    inputType: 'CreateOutgoingMessageInput',
    body: createOutgoingMessageInput,
    example: {
      internalName: 'Spring newsletter 2027',
      subjectLine: 'Spring is here',
      deliveryMethod: 'EMAIL',
      contentType: 'HTML',
      htmlContent: '<p>Dear {{first_name}}, spring is here.</p>',
      messageSenderSimplyId: 'msn-AB23-CD45-EF67',
      recipients: { dataCollectionSimplyId: 'GH89-JK23-MN45', dataViewSimplyId: 'view-AB23-CD45-EF67', emailFieldSimplyId: 'fld-GH89-JK23-MN45' },
    },
    select: OUTGOING_MESSAGE,
  }),
  getOne({ path: ONE, summary: 'Get an outgoing message', description: `One message with its content, sender and recipients (${READ})`, name: 'OutgoingMessage', select: OUTGOING_MESSAGE }),
  updateOne({
    method: 'PUT',
    path: ONE,
    summary: 'Update an outgoing message',
    description: `Change a DRAFT (${COMPOSE}): any create field; left out stays, null clears; outgoingMessageTemplateSimplyId only links (null unlinks); not a DRAFT: 409 MESSAGE_NOT_EDITABLE`,
    name: 'UpdateOutgoingMessage',
    inputType: 'UpdateOutgoingMessageInput',
    body: updateOutgoingMessageInput,
    example: { subjectLine: 'Spring is finally here', scheduledAt: '2030-03-20T08:00:00Z' },
    select: OUTGOING_MESSAGE,
  }),
  updateOne({
    method: 'PUT',
    path: `${ONE}/status`,
    summary: "Change an outgoing message's status",
    description: `Move the message (${COMPOSE}): { status, scheduledAt? }; a move the transition table lacks: 409 INVALID_STATUS_TRANSITION`,
    name: 'SetOutgoingMessageStatus',
    inputType: 'SetOutgoingMessageStatusInput',
    body: setOutgoingMessageStatusInput,
    example: { status: 'SCHEDULED', scheduledAt: '2030-03-20T08:00:00Z' },
    select: OUTGOING_MESSAGE,
  }),
  getOne({ path: `${ONE}/stats`, summary: 'Get outgoing message stats', description: `Recipients per delivery state, and rates (${READ})`, name: 'OutgoingMessageStats', select: OUTGOING_MESSAGE_STATS }),
  getOne({
    path: `${ONE}/send-readiness`,
    summary: 'Check send readiness',
    description: `Whether it can be scheduled or sent: { ready, blockers[], warnings[], estimatedRecipients } (${COMPOSE})`,
    name: 'OutgoingMessageSendReadiness',
    select: SEND_READINESS,
  }),
  updateOne({
    method: 'POST',
    path: `${ONE}/test-send`,
    summary: 'Send a test message',
    description: `Mail a rendered copy marked as a test now (${COMPOSE}): { to: [1-5 addresses], dataRecordSimplyId? }; answers the mail ids`,
    name: 'TestSendOutgoingMessage',
    inputType: 'TestSendOutgoingMessageInput',
    body: testSendInput,
    example: { to: ['editor@example.org'], dataRecordSimplyId: 'QR67-ST89-UV23' },
    select: TEST_SEND_RESULT,
  }),
  getOne({ path: '/v1/message-settings', summary: 'Get message settings', description: "The team's messaging settings: { approvalRequired } (team admin or TEAM_SETTINGS view)", name: 'MessageSettings', select: MESSAGE_SETTINGS }),
  updateOne({
    method: 'PUT',
    path: '/v1/message-settings',
    summary: 'Update message settings',
    description: 'Change the messaging settings (team admin or TEAM_SETTINGS edit): { approvalRequired }',
    name: 'UpdateMessageSettings',
    inputType: 'MessageSettingsInput',
    body: messageSettingsInput,
    example: { approvalRequired: true },
    select: MESSAGE_SETTINGS,
  }),
], EXTENSIONS);
