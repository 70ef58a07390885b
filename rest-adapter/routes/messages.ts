// /v1/message-templates → src/modules/messages/message-templates.schema.ts; /v1/message-senders →
// message-senders.schema.ts and mail-domains.schema.ts (docs/api/messages.md)
import { z } from 'zod';
import { createMessageTemplateInput, DELIVERY_METHODS, updateMessageTemplateInput } from '../../src/modules/messages/message-templates.input.ts';
import { createMailDomainInput } from '../../src/modules/messages/mail-domains.input.ts';
import { createMessageSenderInput, updateMessageSenderInput } from '../../src/modules/messages/message-senders.input.ts';
import { MAIL_DOMAIN, MESSAGE_SENDER, MESSAGE_TEMPLATE } from '../../src/modules/messages/messages.fragments.ts';
import { defineRoutes, type RouteExtension } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';
import { queryBool } from '../schemas.ts';

const ONE = '/v1/message-templates/{outgoingMessageTemplateSimplyId}';
const SENDERS = '/v1/message-senders';
const SENDER = `${SENDERS}/{messageSenderSimplyId}`;
const DOMAINS = `${SENDERS}/domains`;
const DOMAIN = `${DOMAINS}/{mailDomainSimplyId}`;
const MANAGE = 'privileged: OUTGOING_MESSAGES_SEND edit';

const SENDER_ADMIN = 'sender management and mail-domain verification (docs/api/messages.md "Senders and mail domains"): the route checklist names them privileged without routes';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'POST /v1/message-senders': { reason: SENDER_ADMIN },
  'PUT /v1/message-senders/{messageSenderSimplyId}': { reason: SENDER_ADMIN },
  'DELETE /v1/message-senders/{messageSenderSimplyId}': { reason: SENDER_ADMIN },
  'POST /v1/message-senders/{messageSenderSimplyId}/resend-verification': { reason: SENDER_ADMIN },
  'GET /v1/message-senders/domains': { reason: SENDER_ADMIN },
  'POST /v1/message-senders/domains': { reason: SENDER_ADMIN },
  'POST /v1/message-senders/domains/{mailDomainSimplyId}/verify': { reason: SENDER_ADMIN },
  'DELETE /v1/message-senders/domains/{mailDomainSimplyId}': { reason: SENDER_ADMIN },
};

