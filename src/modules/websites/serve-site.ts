// What serving a page reads: the site (by slug, custom domain or id) without its draft designs, and
// its page tree with each page's path and publish state (no designs either), so finding the page of
// a path and computing its fingerprint costs two indexed reads.
import type { Services } from '../../app/context.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { PageTree } from './page-tree.ts';

const SITE_COLUMNS = {
  id: true,
  teamId: true,
  simplyId: true,
  slug: true,
  isPublished: true,
  restricted: true,
  name: true,
  metaTitle: true,
  metaDescription: true,
  socialImageUrl: true,
  faviconFileSimplyId: true,
  defaultLanguageTagId: true,
  availableLanguageTagIds: true,
  navigationJson: true,
  headerFooterPublishedAt: true,
  campaignChromePublishedAt: true,
  publishedCampaignChromeConfig: true,
  customDomain: true,
} as const satisfies Prisma.WebsiteSelect;

export type ServedSite = Prisma.WebsiteGetPayload<{ select: typeof SITE_COLUMNS }>;

const PAGE_COLUMNS = {
  id: true,
  simplyId: true,
  parentId: true,
  slug: true,
  position: true,
  isHomePage: true,
  title: true,
  metaTitle: true,
  metaDescription: true,
  publishedRevision: true,
  publishedAt: true,
  draftRevision: true,
} as const satisfies Prisma.WebsitePageSelect;

export type ServedPageRow = Prisma.WebsitePageGetPayload<{ select: typeof PAGE_COLUMNS }>;

export interface ServedPage extends ServedPageRow {
  path: string;
  /** on the published site (its published design is set) */
  published: boolean;
}

export async function siteBySlug(services: Services, slug: string): Promise<ServedSite | null> {
  return services.prisma.website.findUnique({ where: { slug }, select: SITE_COLUMNS });
}

export async function siteByDomain(services: Services, host: string): Promise<ServedSite | null> {
  return services.prisma.website.findUnique({ where: { customDomain: host }, select: SITE_COLUMNS });
}

export async function siteById(services: Services, teamId: bigint, simplyId: string): Promise<ServedSite | null> {
  return services.prisma.website.findUnique({ where: { teamId_simplyId: { teamId, simplyId } }, select: SITE_COLUMNS });
}

/** Every page of the site with its path, in tree order. */
export async function sitePages(services: Services, site: Pick<ServedSite, 'id' | 'teamId'>): Promise<ServedPage[]> {
  const rows = await services.prisma.websitePage.findMany({ where: { teamId: site.teamId, websiteId: site.id }, select: PAGE_COLUMNS, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
  const tree = new PageTree(rows);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return tree.ordered().map((t) => {
    const row = byId.get(t.id)!;
    return { ...row, path: tree.path(t.id), published: row.publishedRevision !== null && row.publishedAt !== null };
  });
}

/** The page a request path names ("/", "/about/team", with or without a trailing slash), or undefined. */
export function pageAtPath(pages: ServedPage[], requestPath: string): ServedPage | undefined {
  const wanted = requestPath.length > 1 ? requestPath.replace(/\/+$/, '') : '/';
  if (wanted === '/' || wanted === '') return pages.find((p) => p.isHomePage);
  return pages.find((p) => !p.isHomePage && p.path === wanted) ?? (wanted.split('/').length === 2 ? pages.find((p) => p.isHomePage && `/${p.slug}` === wanted) : undefined);
}
