// Inputs of the AI assistance routes (docs/api/conversations.md "AI assistance"), shared by the
// GraphQL face and the REST table: both answer 400 VALIDATION_ERROR naming the field.
import { z } from 'zod';
import { canonicalLanguageTag } from './language-detect.ts';
import { CONVERSATION_LIMITS } from './conversations.input.ts';

export const AI_LIMITS = {
  /** suggestions one request may ask for (default the most) */
  maxSuggestions: 3,
  /** the agent's own words on what the reply should say */
  instructions: 500,
  /** the thread's newest messages the model reads */
  groundingMessages: 20,
  /** characters of one message the model reads (the start of a longer one) */
  groundingMessageCharacters: 2_000,
  /** canned responses the model is offered, by name */
  groundingCannedResponses: 20,
  /** characters of one canned response's text the model reads */
  groundingCannedCharacters: 1_000,
  /** the linked record's fields the model reads */
  groundingFields: 40,
  /** characters of one suggestion or translation answered */
  answerCharacters: CONVERSATION_LIMITS.content,
  contentGapsDefaultLimit: 25,
  contentGapsMaxLimit: 100,
} as const;

export const SUGGESTION_TONES = ['NEUTRAL', 'FRIENDLY', 'FORMAL', 'EMPATHETIC'] as const;

const NOT_AN_OBJECT = { error: 'The request body must be a JSON object' };

/** a BCP-47 tag ("de", "pt-BR"), answered in its canonical case */
export const languageTagSchema = z
  .string({ message: 'must be a language tag such as "en" or "pt-BR"' })
  .max(35, 'must be at most 35 characters')
  .transform((raw, ctx) => {
    const tag = canonicalLanguageTag(raw.trim());
    if (tag) return tag;
    ctx.addIssue({ code: 'custom', message: 'must be a language tag such as "en" or "pt-BR"' });
    return z.NEVER;
  });

const instructions = z
  .string({ message: 'must be text' })
  .max(AI_LIMITS.instructions, `must be at most ${AI_LIMITS.instructions} characters`)
  .refine((v) => !/\u0000/.test(v), 'must not contain NUL characters');

/** POST …/inbox/{id}/suggest-replies: every field optional. */
export const suggestRepliesInput = z.strictObject(
  {
    count: z.number({ message: `must be a whole number from 1 to ${AI_LIMITS.maxSuggestions}` }).int(`must be a whole number from 1 to ${AI_LIMITS.maxSuggestions}`).min(1, `must be at least 1`).max(AI_LIMITS.maxSuggestions, `must be at most ${AI_LIMITS.maxSuggestions}`).nullish(),
    tone: z.enum(SUGGESTION_TONES, { message: `must be one of ${SUGGESTION_TONES.join(', ')}` }).nullish(),
    language: languageTagSchema.nullish(),
    instructions: instructions.nullish(),
  },
  NOT_AN_OBJECT,
);
export type SuggestRepliesInput = z.output<typeof suggestRepliesInput>;

/** POST …/inbox/{id}/messages/{messageId}/translate: the language to translate into (default the caller's). */
export const translateMessageInput = z.strictObject({ targetLanguage: languageTagSchema.nullish() }, NOT_AN_OBJECT);
export type TranslateMessageInput = z.output<typeof translateMessageInput>;

/** POST …/inbox/{id}/translate-outgoing: the agent's draft, into the visitor's language unless named. */
export const translateOutgoingInput = z.strictObject(
  {
    content: z
      .string({ message: 'is required' })
      .max(CONVERSATION_LIMITS.content, `must be at most ${CONVERSATION_LIMITS.content} characters`)
      .refine((v) => v.trim() !== '', 'is required and cannot be blank')
      .refine((v) => !/\u0000/.test(v), 'must not contain NUL characters'),
    targetLanguage: languageTagSchema.nullish(),
  },
  NOT_AN_OBJECT,
);
export type TranslateOutgoingInput = z.output<typeof translateOutgoingInput>;

/** GET /v1/conversations/analytics/content-gaps */
export const contentGapsInput = z.strictObject({
  limit: z.number().nullish(),
  offset: z.number().nullish(),
  since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with a time zone (e.g. "2026-12-01T00:00:00Z")' }).nullish(),
});
export type ContentGapsInput = z.output<typeof contentGapsInput>;
