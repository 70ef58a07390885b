// The platform's layout catalog (src/modules/websites/layout-catalog/*.json, docs/api/websites.md
// "Layout catalog"): every entry is a design fragment that passes the design rules and renders whole
// through the served-page renderer (no component dropped), with semantic landmarks, headings in
// order, alt texts on images, and text colours readable on their backgrounds (WCAG AA, 4.5:1); and
// the route serves it to anyone with a websites feature.
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDesign, componentIdOf, type DesignDocument, walkComponents } from '../../src/modules/websites/design-document.ts';
import { layoutCatalog } from '../../src/modules/websites/layout-catalog.ts';
import { renderPage } from '../../src/modules/websites/render-page.ts';
import { parseLayoutContent } from '../../src/modules/websites/saved-layouts.input.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { adminOf, call, memberWith } from './websites-fixtures.ts';

const catalog = layoutCatalog();

function rendered(content: DesignDocument): Document {
  const page = renderPage({
    site: { name: 'Site', metaTitle: null, metaDescription: null, socialImageUrl: null, faviconFileSimplyId: null, defaultLanguageTagId: 'en', navigationJson: null, header: null, footer: null } as never,
    page: { simplyId: 'wpg-AAAA-AAAA-AAAA', title: 'Page', metaTitle: null, metaDescription: null, design: content },
    basePath: '/sites/s',
    pages: new Map(),
    chrome: [],
  });
  return new JSDOM(page.html).window.document;
}

/** relative luminance of #rrggbb (WCAG 2) */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('layout catalog entries', () => {
  it('has the sections a site needs', () => {
    expect(catalog.map((e) => e.category).sort()).toEqual(expect.arrayContaining(['hero', 'features', 'pricing', 'faq', 'contact', 'blog', 'footer', 'testimonials', 'call-to-action']));
    expect(new Set(catalog.map((e) => e.catalogLayoutId)).size).toBe(catalog.length);
  });

  for (const entry of catalog) {
    describe(entry.catalogLayoutId, () => {
      it('passes the design rules as it is (every component has its id already) and can be saved as a layout', () => {
        const copy = structuredClone(entry.contentJson);
        expect(checkDesign(copy, 'contentJson')).toEqual([]);
        expect(copy).toEqual(entry.contentJson);
        expect(parseLayoutContent(entry.contentJson).details).toEqual([]);
      });

      it('renders every component, with semantic elements, headings in order and alt texts', () => {
        const doc = rendered(entry.contentJson);
        const main = doc.querySelector('main')!;
        walkComponents(entry.contentJson.components, (c) => {
          const id = componentIdOf(c);
          if (id) expect(main.querySelector(`#${id}`), `${entry.catalogLayoutId}: ${id} is rendered`).not.toBeNull();
        });
        expect(main.querySelector('section, nav, article, footer, div[aria-label], div'), 'a top element').not.toBeNull();
        if (entry.category !== 'footer') expect(main.querySelector('section[aria-labelledby]')).not.toBeNull();
        const levels = [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
        for (let i = 1; i < levels.length; i++) expect(levels[i]! - levels[i - 1]!, `${entry.catalogLayoutId}: heading levels ${levels.join(',')}`).toBeLessThanOrEqual(1);
        if (levels.length) expect(levels[0]).toBe(entry.category === 'hero' ? 1 : 2);
        for (const img of main.querySelectorAll('img')) expect(img.getAttribute('alt')?.trim(), `${entry.catalogLayoutId}: image alt`).toBeTruthy();
        for (const a of main.querySelectorAll('a')) expect(a.textContent?.trim(), 'link text').toBeTruthy();
        const label = main.querySelector('section[aria-labelledby]')?.getAttribute('aria-labelledby');
        if (label) expect(main.querySelector(`#${label}`)).not.toBeNull();
      });

      it('styles text readably: 4.5:1 wherever a rule sets a colour', () => {
        for (const rule of entry.contentJson.styles) {
          const color = rule.style.color;
          if (!color) continue;
          const background = rule.style['background-color'];
          expect(background, `${JSON.stringify(rule.selectors)} sets color without background-color`).toMatch(/^#[0-9a-f]{6}$/i);
          expect(contrast(color, background!), `${JSON.stringify(rule.selectors)}: ${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
        }
      });
    });
  }

  it('has a contact form placeholder the site fills with a wizard', () => {
    const contact = catalog.find((e) => e.category === 'contact')!;
    let placeholder = false;
    walkComponents(contact.contentJson.components, (c) => (placeholder ||= c.attributes?.['data-wizard-placeholder'] === 'contact-form' && 'data-wizard-simply-id' in (c.attributes ?? {})));
    expect(placeholder).toBe(true);
  });
});

describe('GET /v1/website-layouts/catalog', () => {
  let server: TestServer;
  let team: TeamFixture;
  beforeAll(async () => {
    ({ server, team } = await startServerWithTeam());
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the catalog to a member with a websites feature, and refuses API keys and members without one', async () => {
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    const entries = expectOk(await call(server, viewer, 'GET', '/v1/website-layouts/catalog'));
    expect(entries.map((e: { catalogLayoutId: string }) => e.catalogLayoutId)).toEqual(catalog.map((e) => e.catalogLayoutId));
    expect(entries[0]).toMatchObject({ name: catalog[0]!.name, designFormat: 'GRAPESJS_WEB', contentJson: catalog[0]!.contentJson });
    expectError(await server.request('GET', '/v1/website-layouts/catalog', { token: team.apiKey }), 403, 'IDP_REQUIRED');
    const outsider = await memberWith(server, team, []);
    expectError(await call(server, outsider, 'GET', '/v1/website-layouts/catalog'), 403, 'PERMISSION_DENIED');
    // an entry saved as a layout of a site is accepted as it is
    const admin = adminOf(team);
    const site = expectOk(await call(server, admin, 'POST', '/v1/websites', { name: 'Catalog site' }), 201);
    const saved = expectOk(await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/saved-layouts`, { name: entries[0].name, category: entries[0].category, contentJson: entries[0].contentJson }), 201);
    expect(saved.contentJson).toEqual(entries[0].contentJson);
  });
});
