// The platform's layout catalog (GET /v1/website-layouts/catalog, docs/api/websites.md "Layout
// catalog"): well-made, accessible sections shipped as data, one JSON file each in layout-catalog/.
// Each entry's content is a design fragment that passes the design rules and renders whole through
// the served-page renderer (test/websites/layout-catalog.test.ts holds them to that: semantic
// elements, headings in order, alt texts, readable contrast). They are read once, on first use.
import fs from 'node:fs';
import path from 'node:path';
import type { DesignDocument } from './design-document.ts';
import type { RequestContext } from '../../app/context.ts';
import { requireWebsitesFeature } from './website-access.ts';

export interface CatalogLayout {
  catalogLayoutId: string;
  name: string;
  category: string;
  description: string;
  designFormat: 'GRAPESJS_WEB' | 'GRAPESJS_EMAIL';
  contentJson: DesignDocument;
}

const CATALOG_DIR = path.join(import.meta.dirname, 'layout-catalog');
let catalog: CatalogLayout[] | null = null;

/** Every catalog entry, by file name. */
export function layoutCatalog(): CatalogLayout[] {
  catalog ??= fs
    .readdirSync(CATALOG_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(CATALOG_DIR, f), 'utf8')) as CatalogLayout);
  return structuredClone(catalog);
}

/** The catalog for a caller with either websites feature. */
export function catalogFor(ctx: RequestContext): CatalogLayout[] {
  requireWebsitesFeature(ctx, 'VIEW');
  return layoutCatalog();
}
