// Pages of a website: a tree with paths (docs/api/websites.md "Pages"). Every change of the tree
// takes the site's row lock, so sibling slugs stay unique, a move never makes a cycle and positions
// stay 0…n-1 among siblings under concurrent writes.
import type { RequestContext } from '../../app/context.ts';
import { ApiError, ValidationError } from '../../app/errors.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { Prisma, type Website, type WebsitePage } from '../../generated/prisma/client.ts';
import { recordActivity } from './page-activity.ts';
import { insertPage } from './page-insert.ts';
import { PageTree, type TreePage } from './page-tree.ts';
import { createPageInput, PAGE_LIMITS, type PageTreeNode, reorderPagesInput, updatePageInput } from './pages.input.ts';
import { pageFor, siteFor } from './website-access.ts';
import type { WebsiteRole } from './website-roles.ts';
import { PagePathTakenError } from './websites.errors.ts';

export interface PageView {
  page: WebsitePage;
  site: Website;
  role: WebsiteRole;
  path: string;
  parentSimplyId: string | null;
}

const viewOf = (tree: PageTree, site: Website, role: WebsiteRole, page: WebsitePage): PageView => ({
  page,
  site,
  role,
  path: tree.path(page.id),
  parentSimplyId: page.parentId === null ? null : (tree.byId.get(page.parentId)?.simplyId ?? null),
});

/** DRAFT: never published (or taken off); PUBLISHED: the published design is the draft; MODIFIED: the draft changed since. */
export function publishState(page: Pick<WebsitePage, 'publishedDesign' | 'publishedRevision' | 'draftRevision'>): 'DRAFT' | 'PUBLISHED' | 'MODIFIED' {
  if (page.publishedDesign === null || page.publishedRevision === null) return 'DRAFT';
  return page.publishedRevision === page.draftRevision ? 'PUBLISHED' : 'MODIFIED';
}

export class PageHasChildrenError extends ApiError {
  constructor(simplyId: string, children: string[]) {
    super(409, 'WEBSITE_PAGE_HAS_CHILDREN', `Page ${simplyId} has pages under it: move or delete them first`, { details: children.map((c) => ({ field: 'pageSimplyId', message: c })) });
  }
}

function assertSlugFree(tree: PageTree, parentId: bigint | null, slug: string, except: bigint | null): void {
  const clash = tree.children(parentId).find((p) => p.slug === slug && p.id !== except);
  if (clash) throw new PagePathTakenError([...(parentId === null ? [] : tree.segments(parentId)), slug].join('/'));
}

function parentIn(tree: PageTree, simplyId: string | null | undefined, field: string): TreePage | null {
  if (simplyId === null || simplyId === undefined) return null;
  const parent = tree.pages.find((p) => p.simplyId === simplyId);
  if (!parent) throw new ValidationError('Invalid page', [{ field, message: `page ${simplyId} is not a page of this website` }]);
  return parent;
}

/** Renumbers the siblings under `parentId` 0…n-1 with `moving` placed at `position` (absent: last). */
async function placeAmongSiblings(tx: Tx, tree: PageTree, teamId: bigint, parentId: bigint | null, moving: bigint, position: number | undefined): Promise<void> {
  const siblings = tree.children(parentId).filter((p) => p.id !== moving);
  siblings.splice(Math.min(position ?? siblings.length, siblings.length), 0, { id: moving } as TreePage);
  for (const [index, p] of siblings.entries()) {
    if (p.id === moving || p.position !== index) await tx.websitePage.update({ where: { id: p.id, teamId }, data: { position: index } });
  }
}

/** Makes `pageId` the site's one home page (any other loses the mark). A home page is a root page. */
async function makeHomePage(tx: Tx, site: Website, pageId: bigint): Promise<void> {
  await tx.websitePage.updateMany({ where: { teamId: site.teamId, websiteId: site.id, isHomePage: true, NOT: { id: pageId } }, data: { isHomePage: false } });
  await tx.websitePage.update({ where: { id: pageId, teamId: site.teamId }, data: { isHomePage: true } });
}

