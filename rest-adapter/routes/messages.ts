// /v1/message-templates → src/modules/messages/message-templates.schema.ts (docs/api/messages.md)
import { z } from 'zod';
import { createMessageTemplateInput, DELIVERY_METHODS, updateMessageTemplateInput } from '../../src/modules/messages/message-templates.input.ts';
import { MESSAGE_TEMPLATE } from '../../src/modules/messages/messages.fragments.ts';
import { defineRoutes } from '../route.ts';
import { actOn, createOne, getOne, listPage, updateOne } from '../route-shapes.ts';
import { queryBool } from '../schemas.ts';

const ONE = '/v1/message-templates/{outgoingMessageTemplateSimplyId}';

export const messageRoutes = defineRoutes([
  listPage({
    path: '/v1/message-templates',
    summary: "The team's message templates, newest first (OUTGOING_MESSAGES_TEMPLATES view): limit, offset, deliveryMethod, includeArchived",
    name: 'MessageTemplates',
    select: MESSAGE_TEMPLATE,
    filters: {
      deliveryMethod: { type: 'String', schema: z.string().optional().describe(`only templates of this channel: ${DELIVERY_METHODS.join(', ')}`) },
      includeArchived: { type: 'Boolean', schema: queryBool().describe('true adds archived templates (default false)') },
    },
  }),
  createOne({
    path: '/v1/message-templates',
    summary: 'Create a template (OUTGOING_MESSAGES_TEMPLATES edit): { name, description?, deliveryMethod?, subjectLine? (EMAIL only), designFormat? }',
    name: 'CreateMessageTemplate',
    inputType: 'CreateMessageTemplateInput',
    body: createMessageTemplateInput,
    select: MESSAGE_TEMPLATE,
  }),
  getOne({ path: ONE, summary: 'One template, archived ones included (OUTGOING_MESSAGES_TEMPLATES view)', name: 'MessageTemplate', select: MESSAGE_TEMPLATE }),
  updateOne({
    method: 'PUT',
    path: ONE,
    summary: 'Update (OUTGOING_MESSAGES_TEMPLATES edit): any of name, description, subjectLine; fields left out stay, null clears; archived: 409',
    name: 'UpdateMessageTemplate',
    inputType: 'UpdateMessageTemplateInput',
    body: updateMessageTemplateInput,
    select: MESSAGE_TEMPLATE,
  }),
  actOn({ method: 'DELETE', path: ONE, summary: 'Archive a template (OUTGOING_MESSAGES_TEMPLATES edit); again: 404', name: 'DeleteMessageTemplate', field: 'deleteMessageTemplate' }),
]);
