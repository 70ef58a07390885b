// The page a LINK_PAGE tag answers (docs/api/action-tags.md "Resolving"): its title and its calls
// to action as plain links, every text escaped, no script, and a Content-Security-Policy under
// which nothing but the page's own inline style loads (named by its hash, so no other inline style
// applies). Small enough to arrive in one packet or two.
import { createHash } from 'node:crypto';
import { escapeHtml } from '../../app/html-escape.ts';
import type { LinkPageSettings } from './action-tags.input.ts';

export interface RenderedPage {
  html: Buffer;
  /** the Content-Security-Policy that lets exactly this page's style apply */
  policy: string;
}

function page(style: string, body: string, head: string): RenderedPage {
  const hash = createHash('sha256').update(style).digest('base64');
  return {
    html: Buffer.from(`<!doctype html>\n<html lang="en"><head>${head}<style>${style}</style></head>\n<body>${body}</body></html>\n`),
    policy: `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}

const HEAD = (title: string) => `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer"><title>${title}</title>`;

const THEMES: Record<string, string> = {
  SYSTEM: ':root{color-scheme:light dark}',
  LIGHT: ':root{color-scheme:light}body{background:#fff;color:#1f2328}',
  DARK: ':root{color-scheme:dark}body{background:#16181d;color:#e6e6e6}',
};

export function renderLinkPage(settings: LinkPageSettings): RenderedPage {
  const title = escapeHtml(settings.title);
  const links = settings.callsToAction
    .map((c) => `<li><a href="${escapeHtml(c.url)}" rel="noopener noreferrer">${escapeHtml(c.label)}</a></li>`)
    .join('');
  const style = `${THEMES[settings.theme] ?? THEMES.SYSTEM}body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;line-height:1.5}ul{list-style:none;padding:0}li{margin:.75rem 0}a{display:block;padding:.9rem 1rem;border:2px solid currentColor;border-radius:.5rem;text-align:center;font-weight:600;text-decoration:none;color:inherit}a:focus-visible{outline:3px solid #0969da;outline-offset:2px}`;
  return page(style, `<main><h1>${title}</h1><ul>${links}</ul></main>`, HEAD(title));
}

const GONE_TEXT: Record<number, [string, string]> = {
  404: ['Not found', 'There is nothing at this address.'],
  410: ['No longer available', 'This code or link has been switched off by its owner.'],
};

export function renderStatusPage(status: 404 | 410): RenderedPage {
  const [heading, text] = GONE_TEXT[status]!;
  const style = ':root{color-scheme:light dark}body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}';
  return page(style, `<main><h1>${heading}</h1><p>${text}</p></main>`, HEAD(heading));
}
