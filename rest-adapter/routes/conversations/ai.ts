// AI assistance in conversations → src/modules/conversations/ai.schema.ts (docs/api/conversations.md
// "AI assistance", "Content gaps"): suggested replies and translation for the agent (the inbox's
// reach at view level; conversations:read, as they store and send nothing), and the content gaps
// (DATA_CONVERSATIONS_VIEW and DATA_CONVERSATION_INBOX_VIEW_ALL; conversations:read). Without an
// AI model the three AI routes answer 403 AI_FEATURE_UNAVAILABLE; a failed model step 424 AI_MODEL_ERROR.
import { z } from 'zod';
import { operation, PAGINATION } from '../../../src/app/graphql/fragments.ts';
import { CONTENT_GAP, CONVERSATION_TRANSLATION, SUGGESTED_REPLIES } from '../../../src/modules/conversations/ai.fragments.ts';
import { AI_LIMITS, suggestRepliesInput, translateMessageInput, translateOutgoingInput } from '../../../src/modules/conversations/ai-input.ts';
import { defineRoutes, respond, route } from '../../route.ts';
import { queryInt } from '../../schemas.ts';

const INBOX_ONE = '/v1/conversations/inbox/{conversationSimplyId}';
const INBOX_REACH = 'DATA_CONVERSATION_INBOX_VIEW (your own and unassigned conversations) or DATA_CONVERSATION_INBOX_VIEW_ALL (team-wide)';
const NEEDS_MODEL = 'Without an AI model configured: 403 AI_FEATURE_UNAVAILABLE; a failed model step: 424 AI_MODEL_ERROR';

const contentGapsQuery = z.strictObject({
  limit: queryInt().describe(`1-${AI_LIMITS.contentGapsMaxLimit}, default ${AI_LIMITS.contentGapsDefaultLimit}`),
  offset: queryInt().describe('0 or more, default 0'),
  since: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()).describe('only questions asked since this time (ISO 8601 with a time zone)'),
});

export const conversationAiRoutes = defineRoutes([
  route({
    method: 'POST',
    path: `${INBOX_ONE}/suggest-replies`,
    summary: 'Suggest replies',
    description: `1-${AI_LIMITS.maxSuggestions} draft replies to the visitor's latest message, grounded in the thread (internal notes inform but are never quoted), the linked record (the fields you may read) and the team's canned responses: { count?, tone? (NEUTRAL, FRIENDLY, FORMAL, EMPATHETIC), language? (default the visitor's, else yours), instructions? }. Each draft names the canned responses it used. Nothing is stored or sent (${INBOX_REACH}; conversations:read). ${NEEDS_MODEL}`,
    operation: operation`mutation SuggestInboxReplies($id: String!, $input: SuggestInboxRepliesInput) { suggestInboxReplies(conversationSimplyId: $id, input: $input) { ${SUGGESTED_REPLIES} } }`,
    body: suggestRepliesInput.optional(),
    example: { count: 2, tone: 'FRIENDLY', instructions: 'Offer a refund' },
    variables: ({ params, body }) => ({ id: params.conversationSimplyId, input: body ?? {} }),
  }),
  route({
    method: 'POST',
    path: `${INBOX_ONE}/messages/{messageSimplyId}/translate`,
    summary: 'Translate a message',
    description: `A message of the thread (internal notes too) translated into { targetLanguage? } (BCP-47; default your interface language, else en), with the language it was written in. Text already in that language comes back as it is (translated: false). Nothing is stored (${INBOX_REACH}; conversations:read). ${NEEDS_MODEL}`,
    operation: operation`mutation TranslateInboxMessage($id: String!, $messageSimplyId: String!, $input: TranslateInboxMessageInput) {
      translateInboxMessage(conversationSimplyId: $id, messageSimplyId: $messageSimplyId, input: $input) { ${CONVERSATION_TRANSLATION} } }`,
    body: translateMessageInput.optional(),
    example: { targetLanguage: 'en' },
    variables: ({ params, body }) => ({ id: params.conversationSimplyId, messageSimplyId: params.messageSimplyId, input: body ?? {} }),
  }),
  route({
    method: 'POST',
    path: `${INBOX_ONE}/translate-outgoing`,
    summary: 'Translate a reply',
    description: `Your draft { content, targetLanguage? } translated into the visitor's language (default: the conversation's visitorLanguage; none detected yet and none given: 400 naming targetLanguage), for you to send. Nothing is stored or sent (${INBOX_REACH}; conversations:read). ${NEEDS_MODEL}`,
    operation: operation`mutation TranslateInboxOutgoing($id: String!, $input: TranslateInboxOutgoingInput!) { translateInboxOutgoing(conversationSimplyId: $id, input: $input) { ${CONVERSATION_TRANSLATION} } }`,
    body: translateOutgoingInput,
    example: { content: 'Your refund is on its way.', targetLanguage: 'de' },
    variables: ({ params, body }) => ({ id: params.conversationSimplyId, input: body }),
  }),
  route({
    method: 'GET',
    path: '/v1/conversations/analytics/content-gaps',
    summary: 'List content gaps',
    description: 'What visitors asked that the AI could not answer (it handed back for low confidence, or lacked the information), one entry per normalized question, most asked first: limit, offset, since (DATA_CONVERSATIONS_VIEW and DATA_CONVERSATION_INBOX_VIEW_ALL; conversations:read)',
    operation: operation`query ConversationContentGaps($limit: Int, $offset: Int, $since: String) {
      conversationContentGaps(limit: $limit, offset: $offset, since: $since) { nodes { ${CONTENT_GAP} } pagination { ${PAGINATION} } } }`,
    query: contentGapsQuery,
    variables: ({ query }) => query as Record<string, unknown>,
    respond: respond.page,
  }),
]);
