// Bodies of the template routes (docs/api/websites.md "Templates"), shared by the REST table and
// the services: 400 VALIDATION_ERROR naming the field.
import { z } from 'zod';
import { isLanguageTag } from '../../app/localized-text.ts';
import { slugSchema, WEBSITE_LIMITS } from './websites.input.ts';

export const TEMPLATE_LIMITS = { name: 200, description: 2000, releaseNotes: 5000, listMax: 100 } as const;
export const TEMPLATE_SYNC_MODES = ['AUTO', 'REVIEW'] as const;
export type TemplateSyncMode = (typeof TEMPLATE_SYNC_MODES)[number];

const name = z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(TEMPLATE_LIMITS.name, `at most ${TEMPLATE_LIMITS.name} characters`);
const description = z.string({ message: 'must be a string' }).trim().max(TEMPLATE_LIMITS.description, `at most ${TEMPLATE_LIMITS.description} characters`).nullable().optional();
const websiteRef = z.string({ message: 'must be a website simplyId' });

export const createTemplateInput = z.strictObject({ name, description, sourceWebsiteSimplyId: websiteRef });
export type CreateTemplateInput = z.infer<typeof createTemplateInput>;

export const updateTemplateInput = z.strictObject({ name: name.optional(), description, sourceWebsiteSimplyId: websiteRef.optional() });
export type UpdateTemplateInput = z.infer<typeof updateTemplateInput>;

export const releaseTemplateInput = z.strictObject({
  releaseNotes: z.string({ message: 'must be a string' }).trim().max(TEMPLATE_LIMITS.releaseNotes, `at most ${TEMPLATE_LIMITS.releaseNotes} characters`).nullable().optional(),
  /** default true: AUTO sites get the release now, in a WEBSITE_TEMPLATE_RELEASE task */
  applyAutoSites: z.boolean({ message: 'must be true or false' }).optional(),
  /** default false: true publishes the pages the release changed on the AUTO sites */
  managedPublish: z.boolean({ message: 'must be true or false' }).optional(),
});
export type ReleaseTemplateInput = z.infer<typeof releaseTemplateInput>;

export const websiteFromTemplateInput = z.strictObject({
  name: z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(WEBSITE_LIMITS.name, `at most ${WEBSITE_LIMITS.name} characters`),
  slug: slugSchema.optional(),
  enumAppBrandId: z.string({ message: 'must be a string' }).regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'must be an app brand id in upper case (letters, digits, underscores)').nullable().optional(),
  defaultLanguageTagId: z.string({ message: 'must be a language tag' }).refine(isLanguageTag, 'must be a language tag such as en or de-CH').nullable().optional(),
  /** default REVIEW: nothing changes on the site until an editor applies a release */
  templateSyncMode: z.enum(TEMPLATE_SYNC_MODES, { message: 'must be AUTO or REVIEW' }).optional(),
});
export type WebsiteFromTemplateInput = z.infer<typeof websiteFromTemplateInput>;

export const TEMPLATE_EXAMPLE = { name: 'Chapter site', description: 'The site every local chapter starts from', sourceWebsiteSimplyId: 'web-AB23-CD45-EF67' };
export const FROM_TEMPLATE_EXAMPLE = { name: 'Friends of the Park — Riverside', slug: 'fotp-riverside', defaultLanguageTagId: 'en', templateSyncMode: 'AUTO' };
