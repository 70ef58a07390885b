// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

export const MESSAGE_TEMPLATE = fragment('MessageTemplateFields', 'MessageTemplate', 'id name description deliveryMethod subjectLine designFormat archivedAt createdAt updatedAt');
export const MAIL_DOMAIN = fragment(
  'MailDomainFields',
  'MailDomain',
  'id domain status verification { recordType recordName recordValue } verifiedAt lastCheckedAt lastCheckError createdAt',
);
export const MESSAGE_SENDER = fragment('MessageSenderFields', 'MessageSender', 'id name deliveryMethod emailAddress phoneNumber isDefault verificationStatus verifiedAt createdAt updatedAt');
