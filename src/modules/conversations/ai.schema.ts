// GraphQL face of the conversations' AI assistance (docs/api/conversations.md "AI assistance"):
// suggested replies and translation for the agent (the inbox's reach at view level; they read and
// store nothing, hence conversations:read), content gaps (analytics: DATA_CONVERSATIONS_VIEW, and
// the team-wide inbox view checked by the service), and the visitor's detected language on the
// conversation types. REST: rest-adapter/routes/conversations/ai.ts.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { AI_LIMITS, SUGGESTION_TONES } from './ai-input.ts';
import { suggestReplies, type SuggestedReplies, type SuggestedReply } from './ai-suggest.service.ts';
import { translateMessage, translateOutgoing, type Translation } from './ai-translate.service.ts';
import { listContentGaps, type ContentGapRow } from './content-gaps.service.ts';
import { TABLE_FEATURE } from './conversation-access.ts';
import { ConversationRef, InboxConversationRef } from './conversations.schema.ts';

const READ = tier.standardScoped('conversations:read');
const ANALYTICS = tier.standardScopedFeature('conversations:read', TABLE_FEATURE, 'VIEW');

const VISITOR_LANGUAGE = 'the language the visitor writes in (BCP-47, e.g. "de"), detected from their messages; null until one tells it clearly';
builder.objectField(ConversationRef, 'visitorLanguage', (t) => t.string({ nullable: true, description: VISITOR_LANGUAGE, resolve: (c) => c.visitorLanguage }));
builder.objectField(InboxConversationRef, 'visitorLanguage', (t) => t.string({ nullable: true, description: VISITOR_LANGUAGE, resolve: (c) => c.visitorLanguage }));

const CannedUsedRef = builder.objectRef<SuggestedReply['cannedResponses'][number]>('SuggestedReplyCannedResponse').implement({
  fields: (t) => ({
    cannedResponseSimplyId: t.string({ resolve: (c) => c.cannedResponseSimplyId }),
    name: t.string({ resolve: (c) => c.name }),
  }),
});

const SuggestionRef = builder.objectRef<SuggestedReply>('SuggestedReply').implement({
  fields: (t) => ({
    text: t.string({ description: 'the draft, for the agent to edit and send', resolve: (s) => s.text }),
    cannedResponses: t.field({ type: [CannedUsedRef], description: 'the canned responses the draft draws on', resolve: (s) => s.cannedResponses }),
  }),
});

const SuggestionsRef = builder.objectRef<SuggestedReplies>('SuggestedReplies').implement({
  description: 'Draft replies to the visitor’s latest message, grounded in the conversation, its record and the team’s canned responses. Nothing is stored or sent.',
  fields: (t) => ({
    conversationSimplyId: t.string({ resolve: (s) => s.conversationSimplyId }),
    language: t.string({ description: 'the language of the drafts (BCP-47)', resolve: (s) => s.language }),
    tone: t.string({ resolve: (s) => s.tone }),
    suggestions: t.field({ type: [SuggestionRef], resolve: (s) => s.suggestions }),
    recordUsed: t.boolean({ description: 'the linked record’s values were given to the model (false: none linked, or you may not read it)', resolve: (s) => s.recordUsed }),
  }),
});

const TranslationRef = builder.objectRef<Translation>('ConversationTranslation').implement({
  description: 'A translation for the agent. Nothing is stored or sent.',
  fields: (t) => ({
    conversationSimplyId: t.string({ resolve: (x) => x.conversationSimplyId }),
    messageSimplyId: t.string({ nullable: true, description: 'the message translated (null for a draft)', resolve: (x) => x.messageSimplyId }),
    sourceLanguage: t.string({ nullable: true, description: 'the language the text is in (BCP-47); null when it could not be told', resolve: (x) => x.sourceLanguage }),
    targetLanguage: t.string({ resolve: (x) => x.targetLanguage }),
    text: t.string({ resolve: (x) => x.text }),
    translated: t.boolean({ description: 'false: the text was already in the target language and is answered as it is', resolve: (x) => x.translated }),
  }),
});

