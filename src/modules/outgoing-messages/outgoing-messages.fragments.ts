// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

/** The message as GET /v1/messages lists it. */
export const MESSAGE = fragment('MessageFields', 'OutgoingMessage', 'id internalName subjectLine deliveryMethod contentType status scheduledAt sentAt');
export const OUTGOING_MESSAGE_SUMMARY = fragment(
  'OutgoingMessageSummaryFields',
  'OutgoingMessage',
  'id internalName subjectLine deliveryMethod contentType status scheduledAt sentAt totalRecipients template { id name } createdAt updatedAt',
);
export const OUTGOING_MESSAGE = fragment(
  'OutgoingMessageFields',
  'OutgoingMessage',
  `id internalName subjectLine deliveryMethod contentType textContent htmlContent
   sender { id name emailAddress }
   template { id name }
   recipients { dataCollectionSimplyId dataViewSimplyId filters emailFieldSimplyId }
   status scheduledAt sendStartedAt sentAt approvedAt approvedBy errorMessage totalRecipients createdAt updatedAt`,
);
export const MESSAGE_STATUS = fragment('MessageStatusFields', 'MessageStatusSummary', 'status totalRecipients delivered bounced complained');
export const OUTGOING_MESSAGE_STATS = fragment(
  'OutgoingMessageStatsFields',
  'OutgoingMessageStats',
  'totalRecipients pending queued sent delivered bounced complained failed suppressed attempted deliveryRate bounceRate complaintRate',
);
export const SEND_READINESS = fragment('SendReadinessFields', 'OutgoingMessageSendReadiness', 'ready blockers { code message } warnings { code message } estimatedRecipients');
export const TEST_SEND_RESULT = fragment('TestSendResultFields', 'OutgoingMessageTestSend', 'mailSimplyIds');
export const MESSAGE_SETTINGS = fragment('MessageSettingsFields', 'MessageSettings', 'approvalRequired updatedAt');
