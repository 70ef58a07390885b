// A site's page tree as paths: a page's path is its ancestors' slugs and its own, from the root
// ("/about/team"); the home page is "/" (pages under it keep its slug in their paths). One read of
// the site's pages (id, parent, slug) serves every path of a response.
import type { Tx } from '../../app/transaction.ts';

export interface TreePage {
  id: bigint;
  simplyId: string;
  parentId: bigint | null;
  slug: string;
  position: number;
  isHomePage: boolean;
}

export class PageTree {
  readonly pages: TreePage[];
  readonly byId: Map<bigint, TreePage>;

  constructor(pages: TreePage[]) {
    this.pages = pages;
    this.byId = new Map(pages.map((p) => [p.id, p]));
  }

  static async load(db: Pick<Tx, 'websitePage'>, teamId: bigint, websiteId: bigint): Promise<PageTree> {
    const pages = await db.websitePage.findMany({
      where: { teamId, websiteId },
      select: { id: true, simplyId: true, parentId: true, slug: true, position: true, isHomePage: true },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    });
    return new PageTree(pages);
  }

  /** slugs from the root down to the page */
  segments(id: bigint): string[] {
    const out: string[] = [];
    for (let p = this.byId.get(id), guard = 0; p && guard < 64; p = p.parentId === null ? undefined : this.byId.get(p.parentId), guard++) out.unshift(p.slug);
    return out;
  }

  path(id: bigint): string {
    const page = this.byId.get(id);
    if (page?.isHomePage) return '/';
    return `/${this.segments(id).join('/')}`;
  }

  depth(id: bigint): number {
    return this.segments(id).length;
  }

  children(parentId: bigint | null): TreePage[] {
    return this.pages.filter((p) => p.parentId === parentId).sort((a, b) => a.position - b.position || Number(a.id - b.id));
  }

  /** the page and everything below it */
  subtree(id: bigint): Set<bigint> {
    const out = new Set<bigint>([id]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const p of this.pages) if (p.parentId !== null && out.has(p.parentId) && !out.has(p.id)) (out.add(p.id), (grew = true));
    }
    return out;
  }

  /** pages in tree order: each parent before its children, siblings by position */
  ordered(): TreePage[] {
    const out: TreePage[] = [];
    const walk = (parentId: bigint | null) => this.children(parentId).forEach((p) => (out.push(p), walk(p.id)));
    walk(null);
    return out;
  }
}
