// Message template bodies (docs/api/messages.md) and their limits. Both faces validate with these:
// the REST table before the operation runs, the service again for GraphQL callers.
import { z } from 'zod';

export const DELIVERY_METHODS = ['EMAIL', 'SMS', 'WHATSAPP', 'FACEBOOK'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export const DESIGN_FORMATS = ['HTML', 'PLAIN_TEXT'] as const;
export type DesignFormat = (typeof DESIGN_FORMATS)[number];

export const MESSAGE_TEMPLATE_LIMITS = {
  name: 200,
  description: 2000,
  // RFC 5322 §2.1.1: a header line is at most 998 characters (without its CRLF)
  subjectLine: 998,
} as const;

const name = z
  .string({ message: 'must be text of 1-200 characters' })
  .trim()
  .min(1, 'must not be empty')
  .max(MESSAGE_TEMPLATE_LIMITS.name, `must be at most ${MESSAGE_TEMPLATE_LIMITS.name} characters`);

/** Empty (after trimming) is stored as null, so "no description" has one form. */
const description = z
  .string()
  .trim()
  .max(MESSAGE_TEMPLATE_LIMITS.description, `must be at most ${MESSAGE_TEMPLATE_LIMITS.description} characters`)
  .transform((v) => (v === '' ? null : v))
  .nullable();

/** One header line: no line breaks, which would let a subject smuggle in further headers. */
const subjectLine = z
  .string()
  .max(MESSAGE_TEMPLATE_LIMITS.subjectLine, `must be at most ${MESSAGE_TEMPLATE_LIMITS.subjectLine} characters (one email header line)`)
  .refine((v) => !/[\r\n]/.test(v), 'must be one line (no line breaks)')
  .transform((v) => (v.trim() === '' ? null : v))
  .nullable();

export const createMessageTemplateInput = z
  .object({
    name,
    description: description.optional(),
    deliveryMethod: z.enum(DELIVERY_METHODS, { message: `must be one of ${DELIVERY_METHODS.join(', ')}` }).default('EMAIL'),
    subjectLine: subjectLine.optional(),
    designFormat: z.enum(DESIGN_FORMATS, { message: `must be one of ${DESIGN_FORMATS.join(', ')}` }).default('HTML'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.subjectLine != null && !subjectAllowed(input.deliveryMethod)) ctx.addIssue({ code: 'custom', path: ['subjectLine'], message: subjectRefusal(input.deliveryMethod) });
  });

/** Absent keys stay as they are; null clears description or subjectLine. */
export const updateMessageTemplateInput = z
  .object({
    name: name.optional(),
    description: description.optional(),
    subjectLine: subjectLine.optional(),
  })
  .strict();

export type CreateMessageTemplateInput = z.output<typeof createMessageTemplateInput>;
export type UpdateMessageTemplateInput = z.output<typeof updateMessageTemplateInput>;

/** A subject belongs to emails only: other channels have no subject line to put it in. */
export function subjectAllowed(deliveryMethod: string): boolean {
  return deliveryMethod === 'EMAIL';
}

export function subjectRefusal(deliveryMethod: string): string {
  return `only EMAIL templates have a subject line (deliveryMethod is ${deliveryMethod}); leave it out or send null`;
}
