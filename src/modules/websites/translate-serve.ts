// A translated page on the served site (docs/api/websites.md "Translations"): the address
// `/sites/{slug}/{language}/{page path}` names a language the site publishes (one of its
// availableLanguageTagIds other than the default, lower-cased in the address), and the page is
// rendered from its published design with the language's overlay applied. A language is published
// by listing it in availableLanguageTagIds; the overlay applies to the published design only where
// a component's text is the one it was translated from, so a translation of draft text shows once
// the page is published with that text, never before.
import type { Services } from '../../app/context.ts';
import type { ServedSite } from './serve-site.ts';
import type { Overlay } from './translate-overlay.ts';

export interface ServedTranslation {
  languageTagId: string;
  /** part of the rendering's fingerprint: changes with every change of the overlay */
  version: string;
  overlay: Overlay;
}

/** The published language a served path starts with, and the page path after it; null: none. */
export function servedLanguageOf(site: Pick<ServedSite, 'availableLanguageTagIds' | 'defaultLanguageTagId'>, path: string): { languageTagId: string; rest: string } | null {
  const match = /^\/([a-z]{2,3}(?:-[a-z0-9]{2,8})*)(\/.*)?$/.exec(path);
  if (!match) return null;
  const wanted = match[1]!;
  const tag = site.availableLanguageTagIds.find((t) => t.toLowerCase() === wanted);
  if (!tag || tag.toLowerCase() === site.defaultLanguageTagId?.toLowerCase()) return null;
  return { languageTagId: tag, rest: match[2] ?? '/' };
}

/** The page's overlay in a language, or null when the page has none. */
export async function servedTranslation(services: Services, teamId: bigint, pageId: bigint, languageTagId: string): Promise<ServedTranslation | null> {
  const row = await services.prisma.websiteTranslation.findUnique({ where: { pageId_languageTagId: { pageId, languageTagId } }, select: { teamId: true, entries: true, updatedAt: true } });
  if (!row || row.teamId !== teamId) return null;
  return { languageTagId, version: `${languageTagId}:${row.updatedAt.toISOString()}`, overlay: row.entries as unknown as Overlay };
}