export async function listPages(ctx: RequestContext, websiteSimplyId: string): Promise<PageView[]> {
  const db = ctx.services.prisma;
  const { site, role } = await siteFor(ctx, db, websiteSimplyId, 'VIEWER');
  const pages = await db.websitePage.findMany({ where: { teamId: site.teamId, websiteId: site.id } });
  const tree = new PageTree(pages);
  const byId = new Map(pages.map((p) => [p.id, p]));
  return tree.ordered().map((t) => viewOf(tree, site, role, byId.get(t.id)!));
}

export async function getPage(ctx: RequestContext, pageSimplyId: string): Promise<PageView> {
  const db = ctx.services.prisma;
  const { site, role, page } = await pageFor(ctx, db, pageSimplyId, 'VIEWER');
  return viewOf(await PageTree.load(db, site.teamId, site.id), site, role, page);
}

export async function createPage(ctx: RequestContext, websiteSimplyId: string, raw: unknown): Promise<PageView> {
  const input = parseInput(createPageInput, raw, 'Invalid page');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site, role } = await siteFor(ctx, tx, websiteSimplyId, 'EDITOR', { lock: true });
    const tree = await PageTree.load(tx, site.teamId, site.id);
    const parent = parentIn(tree, input.parentPageSimplyId, 'parentPageSimplyId');
    const home = input.isHomePage ?? tree.pages.length === 0;
    if (home && parent) throw new ValidationError('Invalid page', [{ field: 'isHomePage', message: 'the home page is a root page: leave parentPageSimplyId out' }]);
    const parentId = parent?.id ?? null;
    const page = await insertPage(ctx, tx, site, { title: input.title, slug: input.slug, parentId, field: 'parentPageSimplyId', metaTitle: input.metaTitle, metaDescription: input.metaDescription });
    if (input.position !== undefined) await placeAmongSiblings(tx, await PageTree.load(tx, site.teamId, site.id), site.teamId, parentId, page.id, input.position);
    if (home) await makeHomePage(tx, site, page.id);
    const fresh = await tx.websitePage.findUniqueOrThrow({ where: { id: page.id, teamId: site.teamId } });
    return viewOf(await PageTree.load(tx, site.teamId, site.id), site, role, fresh);
  });
}

export async function updatePage(ctx: RequestContext, pageSimplyId: string, raw: unknown): Promise<PageView> {
  const input = parseInput(updatePageInput, raw, 'Invalid page');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site, role, page } = await pageFor(ctx, tx, pageSimplyId, 'EDITOR', { lock: true });
    const tree = await PageTree.load(tx, site.teamId, site.id);
    let parentId = page.parentId;
    if (input.parentPageSimplyId !== undefined) {
      const parent = parentIn(tree, input.parentPageSimplyId, 'parentPageSimplyId');
      if (parent && tree.subtree(page.id).has(parent.id)) throw new ValidationError('Invalid page', [{ field: 'parentPageSimplyId', message: 'a page cannot move under itself or a page below it' }]);
      if (parent && (page.isHomePage || input.isHomePage)) throw new ValidationError('Invalid page', [{ field: 'parentPageSimplyId', message: 'the home page is a root page' }]);
      if (parent && tree.depth(parent.id) + subtreeHeight(tree, page.id) > PAGE_LIMITS.depth) {
        throw new ValidationError('Invalid page', [{ field: 'parentPageSimplyId', message: `pages nest at most ${PAGE_LIMITS.depth} deep` }]);
      }
      parentId = parent?.id ?? null;
    }
    if (input.isHomePage && parentId !== null) throw new ValidationError('Invalid page', [{ field: 'isHomePage', message: 'the home page is a root page: move it to the root first' }]);
    const slug = input.slug ?? page.slug;
    if (slug !== page.slug || parentId !== page.parentId) assertSlugFree(tree, parentId, slug, page.id);
    const data: Record<string, unknown> = {};
    for (const key of ['title', 'metaTitle', 'metaDescription'] as const) if (input[key] !== undefined) data[key] = input[key];
    if (input.slug !== undefined) data.slug = input.slug;
    // taken off the site: the published design goes (publishing again takes the draft as it is then)
    if (input.isPublished === false) Object.assign(data, { publishedDesign: Prisma.DbNull, publishedRevision: null, publishedAt: null });
    if (parentId !== page.parentId) Object.assign(data, { parentId, position: tree.children(parentId).length });
    if (Object.keys(data).length) await tx.websitePage.update({ where: { id: page.id, teamId: site.teamId }, data: data as never });
    if (input.isPublished === false && page.publishedDesign !== null) await recordActivity(tx, page, 'UNPUBLISHED', { userId: ctx.principal.userId, revision: page.draftRevision });
    if (parentId !== page.parentId) {
      // close the gap the page left among its old siblings
      const after = await PageTree.load(tx, site.teamId, site.id);
      for (const [index, p] of after.children(page.parentId).entries()) if (p.position !== index) await tx.websitePage.update({ where: { id: p.id, teamId: site.teamId }, data: { position: index } });
    }
    if (input.isHomePage) await makeHomePage(tx, site, page.id);
    const fresh = await tx.websitePage.findUniqueOrThrow({ where: { id: page.id, teamId: site.teamId } });
    return viewOf(await PageTree.load(tx, site.teamId, site.id), site, role, fresh);
  });
}

