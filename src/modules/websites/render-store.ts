// The stored renderings of served pages (prisma/schema/website-renderings.prisma). A page is
// rendered once for each fingerprint of what it shows (render-fingerprint below) and kept; requests
// are answered from the stored bytes. Renderings of one page and fingerprint made at the same time
// (two instances, or concurrent first requests) are one render in a process and one row in the
// database (the last write of identical bytes wins).
//
// A design that fails to render never takes the page down: the failure is logged and stored under
// its fingerprint (so it is not retried on every request), and the page's last good rendering keeps
// being served. A page showing data views is rendered again when DATA_VIEW_FRESH_MS has passed,
// since their records change without anyone publishing.
import { createHash } from 'node:crypto';
import type { Services } from '../../app/context.ts';
import type { CampaignPopup } from './campaign-chrome.input.ts';
import type { DesignDocument } from './design-document.ts';
import { DATA_VIEW_ROWS, type DataViewOutcome, dataViewTableHtml, siteDataViewTable } from './dataview-render.ts';
import { walkComponents } from './design-document.ts';
import { activeChrome } from './render-chrome.ts';
import { type NavigablePage } from './render-navigation.ts';
import { RENDERER_VERSION, renderPage, servedPolicy } from './render-page.ts';
import type { ServedPage, ServedSite } from './serve-site.ts';
import { applyOverlay, type Overlay, translatedLayouts } from './translate-overlay.ts';
import type { ServedTranslation } from './translate-serve.ts';
import { loadSyncedLayouts, syncedLayoutIds, syncedLayoutsStamp } from './synced-layout.ts';

export const DATA_VIEW_FRESH_MS = 5 * 60_000;
/** good renderings kept per page and language (older ones go) */
const KEPT_PER_PAGE = 5;

export interface StoredRendering {
  html: Buffer;
  etag: string;
  policy: string;
  /** when the stored bytes stop being current (a page with data views), or null */
  freshUntil: number | null;
}

export const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url')}"`;

/** The pages visitors can reach (published; every page in a preview), for the navigation. */
export function navigablePages(pages: ServedPage[], all = false): Map<string, NavigablePage> {
  return new Map(pages.filter((p) => all || p.published).map((p) => [p.simplyId, { simplyId: p.simplyId, title: p.title, path: p.path }]));
}

/**
 * Everything a served page is made of, hashed: the renderer's version, the address base, the
 * page's published revision and metadata, the site's settings that show, the publish times of its
 * header, footer and chrome and the chrome entries live now, and the reachable pages' paths and
 * titles (the navigation), and the latest change of the site's SYNCED layouts (a page shows them as
 * they are now).
 */
export function renderingFingerprint(site: ServedSite, page: ServedPage, pages: ServedPage[], basePath: string, now: number, syncedLayouts: string | null = null): string {
  const parts = {
    v: RENDERER_VERSION,
    basePath,
    page: [page.id.toString(), page.publishedRevision, page.publishedAt?.toISOString() ?? null, page.title, page.metaTitle, page.metaDescription],
    site: [site.name, site.metaTitle, site.metaDescription, site.socialImageUrl, site.faviconFileSimplyId, site.defaultLanguageTagId, site.navigationJson ?? null],
    headerFooter: site.headerFooterPublishedAt?.toISOString() ?? null,
    chrome: [site.campaignChromePublishedAt?.toISOString() ?? null, activeChrome(site.publishedCampaignChromeConfig, page.simplyId, now).map((p) => p.id)],
    pages: pages.filter((p) => p.published).map((p) => [p.simplyId, p.path, p.title]),
    ...(syncedLayouts === null ? {} : { syncedLayouts }),
  };
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

function dataViewIds(...designs: (DesignDocument | null)[]): string[] {
  const ids = new Set<string>();
  for (const d of designs) {
    if (!d || !Array.isArray(d.components)) continue;
    walkComponents(d.components, (c) => {
      const id = c.attributes?.['data-view-id'];
      if (c.type === 'data-view' && typeof id === 'string') ids.add(id);
    });
  }
  return [...ids].slice(0, 20);
}

export interface RenderSources {
  site: ServedSite;
  page: ServedPage;
  pages: ServedPage[];
  basePath: string;
  now: number;
  design: DesignDocument | null;
  header: DesignDocument | null;
  footer: DesignDocument | null;
  chromeConfig: unknown;
  /** a preview: every page is reachable */
  allPages?: boolean;
  /** a translation's overlay (translate-serve.ts): applied to the page and the synced layouts it shows */
  overlay?: Overlay;
}

/** a team file's API address in a design (import-images.ts fileAddress), as it shows in the rendered markup */
const TEAM_FILE_ADDRESS = /\/v1\/files\/(file-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})\/download/g;

