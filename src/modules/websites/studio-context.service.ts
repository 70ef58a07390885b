// GET /v1/websites/{id}/studio-context (docs/api/websites.md "Studio context"): what the studio or
// an AI assistant needs to know about a site in one bounded answer: a summary of its settings, its
// theme, its page tree (paths, titles, states), its navigation menus, and the outline of the page
// being worked on. Bounded twice: by counts (pages, blocks, menu items) and by the answer's size in
// bytes, shedding the active page's blocks first, then pages, then menu items, then the theme,
// each shedding marked by a `truncated` flag, so a caller never receives a partial thing unaware.
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { publicBaseUrl } from '../../app/public-address.ts';
import { areasByPage } from './access-gates.ts';
import { blocksOutline, type OutlineBlock } from './designs.service.ts';
import { PageTree } from './page-tree.ts';
import { publishState } from './pages.service.ts';
import { siteFor } from './website-access.ts';
import type { WebsiteRole } from './website-roles.ts';
import { websitePageId } from './websites.ids.ts';

export const STUDIO_LIMITS = { pages: 200, blocks: 200, menuItems: 100, themeBytes: 16 * 1024, bytes: 64 * 1024 } as const;

export interface StudioPage {
  pageSimplyId: string;
  parentPageSimplyId: string | null;
  title: string;
  path: string;
  depth: number;
  isHomePage: boolean;
  publishState: string;
  reviewState: string;
  accessAreaSimplyId: string | null;
}

export interface StudioMenuItem {
  depth: number;
  type: string;
  label: string;
  pageSimplyId: string | null;
  path: string | null;
  url: string | null;
}

export interface StudioContext {
  websiteSimplyId: string;
  site: {
    name: string;
    slug: string;
    isPublished: boolean;
    publishedUrl: string | null;
    metaTitle: string | null;
    metaDescription: string | null;
    defaultLanguageTagId: string | null;
    availableLanguageTagIds: string[];
    restricted: boolean;
    myRole: WebsiteRole;
  };
  theme: unknown;
  themeTruncated: boolean;
  pages: StudioPage[];
  totalPages: number;
  pagesTruncated: boolean;
  menus: { name: string; items: StudioMenuItem[]; totalItems: number; truncated: boolean }[];
  activePage: {
    pageSimplyId: string;
    title: string;
    path: string;
    draftRevision: number;
    publishState: string;
    blocks: OutlineBlock[];
    totalComponents: number;
    truncated: boolean;
  } | null;
  byteSize: number;
  maxBytes: number;
}

const byteSize = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

interface NavItem {
  type?: unknown;
  label?: unknown;
  pageSimplyId?: unknown;
  url?: unknown;
  children?: unknown;
}

/** A menu's items depth-first (1 at the top), at most `limit` of them, pages named by their path. */
function flattenMenu(items: unknown, pages: Map<string, { title: string; path: string }>, limit: number): { items: StudioMenuItem[]; total: number } {
  const out: StudioMenuItem[] = [];
  let total = 0;
  const walk = (list: unknown, depth: number) => {
    if (!Array.isArray(list) || depth > 8) return;
    for (const raw of list as NavItem[]) {
      if (!raw || typeof raw !== 'object') continue;
      total++;
      const pageSimplyId = typeof raw.pageSimplyId === 'string' ? raw.pageSimplyId : null;
      const page = pageSimplyId ? pages.get(pageSimplyId) : undefined;
      if (out.length < limit) {
        out.push({
          depth,
          type: typeof raw.type === 'string' ? raw.type : 'LINK',
          label: typeof raw.label === 'string' ? raw.label : (page?.title ?? ''),
          pageSimplyId,
          path: page?.path ?? null,
          url: typeof raw.url === 'string' ? raw.url : null,
        });
      }
      walk(raw.children, depth + 1);
    }
  };
  walk(items, 1);
  return { items: out, total };
}

