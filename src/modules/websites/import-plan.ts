// Where an import's pages go before any is read, so links between them can point at the new pages:
// each page becomes a root page of the site with a slug made from its source path ("/about/team" →
// about-team), free among the site's root pages; on a site without pages the first one becomes the
// home page. Links between imported pages are relative ("about-team", "./" for the home page), so
// they work at /sites/{slug}/ and on a custom domain alike.
import type { Website } from '../../generated/prisma/client.ts';
import type { Tx } from '../../app/transaction.ts';
import { PAGE_LIMITS, slugFromTitle } from './pages.input.ts';

export interface PlannedPage {
  slug: string;
  isHome: boolean;
}

export interface ImportPlan {
  pages: Map<string, PlannedPage>;
  linkOf: (url: URL) => string | null;
}

/** the page a URL names, whatever its trailing slash or fragment */
export function pageKey(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '') || '/'}${url.search}`;
}

function baseSlug(url: URL): string {
  const segments = url.pathname.split('/').filter(Boolean).map((s) => s.replace(/\.(?:html?|php|aspx?)$/i, ''));
  const joined = segments.join('-') + (url.search ? `-${url.search.slice(1)}` : '');
  return joined ? slugFromTitle(joined, 'page').slice(0, PAGE_LIMITS.slug - 4).replace(/-+$/, '') || 'page' : 'home';
}

export function planOf(entries: readonly [string, PlannedPage][]): ImportPlan {
  const pages = new Map(entries);
  const byKey = new Map(entries.map(([source, planned]) => [pageKey(new URL(source)), planned]));
  return {
    pages,
    linkOf: (url) => {
      const planned = byKey.get(pageKey(url));
      return planned ? (planned.isHome ? './' : planned.slug) : null;
    },
  };
}

export async function planPages(db: Pick<Tx, 'websitePage'>, site: Website, sources: readonly string[]): Promise<[string, PlannedPage][]> {
  const roots = await db.websitePage.findMany({ where: { teamId: site.teamId, websiteId: site.id, parentId: null }, select: { slug: true } });
  const total = await db.websitePage.count({ where: { teamId: site.teamId, websiteId: site.id } });
  const used = new Set(roots.map((r) => r.slug));
  return sources.map((source, i) => {
    const base = baseSlug(new URL(source));
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    used.add(slug);
    return [source, { slug, isHome: total === 0 && i === 0 }];
  });
}
