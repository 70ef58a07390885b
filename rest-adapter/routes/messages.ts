// /v1/message-templates → src/modules/messages/message-templates.schema.ts; /v1/outgoing-message-templates
// → outgoing-message-templates.schema.ts (docs/api/outgoing-message-templates.md); /v1/message-senders →
// message-senders.schema.ts and mail-domains.schema.ts (docs/api/messages.md)
import { z } from 'zod';
import { createMessageTemplateInput, DELIVERY_METHODS, DESIGN_FORMATS, updateMessageTemplateInput } from '../../src/modules/messages/message-templates.input.ts';
import {
  createOutgoingMessageTemplateInput,
  duplicateOutgoingMessageTemplateInput,
  previewOutgoingMessageTemplateInput,
  TEMPLATE_SORTS,
  updateOutgoingMessageTemplateInput,
} from '../../src/modules/messages/outgoing-message-templates.input.ts';
import { createMailDomainInput } from '../../src/modules/messages/mail-domains.input.ts';
import { createMessageSenderInput, updateMessageSenderInput } from '../../src/modules/messages/message-senders.input.ts';
import {
  MAIL_DOMAIN,
  MESSAGE_SENDER,
  MESSAGE_TEMPLATE,
  OUTGOING_MESSAGE_TEMPLATE,
  OUTGOING_MESSAGE_TEMPLATE_PREVIEW,
  OUTGOING_MESSAGE_TEMPLATE_SUMMARY,
} from '../../src/modules/messages/messages.fragments.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, route, type RouteExtension } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';
import { queryBool } from '../schemas.ts';

const ONE = '/v1/message-templates/{outgoingMessageTemplateSimplyId}';
const SENDERS = '/v1/message-senders';
const SENDER = `${SENDERS}/{messageSenderSimplyId}`;
const DOMAINS = `${SENDERS}/domains`;
const DOMAIN = `${DOMAINS}/{mailDomainSimplyId}`;
const MANAGE = 'privileged: OUTGOING_MESSAGES_SEND edit';
const AUTHORING = '/v1/outgoing-message-templates';
const AUTHORED = `${AUTHORING}/{outgoingMessageTemplateSimplyId}`;
const AUTHOR_READ = 'privileged: OUTGOING_MESSAGES_TEMPLATES view';
const AUTHOR_WRITE = 'privileged: OUTGOING_MESSAGES_TEMPLATES edit';

const SENDER_ADMIN = 'sender management and mail-domain verification (docs/api/messages.md "Senders and mail domains"): the route checklist names them privileged without routes';

