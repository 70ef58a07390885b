// The published sites, served by the platform (docs/api/websites.md "The published site"):
//
//   GET|HEAD /sites/{slug}/                    the home page
//   GET|HEAD /sites/{slug}/{page path}         a page ("/sites/friends/about/team")
//   GET|HEAD /sites/{slug}/favicon.ico         the site's favicon (its file, served by the platform)
//   GET|HEAD /sites/{slug}/files/{fileId}      a team image a published page of the site shows (serveSiteFile)
//   GET|HEAD /sites/{slug}/{language}/{path}   a page in a published translation (translate-serve.ts)
//   GET|HEAD /sites/preview/{token}/{path}     a preview of the drafts (preview-sessions.ts; `preview` is never a slug)
//   any path on a site's custom domain         the same as /sites/{slug}/…
//
// Only the published design is served, from its stored rendering (render-store.ts), with a strong
// ETag of the bytes and 304 on If-None-Match; a site that is not published, a page that is not
// published or not there, answer a plain 404 page. Every answer carries a Content-Security-Policy
// under which nothing runs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../app/context.ts';
import type { HttpEndpoint } from '../../app/module.ts';
import { readFileVersionBytes } from '../files/index.ts';
import { nextChromeChange } from './render-chrome.ts';
import { servedRendering } from './render-store.ts';
import { servePreview } from './preview-page.ts';
import type { ServedPagesCache } from './serve-cache.ts';
import { hostOf, platformHost } from './serve-host.ts';
import { pageAtPath, type ServedSite, siteByDomain, siteBySlug, sitePages } from './serve-site.ts';
import { servedPageAccess } from './served-access.ts';
import { servedGate } from './served-gates.ts';
import { servedLanguageOf, servedTranslation } from './translate-serve.ts';
import { serveSignIn } from './served-signin.ts';

declare module '../../app/context.ts' {
  interface Services {
    /** the served pages kept in memory (serve-cache.ts) */
    servedPages?: ServedPagesCache;
  }
}