/** Renders a page from its sources (data views read now). */
export async function renderFromSources(services: Services, s: RenderSources): Promise<{ html: Buffer; policy: string; hasDataViews: boolean }> {
  const views = dataViewIds(s.design, s.header, s.footer);
  const tables = new Map<string, DataViewOutcome>();
  for (const id of views) {
    const outcome = await siteDataViewTable(services, s.site.teamId, id, DATA_VIEW_ROWS.onPage).catch((err: unknown) => {
      services.logger.warn({ err, dataViewSimplyId: id }, 'a data view of a website page could not be read');
      return null;
    });
    tables.set(id, outcome);
  }
  const loaded = await loadSyncedLayouts(services.prisma, s.site.teamId, s.site.id, syncedLayoutIds(s.design, s.header, s.footer));
  const layouts = s.overlay && s.design ? translatedLayouts(s.design, loaded, s.overlay) : loaded;
  const design = s.overlay && s.design ? applyOverlay(s.design, s.overlay) : s.design;
  const rendered = renderPage({
    site: { ...s.site, header: s.header, footer: s.footer },
    page: { simplyId: s.page.simplyId, title: s.page.title, metaTitle: s.page.metaTitle, metaDescription: s.page.metaDescription, design },
    basePath: s.basePath,
    pages: navigablePages(s.pages, s.allPages),
    chrome: activeChrome(s.chromeConfig, s.page.simplyId, s.now) as CampaignPopup[],
    dataView: (id, componentId) => dataViewTableHtml(tables.get(id) ?? null, componentId),
    syncedLayout: (id) => layouts.get(id)?.content ?? null,
  });
  // team files a published page shows need a credential at /v1/files: the site serves them itself
  // (serve-endpoint.ts serveSiteFile); a preview keeps the API's address, for its signed-in editor
  const html = s.allPages ? rendered.html : rendered.html.replace(TEAM_FILE_ADDRESS, (_m, id: string) => `${s.basePath}/files/${id}`);
  return { html: Buffer.from(html), policy: servedPolicy(rendered.styleHash), hasDataViews: views.length > 0 };
}

const inFlight = new Map<string, Promise<StoredRendering | null>>();

