// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

export const MESSAGE_TEMPLATE = fragment('MessageTemplateFields', 'MessageTemplate', 'id name description deliveryMethod subjectLine designFormat archivedAt createdAt updatedAt');
export const MAIL_DOMAIN = fragment(
  'MailDomainFields',
  'MailDomain',
  'id domain status verification { recordType recordName recordValue } verifiedAt lastCheckedAt lastCheckError createdAt',
);
export const MESSAGE_SENDER = fragment('MessageSenderFields', 'MessageSender', 'id name deliveryMethod emailAddress phoneNumber isDefault verificationStatus verifiedAt createdAt updatedAt');

/** A list entry of template authoring: no content (bodies and designs can be large). */
export const OUTGOING_MESSAGE_TEMPLATE_SUMMARY = fragment(
  'OutgoingMessageTemplateSummaryFields',
  'OutgoingMessageTemplate',
  'id name description deliveryMethod designFormat subjectLine preheader dataCollectionSimplyId archivedAt createdAt updatedAt',
);
/** A template with its content, merge tags, SMS segments and issues. */
export const OUTGOING_MESSAGE_TEMPLATE = fragment(
  'OutgoingMessageTemplateFields',
  'OutgoingMessageTemplate',
  'id name description deliveryMethod designFormat subjectLine preheader htmlContent textContent designJson dataCollectionSimplyId mergeTags ' +
    'sms { encoding characters segments perSegment } issues { severity code field message } archivedAt createdAt updatedAt',
);
export const OUTGOING_MESSAGE_TEMPLATE_PREVIEW = fragment(
  'OutgoingMessageTemplatePreviewFields',
  'OutgoingMessageTemplatePreview',
  'outgoingMessageTemplateSimplyId subjectLine preheader html text sms { encoding characters segments perSegment } unfilledMergeTags',
);