export const SITES_PREFIX = '/sites/';
/** shared caches may keep a page but ask every time whether it changed (a 304 costs nothing) */
const PUBLIC_CACHE = 'public, no-cache';
const NOT_FOUND_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const NOT_FOUND_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Page not found</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body><h1>Page not found</h1><p>There is no page at this address.</p></body>
</html>
`;
const RASTER_ICONS = new Set(['image/png', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/gif', 'image/jpeg', 'image/webp']);

export function sendNotFoundPage(req: IncomingMessage, res: ServerResponse, status = 404, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(NOT_FOUND_HTML),
    'cache-control': 'no-store',
    'content-security-policy': NOT_FOUND_POLICY,
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : NOT_FOUND_HTML);
}

/** Whether the request's If-None-Match names `etag` (or is `*`). */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export interface PageAnswer {
  html: Buffer;
  etag: string;
  policy: string;
  cacheControl: string;
  extraHeaders?: Record<string, string>;
}

export function sendPage(req: IncomingMessage, res: ServerResponse, a: PageAnswer): void {
  const headers: Record<string, string | number> = {
    etag: a.etag,
    'cache-control': a.cacheControl,
    'content-security-policy': a.policy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...a.extraHeaders,
  };
  if (etagMatches(req.headers['if-none-match'], a.etag)) {
    res.writeHead(304, headers);
    return void res.end();
  }
  res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-length': a.html.length });
  res.end(req.method === 'HEAD' ? undefined : a.html);
}

interface Address {
  /** the cache key's first part: `s:{slug}` or `h:{host}` */
  key: string;
  basePath: string;
  find(): Promise<ServedSite | null>;
}

async function servePublished(services: Services, req: IncomingMessage, res: ServerResponse, address: Address, path: string): Promise<void> {
  const cache = services.servedPages;
  const key = `${address.key}|${path}`;
  const now = Date.now();
  let entry = cache?.get(key, now) ?? null;
  if (!entry) {
    const generation = cache?.current ?? 0;
    const site = await address.find();
    if (!site || !site.isPublished) return sendNotFoundPage(req, res);
    const pages = await sitePages(services, site);
    // `/{language}/…`: a published translation (translate-serve.ts); its links stay in the language
    const language = servedLanguageOf(site, path);
    const page = pageAtPath(pages, language?.rest ?? path);
    if (!page || !page.published) return sendNotFoundPage(req, res);
    const translation = language ? await servedTranslation(services, site.teamId, page.id, language.languageTagId) : null;
    const basePath = language ? `${address.basePath}/${language.languageTagId.toLowerCase()}` : address.basePath;
    const rendering = await servedRendering(services, translation ? { ...site, defaultLanguageTagId: translation.languageTagId } : site, page, pages, basePath, now, translation);
    if (!rendering) return sendNotFoundPage(req, res);
    const chromeChange = nextChromeChange(site.publishedCampaignChromeConfig, page.simplyId, now);
    entry = { site, page, rendering, expiresAt: Math.min(rendering.freshUntil ?? Infinity, chromeChange ?? Infinity) };
    cache?.put(key, entry, generation);
  }
  const access = await servedPageAccess(services, req, entry.site, entry.page);
  if (!access.allowed) return access.send ? access.send(req, res) : sendNotFoundPage(req, res, access.status ?? 404, access.headers);
  sendPage(req, res, { ...entry.rendering, cacheControl: access.private ? 'private, no-store' : PUBLIC_CACHE });
}

/** The site's favicon file, when it is a raster image (an SVG could carry script). */
async function serveFavicon(services: Services, req: IncomingMessage, res: ServerResponse, address: Address): Promise<void> {
  const site = await address.find();
  if (!site || !site.isPublished || !site.faviconFileSimplyId) return sendNotFoundPage(req, res);
  const file = await readFileVersionBytes(services, site.teamId, site.faviconFileSimplyId).catch(() => null);
  if (!file || !RASTER_ICONS.has(file.contentType)) return sendNotFoundPage(req, res);
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-length': file.bytes.length,
    'cache-control': 'public, max-age=3600',
    'content-security-policy': "default-src 'none'",
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : file.bytes);
}

/** images a site may show to anyone: rasters (an SVG could carry script) */
const SITE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/**
 * A team file at the site's own address (the rendering points published pages' /v1/files/{id}/download
 * there, render-store.ts): served only while a published page, header or footer of this site
 * references it (the header or footer, a page outside access areas, or one of an area that admits
 * the visitor), only a raster image (a file version holds one only when an upload brought it
 * through the upload inspection: what the platform generates itself are PDFs), its current version.
 * Anything else is the plain 404 page: the address tells nothing of the team's other files.
 */
async function serveSiteFile(services: Services, req: IncomingMessage, res: ServerResponse, address: Address, fileSimplyId: string): Promise<void> {
  const site = await address.find();
  if (!site || !site.isPublished) return sendNotFoundPage(req, res);
  const reference = `/v1/files/${fileSimplyId}/download`;
  const [found] = await services.prisma.$queryRawUnsafe<{ mimeType: string; versionNumber: number; checksumSha256: string; pageIds: bigint[]; inChrome: boolean }[]>(
    `SELECT v."mimeType", v."versionNumber", v."checksumSha256",
            ARRAY(SELECT p.id FROM "WebsitePage" p WHERE p."teamId" = $1 AND p."websiteId" = $3 AND p."publishedDesign" IS NOT NULL AND strpos(p."publishedDesign"::text, $4) > 0 LIMIT 100) AS "pageIds",
            EXISTS (SELECT 1 FROM "Website" w WHERE w."teamId" = $1 AND w.id = $3
                       AND strpos(coalesce(w."publishedHeaderDesignJson"::text, '') || coalesce(w."publishedFooterDesignJson"::text, ''), $4) > 0) AS "inChrome"
       FROM "StoredFile" f JOIN "FileVersion" v ON v."fileId" = f.id AND v."versionNumber" = f."currentVersionNumber"
      WHERE f."teamId" = $1 AND f."simplyId" = $2 AND f."deletedAt" IS NULL`,
    site.teamId,
    fileSimplyId,
    site.id,
    reference,
  );
  if (!found || !SITE_IMAGES.has(found.mimeType)) return sendNotFoundPage(req, res);
  // an image only pages of access areas show is for the visitors those areas admit, like the pages
  let shown: 'public' | 'private' | null = found.inChrome ? 'public' : null;
  const gated: bigint[] = [];
  for (const pageId of found.pageIds) {
    if (shown) break;
    if ((await servedGate(services, site, pageId)) === null) shown = 'public';
    else gated.push(pageId);
  }
  if (!shown && gated.length) {
    const pages = (await sitePages(services, site)).filter((p) => gated.includes(p.id));
    for (const page of pages) if (!shown && (await servedPageAccess(services, req, site, page)).allowed) shown = 'private';
  }
  if (!shown) return sendNotFoundPage(req, res);
  const etag = `"${found.checksumSha256}"`;
  const headers = {
    etag,
    // an hour: a page that stops showing the image stops its address within that time
    'cache-control': shown === 'public' ? 'public, max-age=3600' : 'private, no-store',
    'content-security-policy': "default-src 'none'",
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'cross-origin',
  };
  if (etagMatches(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    return void res.end();
  }
  const file = await readFileVersionBytes(services, site.teamId, fileSimplyId, found.versionNumber).catch(() => null);
  if (!file) return sendNotFoundPage(req, res);
  res.writeHead(200, { ...headers, 'content-type': file.contentType, 'content-length': file.bytes.length });
  res.end(req.method === 'HEAD' ? undefined : file.bytes);
}

/** `/files/{id}` of a site, or of one of its languages (`/de/files/{id}`) */
const SITE_FILE_PATH = /^(?:\/[a-z0-9-]{2,35})?\/files\/(file-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4})$/;

function serveAt(services: Services, req: IncomingMessage, res: ServerResponse, address: Address, path: string): Promise<void> {
  if (path === '/favicon.ico' || /^\/[a-z0-9-]{2,35}\/favicon\.ico$/.test(path)) return serveFavicon(services, req, res, address);
  const file = SITE_FILE_PATH.exec(path);
  if (file) return serveSiteFile(services, req, res, address, file[1]!);
  // page paths are lower-case slugs: anything else is not a page
  if (!/^(?:\/[a-z0-9-]{1,100})*\/?$/.test(path)) return Promise.resolve(sendNotFoundPage(req, res));
  return servePublished(services, req, res, address, path);
}

export function siteEndpoints(services: Services): HttpEndpoint[] {
  const byDomain = (host: string): Address => ({ key: `h:${host}`, basePath: '', find: () => siteByDomain(services, host) });
  return [
    {
      prefix: SITES_PREFIX,
      route: '/sites/{slug}/{path}',
      servesHost: (host: string | undefined) => {
        const cache = services.servedPages;
        if (!cache?.hasDomains) return false;
        const name = hostOf(host);
        return cache.siteOfDomain(name) !== undefined && name !== platformHost(services);
      },
      async handle(req, res, url) {
        // the sign-in of access areas (served-signin.ts) takes POSTs too
        if (await serveSignIn(services, req, res, url)) return;
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
          return void res.end('Method not allowed\n');
        }
        const host = hostOf(req.headers.host);
        if (services.servedPages?.siteOfDomain(host) !== undefined && host !== platformHost(services)) return serveAt(services, req, res, byDomain(host), url.pathname);
        const match = /^\/sites\/([a-z0-9-]{1,63})(\/.*)?$/.exec(url.pathname);
        if (!match) return sendNotFoundPage(req, res);
        const [, slug, rest] = match;
        if (slug === 'preview') return servePreview(services, req, res, rest ?? '');
        // the site's own address ends in "/", so relative links in its pages resolve under it
        if (rest === undefined) {
          res.writeHead(308, { location: `${SITES_PREFIX}${slug}/${url.search}`, 'cache-control': 'public, max-age=3600' });
          return void res.end();
        }
        return serveAt(services, req, res, { key: `s:${slug}`, basePath: `/sites/${slug}`, find: () => siteBySlug(services, slug!) }, rest);
      },
    },
  ];
}
