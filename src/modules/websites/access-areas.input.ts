// Bodies of the access-area routes (docs/api/websites.md "Access areas"): 400 VALIDATION_ERROR
// naming the field. Which collections and filters fit is checked against the team's schema by the
// service (access-areas.service.ts), which also checks that the root pages are the site's.
import { z } from 'zod';
import { PAGE_LIMITS, PAGE_SLUG } from './pages.input.ts';

export const ACCESS_AREA_LIMITS = { name: 200, rootPages: 50, admits: 10, signInMessage: 1000, areasPerSite: 100 } as const;

const pageId = z.string({ message: 'must be a page simplyId' }).regex(/^wpg-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a page simplyId of the website (wpg-XXXX-XXXX-XXXX)');
const name = z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(ACCESS_AREA_LIMITS.name, `at most ${ACCESS_AREA_LIMITS.name} characters`);
const rootPageSimplyIds = z
  .array(pageId, { message: 'must be an array of page simplyIds' })
  .min(1, 'must name at least one page')
  .max(ACCESS_AREA_LIMITS.rootPages, `at most ${ACCESS_AREA_LIMITS.rootPages} pages`)
  .refine((ids) => new Set(ids).size === ids.length, 'names a page twice');

/** one rule of who gets in: a constituent whose record is a live member of the collection meeting every filter */
const admission = z.strictObject({
  dataCollectionSimplyId: z.string({ message: 'must be a collection simplyId' }).min(1, 'must be a collection simplyId'),
  /** record search filters ({ field, operator, value }, AND-ed), as POST …/records/search takes them */
  filters: z.array(z.unknown(), { message: 'must be an array of { field, operator, value }' }).optional(),
});
export type Admission = z.infer<typeof admission>;
const admits = z.array(admission, { message: 'must be an array of { dataCollectionSimplyId, filters? }' }).min(1, 'must let someone in: at least one rule').max(ACCESS_AREA_LIMITS.admits, `at most ${ACCESS_AREA_LIMITS.admits} rules`);
const signInMessage = z.string({ message: 'must be a string' }).trim().max(ACCESS_AREA_LIMITS.signInMessage, `at most ${ACCESS_AREA_LIMITS.signInMessage} characters`).nullable().optional();
const enabled = z.boolean({ message: 'must be true or false' }).optional();

export const createAccessAreaInput = z.strictObject({ name, rootPageSimplyIds, admits, signInMessage, enabled });
export type CreateAccessAreaInput = z.infer<typeof createAccessAreaInput>;

export const updateAccessAreaInput = z.strictObject({ name: name.optional(), rootPageSimplyIds: rootPageSimplyIds.optional(), admits: admits.optional(), signInMessage, enabled });
export type UpdateAccessAreaInput = z.infer<typeof updateAccessAreaInput>;

/** POST …/access-areas/root-page: the area and the new root page it covers */
export const createRootPageAreaInput = z.strictObject({
  name,
  admits,
  signInMessage,
  enabled,
  page: z.strictObject(
    {
      title: z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(PAGE_LIMITS.title, `at most ${PAGE_LIMITS.title} characters`),
      slug: z.string({ message: 'must be a string' }).regex(PAGE_SLUG, `must be 1-${PAGE_LIMITS.slug} lower-case letters, digits and inner hyphens`).optional(),
    },
    { message: 'must be { title, slug? }' },
  ),
});
export type CreateRootPageAreaInput = z.infer<typeof createRootPageAreaInput>;

export const ACCESS_AREA_EXAMPLE = {
  name: 'Members',
  rootPageSimplyIds: ['wpg-AB23-CD45-EF67'],
  admits: [{ dataCollectionSimplyId: 'K7QM-2WXP-9HTC', filters: [{ field: 'HX4M-8KQ2-PLT7', operator: 'eq', value: 'Active' }] }],
  signInMessage: 'These pages are for members. Sign in with the email address we have for you.',
  enabled: true,
};
