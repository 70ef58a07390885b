// A new page inserted inside a transaction that already holds the site's row lock: POST …/pages
// (pages.service.ts) and the routes that make pages together with something else in one commit (an
// access area with its root page, the blog's pages). The rules: the page limit, the depth, a free
// sibling slug, last among its siblings, the site's first page becomes its home page.
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import type { Tx } from '../../app/transaction.ts';
import type { Website, WebsitePage } from '../../generated/prisma/client.ts';
import { type DesignDocument, emptyDesign } from './design-document.ts';
import { recordActivity } from './page-activity.ts';
import { PageTree } from './page-tree.ts';
import { PAGE_LIMITS, slugFromTitle } from './pages.input.ts';
import { PagePathTakenError } from './websites.errors.ts';
import { websitePageId } from './websites.ids.ts';

export interface NewPage {
  title: string;
  /** absent: made from the title, free among the siblings */
  slug?: string;
  parentId: bigint | null;
  /** a design already checked (design-document.ts checkDesign); default empty */
  design?: DesignDocument;
  metaTitle?: string | null;
  metaDescription?: string | null;
  /** the field a 400 about the page names */
  field: string;
}

function freeSlug(tree: PageTree, parentId: bigint | null, base: string): string {
  const used = new Set(tree.children(parentId).map((p) => p.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, PAGE_LIMITS.slug - String(n).length - 1)}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Inserts the page (the site's row must be locked by the caller's transaction). */
export async function insertPage(ctx: RequestContext, tx: Tx, site: Website, page: NewPage): Promise<WebsitePage> {
  const tree = await PageTree.load(tx, site.teamId, site.id);
  if (tree.pages.length >= PAGE_LIMITS.pagesPerSite) throw new ValidationError('Invalid page', [{ field: page.field, message: `a website has at most ${PAGE_LIMITS.pagesPerSite} pages` }]);
  if (page.parentId !== null && tree.depth(page.parentId) >= PAGE_LIMITS.depth) throw new ValidationError('Invalid page', [{ field: page.field, message: `pages nest at most ${PAGE_LIMITS.depth} deep` }]);
  let slug: string;
  if (page.slug !== undefined) {
    if (tree.children(page.parentId).some((p) => p.slug === page.slug)) throw new PagePathTakenError([...(page.parentId === null ? [] : tree.segments(page.parentId)), page.slug].join('/'));
    slug = page.slug;
  } else slug = freeSlug(tree, page.parentId, slugFromTitle(page.title));
  const created = await tx.websitePage.create({
    data: {
      simplyId: websitePageId.create(),
      teamId: site.teamId,
      websiteId: site.id,
      parentId: page.parentId,
      position: tree.children(page.parentId).length,
      title: page.title,
      slug,
      isHomePage: tree.pages.length === 0,
      metaTitle: page.metaTitle ?? null,
      metaDescription: page.metaDescription ?? null,
      draftDesign: (page.design ?? emptyDesign()) as never,
      createdByUserId: ctx.principal.userId,
    },
  });
  await recordActivity(tx, created, 'CREATED', { userId: ctx.principal.userId, revision: 1 });
  return created;
}