export const messageRoutes = defineRoutes([
  listPage({
    path: '/v1/message-templates',
    summary: 'List message templates',
    description: "The team's message templates, newest first (OUTGOING_MESSAGES_TEMPLATES view): limit, offset, deliveryMethod, includeArchived",
    name: 'MessageTemplates',
    select: MESSAGE_TEMPLATE,
    filters: {
      deliveryMethod: { type: 'String', schema: z.string().optional().describe(`only templates of this channel: ${DELIVERY_METHODS.join(', ')}`) },
      includeArchived: { type: 'Boolean', schema: queryBool().describe('true adds archived templates (default false)') },
    },
  }),
  createOne({
    path: '/v1/message-templates',
    summary: 'Create a message template',
    description: 'Create a template (OUTGOING_MESSAGES_TEMPLATES edit): { name, description?, deliveryMethod?, subjectLine? (EMAIL only), designFormat? }',
    name: 'CreateMessageTemplate',
    inputType: 'CreateMessageTemplateInput',
    body: createMessageTemplateInput,
    example: { name: 'Monthly newsletter', description: 'The first-of-the-month update to members', deliveryMethod: 'EMAIL', subjectLine: 'News from {{city}}' },
    select: MESSAGE_TEMPLATE,
  }),
  getOne({ path: ONE, summary: 'Get a message template', description: 'One template, archived ones included (OUTGOING_MESSAGES_TEMPLATES view)', name: 'MessageTemplate', select: MESSAGE_TEMPLATE }),
  updateOne({
    method: 'PUT',
    path: ONE,
    summary: 'Update a message template',
    description: 'Update (OUTGOING_MESSAGES_TEMPLATES edit): any of name, description, subjectLine; fields left out stay, null clears; archived: 409',
    name: 'UpdateMessageTemplate',
    inputType: 'UpdateMessageTemplateInput',
    body: updateMessageTemplateInput,
    example: { subjectLine: 'This month at the club' },
    select: MESSAGE_TEMPLATE,
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Archive a message template', description: 'Archive a template (OUTGOING_MESSAGES_TEMPLATES edit); again: 404', name: 'DeleteMessageTemplate', field: 'deleteMessageTemplate' }),
  listPage({
    path: SENDERS,
    summary: 'List message senders',
    description: "The team's active senders, oldest first (OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND): limit, offset, deliveryMethod",
    name: 'MessageSenders',
    select: MESSAGE_SENDER,
    filters: { deliveryMethod: { type: 'String', schema: z.string().optional().describe(`only senders of this channel: ${DELIVERY_METHODS.join(', ')}`) } },
  }),
  createOne({
    path: SENDERS,
    summary: 'Create a message sender',
    description: `Create an EMAIL sender (${MANAGE}): { name, emailAddress, deliveryMethod? (EMAIL), isDefault? }; on a VERIFIED domain of the team it is VERIFIED, otherwise PENDING and a confirmation link is mailed to the address`,
    name: 'CreateMessageSender',
    inputType: 'CreateMessageSenderInput',
    body: createMessageSenderInput,
    example: { name: 'Riverside Club', emailAddress: 'news@riverside-club.org', isDefault: true },
    select: MESSAGE_SENDER,
  }),
  updateOne({
    method: 'PUT',
    path: SENDER,
    summary: 'Update a message sender',
    description: `Update a sender (${MANAGE}): name?, isDefault? (true only: becomes its channel's default, the previous one is cleared)`,
    name: 'UpdateMessageSender',
    inputType: 'UpdateMessageSenderInput',
    body: updateMessageSenderInput,
    example: { name: 'Riverside Club news', isDefault: true },
    select: MESSAGE_SENDER,
  }),
  actOn({
    method: 'POST',
    path: `${SENDER}/resend-verification`,
    summary: 'Resend a sender confirmation mail',
    description: `Mail a new confirmation link to a PENDING sender (${MANAGE}); the previous link stops working; verified: 409; within a minute of the last mail: 429`,
    name: 'ResendMessageSenderVerification',
    field: 'resendMessageSenderVerification',
    select: MESSAGE_SENDER,
  }),
  actOn({ method: 'DELETE', path: SENDER, summary: 'Archive a message sender', description: `Archive a sender (${MANAGE}); a default hands over to the oldest remaining one; again: 404`, name: 'DeleteMessageSender', field: 'deleteMessageSender' }),
  listPage({ path: DOMAINS, summary: 'List mail domains', description: `The team's mail domains, oldest first (${MANAGE}): limit, offset`, name: 'MailDomains', select: MAIL_DOMAIN }),
  createOne({
    path: DOMAINS,
    summary: 'Add a mail domain',
    description: `Add a mail domain (${MANAGE}): { domain }; answers it PENDING with the TXT record to publish; the same domain twice: 409`,
    name: 'CreateMailDomain',
    inputType: 'CreateMailDomainInput',
    body: createMailDomainInput,
    example: { domain: 'riverside-club.org' },
    select: MAIL_DOMAIN,
  }),
  actOn({
    method: 'POST',
    path: `${DOMAIN}/verify`,
    summary: 'Verify a mail domain',
    description: `Look the TXT record up now (${MANAGE}): 200 with status VERIFIED, or PENDING and lastCheckError saying why`,
    name: 'VerifyMailDomain',
    field: 'verifyMailDomain',
    select: MAIL_DOMAIN,
  }),
  actOn({ method: 'DELETE', path: DOMAIN, summary: 'Remove a mail domain', description: `Remove a mail domain (${MANAGE}); 409 while active senders use it`, name: 'DeleteMailDomain', field: 'deleteMailDomain' }),
], EXTENSIONS);
