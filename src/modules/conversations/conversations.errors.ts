// The errors of the conversations area beyond the shared ones (docs/api/conversations.md "Errors").
import { ApiError } from '../../app/errors.ts';

/**
 * A merged conversation lives on in the one it was merged into: it takes no messages or changes
 * of its own until it is unmerged, and cannot be merged again.
 */
export class ConversationMergedError extends ApiError {
  constructor(simplyId: string, intoSimplyId: string | null) {
    super(409, 'CONVERSATION_MERGED', `Conversation ${simplyId} was merged into ${intoSimplyId ?? 'another conversation'}: work in that one, or unmerge it first`, {
      details: [{ message: 'the conversation is merged', mergedIntoConversationSimplyId: intoSimplyId }],
    });
  }
}

/** An unmerge of a conversation that is not merged into another. */
export class ConversationNotMergedError extends ApiError {
  constructor(simplyId: string) {
    super(409, 'CONVERSATION_NOT_MERGED', `Conversation ${simplyId} is not merged into another conversation: there is nothing to unmerge`);
  }
}

/** An outbound message on a channel no provider sends yet (SMS, WHATSAPP, FACEBOOK today). */
export class ChannelNotConfiguredError extends ApiError {
  constructor(channel: string) {
    super(409, 'CHANNEL_NOT_CONFIGURED', `No ${channel} provider is configured: ${channel} messages to the visitor cannot be sent yet (an INTERNAL_NOTE, CHAT or EMAIL message can)`, {
      details: [{ field: 'channel', message: `no ${channel} provider is configured` }],
    });
  }
}

/** An outbound message on a channel that needs an address the conversation does not have (EMAIL without visitorEmail). */
export class RecipientAddressMissingError extends ApiError {
  constructor(channel: string, needs: string) {
    super(409, 'RECIPIENT_ADDRESS_MISSING', `The conversation has no ${needs}: a ${channel} message cannot reach the visitor (set ${needs} on the conversation first)`, {
      details: [{ field: 'channel', message: `the conversation has no ${needs}` }],
    });
  }
}
