// A site's menus (navigationJson, version 2) as the served page's <nav> elements. Page items link
// to the pages' paths under the page's base (`/sites/{slug}` or a custom domain's root) and show
// only pages that are on the site (published, or every page in a preview); an item whose page is
// not there is left out with the items under it. Labels are text, escaped here; links are checked
// again (http(s), relative, #anchor, mailto:, tel:).
import { escapeHtml } from '../../app/html-escape.ts';
import { safeUrl } from './design-document.ts';
import type { NavigationInput } from './navigation.input.ts';

export interface NavigablePage {
  simplyId: string;
  title: string;
  /** "/" for the home page, else "/about/team" */
  path: string;
}

type Item = NavigationInput['menus'][number]['items'][number] & { children?: Item[] };

export interface NavigationContext {
  basePath: string;
  /** pages visitors can reach, by simplyId */
  pages: ReadonlyMap<string, NavigablePage>;
  currentPageSimplyId: string;
}

export const pageHref = (basePath: string, path: string) => (path === '/' ? `${basePath}/` : `${basePath}${path}`);

function itemsHtml(items: Item[] | undefined, ctx: NavigationContext, depth: number): string {
  if (!items?.length || depth > 4) return '';
  const out: string[] = [];
  for (const item of items) {
    let link: string;
    if (item.type === 'PAGE') {
      const page = ctx.pages.get(item.pageSimplyId);
      if (!page) continue;
      const current = page.simplyId === ctx.currentPageSimplyId ? ' aria-current="page"' : '';
      link = `<a href="${escapeHtml(pageHref(ctx.basePath, page.path))}"${current}>${escapeHtml(item.label ?? page.title)}</a>`;
    } else {
      if (typeof item.url !== 'string' || !safeUrl(item.url, 'a', 'href')) continue;
      const blank = item.openInNewTab ? ' target="_blank" rel="noopener noreferrer"' : '';
      link = `<a href="${escapeHtml(item.url)}"${blank}>${escapeHtml(item.label)}</a>`;
    }
    const children = itemsHtml(item.children, ctx, depth + 1);
    out.push(`<li>${link}${children}</li>`);
  }
  return out.length ? `<ul>${out.join('')}</ul>` : '';
}

/** Each menu as a <nav> labelled by its name: the first for the header, the others for the footer. */
export function renderMenus(navigation: unknown, ctx: NavigationContext): { header: string; footer: string } {
  const nav = navigation as NavigationInput | null;
  if (!nav || nav.version !== 2 || !Array.isArray(nav.menus)) return { header: '', footer: '' };
  const rendered = nav.menus.map((menu) => {
    const list = itemsHtml(menu.items as Item[], ctx, 1);
    return list ? `<nav class="svc-nav" aria-label="${escapeHtml(String(menu.name))}">${list}</nav>` : '';
  });
  return { header: rendered[0] ?? '', footer: rendered.slice(1).join('') };
}