const ContentGapRef = builder.objectRef<ContentGapRow>('ConversationContentGap').implement({
  description: 'A question visitors asked that the AI could not answer, counted per normalized question.',
  fields: (t) => ({
    questionKey: t.string({ description: 'the question normalized: what askings are counted under', resolve: (g) => g.questionKey }),
    sampleQuestion: t.string({ description: 'the latest asking, as the visitor (or the model, summing it up) put it', resolve: (g) => g.sampleQuestion }),
    askedCount: t.int({ resolve: (g) => g.askedCount }),
    firstAskedAt: t.field({ type: 'DateTime', resolve: (g) => g.firstAskedAt }),
    lastAskedAt: t.field({ type: 'DateTime', resolve: (g) => g.lastAskedAt }),
    sampleConversationSimplyId: t.string({ description: 'the conversation of the latest asking', resolve: (g) => g.sampleConversationSimplyId }),
    language: t.string({ nullable: true, description: 'the visitor’s language at the latest asking, when known', resolve: (g) => g.language }),
  }),
});
const ContentGapPageRef = pageType('ConversationContentGapPage', ContentGapRef);

const SuggestInput = builder.inputType('SuggestInboxRepliesInput', {
  fields: (t) => ({
    count: t.int({ description: `1-${AI_LIMITS.maxSuggestions} drafts (default ${AI_LIMITS.maxSuggestions})` }),
    tone: t.string({ description: `${SUGGESTION_TONES.join(', ')} (default NEUTRAL)` }),
    language: t.string({ description: 'BCP-47; default the visitor’s language, else yours, else en' }),
    instructions: t.string({ description: `what the reply should do, in your words (at most ${AI_LIMITS.instructions} characters)` }),
  }),
});
const TranslateInput = builder.inputType('TranslateInboxMessageInput', {
  fields: (t) => ({ targetLanguage: t.string({ description: 'BCP-47; default your interface language, else en' }) }),
});
const TranslateOutgoingInput = builder.inputType('TranslateInboxOutgoingInput', {
  fields: (t) => ({
    content: t.string({ required: true, description: 'your draft (1-20 000 characters)' }),
    targetLanguage: t.string({ description: 'BCP-47; default the visitor’s detected language' }),
  }),
});

builder.queryFields((t) => ({
  conversationContentGaps: t.field({
    type: ContentGapPageRef,
    description: 'What visitors asked that the AI could not answer, most asked first (DATA_CONVERSATIONS_VIEW and DATA_CONVERSATION_INBOX_VIEW_ALL).',
    authScopes: ANALYTICS,
    args: { ...pageArgs(t.arg), since: t.arg.string({ description: 'only questions asked since (ISO 8601)' }) },
    resolve: (_r, args, ctx) => listContentGaps(ctx, givenFields(args)),
  }),
}));

builder.mutationFields((t) => ({
  suggestInboxReplies: t.field({
    type: SuggestionsRef,
    description: 'Draft replies for the agent (inbox reach at view level). Without an AI model: AI_FEATURE_UNAVAILABLE.',
    authScopes: READ,
    args: { conversationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: SuggestInput }) },
    resolve: (_r, args, ctx) => suggestReplies(ctx, args.conversationSimplyId, args.input ? givenFields(args.input) : {}),
  }),
  translateInboxMessage: t.field({
    type: TranslationRef,
    description: 'A message of the thread translated for the agent (inbox reach at view level).',
    authScopes: READ,
    args: { conversationSimplyId: t.arg.string({ required: true }), messageSimplyId: t.arg.string({ required: true }), input: t.arg({ type: TranslateInput }) },
    resolve: (_r, args, ctx) => translateMessage(ctx, args.conversationSimplyId, args.messageSimplyId, args.input ? givenFields(args.input) : {}),
  }),
  translateInboxOutgoing: t.field({
    type: TranslationRef,
    description: 'The agent’s draft translated into the visitor’s language, to send (inbox reach at view level).',
    authScopes: READ,
    args: { conversationSimplyId: t.arg.string({ required: true }), input: t.arg({ type: TranslateOutgoingInput, required: true }) },
    resolve: (_r, args, ctx) => translateOutgoing(ctx, args.conversationSimplyId, givenFields(args.input)),
  }),
}));