export async function studioContext(ctx: RequestContext, websiteSimplyId: string, activePageSimplyId: string | null | undefined): Promise<StudioContext> {
  const db = ctx.services.prisma;
  const { site, role } = await siteFor(ctx, db, websiteSimplyId, 'VIEWER');
  if (activePageSimplyId !== undefined && activePageSimplyId !== null) websitePageId.assert(activePageSimplyId, 'activePageSimplyId');
  const [rows, areas] = await Promise.all([
    db.websitePage.findMany({
      where: { teamId: site.teamId, websiteId: site.id },
      select: { id: true, simplyId: true, parentId: true, slug: true, position: true, isHomePage: true, title: true, reviewState: true, draftRevision: true, publishedRevision: true, publishedAt: true },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    }),
    db.websiteAccessArea.findMany({ where: { teamId: site.teamId, websiteId: site.id }, select: { simplyId: true, name: true, rootPageSimplyIds: true, admits: true, signInMessage: true, enabled: true } }),
  ]);
  const tree = new PageTree(rows);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const gated = areasByPage(tree.pages, areas);
  // publishState's rule, from the columns read here (taking a page off clears all three together)
  const state = (r: (typeof rows)[number]) => (r.publishedRevision === null || r.publishedAt === null ? 'DRAFT' : r.publishedRevision === r.draftRevision ? 'PUBLISHED' : 'MODIFIED');
  const allPages: StudioPage[] = tree.ordered().map((t) => {
    const r = byId.get(t.id)!;
    return {
      pageSimplyId: r.simplyId,
      parentPageSimplyId: r.parentId === null ? null : (byId.get(r.parentId)?.simplyId ?? null),
      title: r.title,
      path: tree.path(r.id),
      depth: tree.depth(r.id),
      isHomePage: r.isHomePage,
      publishState: state(r),
      reviewState: r.reviewState,
      accessAreaSimplyId: gated.get(r.id)?.simplyId ?? null,
    };
  });

  let activePage: StudioContext['activePage'] = null;
  if (activePageSimplyId) {
    const row = rows.find((r) => r.simplyId === activePageSimplyId);
    if (!row) throw new ValidationError('Invalid studio context request', [{ field: 'activePageSimplyId', message: `page ${activePageSimplyId} is not a page of this website` }]);
    const outline = await blocksOutline(ctx, activePageSimplyId);
    activePage = {
      pageSimplyId: row.simplyId,
      title: row.title,
      path: tree.path(row.id),
      draftRevision: outline.page.draftRevision,
      publishState: publishState(outline.page),
      blocks: outline.blocks.slice(0, STUDIO_LIMITS.blocks),
      totalComponents: outline.totalComponents,
      truncated: outline.totalComponents > Math.min(outline.blocks.length, STUDIO_LIMITS.blocks),
    };
  }

  const pageInfo = new Map(allPages.map((p) => [p.pageSimplyId, { title: p.title, path: p.path }]));
  const navigation = site.navigationJson as { menus?: { name?: unknown; items?: unknown }[] } | null;
  const menus = (Array.isArray(navigation?.menus) ? navigation.menus : []).map((m) => {
    const { items, total } = flattenMenu(m.items, pageInfo, STUDIO_LIMITS.menuItems);
    return { name: typeof m.name === 'string' ? m.name : '', items, totalItems: total, truncated: total > items.length };
  });
  const themeFits = site.themeSettings === null || byteSize(site.themeSettings) <= STUDIO_LIMITS.themeBytes;

  const result: StudioContext = {
    websiteSimplyId: site.simplyId,
    site: {
      name: site.name,
      slug: site.slug,
      isPublished: site.isPublished,
      publishedUrl: site.isPublished ? `${publicBaseUrl(ctx.services)}/sites/${site.slug}/` : null,
      metaTitle: site.metaTitle,
      metaDescription: site.metaDescription,
      defaultLanguageTagId: site.defaultLanguageTagId,
      availableLanguageTagIds: site.availableLanguageTagIds,
      restricted: site.restricted,
      myRole: role,
    },
    theme: themeFits ? (site.themeSettings ?? null) : null,
    themeTruncated: !themeFits,
    pages: allPages.slice(0, STUDIO_LIMITS.pages),
    totalPages: allPages.length,
    pagesTruncated: allPages.length > STUDIO_LIMITS.pages,
    menus,
    activePage,
    byteSize: 0,
    maxBytes: STUDIO_LIMITS.bytes,
  };
  return fitToBytes(result);
}

/** Sheds blocks, then pages, then menu items, then the theme, until the answer fits STUDIO_LIMITS.bytes. */
function fitToBytes(result: StudioContext): StudioContext {
  const size = () => byteSize(result);
  const shrink = <T>(list: T[], keep: (n: number) => void): boolean => {
    if (list.length === 0) return false;
    keep(Math.floor(list.length / 2));
    return true;
  };
  for (let guard = 0; size() > STUDIO_LIMITS.bytes && guard < 200; guard++) {
    const active = result.activePage;
    if (active && active.blocks.length > 0) {
      shrink(active.blocks, (n) => (active.blocks = active.blocks.slice(0, n)));
      active.truncated = true;
      continue;
    }
    if (result.pages.length > 0 && shrink(result.pages, (n) => (result.pages = result.pages.slice(0, n)))) {
      result.pagesTruncated = true;
      continue;
    }
    const menu = result.menus.find((m) => m.items.length > 0);
    if (menu) {
      shrink(menu.items, (n) => (menu.items = menu.items.slice(0, n)));
      menu.truncated = true;
      continue;
    }
    if (result.theme !== null) {
      result.theme = null;
      result.themeTruncated = true;
      continue;
    }
    break;
  }
  result.byteSize = size();
  return result;
}
