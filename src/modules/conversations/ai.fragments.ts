// The selections of the AI assistance types that other faces (the REST table, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

export const SUGGESTED_REPLIES = fragment(
  'SuggestedRepliesFields',
  'SuggestedReplies',
  'conversationSimplyId language tone suggestions { text cannedResponses { cannedResponseSimplyId name } } recordUsed',
);

export const CONVERSATION_TRANSLATION = fragment(
  'ConversationTranslationFields',
  'ConversationTranslation',
  'conversationSimplyId messageSimplyId sourceLanguage targetLanguage text translated',
);

export const CONTENT_GAP = fragment(
  'ConversationContentGapFields',
  'ConversationContentGap',
  'questionKey sampleQuestion askedCount firstAskedAt lastAskedAt sampleConversationSimplyId language',
);
