// Outgoing message bodies (docs/api/outgoing-messages.md) and their limits. Both faces validate
// with these: the REST table before the operation runs, the service again for GraphQL callers.
// Recipient filters are checked by the service against the collection's fields (the record-search
// filter language), so here they only have to be present in the right place.
import { z } from 'zod';
import { optionalText, parseEmail, textProblem } from '../../kernel/index.ts';
import { DELIVERY_METHODS } from '../messages/index.ts';

export { DELIVERY_METHODS };

export const MESSAGE_STATUSES = ['DRAFT', 'AWAITING_APPROVAL', 'APPROVED', 'SCHEDULED', 'SENDING', 'SENT', 'ERROR_SENDING'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const CONTENT_TYPES = ['HTML', 'PLAIN_TEXT'] as const;

export const OUTGOING_MESSAGE_LIMITS = {
  internalName: 200,
  // what the mail transport carries in one Subject header (src/modules/mail/mail.input.ts)
  subjectLine: 255,
  textContent: 200_000,
  htmlContent: 500_000,
  testRecipients: 5,
} as const;

const internalName = z
  .string({ message: `must be text of 1-${OUTGOING_MESSAGE_LIMITS.internalName} characters` })
  .trim()
  .min(1, 'must not be empty')
  .max(OUTGOING_MESSAGE_LIMITS.internalName, `must be at most ${OUTGOING_MESSAGE_LIMITS.internalName} characters`)
  .refine((v) => textProblem(v, { singleLine: true }) === null, 'must be one line without control characters');

/** One header line; a subject made only of spaces is stored as null. Also checks a template's subject before it fills a message. */
export const messageSubjectLine = optionalText(OUTGOING_MESSAGE_LIMITS.subjectLine, { lineOf: 'one email Subject line' });

// stays an ISO string (the output is still a GraphQL input the REST table hands on); services read it with `new Date`
const dateTime = z
  .string({ message: 'must be an ISO 8601 date-time' })
  .refine((v) => z.iso.datetime({ offset: true }).safeParse(v).success, { message: 'must be an ISO 8601 date-time such as 2027-01-31T12:00:00Z', abort: true });

const futureDateTime = dateTime.refine((v) => Date.parse(v) > Date.now(), 'must be in the future');

const id = (what: string) => z.string({ message: `must be ${what}` }).min(1, `must be ${what}`);

/** Who receives the message: records of a collection (narrowed by a view and filters) and the field holding their address. */
export const recipientSelectionInput = z
  .object({
    dataCollectionSimplyId: id('a collection simplyId'),
    dataViewSimplyId: id('a data view simplyId of the collection').nullable().optional(),
    // validated against the collection's fields by the service (records search rules)
    filters: z.unknown().optional(),
    emailFieldSimplyId: id('an EMAIL_ADDRESS field simplyId of the collection').nullable().optional(),
  })
  .strict();

const deliveryMethod = z.enum(DELIVERY_METHODS, { message: `must be one of ${DELIVERY_METHODS.join(', ')}` });
const contentType = z.enum(CONTENT_TYPES, { message: `must be one of ${CONTENT_TYPES.join(', ')}` });

const fields = {
  subjectLine: messageSubjectLine.optional(),
  textContent: optionalText(OUTGOING_MESSAGE_LIMITS.textContent).optional(),
  htmlContent: optionalText(OUTGOING_MESSAGE_LIMITS.htmlContent).optional(),
  messageSenderSimplyId: id('a message sender simplyId').nullable().optional(),
  outgoingMessageTemplateSimplyId: id('a message template simplyId').nullable().optional(),
  recipients: recipientSelectionInput.nullable().optional(),
  scheduledAt: futureDateTime.nullable().optional(),
};

/**
 * No defaults here: a template fills deliveryMethod and contentType the body leaves out, so the
 * service applies EMAIL and HTML only when neither the body nor a template gives them.
 */
export const createOutgoingMessageInput = z
  .object({ internalName, deliveryMethod: deliveryMethod.optional(), contentType: contentType.optional(), ...fields })
  .strict()
  .superRefine((input, ctx) => {
    if (input.subjectLine != null && input.deliveryMethod !== undefined && input.deliveryMethod !== 'EMAIL') {
      ctx.addIssue({ code: 'custom', path: ['subjectLine'], message: subjectRefusal(input.deliveryMethod) });
    }
  });

/** Absent keys stay as they are; null clears (internalName, deliveryMethod and contentType cannot be cleared). */
export const updateOutgoingMessageInput = z
  .object({ internalName: internalName.optional(), deliveryMethod: deliveryMethod.optional(), contentType: contentType.optional(), ...fields })
  .strict();

export const setOutgoingMessageStatusInput = z
  .object({
    status: z.enum(MESSAGE_STATUSES, { message: `must be one of ${MESSAGE_STATUSES.join(', ')}` }),
    // in the future: checked by the service, which knows whether the move schedules
    scheduledAt: dateTime.nullable().optional(),
  })
  .strict();

const testAddress = z.string({ message: 'must be an email address' }).transform((raw, ctx) => {
  const parsed = parseEmail(raw.trim());
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.value;
});

export const testSendInput = z
  .object({
    to: z
      .array(testAddress, { message: `must be a list of 1-${OUTGOING_MESSAGE_LIMITS.testRecipients} email addresses` })
      .min(1, 'needs at least one address')
      .max(OUTGOING_MESSAGE_LIMITS.testRecipients, `at most ${OUTGOING_MESSAGE_LIMITS.testRecipients} addresses`),
    dataRecordSimplyId: id('a record simplyId of the recipients\' collection').nullable().optional(),
  })
  .strict();

export const messageSettingsInput = z.object({ approvalRequired: z.boolean({ message: 'must be true or false' }) }).strict();

export type CreateOutgoingMessageInput = z.output<typeof createOutgoingMessageInput>;
export type UpdateOutgoingMessageInput = z.output<typeof updateOutgoingMessageInput>;
export type RecipientSelectionInput = z.output<typeof recipientSelectionInput>;

export function subjectRefusal(deliveryMethod: string): string {
  return `only EMAIL messages have a subject line (deliveryMethod is ${deliveryMethod}); leave it out or send null`;
}
