// Bodies of the website routes (docs/api/websites.md "Websites"), shared by the REST table (checked
// before the operation runs) and the services (again, for GraphQL callers): 400 VALIDATION_ERROR
// naming the field. Navigation and campaign chrome have files of their own.
import { z } from 'zod';
import { isLanguageTag } from '../../app/localized-text.ts';
import { campaignChromeInput } from './campaign-chrome.input.ts';
import { navigationInput } from './navigation.input.ts';
import { customDomainSchema } from './serve-host.ts';
import { WEBSITE_ROLES } from './website-roles.ts';

export const WEBSITE_LIMITS = {
  name: 200,
  metaTitle: 200,
  metaDescription: 1000,
  url: 2048,
  languages: 50,
  members: 500,
  /** a JSON setting (theme, redirects) as stored */
  settingsBytes: 64 * 1024,
} as const;

/** A site's address under /sites/{slug}: lower-case letters, digits and inner hyphens, 3-63 characters. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;
/** Slugs that would read as one of the platform's own addresses. */
export const RESERVED_SLUGS = new Set(['api', 'www', 'admin', 'app', 'sites', 'static', 'assets', 'preview', 'v1', 'mcp', 'oauth', 'docs']);

const text = (max: number) => z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(max, `at most ${max} characters`);
const optionalText = (max: number) => z.string({ message: 'must be a string' }).trim().max(max, `at most ${max} characters`).nullable().optional();

export const slugSchema = z
  .string({ message: 'must be a string' })
  .regex(SLUG_PATTERN, 'must be 3-63 lower-case letters, digits and inner hyphens')
  .refine((s) => !RESERVED_SLUGS.has(s), 'is reserved by the platform');

const languageTag = z.string({ message: 'must be a language tag' }).refine(isLanguageTag, 'must be a language tag such as en or de-CH');

/** A JSON object of bounded size (theme settings, redirect settings): the platform stores it as given. */
const boundedObject = z
  .record(z.string(), z.unknown(), { message: 'must be an object' })
  .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= WEBSITE_LIMITS.settingsBytes, `at most ${WEBSITE_LIMITS.settingsBytes / 1024} KiB of JSON`);

const httpsUrl = z
  .string({ message: 'must be a URL' })
  .max(WEBSITE_LIMITS.url, `at most ${WEBSITE_LIMITS.url} characters`)
  .refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

export const createWebsiteInput = z.strictObject({
  name: text(WEBSITE_LIMITS.name),
  slug: slugSchema.optional(),
});
export type CreateWebsiteInput = z.infer<typeof createWebsiteInput>;

const member = z.strictObject({
  userSimplyId: z.string({ message: 'must be a user simplyId' }).regex(/^usr-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a user simplyId (usr-XXXX-XXXX-XXXX)'),
  role: z.enum(WEBSITE_ROLES, { message: `must be one of ${WEBSITE_ROLES.join(', ')}` }),
});

/** PUT /v1/websites/{id}: every field optional; only the supplied ones change. */
export const updateWebsiteInput = z
  .strictObject({
    name: text(WEBSITE_LIMITS.name).optional(),
    slug: slugSchema.optional(),
    metaTitle: optionalText(WEBSITE_LIMITS.metaTitle),
    metaDescription: optionalText(WEBSITE_LIMITS.metaDescription),
    socialImageUrl: httpsUrl.nullable().optional(),
    faviconFileSimplyId: z.string({ message: 'must be a file simplyId or null' }).nullable().optional(),
    themeSettings: boundedObject.nullable().optional(),
    navigationJson: navigationInput.optional(),
    /** deprecated alias of navigationJson */
    navigationSettings: navigationInput.optional(),
    headerDesignJson: z.unknown().optional(),
    footerDesignJson: z.unknown().optional(),
    campaignChromeConfig: campaignChromeInput.nullable().optional(),
    googleAnalyticsMeasurementId: z
      .string({ message: 'must be a string' })
      .regex(/^G-[A-Z0-9]{4,16}$/, 'must be a GA4 measurement id such as G-ABC123DEF4')
      .nullable()
      .optional(),
    defaultLanguageTagId: languageTag.nullable().optional(),
    availableLanguageTagIds: z.array(languageTag, { message: 'must be an array of language tags' }).max(WEBSITE_LIMITS.languages, `at most ${WEBSITE_LIMITS.languages} languages`).optional(),
    redirectSettings: boundedObject.nullable().optional(),
    restricted: z.boolean({ message: 'must be true or false' }).optional(),
    /** a hostname of the team's own serving the published site (serve-host.ts); null clears */
    customDomain: customDomainSchema.nullable().optional(),
    /** true takes the site live (the first time with activationToken), false takes it offline */
    isPublished: z.boolean({ message: 'must be true or false' }).optional(),
    activationToken: z.string({ message: 'must be a string' }).max(1000).optional(),
    members: z.array(member, { message: 'must be an array of { userSimplyId, role }' }).max(WEBSITE_LIMITS.members, `at most ${WEBSITE_LIMITS.members} members`).optional(),
  })
  .refine((v) => !(v.navigationJson !== undefined && v.navigationSettings !== undefined), {
    message: 'send navigationJson only (navigationSettings is its deprecated alias)',
    path: ['navigationSettings'],
  });
export type UpdateWebsiteInput = z.infer<typeof updateWebsiteInput>;
