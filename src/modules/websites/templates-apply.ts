// Bringing one connected site to a template release, in the caller's transaction (the site's row
// locked by it). The merge rule (docs/api/websites.md "How a release is applied"):
//   - a template page the site does not have yet is added (under its template parent when the site
//     has it, else at the root);
//   - a page the template wrote last and nobody edited since (its draft revision is still the one
//     the template left) gets the release's title, meta fields and design;
//   - a page whose draft was edited on the site since keeps its draft (keptLocal);
//   - a detached page is never touched (detached); a page deleted on the site is not brought back;
//   - a page the release no longer has stays where it is (removedFromTemplate);
//   - the theme, header and footer follow the release unless the site changed them itself.
// With `publish`, the pages the release changed (updated or added) are published.
import type { RequestContext } from '../../app/context.ts';
import type { Tx } from '../../app/transaction.ts';
import { Prisma, type Website, type WebsitePage, type WebsiteTemplateLink, type WebsiteTemplatePage } from '../../generated/prisma/client.ts';
import { recordActivity } from './page-activity.ts';
import { insertPage } from './page-insert.ts';
import { takeVersion } from './page-versions.service.ts';
import { PagePathTakenError } from './websites.errors.ts';
import { canonicalJson, COPIED_SETTINGS, FOLLOWED_SETTINGS, followedSettingsHash, remapNavigation, type TemplateContent, type TemplatePage } from './templates-content.ts';

export interface ReleaseToApply {
  number: number;
  content: TemplateContent;
}

export interface SiteOutcome {
  websiteSimplyId: string;
  releaseNumber: number;
  status: 'APPLIED' | 'FAILED';
  pagesAdded: string[];
  pagesUpdated: string[];
  pagesUnchanged: number;
  /** pages whose draft was edited on the site since the template last wrote it: their drafts stay */
  keptLocal: string[];
  detached: string[];
  /** pages of the site the release no longer has: left in place */
  removedFromTemplate: string[];
  /** template pages deleted on the site: not brought back */
  deletedOnSite: number;
  settings: 'UPDATED' | 'UNCHANGED' | 'KEPT_LOCAL';
  pagesPublished: number;
  errorMessage?: string;
}

export const emptyOutcome = (websiteSimplyId: string, releaseNumber: number): SiteOutcome => ({
  websiteSimplyId,
  releaseNumber,
  status: 'APPLIED',
  pagesAdded: [],
  pagesUpdated: [],
  pagesUnchanged: 0,
  keptLocal: [],
  detached: [],
  removedFromTemplate: [],
  deletedOnSite: 0,
  settings: 'UNCHANGED',
  pagesPublished: 0,
});

const json = (value: unknown) => (value === null || value === undefined ? Prisma.DbNull : (value as Prisma.InputJsonValue));

function settingsData(settings: Record<string, unknown>, keys: readonly string[], pageOf: ReadonlyMap<string, string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of keys) {
    const value = key === 'navigationJson' ? remapNavigation(settings[key], pageOf) : settings[key];
    if (key === 'availableLanguageTagIds') data[key] = (value as string[] | null) ?? [];
    else if (['themeSettings', 'headerDesignJson', 'footerDesignJson', 'navigationJson', 'redirectSettings'].includes(key)) data[key] = json(value);
    else data[key] = value ?? null;
  }
  return data;
}

/**
 * Applies `release` to `site`. `firstCopy`: the site was just made from the template (its settings
 * and home page come from the release). Answers what happened to each page.
 */
