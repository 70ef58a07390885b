// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

/** a message without its bodies: what lists show (and read) */
export const MAIL_MESSAGE_SUMMARY = fragment(
  'MailMessageSummaryFields',
  'MailMessage',
  'id from to cc bcc replyTo subject transport status attempts messageId errorMessage source sourceId feedbackState feedbackAt feedbackDetail createdAt sentAt',
);

/** a message with its text and html bodies */
export const MAIL_MESSAGE = fragment('MailMessageFields', 'MailMessage', selection`${MAIL_MESSAGE_SUMMARY} text html`);
