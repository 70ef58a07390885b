// Content template bodies and list arguments (docs/api/content-templates.md) and their limits.
// Both faces validate with these: the REST table before the operation runs, the service again
// for GraphQL callers. What zod cannot know (the collection, the member, the caller) the service checks.
import { z } from 'zod';
import { isLanguageTag } from '../../app/localized-text.ts';
import { membershipId } from '../../app/ids.ts';
import { documentSettingsInput } from './document-settings.input.ts';
import { contentTemplateId } from './content-templates.ids.ts';

/** What a template backs: stored usage types, and STANDALONE (none of them) as a list filter. */
export const STORED_USAGE_TYPES = ['OUTGOING_MESSAGE', 'CANNED_RESPONSE'] as const;
export const USAGE_TYPES = [...STORED_USAGE_TYPES, 'STANDALONE'] as const;
export const TEMPLATE_DELIVERY_METHODS = ['EMAIL', 'SMS'] as const;
export const TEMPLATE_SCOPES = ['TEAM', 'PERSONAL'] as const;
export const TEMPLATE_SORTS = ['createdAt_DESC', 'createdAt_ASC', 'name_ASC'] as const;

export const CONTENT_TEMPLATE_LIMITS = {
  name: 200,
  description: 2000,
  textContent: 100_000,
  designHtml: 500_000,
  /** characters of the design JSON as serialized */
  designJson: 500_000,
  search: 200,
  languages: 50,
} as const;

const DATA_ID = /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const dataSimplyId = (label: string) => z.string({ message: `must be a ${label} simplyId (XXXX-XXXX-XXXX)` }).regex(DATA_ID, `must be a ${label} simplyId (XXXX-XXXX-XXXX)`);
export const templateSimplyId = z.string({ message: 'must be a content template simplyId' }).regex(contentTemplateId.pattern, 'must be a content template simplyId (ctpl-XXXX-XXXX-XXXX)');

const textOf = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/** `{ "<language tag>": text }`: 1-50 languages, every text trimmed and 1-`max` characters. */
const byLanguage = (max: number) =>
  z
    .record(z.string().refine(isLanguageTag, 'keys must be language tags such as "en" or "pt-BR"'), textOf(max).min(1, 'must not be empty'))
    .refine((o) => Object.keys(o).length >= 1 && Object.keys(o).length <= CONTENT_TEMPLATE_LIMITS.languages, `give between 1 and ${CONTENT_TEMPLATE_LIMITS.languages} languages`);

const name = z.union([textOf(CONTENT_TEMPLATE_LIMITS.name).min(1, 'must not be empty'), byLanguage(CONTENT_TEMPLATE_LIMITS.name)], {
  message: `must be text of 1-${CONTENT_TEMPLATE_LIMITS.name} characters, or an object of such texts by language tag`,
});

/** Empty text is stored as null, so "no description" has one form. */
const description = z
  .union([textOf(CONTENT_TEMPLATE_LIMITS.description).transform((v) => (v === '' ? null : v)), byLanguage(CONTENT_TEMPLATE_LIMITS.description)], {
    message: `must be text of at most ${CONTENT_TEMPLATE_LIMITS.description} characters, or an object of such texts by language tag`,
  })
  .nullable();

const textContent = z
  .string({ message: 'must be text' })
  .max(CONTENT_TEMPLATE_LIMITS.textContent, `must be at most ${CONTENT_TEMPLATE_LIMITS.textContent} characters`)
  .transform((v) => (v.trim() === '' ? null : v))
  .nullable();

const designHtml = z
  .string({ message: 'must be HTML text' })
  .max(CONTENT_TEMPLATE_LIMITS.designHtml, `must be at most ${CONTENT_TEMPLATE_LIMITS.designHtml} characters`)
  .transform((v) => (v.trim() === '' ? null : v))
  .nullable();

/** The editor's own description of the design: any JSON object, within the size limit. */
const designJson = z
  .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'must be a JSON object')
  .refine((v) => JSON.stringify(v).length <= CONTENT_TEMPLATE_LIMITS.designJson, `must be at most ${CONTENT_TEMPLATE_LIMITS.designJson} characters as JSON`)
  .nullable();

const usageTypes = z
  .array(z.enum(USAGE_TYPES, { message: `must be one of ${USAGE_TYPES.join(', ')}` }), { message: 'must be a list of usage types' })
  .max(USAGE_TYPES.length * 2)
  .transform((list) => [...new Set(list)]);

