// GraphQL face of canned responses (docs/api/conversations.md "Canned responses"): the team's
// CANNED_RESPONSE content templates for the composer, and their use on a conversation. Authored
// in the content-template library (/v1/content-templates, usageTypes CANNED_RESPONSE).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageArgs } from '../../app/graphql/args.ts';
import { pageType } from '../../app/graphql/page.ts';
import { listCannedResponses, useCannedResponse, type CannedResponseView, type CannedUse } from './canned-responses.service.ts';
import { ConversationMessageRef } from './conversations.schema.ts';

const CannedRef = builder.objectRef<CannedResponseView>('ConversationCannedResponse').implement({
  description: 'A canned response: a CANNED_RESPONSE content template, with merge tags filled from the conversation’s record when used.',
  fields: (t) => ({
    id: t.string({ resolve: (c) => c.simplyId }),
    cannedResponseSimplyId: t.string({ description: 'the content template’s simplyId', resolve: (c) => c.simplyId }),
    name: t.field({ type: 'JSON', description: 'a string or a localized object', resolve: (c) => c.name }),
    description: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.description }),
    textContent: t.string({ resolve: (c) => c.textContent ?? '' }),
    useCount: t.int({ resolve: (c) => c.useCount }),
    lastUsedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.lastUsedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt }),
  }),
});

const UseRef = builder.objectRef<CannedUse>('ConversationCannedResponseUse').implement({
  fields: (t) => ({
    cannedResponseSimplyId: t.string({ resolve: (u) => u.cannedResponseSimplyId }),
    conversationSimplyId: t.string({ resolve: (u) => u.conversationSimplyId }),
    text: t.string({ description: 'the text with its merge tags filled in', resolve: (u) => u.text }),
    recordUsed: t.boolean({ description: 'false: no linked record the caller may read (tags rendered empty)', resolve: (u) => u.recordUsed }),
    useCount: t.int({ resolve: (u) => u.useCount }),
    message: t.field({ type: ConversationMessageRef, nullable: true, description: 'with post: true, the message posted', resolve: (u) => u.message }),
  }),
});

const CannedPageRef = pageType('ConversationCannedResponsePage', CannedRef);
const UseInput = builder.inputType('UseCannedResponseInput', {
  fields: (t) => ({
    conversationSimplyId: t.string({ required: true }),
    post: t.boolean({ description: 'also post the text to the conversation as your message (default false)' }),
    channel: t.string({ description: 'with post: the message channel (default CHAT; INTERNAL_NOTE for a note)' }),
  }),
});

builder.queryFields((t) => ({
  conversationCannedResponses: t.field({
    type: CannedPageRef,
    description: 'The team’s canned responses by name; q searches name and text.',
    authScopes: tier.standardScoped('conversations:read'),
    args: { ...pageArgs(t.arg), q: t.arg.string() },
    resolve: (_r, a, ctx) => listCannedResponses(ctx, Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined))),
  }),
}));

builder.mutationFields((t) => ({
  useConversationCannedResponse: t.field({
    type: UseRef,
    authScopes: tier.standardScoped('conversations:write'),
    args: { cannedResponseSimplyId: t.arg.string({ required: true }), input: t.arg({ type: UseInput, required: true }) },
    resolve: (_r, a, ctx) => useCannedResponse(ctx, a.cannedResponseSimplyId, Object.fromEntries(Object.entries(a.input).filter(([, v]) => v !== undefined && v !== null))),
  }),
}));
