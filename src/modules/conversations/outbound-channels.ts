// Where a message to the visitor goes, per channel (docs/api/conversations.md "Channels"). One
// place decides, so a channel that gains a sender changes here only:
//
//   CHAT      SENT    the conversation's chat is the delivery: the visitor's chat window reads it
//   EMAIL     QUEUED  mailed through services.mail in the post's transaction (email-outbound.ts);
//                     deliveryStatus then follows the mail (SENT, FAILED, DELIVERED)
//   SMS, WHATSAPP, FACEBOOK  through the platform's channel providers (outgoing-messages'
//                     registry); none is configured today: 409 CHANNEL_NOT_CONFIGURED
//   FORM      what a visitor submitted, never sent to them: 400
//   INTERNAL_NOTE     the team's own: never delivered, no history row
import { ValidationError } from '../../app/errors.ts';
import type { DeliveryChannel, DeliveryState } from '../communications/index.ts';
import { channelAvailable } from '../outgoing-messages/index.ts';
import { ChannelNotConfiguredError, RecipientAddressMissingError } from './conversations.errors.ts';
import type { ConversationRow } from './conversations.sql.ts';

export interface OutboundPlan {
  /** the message's deliveryStatus */
  deliveryStatus: 'SENT' | 'QUEUED';
  /** the communication history's channel and first state */
  historyChannel: DeliveryChannel;
  historyState: DeliveryState;
  /** where it goes: the address, or the conversation for chat */
  destination: string;
}

/** The delivery of an outbound message on `channel`, or the refusal (thrown) when it cannot reach the visitor. */
export function planOutbound(conversation: ConversationRow, channel: string): OutboundPlan {
  switch (channel) {
    case 'CHAT':
      return { deliveryStatus: 'SENT', historyChannel: 'CHAT', historyState: 'SENT', destination: `conversation:${conversation.simplyId}` };
    case 'EMAIL':
      if (!conversation.visitorEmail) throw new RecipientAddressMissingError('EMAIL', 'visitorEmail');
      return { deliveryStatus: 'QUEUED', historyChannel: 'EMAIL', historyState: 'QUEUED', destination: conversation.visitorEmail };
    case 'SMS':
    case 'WHATSAPP':
    case 'FACEBOOK':
      if (!channelAvailable(channel)) throw new ChannelNotConfiguredError(channel);
      if (!conversation.visitorPhone) throw new RecipientAddressMissingError(channel, 'visitorPhone');
      return { deliveryStatus: 'QUEUED', historyChannel: channel, historyState: 'QUEUED', destination: conversation.visitorPhone };
    default:
      throw new ValidationError('A FORM message is what a visitor submitted: reply on CHAT or EMAIL', [
        { field: 'channel', message: 'FORM messages come from the visitor; an agent or system message cannot use it' },
      ]);
  }
}