function subtreeHeight(tree: PageTree, id: bigint): number {
  const kids = tree.children(id);
  return 1 + (kids.length ? Math.max(...kids.map((k) => subtreeHeight(tree, k.id))) : 0);
}

export async function deletePage(ctx: RequestContext, pageSimplyId: string): Promise<boolean> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site, page } = await pageFor(ctx, tx, pageSimplyId, 'EDITOR', { lock: true });
    const tree = await PageTree.load(tx, site.teamId, site.id);
    const children = tree.children(page.id);
    if (children.length) throw new PageHasChildrenError(pageSimplyId, children.map((c) => c.simplyId));
    await tx.websitePage.delete({ where: { id: page.id, teamId: site.teamId } });
    for (const [index, p] of tree.children(page.parentId).filter((p) => p.id !== page.id).entries()) {
      if (p.position !== index) await tx.websitePage.update({ where: { id: p.id, teamId: site.teamId }, data: { position: index } });
    }
    return true;
  });
}

/** PUT …/pages/reorder: the whole tree as it should be; every page exactly once. */
export async function reorderPages(ctx: RequestContext, websiteSimplyId: string, raw: unknown): Promise<PageView[]> {
  const input = parseInput(reorderPagesInput, raw, 'Invalid page order');
  await runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'EDITOR', { lock: true });
    const tree = await PageTree.load(tx, site.teamId, site.id);
    const bySimplyId = new Map(tree.pages.map((p) => [p.simplyId, p]));
    const seen = new Set<string>();
    const placed: { page: TreePage; parentId: bigint | null; position: number }[] = [];
    const problems: { field: string; message: string }[] = [];
    const walk = (nodes: PageTreeNode[], parent: TreePage | null, at: string, depth: number) => {
      const slugs = new Set<string>();
      nodes.forEach((node, i) => {
        const page = bySimplyId.get(node.pageSimplyId);
        const field = `${at}.${i}.pageSimplyId`;
        if (!page) return void problems.push({ field, message: `page ${node.pageSimplyId} is not a page of this website` });
        if (seen.has(node.pageSimplyId)) return void problems.push({ field, message: 'appears more than once' });
        seen.add(node.pageSimplyId);
        if (depth > PAGE_LIMITS.depth) problems.push({ field, message: `pages nest at most ${PAGE_LIMITS.depth} deep` });
        if (parent && page.isHomePage) problems.push({ field, message: 'the home page is a root page' });
        if (slugs.has(page.slug)) problems.push({ field, message: `another page under the same parent has the slug ${page.slug}` });
        slugs.add(page.slug);
        placed.push({ page, parentId: parent?.id ?? null, position: i });
        if (node.children) walk(node.children, page, `${at}.${i}.children`, depth + 1);
      });
    };
    walk(input.tree, null, 'tree', 1);
    for (const p of tree.pages) if (!seen.has(p.simplyId)) problems.push({ field: 'tree', message: `page ${p.simplyId} is missing: name every page of the website once` });
    if (problems.length) throw new ValidationError('Invalid page order', problems);
    for (const { page, parentId, position } of placed) {
      if (page.parentId !== parentId || page.position !== position) await tx.websitePage.update({ where: { id: page.id, teamId: site.teamId }, data: { parentId, position } });
    }
  });
  return listPages(ctx, websiteSimplyId);
}