/** The page's rendering for the site as it is now: stored, rendered and stored, or (when rendering fails) the last good one. */
export async function servedRendering(services: Services, site: ServedSite, page: ServedPage, pages: ServedPage[], basePath: string, now = Date.now(), translation: ServedTranslation | null = null): Promise<StoredRendering | null> {
  const own = renderingFingerprint(site, page, pages, basePath, now, await syncedLayoutsStamp(services.prisma, site.teamId, site.id));
  // a translated page (translate-serve.ts) is another rendering, made again when its overlay changes
  const fingerprint = translation ? createHash('sha256').update(`${own}|${translation.version}`).digest('hex') : own;
  const key = `${page.id}:${fingerprint}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = storedOrRendered(services, site, page, pages, basePath, now, fingerprint, translation).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function storedOrRendered(services: Services, site: ServedSite, page: ServedPage, pages: ServedPage[], basePath: string, now: number, fingerprint: string, translation: ServedTranslation | null = null): Promise<StoredRendering | null> {
  const db = services.prisma;
  const row = await db.websiteRendering.findUnique({ where: { pageId_fingerprint: { pageId: page.id, fingerprint } }, select: { html: true, etag: true, policy: true, freshUntil: true } });
  if (row?.html != null && row.etag && row.policy && (row.freshUntil === null || row.freshUntil.getTime() > now)) {
    return { html: Buffer.from(row.html), etag: row.etag, policy: row.policy, freshUntil: row.freshUntil?.getTime() ?? null };
  }
  const language = translation?.languageTagId ?? null;
  if (row && row.html === null) return lastGood(services, page, language);
  const started = performance.now();
  try {
    const sources = await db.websitePage.findUnique({ where: { id: page.id, teamId: site.teamId }, select: { publishedDesign: true } });
    const siteDesigns = await db.website.findUnique({ where: { id: site.id, teamId: site.teamId }, select: { publishedHeaderDesignJson: true, publishedFooterDesignJson: true } });
    if (!sources?.publishedDesign) return null;
    const { html, policy, hasDataViews } = await renderFromSources(services, {
      site,
      page,
      pages,
      basePath,
      now,
      design: sources.publishedDesign as unknown as DesignDocument,
      overlay: translation?.overlay,
      header: (siteDesigns?.publishedHeaderDesignJson ?? null) as DesignDocument | null,
      footer: (siteDesigns?.publishedFooterDesignJson ?? null) as DesignDocument | null,
      chromeConfig: site.publishedCampaignChromeConfig,
    });
    const etag = etagOf(html);
    const freshUntil = hasDataViews ? new Date(now + DATA_VIEW_FRESH_MS) : null;
    const text = html.toString('utf8');
    const values = { html: text, etag, policy, byteSize: html.length, error: null, renderMs: Math.round(performance.now() - started), freshUntil, createdAt: new Date(now), languageTagId: language };
    await db.websiteRendering.upsert({
      where: { pageId_fingerprint: { pageId: page.id, fingerprint } },
      create: { teamId: site.teamId, websiteId: site.id, pageId: page.id, fingerprint, ...values },
      update: values,
    });
    await prune(services, page);
    return { html, etag, policy, freshUntil: freshUntil?.getTime() ?? null };
  } catch (error) {
    services.logger.error({ err: error, websiteSimplyId: site.simplyId, pageSimplyId: page.simplyId, fingerprint }, 'a website page could not be rendered: its last good rendering stays served');
    await db.websiteRendering
      .upsert({
        where: { pageId_fingerprint: { pageId: page.id, fingerprint } },
        create: { teamId: site.teamId, websiteId: site.id, pageId: page.id, fingerprint, html: null, error: String((error as Error)?.message ?? error).slice(0, 2000), languageTagId: language },
        update: {},
      })
      .catch((err: unknown) => services.logger.warn({ err }, 'could not record a failed website rendering'));
    return lastGood(services, page, language);
  }
}

/**
 * The newest good rendering of the page in the language (null: its own); for a translation without
 * one, the page's own: a visitor never gets a third language's.
 */
async function lastGood(services: Services, page: ServedPage, languageTagId: string | null): Promise<StoredRendering | null> {
  const row = await services.prisma.websiteRendering.findFirst({
    where: { pageId: page.id, html: { not: null }, languageTagId },
    orderBy: { createdAt: 'desc' },
    select: { html: true, etag: true, policy: true },
  });
  if (!row?.html || !row.etag || !row.policy) return languageTagId === null ? null : lastGood(services, page, null);
  // served as it is, and looked at again soon: it is a stand-in
  return { html: Buffer.from(row.html), etag: row.etag, policy: row.policy, freshUntil: Date.now() + 60_000 };
}

async function prune(services: Services, page: ServedPage): Promise<void> {
  await services.prisma.$executeRawUnsafe(
    `DELETE FROM "WebsiteRendering" WHERE "pageId" = $1 AND id NOT IN (
       SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY "languageTagId" ORDER BY "createdAt" DESC, id DESC) AS n
                         FROM "WebsiteRendering" WHERE "pageId" = $1 AND html IS NOT NULL) kept
        WHERE n <= ${KEPT_PER_PAGE})
       AND (html IS NOT NULL OR "createdAt" < now() - interval '1 day')`,
    page.id,
  );
}