export async function applyRelease(
  actor: RequestContext,
  tx: Tx,
  site: Website,
  link: WebsiteTemplateLink,
  release: ReleaseToApply,
  options: { publish: boolean; firstCopy: boolean },
): Promise<SiteOutcome> {
  const outcome = emptyOutcome(site.simplyId, release.number);
  const by = actor.principal.userId;
  const rows = await tx.websiteTemplatePage.findMany({ where: { teamId: site.teamId, websiteId: site.id } });
  const rowOf = new Map(rows.map((r) => [r.templateKey, r]));
  const linkedIds = rows.flatMap((r) => (r.pageId === null ? [] : [r.pageId]));
  // locked in id order: a design edit of one of these pages waits, or is seen
  const pages = linkedIds.length
    ? await tx.$queryRawUnsafe<WebsitePage[]>(`SELECT * FROM "WebsitePage" WHERE "teamId" = $1 AND id = ANY($2::bigint[]) ORDER BY id FOR UPDATE`, site.teamId, linkedIds)
    : [];
  const pageById = new Map(pages.map((p) => [p.id, p]));
  /** template key → the site's page (id and simplyId) */
  const sitePageOf = new Map<string, { id: bigint; simplyId: string }>();
  for (const r of rows) {
    const page = r.pageId === null ? undefined : pageById.get(r.pageId);
    if (page) sitePageOf.set(r.templateKey, page);
  }
  const changed: WebsitePage[] = [];

  const add = async (tp: TemplatePage) => {
    const parentId = tp.parentKey === null ? null : (sitePageOf.get(tp.parentKey)?.id ?? null);
    const page: WebsitePage = await insertPage(actor, tx, site, { title: tp.title, slug: tp.slug, parentId, design: tp.design, metaTitle: tp.metaTitle, metaDescription: tp.metaDescription, field: 'templatePages' }).catch((error: unknown) => {
      // a page of the site's own has the template's slug: the new page gets one made from its title
      if (!(error instanceof PagePathTakenError)) throw error;
      return insertPage(actor, tx, site, { title: tp.title, parentId, design: tp.design, metaTitle: tp.metaTitle, metaDescription: tp.metaDescription, field: 'templatePages' });
    });
    await tx.websiteTemplatePage.create({ data: { teamId: site.teamId, websiteId: site.id, pageId: page.id, templateKey: tp.templateKey, appliedDraftRevision: page.draftRevision, appliedReleaseNumber: release.number } });
    sitePageOf.set(tp.templateKey, page);
    outcome.pagesAdded.push(page.simplyId);
    changed.push(page);
  };

  const update = async (tp: TemplatePage, row: WebsiteTemplatePage, page: WebsitePage) => {
    const same = page.title === tp.title && page.metaTitle === tp.metaTitle && page.metaDescription === tp.metaDescription && canonicalJson(page.draftDesign) === canonicalJson(tp.design);
    if (same) {
      outcome.pagesUnchanged++;
      await tx.websiteTemplatePage.update({ where: { id: row.id }, data: { appliedReleaseNumber: release.number } });
      return;
    }
    const revision = page.draftRevision + 1;
    const updated = await tx.websitePage.update({
      where: { id: page.id, teamId: page.teamId },
      data: { title: tp.title, metaTitle: tp.metaTitle, metaDescription: tp.metaDescription, draftDesign: tp.design as never, draftRevision: revision },
    });
    await tx.websiteTemplatePage.update({ where: { id: row.id }, data: { appliedDraftRevision: revision, appliedReleaseNumber: release.number } });
    await recordActivity(tx, page, 'TEMPLATE_APPLIED', { userId: by, summary: `Updated from template release ${release.number}`, revision, details: { releaseNumber: release.number } });
    outcome.pagesUpdated.push(page.simplyId);
    changed.push(updated);
  };

  for (const tp of release.content.pages) {
    const row = rowOf.get(tp.templateKey);
    if (!row) {
      await add(tp);
      continue;
    }
    const page = row.pageId === null ? undefined : pageById.get(row.pageId);
    if (!page) {
      outcome.deletedOnSite++;
      continue;
    }
    if (row.detachedAt) outcome.detached.push(page.simplyId);
    else if (page.draftRevision !== row.appliedDraftRevision) outcome.keptLocal.push(page.simplyId);
    else await update(tp, row, page);
  }
  const inRelease = new Set(release.content.pages.map((p) => p.templateKey));
  for (const row of rows) {
    const page = row.pageId === null ? undefined : pageById.get(row.pageId);
    if (page && !inRelease.has(row.templateKey) && !row.detachedAt) outcome.removedFromTemplate.push(page.simplyId);
  }

  const pageOf = new Map([...sitePageOf].map(([key, p]) => [key, p.simplyId]));
  const releaseHash = followedSettingsHash(release.content.settings);
  let settings: Record<string, unknown> = {};
  if (options.firstCopy) {
    settings = settingsData(release.content.settings, COPIED_SETTINGS, pageOf);
    outcome.settings = 'UPDATED';
  } else if (followedSettingsHash(site as unknown as Record<string, unknown>) !== (link.appliedSettingsHash ?? '')) {
    outcome.settings = 'KEPT_LOCAL';
  } else if (releaseHash !== link.appliedSettingsHash) {
    settings = settingsData(release.content.settings, FOLLOWED_SETTINGS, pageOf);
    outcome.settings = 'UPDATED';
  }
  if (options.firstCopy) {
    // the template's home page is the copy's, whichever page was inserted first
    const home = release.content.pages.find((p) => p.isHomePage);
    const homeId = home ? sitePageOf.get(home.templateKey)?.id : undefined;
    if (homeId !== undefined) {
      await tx.websitePage.updateMany({ where: { teamId: site.teamId, websiteId: site.id, isHomePage: true, id: { not: homeId } }, data: { isHomePage: false } });
      await tx.websitePage.updateMany({ where: { teamId: site.teamId, id: homeId }, data: { isHomePage: true } });
    }
  }
  if (Object.keys(settings).length) await tx.website.update({ where: { id: site.id, teamId: site.teamId }, data: settings as never });

  if (options.publish) {
    for (const page of changed) {
      const version = await takeVersion(tx, page, 'PUBLISHED', by, { note: `Template release ${release.number}` });
      await tx.websitePage.update({ where: { id: page.id, teamId: page.teamId }, data: { publishedDesign: page.draftDesign as never, publishedRevision: page.draftRevision, publishedAt: new Date(), reviewState: 'NONE' } });
      await recordActivity(tx, page, 'PUBLISHED', { userId: by, summary: `Template release ${release.number}`, revision: page.draftRevision, details: { versionSimplyId: version.simplyId } });
      outcome.pagesPublished++;
    }
  }

  const keptSettings = outcome.settings === 'KEPT_LOCAL';
  await tx.websiteTemplateLink.update({
    where: { id: link.id },
    data: {
      appliedReleaseNumber: release.number,
      pendingReleaseNumber: link.pendingReleaseNumber !== null && link.pendingReleaseNumber > release.number ? link.pendingReleaseNumber : null,
      ...(keptSettings ? {} : { appliedSettingsHash: releaseHash }),
    },
  });
  return outcome;
}