const TEMPLATE_AUTHORING =
  'template authoring (docs/api/outgoing-message-templates.md): the route checklist names the /v1/outgoing-message-templates surface without its operations; one template is read, changed, archived, duplicated and previewed by its id';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  [`GET ${AUTHORED}`]: { reason: TEMPLATE_AUTHORING },
  [`PATCH ${AUTHORED}`]: { reason: TEMPLATE_AUTHORING },
  [`DELETE ${AUTHORED}`]: { reason: TEMPLATE_AUTHORING },
  [`POST ${AUTHORED}/duplicate`]: { reason: TEMPLATE_AUTHORING },
  [`POST ${AUTHORED}/preview`]: { reason: TEMPLATE_AUTHORING },
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
    path: AUTHORING,
    summary: 'List templates for authoring',
    description: `The team's message templates without their content, newest first unless sorted (${AUTHOR_READ}): limit, offset, deliveryMethod, designFormat, dataCollectionSimplyId, search, sort, includeArchived`,
    name: 'OutgoingMessageTemplates',
    select: OUTGOING_MESSAGE_TEMPLATE_SUMMARY,
    filters: {
      deliveryMethod: { type: 'String', schema: z.string().optional().describe(`only templates of this channel: ${DELIVERY_METHODS.join(', ')}`) },
      designFormat: { type: 'String', schema: z.string().optional().describe(`only templates of this design format: ${DESIGN_FORMATS.join(', ')}`) },
      dataCollectionSimplyId: { type: 'String', schema: z.string().optional().describe('only templates whose merge tags name this collection') },
      search: { type: 'String', schema: z.string().optional().describe('text the name contains (case-insensitive, at most 200 characters)') },
      sort: { type: 'String', schema: z.string().optional().describe(`${TEMPLATE_SORTS.join(', ')} (default createdAt_DESC)`) },
      includeArchived: { type: 'Boolean', schema: queryBool().describe('true adds archived templates (default false)') },
    },
  }),
  createOne({
    path: AUTHORING,
    summary: 'Author a message template',
    description: `Create a template with its content (${AUTHOR_WRITE}): { name, deliveryMethod?, designFormat?, description?, subjectLine?, preheader?, htmlContent? (sanitized), textContent?, designJson?, dataCollectionSimplyId? }; merge tags are checked`,
    name: 'CreateOutgoingMessageTemplate',
    inputType: 'CreateOutgoingMessageTemplateInput',
    body: createOutgoingMessageTemplateInput,
    example: {
      name: 'Spring newsletter',
      deliveryMethod: 'EMAIL',
      subjectLine: 'Spring news for {{first_name}}',
      preheader: 'What is new at the club this season',
      htmlContent: '<h1>Hello {{first_name}}</h1><p>Spring is here.</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>',
      textContent: 'Hello {{first_name}}, spring is here. Unsubscribe: {{unsubscribe_url}}',
      designJson: { rows: [{ columns: [{ contents: [{ type: 'heading', text: 'Hello {{first_name}}' }] }] }] },
      dataCollectionSimplyId: 'GH89-JK23-MN45',
    },
    select: OUTGOING_MESSAGE_TEMPLATE,
  }),
  getOne({
    path: AUTHORED,
    summary: 'Get a template with its content',
    description: `One template with its content, merge tags, SMS segments and issues, archived ones included (${AUTHOR_READ})`,
    name: 'OutgoingMessageTemplate',
    select: OUTGOING_MESSAGE_TEMPLATE,
  }),
  updateOne({
    method: 'PATCH',
    path: AUTHORED,
    summary: 'Edit a template',
    description: `Change any of name, description, subjectLine, preheader, htmlContent (sanitized), textContent, designJson, dataCollectionSimplyId (${AUTHOR_WRITE}); left out stays, null clears; archived: 409`,
    name: 'UpdateOutgoingMessageTemplate',
    inputType: 'UpdateOutgoingMessageTemplateInput',
    body: updateOutgoingMessageTemplateInput,
    example: { preheader: 'Our spring programme is out', htmlContent: '<h1>Hello {{first_name}}</h1><p>Our spring programme is out.</p>' },
    select: OUTGOING_MESSAGE_TEMPLATE,
  }),
  actOn({ method: 'DELETE', path: AUTHORED, summary: 'Archive an authored template', description: `Archive a template (${AUTHOR_WRITE}); again: 404`, name: 'DeleteOutgoingMessageTemplate', field: 'deleteOutgoingMessageTemplate' }),
  route({
    method: 'POST',
    path: `${AUTHORED}/duplicate`,
    summary: 'Duplicate a template',
    description: `An active copy of the template, archived ones too (${AUTHOR_WRITE}): { name? } (default: the name with " (copy)"); 201 with the copy`,
    operation: operation`mutation DuplicateOutgoingMessageTemplate($id: String!, $input: DuplicateOutgoingMessageTemplateInput) { duplicateOutgoingMessageTemplate(outgoingMessageTemplateSimplyId: $id, input: $input) { ${OUTGOING_MESSAGE_TEMPLATE} } }`,
    body: duplicateOutgoingMessageTemplateInput.optional(),
    example: { name: 'Spring newsletter (members)' },
    variables: ({ params, body }) => ({ id: params.outgoingMessageTemplateSimplyId, input: body ?? {} }),
    status: 201,
  }),
  route({
    method: 'POST',
    path: `${AUTHORED}/preview`,
    summary: 'Preview a template',
    description: `The template filled in from sample values and/or a readable record: { dataRecordSimplyId?, sampleValues? } → subjectLine, preheader, html, text, sms, unfilledMergeTags; nothing is stored (${AUTHOR_READ})`,
    operation: operation`query OutgoingMessageTemplatePreview($id: String!, $input: OutgoingMessageTemplatePreviewInput) { outgoingMessageTemplatePreview(outgoingMessageTemplateSimplyId: $id, input: $input) { ${OUTGOING_MESSAGE_TEMPLATE_PREVIEW} } }`,
    body: previewOutgoingMessageTemplateInput.optional(),
    example: { dataRecordSimplyId: 'QR67-ST89-UV23', sampleValues: { first_name: 'Ada' } },
    variables: ({ params, body }) => ({ id: params.outgoingMessageTemplateSimplyId, input: body ?? {} }),
  }),
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
