// One page of a site as a whole HTML document: doctype and language, title and meta (the page's,
// else the site's), the social image, the favicon (served by the platform under the site's own
// address), one stylesheet (the platform's base, then the header's, the page's and the footer's
// rules, then the chrome's), the header with the first menu, the page, the footer with the other
// menus, and the campaign chrome. Everything from a design or a setting is sanitized
// (render-sanitize.ts); the rest is escaped text. The same inputs give the same bytes.
//
// The page's Content-Security-Policy (servedPolicy) allows its one stylesheet by hash, images from
// the platform, https and embedded rasters, and nothing else: no script at all. So Google Analytics
// (googleAnalyticsMeasurementId) is not put on served pages: GA4 is a third-party script that loads
// more script, and allowing it would allow whatever it loads.
import { createHash } from 'node:crypto';
import { escapeHtml } from '../../app/html-escape.ts';
import type { CampaignPopup } from './campaign-chrome.input.ts';
import type { DesignDocument } from './design-document.ts';
import { renderChrome } from './render-chrome.ts';
import { type DataViewRenderer, renderDesign } from './render-design.ts';
import { type NavigablePage, renderMenus } from './render-navigation.ts';
import { sanitizeServedMarkup } from './render-sanitize.ts';

/** bumped when the renderer's output changes, so every page is rendered again */
export const RENDERER_VERSION = 2;

export interface SiteRenderInput {
  name: string;
  metaTitle: string | null;
  metaDescription: string | null;
  socialImageUrl: string | null;
  faviconFileSimplyId: string | null;
  defaultLanguageTagId: string | null;
  navigationJson: unknown;
  header: DesignDocument | null;
  footer: DesignDocument | null;
}

export interface PageRenderInput {
  simplyId: string;
  title: string;
  metaTitle: string | null;
  metaDescription: string | null;
  design: DesignDocument | null;
}

export interface RenderRequest {
  site: SiteRenderInput;
  page: PageRenderInput;
  /** `/sites/{slug}`, `/sites/preview/{token}`, or '' on a custom domain */
  basePath: string;
  /** pages visitors can reach, by simplyId (navigation) */
  pages: ReadonlyMap<string, NavigablePage>;
  chrome: CampaignPopup[];
  dataView?: DataViewRenderer;
  /** the current content of the site's SYNCED layouts the designs reference (synced-layout.ts) */
  syncedLayout?: (savedLayoutSimplyId: string) => DesignDocument | null;
}

export interface RenderedPage {
  html: string;
  /** the stylesheet's CSP source */
  styleHash: string;
  dataViews: string[];
}

const BASE_CSS = [
  '*,*::before,*::after{box-sizing:border-box}',
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1f2328;background:#fff}',
  'img{max-width:100%;height:auto}',
  '.svc-skip{position:absolute;left:-9999px}.svc-skip:focus{left:1rem;top:1rem;z-index:1000;background:#fff;padding:.5rem}',
  '.svc-nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:1rem}.svc-nav ul ul{display:block;padding-left:1rem}',
  '.svc-video{display:inline-block}',
  '.svc-data-view{overflow-x:auto}.svc-data-view table{border-collapse:collapse;width:100%}.svc-data-view th,.svc-data-view td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #d0d7de}',
  '.svc-dismiss{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}',
  '.svc-dismiss:checked+.svc-chrome{display:none}',
  '.svc-dismiss:focus-visible+.svc-chrome .svc-close{outline:2px solid #0969da}',
  '.svc-chrome{position:fixed;z-index:900;background:#fff;color:#1f2328;box-shadow:0 4px 24px rgba(0,0,0,.2);padding:1rem 2.5rem 1rem 1rem}',
  '.svc-banner{position:sticky;top:0;left:0;right:0;box-shadow:none;border-bottom:1px solid #d0d7de}',
  '.svc-modal{top:50%;left:50%;transform:translate(-50%,-50%);max-width:min(32rem,90vw);outline:100vmax solid rgba(0,0,0,.4)}',
  '.svc-slide-in,.svc-conversation{right:1rem;bottom:1rem;max-width:min(22rem,90vw)}',
  '.svc-close{position:absolute;top:.25rem;right:.5rem;cursor:pointer;font-size:1.5rem;line-height:1}',
  '@keyframes svc-appear{from{visibility:hidden}to{visibility:visible}}',
  '.svc-delayed{visibility:hidden;animation:svc-appear 0s linear 0s forwards}',
].join('\n');

export const styleSource = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

/** The policy of a served page: its stylesheet by hash, images from the platform, https and embedded rasters; nothing runs. */
export function servedPolicy(styleHash: string): string {
  return `default-src 'none'; style-src ${styleHash}; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`;
}

export function renderPage(r: RenderRequest): RenderedPage {
  const language = r.site.defaultLanguageTagId ?? 'en';
  const design = (d: DesignDocument | null) => {
    const out = renderDesign(d, { sanitizeFragment: sanitizeServedMarkup, dataView: r.dataView, syncedLayout: r.syncedLayout });
    return { ...out, html: sanitizeServedMarkup(out.html) };
  };
  const header = design(r.site.header);
  const page = design(r.page.design);
  const footer = design(r.site.footer);
  const menus = renderMenus(r.site.navigationJson, { basePath: r.basePath, pages: r.pages, currentPageSimplyId: r.page.simplyId });
  const chrome = renderChrome(r.chrome, language, sanitizeServedMarkup);
  const css = [BASE_CSS, header.css, page.css, footer.css, chrome.css].filter(Boolean).join('\n');
  const siteTitle = r.site.metaTitle || r.site.name;
  const title = r.page.metaTitle || `${r.page.title} | ${siteTitle}`;
  const description = r.page.metaDescription || r.site.metaDescription;
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    description ? `<meta name="description" content="${escapeHtml(description)}">` : '',
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:site_name" content="${escapeHtml(siteTitle)}">`,
    description ? `<meta property="og:description" content="${escapeHtml(description)}">` : '',
    r.site.socialImageUrl && /^https?:\/\//i.test(r.site.socialImageUrl) ? `<meta property="og:image" content="${escapeHtml(r.site.socialImageUrl)}">` : '',
    r.site.faviconFileSimplyId ? `<link rel="icon" href="${escapeHtml(`${r.basePath}/favicon.ico`)}">` : '',
    `<style>${css}</style>`,
  ].filter(Boolean);
  const body = [
    '<a class="svc-skip" href="#svc-main">Skip to content</a>',
    chrome.html,
    header.html || menus.header ? `<header class="svc-header">${header.html}${menus.header}</header>` : '',
    `<main id="svc-main">${page.html}</main>`,
    footer.html || menus.footer ? `<footer class="svc-footer">${footer.html}${menus.footer}</footer>` : '',
  ].filter(Boolean);
  const html = `<!doctype html>\n<html lang="${escapeHtml(language)}">\n<head>\n${head.join('\n')}\n</head>\n<body>\n${body.join('\n')}\n</body>\n</html>\n`;
  return { html, styleHash: styleSource(css), dataViews: [...new Set([...header.dataViews, ...page.dataViews, ...footer.dataViews])] };
}
