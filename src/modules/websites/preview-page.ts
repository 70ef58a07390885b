// A preview of a site's drafts (GET /sites/preview/{token}/{page path}): the page's draft design
// with the draft header, footer and campaign chrome, the navigation over every page (published or
// not), rendered for each request and never stored. The token (preview-token.ts) is the
// authorization; an expired or forged one, or a page that is not there, is the plain 404 page.
// Never cached, never indexed, never sent on as a Referer (the URL carries the token).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../app/context.ts';
import type { DesignDocument } from './design-document.ts';
import { readPreviewToken } from './preview-token.ts';
import { etagOf, renderFromSources } from './render-store.ts';
import { sendNotFoundPage, sendPage } from './serve-endpoint.ts';
import { pageAtPath, siteById, sitePages } from './serve-site.ts';

const PREVIEW_HEADERS = { 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' };

/** `rest`: what follows /sites/preview ("/{token}/about"). */
export async function servePreview(services: Services, req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
  const match = /^\/([^/]{1,600})(\/.*)?$/.exec(rest);
  const claims = match ? readPreviewToken(services, match[1]!) : null;
  if (!match || !claims) return sendNotFoundPage(req, res, 404, PREVIEW_HEADERS);
  if (match[2] === undefined) {
    res.writeHead(308, { location: `/sites/preview/${match[1]}/`, 'cache-control': 'no-store', ...PREVIEW_HEADERS });
    return void res.end();
  }
  const path = match[2];
  if (!/^(?:\/[a-z0-9-]{1,100})*\/?$/.test(path)) return sendNotFoundPage(req, res, 404, PREVIEW_HEADERS);
  const site = await siteById(services, claims.teamId, claims.websiteSimplyId);
  if (!site) return sendNotFoundPage(req, res, 404, PREVIEW_HEADERS);
  const pages = await sitePages(services, site);
  const page = pageAtPath(pages, path);
  if (!page) return sendNotFoundPage(req, res, 404, PREVIEW_HEADERS);
  const [draft, drafts] = await Promise.all([
    services.prisma.websitePage.findUnique({ where: { id: page.id, teamId: site.teamId }, select: { draftDesign: true } }),
    services.prisma.website.findUnique({ where: { id: site.id, teamId: site.teamId }, select: { headerDesignJson: true, footerDesignJson: true, campaignChromeConfig: true } }),
  ]);
  const { html, policy } = await renderFromSources(services, {
    site,
    page,
    pages,
    basePath: `/sites/preview/${match[1]}`,
    now: Date.now(),
    design: (draft?.draftDesign ?? null) as DesignDocument | null,
    header: (drafts?.headerDesignJson ?? null) as DesignDocument | null,
    footer: (drafts?.footerDesignJson ?? null) as DesignDocument | null,
    chromeConfig: drafts?.campaignChromeConfig ?? null,
    allPages: true,
  });
  sendPage(req, res, { html, etag: etagOf(html), policy, cacheControl: 'private, no-store', extraHeaders: PREVIEW_HEADERS });
}
