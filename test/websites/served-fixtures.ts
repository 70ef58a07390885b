// What the served-site suites share: a published site made over REST (pages with designs, the home
// page published, the site activated and live), and plain requests of its pages.
import { expectOk } from '../support/expect-envelope.ts';
import type { TestServer } from '../support/server.ts';
import { call, type Caller, createPage, createSite } from './websites-fixtures.ts';

export const text = (id: string, words: string, tagName = 'p') => ({ tagName, attributes: { id }, components: [{ type: 'textnode', content: words }] });
export const insertAll = (components: unknown[]) => components.map((component) => ({ op: 'insert', parentId: null, component }));

export async function setDesign(server: TestServer, who: Caller, page: string, components: unknown[]): Promise<void> {
  const current = expectOk(await call(server, who, 'GET', `/v1/website-pages/${page}/design`));
  const remove = current.design.components.map((c: { attributes: { id: string } }) => ({ op: 'remove', id: c.attributes.id }));
  expectOk(await call(server, who, 'PATCH', `/v1/website-pages/${page}/design`, { operations: [...remove, ...insertAll(components)] }));
}

export async function publishPage(server: TestServer, who: Caller, page: string): Promise<void> {
  expectOk(await call(server, who, 'POST', `/v1/website-pages/${page}/publish`, {}));
}

export interface PublishedSite {
  websiteSimplyId: string;
  slug: string;
  home: string;
  /** `/sites/{slug}` */
  base: string;
}

/** A live site whose home page shows `components` (published), with `settings` applied before it goes live. */
export async function publishedSite(server: TestServer, who: Caller, components: unknown[], settings: Record<string, unknown> = {}): Promise<PublishedSite> {
  const site = await createSite(server, who);
  const home = (await createPage(server, who, site.websiteSimplyId, { title: 'Home' })).pageSimplyId as string;
  await setDesign(server, who, home, components);
  await publishPage(server, who, home);
  if (Object.keys(settings).length) expectOk(await call(server, who, 'PUT', `/v1/websites/${site.websiteSimplyId}`, settings));
  const { activationToken } = expectOk(await call(server, who, 'POST', `/v1/websites/${site.websiteSimplyId}/publish-activation`), 201);
  expectOk(await call(server, who, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { isPublished: true, activationToken }));
  return { websiteSimplyId: site.websiteSimplyId, slug: site.slug, home, base: `/sites/${site.slug}` };
}

/** GET of a served page, as a visitor (no credential). */
export const visit = (server: TestServer, path: string, headers: Record<string, string> = {}) => server.request('GET', path, { headers, redirect: 'manual' });
