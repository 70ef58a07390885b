// The selections of this area's types that other faces (the REST table, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

const CONVERSATION_FIELDS = `id conversationSimplyId subject channel status priority assignedUserId assignedAt aiHandling resolvedAt visitorName visitorEmail
  visitorPhone visitorLanguage dataRecordSimplyId recordLinkSource lastMessageAt lastMessagePreview lastMessageAuthorType lastEndUserMessageAt firstResponseAt messageCount
  snoozedUntil isSnoozed mergedIntoConversationSimplyId mergedAt createdAt updatedAt`;

// the table's answers say whether a conversation is a widget's (and a preview); the inbox's list
// leaves it to the detail's `widget`, so a page stays one statement
export const CONVERSATION = fragment('ConversationFields', 'Conversation', `${CONVERSATION_FIELDS} widgetSimplyId isSimulated`);

export const INBOX_CONVERSATION = fragment('InboxConversationFields', 'InboxConversation', `${CONVERSATION_FIELDS} unread following`);

export const CONVERSATION_MESSAGE = fragment(
  'ConversationMessageFields',
  'ConversationMessage',
  'id messageSimplyId conversationSimplyId channel isInternal authorType authorUserId content contentType deliveryStatus createdAt attachments { filename contentType sizeBytes status fileSimplyId reason }',
);

export const CONVERSATION_READ_STATE = fragment('ConversationReadStateFields', 'ConversationReadState', 'conversationSimplyId lastReadMessageSimplyId readThroughAt unreadCount');

const PERSON = fragment('ConversationPersonFields', 'ConversationPerson', 'userSimplyId firstName lastName email');

export const CONVERSATION_MERGE = fragment(
  'ConversationMergeFields',
  'ConversationMerge',
  'mergeSimplyId sourceConversationSimplyId targetConversationSimplyId mergedAt mergedByKind mergedById unmergedAt unmergedByKind unmergedById',
);

export const INBOX_CONVERSATION_DETAIL = fragment(
  'InboxConversationDetailFields',
  'InboxConversationDetail',
  selection`conversation { ${INBOX_CONVERSATION} } messages { ${CONVERSATION_MESSAGE} } hasOlderMessages readState { ${CONVERSATION_READ_STATE} }
    followers { ${PERSON} } assignedUser { ${PERSON} } linkedRecord { dataRecordSimplyId linkSource readable dataCollectionSimplyId name isArchived }
    merges { ${CONVERSATION_MERGE} } widget { widgetSimplyId name visitorSimplyId visitorIsVerified isSimulated }`,
);

const TALLY = fragment('InboxTallyFields', 'InboxTally', 'total unread');

export const INBOX_UNREAD_SUMMARY = fragment(
  'InboxUnreadSummaryFields',
  'InboxUnreadSummary',
  selection`total unread byStatus { status total unread } mine { ${TALLY} } unassigned { ${TALLY} } assignedToOthers { ${TALLY} } snoozed`,
);

export const CONVERSATION_MERGE_RESULT = fragment(
  'ConversationMergeResultFields',
  'ConversationMergeResult',
  selection`merge { ${CONVERSATION_MERGE} } sourceConversation { ${CONVERSATION} } targetConversation { ${CONVERSATION} }`,
);

export const CONVERSATION_FOLLOW_STATE = fragment('ConversationFollowStateFields', 'ConversationFollowState', 'conversationSimplyId following');

/** one message of the conversationEvents subscription */
export const CONVERSATION_EVENT = fragment(
  'ConversationEventFields',
  'ConversationEvent',
  selection`type conversationSimplyId messageSimplyId occurredAt actorKind actorId conversation { ${CONVERSATION} } message { ${CONVERSATION_MESSAGE} }`,
);
