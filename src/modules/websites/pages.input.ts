// Bodies of the page routes (docs/api/websites.md "Pages"): 400 VALIDATION_ERROR naming the field.
import { z } from 'zod';

export const PAGE_LIMITS = { title: 200, slug: 100, metaTitle: 200, metaDescription: 1000, pagesPerSite: 1000, depth: 8 } as const;

/** A page's own path segment: lower-case letters, digits and inner hyphens. */
export const PAGE_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;

const pageId = (what: string) => z.string({ message: `must be ${what}` }).regex(/^wpg-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, `must be ${what} (wpg-XXXX-XXXX-XXXX)`);
const title = z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(PAGE_LIMITS.title, `at most ${PAGE_LIMITS.title} characters`);
const slug = z.string({ message: 'must be a string' }).regex(PAGE_SLUG, `must be 1-${PAGE_LIMITS.slug} lower-case letters, digits and inner hyphens`);
const optionalText = (max: number) => z.string({ message: 'must be a string' }).trim().max(max, `at most ${max} characters`).nullable().optional();

export const createPageInput = z.strictObject({
  title,
  /** default: made from the title */
  slug: slug.optional(),
  parentPageSimplyId: pageId('a page simplyId of the same website').nullable().optional(),
  /** 0-based place among its siblings; default last */
  position: z.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').optional(),
  isHomePage: z.boolean({ message: 'must be true or false' }).optional(),
  metaTitle: optionalText(PAGE_LIMITS.metaTitle),
  metaDescription: optionalText(PAGE_LIMITS.metaDescription),
});
export type CreatePageInput = z.infer<typeof createPageInput>;

export const updatePageInput = z.strictObject({
  title: title.optional(),
  slug: slug.optional(),
  parentPageSimplyId: pageId('a page simplyId of the same website').nullable().optional(),
  isHomePage: z.literal(true, { message: 'can only be set to true (make another page the home page to move it)' }).optional(),
  metaTitle: optionalText(PAGE_LIMITS.metaTitle),
  metaDescription: optionalText(PAGE_LIMITS.metaDescription),
  /** false takes the page off the published site (its published design is kept in its versions); publish with POST …/publish */
  isPublished: z.literal(false, { message: 'can only be set to false here: publish with POST /v1/website-pages/{pageSimplyId}/publish' }).optional(),
});
export type UpdatePageInput = z.infer<typeof updatePageInput>;

type TreeNode = { pageSimplyId: string; children?: TreeNode[] };
const treeNode: z.ZodType<TreeNode> = z.lazy(() => z.strictObject({ pageSimplyId: pageId('a page simplyId'), children: z.array(treeNode).optional() }));

/** PUT …/pages/reorder: the whole tree, every page of the site exactly once. */
export const reorderPagesInput = z.strictObject({
  tree: z.array(treeNode, { message: 'must be an array of { pageSimplyId, children }' }).min(1, 'must name the site\'s pages').max(PAGE_LIMITS.pagesPerSite),
});
export type ReorderPagesInput = z.infer<typeof reorderPagesInput>;
export type PageTreeNode = TreeNode;

/** A path segment made from a title: "Über uns!" → "uber-uns". */
export function slugFromTitle(value: string, fallback = 'page'): string {
  const made = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, PAGE_LIMITS.slug)
    .replace(/-+$/, '');
  return made || fallback;
}
