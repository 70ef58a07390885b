// Where a site's translations stand against the pages' drafts (GraphQL websiteTranslationStatus):
// for each page and language, the components whose translation is current, stale (their text
// changed since it was translated) or missing.
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { isLanguageTag } from '../../app/localized-text.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { DesignDocument } from './design-document.ts';
import { expandSyncedLayouts, loadSyncedLayouts, syncedLayoutIds } from './synced-layout.ts';
import { requireWebsitesFeature, siteFor } from './website-access.ts';
import { type Overlay, overlayState } from './translate-overlay.ts';

export interface PageTranslationState {
  pageSimplyId: string;
  languageTagId: string;
  translatedRevision: number;
  draftRevision: number;
  currentCount: number;
  staleComponentIds: string[];
  missingComponentIds: string[];
}

/** VIEWER; the translations of one language (or every language translated so far), at most 1,000 entries. */
export async function translationStatus(ctx: RequestContext, websiteSimplyId: string, languageTagId: string | null): Promise<PageTranslationState[]> {
  const team = requireTeam(ctx);
  requireWebsitesFeature(ctx, 'VIEW');
  if (languageTagId !== null && !isLanguageTag(languageTagId)) throw new ValidationError('Invalid language', [{ field: 'languageTagId', message: 'must be a language tag such as en or de-CH' }]);
  const { site } = await siteFor(ctx, ctx.services.prisma, websiteSimplyId, 'VIEWER');
  const rows = await ctx.services.prisma.websiteTranslation.findMany({
    where: { teamId: team.id, websiteId: site.id, ...(languageTagId ? { languageTagId } : {}) },
    select: { languageTagId: true, entries: true, translatedRevision: true, page: { select: { simplyId: true, draftDesign: true, draftRevision: true } } },
    orderBy: [{ pageId: 'asc' }, { languageTagId: 'asc' }],
    take: 1000,
  });
  // the drafts as they read: with their synced layouts (one read for all of them)
  const layouts = await loadSyncedLayouts(ctx.services.prisma, team.id, site.id, syncedLayoutIds(...rows.map((r) => r.page.draftDesign as unknown as DesignDocument)));
  return rows.map((r) => {
    const state = overlayState(expandSyncedLayouts(r.page.draftDesign as unknown as DesignDocument, layouts), r.entries as unknown as Overlay);
    return {
      pageSimplyId: r.page.simplyId,
      languageTagId: r.languageTagId,
      translatedRevision: r.translatedRevision,
      draftRevision: r.page.draftRevision,
      currentCount: state.current.length,
      staleComponentIds: state.stale,
      missingComponentIds: state.missing,
    };
  });
}
