// What an import would bring in (POST /v1/websites/import/discover): the site's title, favicon,
// its pages (links on the same site from the page read, and the sitemap's pages) and the sitemap's
// sections, read through the guarded fetch (import-fetch.ts) and within its bounds.
import { onFirstUse } from '../../app/on-first-use.ts';

const htmlparser2 = onFirstUse<typeof import('htmlparser2')>('htmlparser2');
import type { Document, Element } from 'domhandler';
import { findAll, findOne, getAttributeValue, textContent } from 'domutils';
import type { RequestContext } from '../../app/context.ts';
import { parseInput } from '../../app/validate.ts';
import { FetchProblem, type FetchPolicy, guardedGet, IMPORT_LIMITS, isHtml, parseSourceUrl, robotsOf, type RobotsCheck, sourceError } from './import-fetch.ts';
import { discoverInput } from './import-input.ts';
import { requireWebsitesFeature } from './website-access.ts';

export const DISCOVER_LIMITS = { pages: 200, sitemaps: 5 } as const;

export interface DiscoveredPage {
  url: string;
  path: string;
  title: string | null;
  inSitemap: boolean;
}

export interface SitemapSection {
  name: string;
  path: string;
  pageCount: number;
}

export interface Discovery {
  sourceUrl: string;
  title: string | null;
  faviconUrl: string | null;
  pages: DiscoveredPage[];
  pagesTruncated: boolean;
  sitemapUrl: string | null;
  sitemapSections: SitemapSection[];
}

const NOT_A_PAGE = /\.(?:pdf|jpe?g|png|gif|webp|svg|ico|css|js|json|xml|zip|gz|mp[34]|mov|avi|docx?|xlsx?|pptx?|txt|woff2?|ttf)$/i;

const elements = (doc: Document, name: string): Element[] => findAll((e) => e.name === name, doc.children);

/** The page's address on the site for the import: same origin, http(s), no fragment; null for anything else. */
export function sameSitePage(href: string, base: URL): URL | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.host !== base.host || NOT_A_PAGE.test(url.pathname)) return null;
  url.hash = '';
  return url;
}

export function pageTitleOf(doc: Document): string | null {
  const title = findOne((e) => e.name === 'title', doc.children);
  const text = title ? textContent(title).replace(/\s+/g, ' ').trim() : '';
  return text ? text.slice(0, 200) : null;
}

function faviconOf(doc: Document, base: URL): string {
  const icon = elements(doc, 'link').find((l) => (getAttributeValue(l, 'rel') ?? '').toLowerCase().split(/\s+/).includes('icon'));
  const href = icon ? getAttributeValue(icon, 'href') : undefined;
  try {
    const url = new URL(href ?? '/favicon.ico', base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : new URL('/favicon.ico', base).href;
  } catch {
    return new URL('/favicon.ico', base).href;
  }
}

/** The sitemap's page addresses (a sitemap index: its first sitemaps), on the same site. */
async function sitemapPages(origin: URL, policy: FetchPolicy): Promise<{ url: string | null; pages: URL[] }> {
  const first = new URL('/sitemap.xml', origin);
  const queue = [first];
  const pages: URL[] = [];
  let read = 0;
  let found: string | null = null;
  while (queue.length > 0 && read < DISCOVER_LIMITS.sitemaps && pages.length < DISCOVER_LIMITS.pages) {
    const next = queue.shift()!;
    read++;
    let body: string;
    try {
      body = (await guardedGet(next, policy, { maxBytes: IMPORT_LIMITS.sitemapBytes, accept: (t) => /xml/.test(t) })).body.toString('utf8');
    } catch {
      continue;
    }
    found ??= next.href;
    const doc = htmlparser2().parseDocument(body, { xmlMode: true });
    const isIndex = findOne((e) => e.name.toLowerCase() === 'sitemapindex', doc.children) !== null;
    for (const loc of findAll((e) => e.name.toLowerCase() === 'loc', doc.children)) {
      const url = sameSitePage(textContent(loc), origin);
      if (!url) continue;
      if (isIndex) queue.push(url);
      else pages.push(url);
    }
  }
  return { url: found, pages };
}

function sectionsOf(pages: readonly URL[]): SitemapSection[] {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const segment = page.pathname.split('/').filter(Boolean)[0] ?? '';
    counts.set(segment, (counts.get(segment) ?? 0) + 1);
  }
  return [...counts.entries()].map(([segment, pageCount]) => ({ name: segment === '' ? 'home' : decodeURIComponent(segment), path: `/${segment}`, pageCount })).sort((a, b) => b.pageCount - a.pageCount || a.path.localeCompare(b.path));
}

/** Reads the start page (404, not HTML, refused: the caller's 4xx) and what the site tells about its pages. */
export async function discoverSite(url: URL, policy: FetchPolicy): Promise<Discovery> {
  let robots: RobotsCheck;
  let page;
  try {
    robots = await robotsOf(url, policy);
    if (!robots(url.pathname)) throw new FetchProblem('ROBOTS', `the site's robots.txt does not allow reading ${url.pathname}`);
    page = await guardedGet(url, policy, { maxBytes: IMPORT_LIMITS.pageBytes, accept: isHtml });
  } catch (error) {
    throw error instanceof FetchProblem ? sourceError(error) : error;
  }
  const base = page.url;
  const doc = htmlparser2().parseDocument(page.body.toString('utf8'));
  const found = new Map<string, DiscoveredPage>();
  const add = (u: URL, title: string | null, inSitemap: boolean) => {
    if (!robots(u.pathname)) return;
    const known = found.get(u.href);
    if (known) {
      known.inSitemap ||= inSitemap;
      known.title ??= title;
    } else found.set(u.href, { url: u.href, path: u.pathname + u.search, title, inSitemap });
  };
  add(base, pageTitleOf(doc), false);
  for (const a of elements(doc, 'a')) {
    const target = sameSitePage(getAttributeValue(a, 'href') ?? '', base);
    const text = textContent(a).replace(/\s+/g, ' ').trim().slice(0, 200);
    if (target) add(target, text || null, false);
  }
  const sitemap = await sitemapPages(base, policy);
  for (const u of sitemap.pages) add(u, null, true);
  const pages = [...found.values()];
  return {
    sourceUrl: base.href,
    title: pageTitleOf(doc),
    faviconUrl: faviconOf(doc, base),
    pages: pages.slice(0, DISCOVER_LIMITS.pages),
    pagesTruncated: pages.length > DISCOVER_LIMITS.pages,
    sitemapUrl: sitemap.url,
    sitemapSections: sectionsOf(sitemap.pages),
  };
}

export function fetchPolicy(ctx: RequestContext): FetchPolicy {
  return { allowLoopback: ctx.services.config.WEBSITE_IMPORT_ALLOW_LOOPBACK };
}

export async function discoverImport(ctx: RequestContext, raw: unknown): Promise<Discovery> {
  requireWebsitesFeature(ctx, 'EDIT');
  const input = parseInput(discoverInput, raw, 'Invalid import source');
  return discoverSite(parseSourceUrl(input.sourceUrl), fetchPolicy(ctx));
}
