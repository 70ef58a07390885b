// Bodies and list arguments of template authoring, /v1/outgoing-message-templates
// (docs/api/outgoing-message-templates.md), and their limits. Both faces validate with these: the
// REST table before the operation runs, the service again for GraphQL callers. What zod cannot
// know (the stored template's channel, the collection its merge tags name) the service checks.
import { z } from 'zod';
import { optionalText, textProblem } from '../../kernel/index.ts';
import { DELIVERY_METHODS, DESIGN_FORMATS, MESSAGE_TEMPLATE_LIMITS, type DeliveryMethod } from './message-templates.input.ts';

export const TEMPLATE_SORTS = ['createdAt_DESC', 'createdAt_ASC', 'updatedAt_DESC', 'name_ASC'] as const;
export type TemplateSort = (typeof TEMPLATE_SORTS)[number];

export const AUTHORING_LIMITS = {
  name: MESSAGE_TEMPLATE_LIMITS.name,
  description: MESSAGE_TEMPLATE_LIMITS.description,
  // what a message's subject can carry (one Subject line of the mail transport), so any authored
  // subject can start a message
  subjectLine: 255,
  preheader: 255,
  // below a message's 500 000, so the body with its preheader always fits a message
  htmlContent: 490_000,
  /** characters of the design JSON as serialized */
  designJson: 500_000,
  search: 200,
  sampleValues: 100,
  sampleValue: 1000,
} as const;

/** The body's limit by channel: an email's text part, or what one message of the channel carries. */
export const TEXT_LIMITS: Record<DeliveryMethod, number> = {
  EMAIL: 200_000,
  // ten concatenated segments, what carriers deliver as one message
  SMS: 1600,
  WHATSAPP: 4096,
  FACEBOOK: 2000,
};

const MAX_TEXT = Math.max(...Object.values(TEXT_LIMITS));

const name = z
  .string({ message: `must be text of 1-${AUTHORING_LIMITS.name} characters` })
  .trim()
  .min(1, 'must not be empty')
  .max(AUTHORING_LIMITS.name, `must be at most ${AUTHORING_LIMITS.name} characters`)
  .refine((v) => textProblem(v, { singleLine: true }) === null, 'must be one line without control characters');

/** Empty (after trimming) is stored as null, so "no description" has one form. */
const description = z
  .string({ message: 'must be text' })
  .trim()
  .max(AUTHORING_LIMITS.description, `must be at most ${AUTHORING_LIMITS.description} characters`)
  .transform((v) => (v === '' ? null : v))
  .nullable();

/** One line (subject, preheader): no line breaks or control characters; only spaces is stored as null. */
/** The email builder's own description of the design: any JSON object, within the size limit. */
const designJson = z
  .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'must be a JSON object')
  .refine((v) => JSON.stringify(v).length <= AUTHORING_LIMITS.designJson, `must be at most ${AUTHORING_LIMITS.designJson} characters as JSON`)
  .nullable();

const DATA_ID = /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const collectionId = z
  .string({ message: 'must be a collection simplyId (XXXX-XXXX-XXXX)' })
  .regex(DATA_ID, 'must be a collection simplyId (XXXX-XXXX-XXXX)')
  .nullable();

const content = {
  description: description.optional(),
  subjectLine: optionalText(AUTHORING_LIMITS.subjectLine, { lineOf: 'one email Subject line' }).optional(),
  preheader: optionalText(AUTHORING_LIMITS.preheader, { lineOf: 'the preview line after the subject' }).optional(),
  htmlContent: optionalText(AUTHORING_LIMITS.htmlContent).optional(),
  textContent: optionalText(MAX_TEXT).optional(),
  designJson: designJson.optional(),
  dataCollectionSimplyId: collectionId.optional(),
};

export type AuthoredContent = {
  subjectLine?: string | null;
  preheader?: string | null;
  htmlContent?: string | null;
  textContent?: string | null;
  designJson?: Record<string, unknown> | null;
};

