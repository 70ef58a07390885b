// The public API of the mail area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { type MailRef, type MailTokens, mailTokensFor, readReturnPath } from './mail-tokens.ts';
export { type MailFeedbackStateName, MAX_SUBJECT, parseMailbox } from './mail.input.ts';
export { SAMPLE_UNSUBSCRIBE_SEGMENT, UNSUBSCRIBE_PATH, UNSUBSCRIBE_URL_SLOT } from './unsubscribe-link.ts';
// conversations' email: the Message-ID a queued mail is sent with, and how long a References header may be
export { mailMessageIdOf } from './mail-delivery.ts';
export { MAX_REFERENCES } from './mail.input.ts';
export type { OutgoingMail } from './mailer.ts';