/** The body as sent (REST validates this; the service also sorts it into the two kinds). */
export const createContentTemplateBody = z
  .object({
    name,
    description: description.optional(),
    textContent: textContent.optional(),
    usageTypes: usageTypes.optional(),
    deliveryMethod: z.enum(TEMPLATE_DELIVERY_METHODS, { message: `must be one of ${TEMPLATE_DELIVERY_METHODS.join(', ')}` }).optional(),
    documentSettings: documentSettingsInput.nullable().optional(),
    dataCollectionSimplyId: dataSimplyId('collection').optional(),
    templateScope: z.enum(TEMPLATE_SCOPES, { message: `must be one of ${TEMPLATE_SCOPES.join(', ')}` }).optional(),
    ownerTeamUserLinkSimplyId: z.string().regex(membershipId.pattern, 'must be a team membership simplyId (tul-XXXX-XXXX-XXXX)').optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
    if (input.dataCollectionSimplyId === undefined) {
      // an outgoing-message or canned-response template
      const stored = (input.usageTypes ?? []).filter((u) => u !== 'STANDALONE');
      if (stored.length === 0 || input.usageTypes!.includes('STANDALONE')) {
        issue('usageTypes', 'give OUTGOING_MESSAGE and/or CANNED_RESPONSE (a document template instead needs dataCollectionSimplyId)');
      }
      if (input.textContent == null) issue('textContent', 'is required for an outgoing-message or canned-response template');
      for (const field of ['documentSettings', 'templateScope', 'ownerTeamUserLinkSimplyId'] as const) {
        if (input[field] !== undefined) issue(field, 'belongs to document templates only: give dataCollectionSimplyId too');
      }
    } else {
      if (input.usageTypes?.some((u) => u !== 'STANDALONE')) issue('usageTypes', 'a document template is STANDALONE: leave usageTypes out, or send [] or ["STANDALONE"]');
      if (input.deliveryMethod !== undefined) issue('deliveryMethod', 'belongs to outgoing-message and canned-response templates only');
      if (input.ownerTeamUserLinkSimplyId !== undefined && input.templateScope !== 'PERSONAL') issue('ownerTeamUserLinkSimplyId', 'is for PERSONAL templates only');
    }
  });

export const createContentTemplateInput = createContentTemplateBody.transform((input) =>
    input.dataCollectionSimplyId === undefined
      ? {
          kind: 'MESSAGE' as const,
          name: input.name,
          description: input.description ?? null,
          textContent: input.textContent ?? null,
          usageTypes: (input.usageTypes ?? []).filter((u) => u !== 'STANDALONE'),
          deliveryMethod: input.deliveryMethod ?? 'EMAIL',
        }
      : {
          kind: 'DOCUMENT' as const,
          name: input.name,
          description: input.description ?? null,
          textContent: input.textContent ?? null,
          documentSettings: input.documentSettings ?? null,
          dataCollectionSimplyId: input.dataCollectionSimplyId,
          templateScope: input.templateScope ?? 'TEAM',
          ownerTeamUserLinkSimplyId: input.ownerTeamUserLinkSimplyId ?? null,
        },
  );

/** Absent keys stay as they are; null clears (name excepted). */
export const updateContentTemplateInput = z
  .object({
    name: name.optional(),
    description: description.optional(),
    textContent: textContent.optional(),
    designJson: designJson.optional(),
    designHtml: designHtml.optional(),
    documentSettings: documentSettingsInput.nullable().optional(),
  })
  .strict();

export const copyContentTemplateInput = z
  .object({
    dataCollectionSimplyId: dataSimplyId('collection').optional(),
    templateScope: z.enum(TEMPLATE_SCOPES, { message: `must be one of ${TEMPLATE_SCOPES.join(', ')}` }).optional(),
  })
  .strict();

export const previewRenderInput = z
  .object({
    dataRecordSimplyId: dataSimplyId('record'),
    // signing roles do not exist yet: the key is checked for shape and otherwise has no effect
    previewRoleKey: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, "_", "-" or "."').nullable().optional(),
  })
  .strict();

export const linkTemplateInput = z.object({ contentTemplateSimplyId: templateSimplyId }).strict();

export const listContentTemplatesArgs = z.object({
  limit: z.number().int().nullish(),
  offset: z.number().int().nullish(),
  search: z.string().max(CONTENT_TEMPLATE_LIMITS.search, `must be at most ${CONTENT_TEMPLATE_LIMITS.search} characters`).nullish(),
  usageType: z.enum(USAGE_TYPES, { message: `must be one of ${USAGE_TYPES.join(', ')}` }).nullish(),
  sort: z.enum(TEMPLATE_SORTS, { message: `must be one of ${TEMPLATE_SORTS.join(', ')}` }).nullish(),
  includeArchived: z.boolean().nullish(),
});

export type CreateContentTemplateInput = z.output<typeof createContentTemplateInput>;
export type UpdateContentTemplateInput = z.output<typeof updateContentTemplateInput>;
export type ListContentTemplatesArgs = z.input<typeof listContentTemplatesArgs>;