/** Fields only an EMAIL template has, and those only its HTML design has. */
export const EMAIL_ONLY = ['subjectLine', 'preheader'] as const;
export const HTML_ONLY = ['htmlContent', 'designJson'] as const;

/**
 * The channel rules, on what a request sets: `deliveryMethod` and `designFormat` are the template's
 * (given, or stored). A value set to null is always fine (it clears).
 */
export function channelIssues(input: AuthoredContent, deliveryMethod: string, designFormat: string): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if (deliveryMethod !== 'EMAIL') {
    for (const field of EMAIL_ONLY) if (input[field] != null) issues.push({ field, message: `only EMAIL templates have a ${field} (deliveryMethod is ${deliveryMethod}); leave it out or send null` });
  }
  if (designFormat !== 'HTML') {
    for (const field of HTML_ONLY) if (input[field] != null) issues.push({ field, message: `belongs to HTML templates only (designFormat is ${designFormat}): the body is textContent` });
  }
  const limit = TEXT_LIMITS[deliveryMethod as DeliveryMethod] ?? MAX_TEXT;
  if (input.textContent != null && input.textContent.length > limit) {
    issues.push({ field: 'textContent', message: `must be at most ${limit} characters for a ${deliveryMethod} template` });
  }
  return issues;
}

export const createOutgoingMessageTemplateInput = z
  .object({
    name,
    deliveryMethod: z.enum(DELIVERY_METHODS, { message: `must be one of ${DELIVERY_METHODS.join(', ')}` }).default('EMAIL'),
    // default: HTML for EMAIL, PLAIN_TEXT for the other channels (set by the service)
    designFormat: z.enum(DESIGN_FORMATS, { message: `must be one of ${DESIGN_FORMATS.join(', ')}` }).optional(),
    ...content,
  })
  .strict()
  .superRefine((input, ctx) => {
    const format = input.designFormat ?? defaultDesignFormat(input.deliveryMethod);
    if (input.deliveryMethod !== 'EMAIL' && format === 'HTML') {
      ctx.addIssue({ code: 'custom', path: ['designFormat'], message: `only EMAIL templates have an HTML design (deliveryMethod is ${input.deliveryMethod}): use PLAIN_TEXT or leave it out` });
    }
    for (const issue of channelIssues(input, input.deliveryMethod, format)) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  });

/** Absent keys stay as they are; null clears (name cannot be cleared). The channel and the design format are the template's for good. */
export const updateOutgoingMessageTemplateInput = z.object({ name: name.optional(), ...content }).strict();

export const duplicateOutgoingMessageTemplateInput = z.object({ name: name.optional() }).strict();

const tagName = z
  .string()
  .min(1, 'a merge tag name must not be empty')
  .max(80, 'a merge tag name has at most 80 characters')
  .refine((v) => !/[\s{}]/.test(v), 'a merge tag name has no spaces or braces');

export const previewOutgoingMessageTemplateInput = z
  .object({
    dataRecordSimplyId: z.string({ message: 'must be a record simplyId (XXXX-XXXX-XXXX)' }).nullable().optional(),
    sampleValues: z
      .record(tagName, z.string({ message: 'must be text' }).max(AUTHORING_LIMITS.sampleValue, `must be at most ${AUTHORING_LIMITS.sampleValue} characters`), {
        message: 'must be an object of merge tag names and their sample text',
      })
      .refine((o) => Object.keys(o).length <= AUTHORING_LIMITS.sampleValues, `give at most ${AUTHORING_LIMITS.sampleValues} sample values`)
      .nullable()
      .optional(),
  })
  .strict();

export type CreateOutgoingMessageTemplateInput = z.output<typeof createOutgoingMessageTemplateInput>;
export type UpdateOutgoingMessageTemplateInput = z.output<typeof updateOutgoingMessageTemplateInput>;
export type PreviewOutgoingMessageTemplateInput = z.output<typeof previewOutgoingMessageTemplateInput>;

export function defaultDesignFormat(deliveryMethod: string): 'HTML' | 'PLAIN_TEXT' {
  return deliveryMethod === 'EMAIL' ? 'HTML' : 'PLAIN_TEXT';
}
