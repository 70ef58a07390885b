// GraphQL face of simple message templates (docs/api/messages.md). REST:
// rest-adapter/routes/messages.ts. Standard tier with the feature OUTGOING_MESSAGES_TEMPLATES:
// view to read, edit to write (API keys, session tokens and users alike; team admins pass).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, patchById, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { DELIVERY_METHODS, DESIGN_FORMATS, MESSAGE_TEMPLATE_LIMITS } from './message-templates.input.ts';
import {
  createMessageTemplate,
  deleteMessageTemplate,
  getMessageTemplate,
  listMessageTemplates,
  type TemplateSummary,
  updateMessageTemplate,
} from './message-templates.service.ts';

const FEATURE = 'OUTGOING_MESSAGES_TEMPLATES';

export const MessageDeliveryMethodEnum = builder.enumType('MessageDeliveryMethod', { values: DELIVERY_METHODS });
export const MessageDesignFormatEnum = builder.enumType('MessageDesignFormat', { values: DESIGN_FORMATS });

type TemplateItem = { row: TemplateSummary };

export const MessageTemplateRef = builder.objectRef<TemplateItem>('MessageTemplate').implement({
  description: 'A simple message template: name, channel, subject line and design format.',
  fields: (t) => ({
    ...simplyIdFields(t, 'outgoingMessageTemplateSimplyId'),
    name: t.string({ resolve: (m) => m.row.name }),
    description: t.string({ nullable: true, resolve: (m) => m.row.description }),
    deliveryMethod: t.field({ type: MessageDeliveryMethodEnum, resolve: (m) => m.row.deliveryMethod as never }),
    subjectLine: t.string({ nullable: true, description: 'EMAIL templates only', resolve: (m) => m.row.subjectLine }),
    designFormat: t.field({ type: MessageDesignFormatEnum, resolve: (m) => m.row.designFormat as never }),
    archivedAt: t.field({ type: 'DateTime', nullable: true, description: 'when DELETE archived it; null while active', resolve: (m) => m.row.archivedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (m) => m.row.updatedAt }),
  }),
});

const MessageTemplatePageRef = pageType('MessageTemplatePage', MessageTemplateRef);

// strings rather than the enums, so a wrong value is the documented 400 naming the field on both faces
const CreateMessageTemplateInput = builder.inputType('CreateMessageTemplateInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: `1-${MESSAGE_TEMPLATE_LIMITS.name} characters (trimmed)` }),
    description: t.string({ description: `at most ${MESSAGE_TEMPLATE_LIMITS.description} characters` }),
    deliveryMethod: t.string({ description: `${DELIVERY_METHODS.join(', ')}; default EMAIL` }),
    subjectLine: t.string({ description: `EMAIL only; one line of at most ${MESSAGE_TEMPLATE_LIMITS.subjectLine} characters` }),
    designFormat: t.string({ description: `${DESIGN_FORMATS.join(', ')}; default HTML` }),
  }),
});

const UpdateMessageTemplateInput = builder.inputType('UpdateMessageTemplateInput', {
  description: 'Fields left out stay as they are; null clears description or subjectLine.',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    subjectLine: t.string(),
  }),
});

const item = (row: TemplateSummary): TemplateItem => ({ row });

builder.queryFields((t) => ({
  messageTemplates: t.field({
    type: MessageTemplatePageRef,
    description: "The team's message templates, newest first (OUTGOING_MESSAGES_TEMPLATES view); archived ones only with includeArchived.",
    authScopes: tier.standardFeature(FEATURE, 'VIEW'),
    args: { ...pageArgs(t.arg), deliveryMethod: t.arg.string(), includeArchived: t.arg.boolean() },
    resolve: withArgs(async (ctx, args: Parameters<typeof listMessageTemplates>[1]) => {
      const page = await listMessageTemplates(ctx, args);
      return { nodes: page.nodes.map(item), pagination: page.pagination };
    }),
  }),
  messageTemplate: t.field({
    type: MessageTemplateRef,
    description: 'One template, archived ones included (OUTGOING_MESSAGES_TEMPLATES view).',
    authScopes: tier.standardFeature(FEATURE, 'VIEW'),
    ...byId(t.arg, 'outgoingMessageTemplateSimplyId', async (ctx, id) => item(await getMessageTemplate(ctx, id))),
  }),
}));

builder.mutationFields((t) => ({
  createMessageTemplate: t.field({
    type: MessageTemplateRef,
    description: 'OUTGOING_MESSAGES_TEMPLATES edit.',
    authScopes: tier.standardFeature(FEATURE, 'EDIT'),
    args: { input: t.arg({ type: CreateMessageTemplateInput, required: true }) },
    resolve: async (_root, args, ctx) => item(await createMessageTemplate(ctx, givenFields(args.input))),
  }),
  updateMessageTemplate: t.field({
    type: MessageTemplateRef,
    description: 'OUTGOING_MESSAGES_TEMPLATES edit. An archived template cannot be changed (409).',
    authScopes: tier.standardFeature(FEATURE, 'EDIT'),
    ...patchById(t.arg, 'outgoingMessageTemplateSimplyId', UpdateMessageTemplateInput, async (ctx, id, input) => item(await updateMessageTemplate(ctx, id, input))),
  }),
  deleteMessageTemplate: t.boolean({
    description: 'OUTGOING_MESSAGES_TEMPLATES edit. Archives the template (sets archivedAt); archiving it again is 404.',
    authScopes: tier.standardFeature(FEATURE, 'EDIT'),
    ...byId(t.arg, 'outgoingMessageTemplateSimplyId', deleteMessageTemplate),
  }),
}));
