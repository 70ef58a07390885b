// How a page uses a saved layout (docs/api/websites.md "Using a layout on a page").
//
//   - SNAPSHOT: the layout's components are copied into the draft (design operation `insertLayout`);
//     from then on they are the page's own. Ids the page already has are renamed in the copy (and in
//     the copy's `#id` rules), so a layout can be inserted twice.
//   - SYNCED: the draft holds one reference component, `{ type: "synced-layout", attributes: { id,
//     "data-layout-id": "wsl-…" } }`, and nothing else of the layout. Whoever reads the draft or
//     renders the page gets the layout's content as it is now (expandSyncedLayouts here; the
//     renderer's `syncedLayout`), so a change of the layout reaches every page without rewriting
//     any of them. Detaching replaces the reference with a copy, as a SNAPSHOT insert would.
//
// A layout's content never holds a reference itself (saved-layouts.input.ts), so expansion is one
// level deep.
import type { DesignComponent, DesignDocument, DesignStyleRule } from './design-document.ts';
import { componentIdOf, newComponentId, walkComponents } from './design-document.ts';

export const SYNCED_LAYOUT_TYPE = 'synced-layout';
export const LAYOUT_ID_ATTRIBUTE = 'data-layout-id';

export const isSyncedLayoutReference = (c: DesignComponent): boolean => c.type === SYNCED_LAYOUT_TYPE;

export const layoutIdOf = (c: DesignComponent): string | undefined => {
  const id = c.attributes?.[LAYOUT_ID_ATTRIBUTE];
  return typeof id === 'string' ? id : undefined;
};

/** The layouts a design references (each once, in document order). */
export function syncedLayoutIds(...designs: (DesignDocument | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const design of designs) {
    if (!design || !Array.isArray(design.components)) continue;
    walkComponents(design.components, (c) => {
      const id = isSyncedLayoutReference(c) ? layoutIdOf(c) : undefined;
      if (id) out.add(id);
    });
  }
  return [...out];
}

export function referenceComponent(layoutSimplyId: string, id = newComponentId()): DesignComponent {
  return { type: SYNCED_LAYOUT_TYPE, attributes: { id, [LAYOUT_ID_ATTRIBUTE]: layoutSimplyId } };
}

const ruleKey = (rule: DesignStyleRule) => JSON.stringify([rule.selectors.map((s) => (typeof s === 'string' ? s : s.name)), rule.mediaText ?? '', rule.state ?? '', rule.atRuleType ?? '']);

/**
 * A copy of a layout's content to put into a design whose component ids are `used`: ids the design
 * has already get new ones (and the copy's rules naming them follow), and the new ids join `used`.
 */
export function copyLayoutContent(content: DesignDocument, used: Set<string>): DesignDocument {
  const copy = structuredClone(content);
  const renamed = new Map<string, string>();
  walkComponents(copy.components, (c) => {
    const id = componentIdOf(c);
    if (id === undefined) return;
    if (used.has(id)) {
      let next = newComponentId();
      while (used.has(next)) next = newComponentId();
      renamed.set(id, next);
      c.attributes = { ...c.attributes, id: next };
      used.add(next);
    } else used.add(id);
  });
  if (renamed.size) {
    for (const rule of copy.styles) {
      rule.selectors = rule.selectors.map((s) => {
        if (typeof s === 'string') return s.startsWith('#') && renamed.has(s.slice(1)) ? `#${renamed.get(s.slice(1))}` : s;
        return s.type === 2 && renamed.has(s.name) ? { ...s, name: renamed.get(s.name)! } : s;
      });
    }
  }
  return copy;
}

/** Adds the rules of `extra` a design does not have yet (same selectors, media and state): the page's own rules win. */
export function mergeStyles(styles: DesignStyleRule[], extra: DesignStyleRule[]): void {
  const have = new Set(styles.map(ruleKey));
  for (const rule of extra) {
    const key = ruleKey(rule);
    if (have.has(key)) continue;
    have.add(key);
    styles.push(structuredClone(rule));
  }
}

/**
 * The draft as it reads: every reference component holds the layout's current components (and its
 * `layoutRevision`, `layoutName`), and the layouts' rules come before the page's own. A reference
 * to a layout that is gone stays empty.
 */
export function expandSyncedLayouts(design: DesignDocument, layouts: ReadonlyMap<string, SyncedLayoutContent>): DesignDocument {
  if (layouts.size === 0) return design;
  const view = structuredClone(design);
  const layoutRules: DesignStyleRule[] = [];
  walkComponents(view.components, (c) => {
    if (!isSyncedLayoutReference(c)) return;
    const layout = layouts.get(layoutIdOf(c) ?? '');
    if (!layout) return;
    c.components = structuredClone(layout.content.components);
    c.layoutName = layout.name;
    c.layoutRevision = layout.revision;
    mergeStyles(layoutRules, layout.content.styles ?? []);
  });
  const own = view.styles ?? [];
  view.styles = layoutRules;
  mergeStyles(view.styles, own);
  // the page's own rule for the same selectors wins: it replaces the layout's
  for (const rule of own) {
    const i = view.styles.findIndex((r) => ruleKey(r) === ruleKey(rule));
    if (i >= 0) view.styles[i] = rule;
  }
  return view;
}

export interface SyncedLayoutContent {
  simplyId: string;
  name: string;
  revision: number;
  content: DesignDocument;
}

type LayoutReader = {
  websiteSavedLayout: {
    findMany(args: object): Promise<{ simplyId: string; name: string; contentRevision: number; contentJson: unknown }[]>;
  };
};

/** The SYNCED layouts of the site among `simplyIds`, archived ones too (pages that use them keep showing them). */
export async function loadSyncedLayouts(db: LayoutReader, teamId: bigint, websiteId: bigint, simplyIds: string[]): Promise<Map<string, SyncedLayoutContent>> {
  if (simplyIds.length === 0) return new Map();
  const rows = await db.websiteSavedLayout.findMany({
    where: { teamId, websiteId, syncMode: 'SYNCED', simplyId: { in: simplyIds.slice(0, 200) } },
    select: { simplyId: true, name: true, contentRevision: true, contentJson: true },
  });
  return new Map(rows.map((r) => [r.simplyId, { simplyId: r.simplyId, name: r.name, revision: r.contentRevision, content: r.contentJson as DesignDocument }]));
}

/** When a SYNCED layout of the site last changed (null: it has none): part of its served pages' fingerprint. */
export async function syncedLayoutsStamp(db: { $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> }, teamId: bigint, websiteId: bigint): Promise<string | null> {
  const rows = await db.$queryRawUnsafe<{ stamp: Date | null; n: number }[]>(
    `SELECT max("contentChangedAt") AS stamp, count(*)::int AS n FROM "WebsiteSavedLayout" WHERE "teamId" = $1 AND "websiteId" = $2 AND "syncMode" = 'SYNCED'`,
    teamId,
    websiteId,
  );
  const row = rows[0];
  return row?.stamp ? `${row.n}:${row.stamp.toISOString()}` : null;
}
