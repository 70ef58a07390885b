// What a template release holds (docs/api/websites.md "Templates"): the source site's pages in tree
// order, each with its draft design as it reads (synced layouts copied in: a connected site has
// none of the source's layouts), and the source's settings. A page's `templateKey` is its simplyId
// on the source site: connected sites recognise their pages by it across releases.
import { createHash } from 'node:crypto';
import type { Tx } from '../../app/transaction.ts';
import type { Website } from '../../generated/prisma/client.ts';
import { componentIdOf, type DesignComponent, type DesignDocument, walkComponents } from './design-document.ts';
import { copyLayoutContent, isSyncedLayoutReference, layoutIdOf, loadSyncedLayouts, mergeStyles, type SyncedLayoutContent, syncedLayoutIds } from './synced-layout.ts';

/** settings every release brings to the sites that have not changed them themselves */
export const FOLLOWED_SETTINGS = ['themeSettings', 'headerDesignJson', 'footerDesignJson'] as const;
/** settings a new site copies once (navigation with its page items pointed at the copies) */
export const COPIED_SETTINGS = [...FOLLOWED_SETTINGS, 'metaTitle', 'metaDescription', 'socialImageUrl', 'faviconFileSimplyId', 'navigationJson', 'availableLanguageTagIds', 'redirectSettings'] as const;

export interface TemplatePage {
  templateKey: string;
  parentKey: string | null;
  title: string;
  slug: string;
  isHomePage: boolean;
  metaTitle: string | null;
  metaDescription: string | null;
  design: DesignDocument;
}

export interface TemplateContent {
  version: 1;
  settings: Record<string, unknown>;
  pages: TemplatePage[];
}

/** JSON with object keys sorted: stored JSON comes back with its keys reordered, so equality and hashes use this. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** the hash of the followed settings as `source` has them */
export function followedSettingsHash(source: Record<string, unknown>): string {
  return createHash('sha256')
    .update(canonicalJson(FOLLOWED_SETTINGS.map((k) => source[k] ?? null)))
    .digest('base64url');
}

/** The design with every synced-layout reference replaced by a copy of the layout's content (one that is gone leaves nothing). */
function inlineLayouts(design: DesignDocument, layouts: ReadonlyMap<string, SyncedLayoutContent>): DesignDocument {
  const out = structuredClone(design);
  out.styles ??= [];
  const used = new Set<string>();
  walkComponents(out.components, (c) => {
    const id = componentIdOf(c);
    if (id) used.add(id);
  });
  const replace = (components: DesignComponent[]) => {
    for (let i = 0; i < components.length; i++) {
      const c = components[i]!;
      if (isSyncedLayoutReference(c)) {
        const layout = layouts.get(layoutIdOf(c) ?? '');
        const copy = layout ? copyLayoutContent(layout.content, used) : { components: [], styles: [] };
        mergeStyles(out.styles, copy.styles ?? []);
        components.splice(i, 1, ...copy.components);
        i += copy.components.length - 1;
      } else if (Array.isArray(c.components)) replace(c.components);
    }
  };
  replace(out.components);
  return out;
}

/** The release content of `site` now (read in the caller's transaction). */
export async function snapshotSite(tx: Tx, site: Website): Promise<TemplateContent> {
  const pages = await tx.websitePage.findMany({
    where: { teamId: site.teamId, websiteId: site.id },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
    select: { id: true, simplyId: true, parentId: true, title: true, slug: true, isHomePage: true, metaTitle: true, metaDescription: true, draftDesign: true },
  });
  const designs = pages.map((p) => p.draftDesign as unknown as DesignDocument);
  const layouts = await loadSyncedLayouts(tx, site.teamId, site.id, syncedLayoutIds(...designs));
  const keyOf = new Map(pages.map((p) => [p.id, p.simplyId]));
  // parents before children, siblings by position: a copy can insert them in this order
  const ordered: typeof pages = [];
  const visit = (parentId: bigint | null, depth: number) => {
    if (depth > 64) return;
    for (const p of pages) {
      if (p.parentId !== parentId) continue;
      ordered.push(p);
      visit(p.id, depth + 1);
    }
  };
  visit(null, 0);
  return {
    version: 1,
    settings: Object.fromEntries(COPIED_SETTINGS.map((key) => [key, site[key] ?? null])),
    pages: ordered.map((p) => ({
      templateKey: p.simplyId,
      parentKey: p.parentId === null ? null : (keyOf.get(p.parentId) ?? null),
      title: p.title,
      slug: p.slug,
      isHomePage: p.isHomePage,
      metaTitle: p.metaTitle,
      metaDescription: p.metaDescription,
      design: inlineLayouts(p.draftDesign as unknown as DesignDocument, layouts),
    })),
  };
}

/** Navigation of the template with its page items pointed at the site's pages; items of pages the site lacks are left out. */
export function remapNavigation(navigation: unknown, pageOf: ReadonlyMap<string, string>): unknown {
  if (!navigation || typeof navigation !== 'object') return null;
  type Item = { type?: string; pageSimplyId?: string; children?: Item[] };
  const items = (list: Item[] | undefined): Item[] =>
    (list ?? []).flatMap((item) => {
      const children = item.children ? { children: items(item.children) } : {};
      if (item.type !== 'PAGE') return [{ ...item, ...children }];
      const mapped = pageOf.get(item.pageSimplyId ?? '');
      return mapped ? [{ ...item, pageSimplyId: mapped, ...children }] : [];
    });
  const nav = navigation as { menus?: { items?: Item[] }[] };
  return { ...nav, menus: (nav.menus ?? []).map((m) => ({ ...m, items: items(m.items) })) };
}
