// A page's translation as an overlay on its design (docs/api/websites.md "Translations"): what of
// a design is translatable, keyed by component id, and the design with an overlay applied. The
// layout is never copied: an overlay holds only text, so moving, restyling or adding components
// keeps every translation, and a component whose own text changed is stale (its entry's `source`
// hash no longer matches) and shows its source text until it is translated again.
import { createHash } from 'node:crypto';
import { componentIdOf, type DesignComponent, type DesignDocument } from './design-document.ts';
import { isSyncedLayoutReference } from './synced-layout.ts';

/** attributes people read or hear: translated with the text */
export const TRANSLATABLE_ATTRIBUTES = ['alt', 'title', 'aria-label'] as const;

/**
 * The text of one component: its own text nodes (not its children's) and its readable attributes.
 * A text component's `content` string is markup, not text, and is not translated.
 */
export interface SourceUnit {
  texts: string[];
  attributes: Record<string, string>;
}

export interface OverlayEntry {
  /** sha-256 of the source unit it was made from */
  source: string;
  texts?: string[];
  attributes?: Record<string, string>;
}

export type Overlay = Record<string, OverlayEntry>;

const hasText = (s: string) => /\p{L}|\p{N}/u.test(s);

function unitOf(c: DesignComponent): SourceUnit | null {
  const texts = (c.components ?? []).filter((child) => child.type === 'textnode').map((child) => (typeof child.content === 'string' ? child.content : ''));
  const attributes: Record<string, string> = {};
  for (const name of TRANSLATABLE_ATTRIBUTES) {
    const value = c.attributes?.[name];
    if (typeof value === 'string' && hasText(value)) attributes[name] = value;
  }
  if (!texts.some(hasText) && Object.keys(attributes).length === 0) return null;
  return { texts, attributes };
}

export const sourceHash = (unit: SourceUnit): string => createHash('sha256').update(JSON.stringify([unit.texts, unit.attributes])).digest('hex');

/**
 * Each component with an id and its overlay key, in document order. A design is translated with its
 * synced layouts expanded (expandSyncedLayouts): a layout's components are keyed by the reference's
 * id and their own (`{reference id}/{id}`), since a layout's ids are its own and may be a page's too.
 */
function forEachKeyed(components: DesignComponent[], visit: (key: string, c: DesignComponent) => void, scope = ''): void {
  for (const c of components) {
    const id = componentIdOf(c);
    if (id !== undefined) visit(scope + id, c);
    if (!Array.isArray(c.components)) continue;
    forEachKeyed(c.components, visit, isSyncedLayoutReference(c) && id !== undefined ? `${scope}${id}/` : scope);
  }
}

/** Every translatable component of a design (synced layouts expanded), by overlay key, in document order. */
export function sourceUnits(design: DesignDocument | null | undefined): Map<string, SourceUnit> {
  const units = new Map<string, SourceUnit>();
  if (!design || !Array.isArray(design.components)) return units;
  forEachKeyed(design.components, (key, c) => {
    const unit = unitOf(c);
    if (unit) units.set(key, unit);
  });
  return units;
}

export interface OverlayState {
  /** components whose translation fits their text as it is */
  current: string[];
  /** components translated from a text that has changed since */
  stale: string[];
  /** translatable components without a translation */
  missing: string[];
}

/** Where an overlay stands against a design. */
export function overlayState(design: DesignDocument | null | undefined, overlay: Overlay): OverlayState {
  const state: OverlayState = { current: [], stale: [], missing: [] };
  for (const [id, unit] of sourceUnits(design)) {
    const entry = overlay[id];
    if (!entry) state.missing.push(id);
    else if (entry.source === sourceHash(unit)) state.current.push(id);
    else state.stale.push(id);
  }
  return state;
}

/** Whether a translation fits its unit's shape (as many text nodes, the same attributes). */
export function entryFits(unit: SourceUnit, entry: Omit<OverlayEntry, 'source'>): boolean {
  if ((entry.texts ?? []).length !== unit.texts.length) return false;
  const names = Object.keys(unit.attributes).sort().join(',');
  return Object.keys(entry.attributes ?? {}).sort().join(',') === names;
}

/**
 * The design with the overlay's current entries applied (a copy; the design is not changed).
 * Stale entries and entries that no longer fit are left out: the source text shows instead.
 */
export function applyOverlay(design: DesignDocument, overlay: Overlay, scope = ''): DesignDocument {
  const copy = structuredClone(design);
  if (!Array.isArray(copy.components)) return copy;
  forEachKeyed(copy.components, (key, c) => {
    const entry = overlay[key];
    const unit = entry ? unitOf(c) : null;
    if (!entry || !unit || entry.source !== sourceHash(unit) || !entryFits(unit, entry)) return;
    let i = 0;
    for (const child of c.components ?? []) if (child.type === 'textnode') child.content = entry.texts![i++];
    if (entry.attributes && Object.keys(entry.attributes).length > 0) c.attributes = { ...c.attributes, ...entry.attributes };
  }, scope);
  return copy;
}

/**
 * The synced layouts a translated page shows, translated: each layout's content with the overlay's
 * entries under the key of the page's reference to it (a layout is on a page at most once).
 */
export function translatedLayouts<L extends { content: DesignDocument }>(design: DesignDocument, layouts: ReadonlyMap<string, L>, overlay: Overlay): Map<string, L> {
  const out = new Map(layouts);
  if (!Array.isArray(design.components)) return out;
  forEachKeyed(design.components, (key, c) => {
    const layout = isSyncedLayoutReference(c) ? layouts.get(String(c.attributes?.['data-layout-id'] ?? '')) : undefined;
    if (layout) out.set(String(c.attributes!['data-layout-id']), { ...layout, content: applyOverlay(layout.content, overlay, `${key}/`) });
  });
  return out;
}
