// Team website templates (docs/api/websites.md "Templates"): a template names a source site of the
// team; a release is an immutable, numbered snapshot of it; sites made from the template follow its
// releases. Reading templates needs either websites feature; writing them, the feature at edit level
// and the EDITOR role on the source site (a release copies what is on it). Another team's template
// answers 404.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { pagination, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { WebsiteTemplate, WebsiteTemplateLink, WebsiteTemplateRelease } from '../../generated/prisma/client.ts';
import { queueTask } from '../background-tasks/index.ts';
import { recordActivity } from './page-activity.ts';
import type { WebsiteCopyQueueData } from './website-copy-task.ts';
import { applyRelease, type SiteOutcome } from './templates-apply.ts';
import type { TemplateContent } from './templates-content.ts';
import { snapshotSite } from './templates-content.ts';
import type { TemplateReleaseQueueData } from './templates-release-task.ts';
import { pageFor, requireWebsitesFeature, siteFor } from './website-access.ts';
import { PageNotFollowingTemplateError, WebsiteNotFromTemplateError, WebsiteTemplateArchivedError, WebsiteTemplateNotReleasedError, WebsiteTemplateSourceMissingError, WebsiteTemplateUpToDateError } from './website-templates.errors.ts';
import { websiteTemplateId, websiteTemplateReleaseId } from './website-templates.ids.ts';
import { createTemplateInput, releaseTemplateInput, updateTemplateInput, websiteFromTemplateInput, type TemplateSyncMode } from './website-templates.input.ts';
import { insertWebsite, type WebsiteView } from './websites.service.ts';

/** the newest releases a template's detail lists */
const RELEASES_LISTED = 50;

export type ReleaseRow = Omit<WebsiteTemplateRelease, 'content'>;

export interface ConnectedSite {
  websiteSimplyId: string;
  templateSyncMode: string;
  appliedReleaseNumber: number | null;
  pendingReleaseNumber: number | null;
}

export interface TemplateView {
  template: WebsiteTemplate;
  sourceWebsiteSimplyId: string | null;
  connectedWebsiteCount: number;
  /** detail only (the list leaves them empty) */
  releases: ReleaseRow[];
  websites: ConnectedSite[];
}

export interface ReleaseView {
  release: ReleaseRow;
  teamWebsiteTemplateSimplyId: string;
  autoWebsiteCount: number;
  pendingWebsiteCount: number;
}

export interface ConnectionView {
  websiteSimplyId: string;
  teamWebsiteTemplateSimplyId: string | null;
  connected: boolean;
  templateSyncMode: string | null;
  enumAppBrandId: string | null;
  appliedReleaseNumber: number | null;
  pendingReleaseNumber: number | null;
  connectedAt: Date | null;
}

export interface WebsiteFromTemplate {
  website: WebsiteView;
  connection: ConnectionView;
  releaseNumber: number;
  backgroundTaskSimplyId: string;
  status: 'QUEUED';
}

export interface ApplyResult {
  connection: ConnectionView;
  outcome: SiteOutcome;
}

export interface PageTemplateState {
  pageSimplyId: string;
  websiteSimplyId: string;
  followsTemplate: boolean;
  detachedAt: Date | null;
}

async function sourceSimplyIds(db: Pick<Tx, 'website'>, teamId: bigint, ids: (bigint | null)[]): Promise<Map<bigint, string>> {
  const wanted = [...new Set(ids.filter((id): id is bigint => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db.website.findMany({ where: { teamId, id: { in: wanted } }, select: { id: true, simplyId: true } });
  return new Map(rows.map((r) => [r.id, r.simplyId]));
}

async function detailOf(tx: Pick<Tx, 'website' | 'websiteTemplateRelease' | '$queryRawUnsafe'>, template: WebsiteTemplate): Promise<TemplateView> {
  const sources = await sourceSimplyIds(tx, template.teamId, [template.sourceWebsiteId]);
  const releases = await tx.websiteTemplateRelease.findMany({ where: { teamId: template.teamId, templateId: template.id }, orderBy: { number: 'desc' }, take: RELEASES_LISTED, omit: { content: true } });
  const websites = await tx.$queryRawUnsafe<ConnectedSite[]>(
    `SELECT w."simplyId" AS "websiteSimplyId", l."syncMode" AS "templateSyncMode", l."appliedReleaseNumber", l."pendingReleaseNumber"
       FROM "WebsiteTemplateLink" l JOIN "Website" w ON w.id = l."websiteId" AND w."teamId" = l."teamId"
      WHERE l."teamId" = $1 AND l."templateId" = $2 ORDER BY l.id LIMIT 1000`,
    template.teamId,
    template.id,
  );
  return { template, sourceWebsiteSimplyId: template.sourceWebsiteId === null ? null : (sources.get(template.sourceWebsiteId) ?? null), connectedWebsiteCount: websites.length, releases, websites };
}

/** The template row (404 for another team's), locked FOR UPDATE or FOR SHARE when asked. */
async function templateRow(ctx: RequestContext, db: Pick<Tx, '$queryRawUnsafe'>, simplyId: string, lock: 'UPDATE' | 'SHARE' | null = null): Promise<WebsiteTemplate> {
  websiteTemplateId.assert(simplyId, 'teamWebsiteTemplateSimplyId');
  const team = requireTeam(ctx);
  const rows = await db.$queryRawUnsafe<WebsiteTemplate[]>(`SELECT * FROM "WebsiteTemplate" WHERE "teamId" = $1 AND "simplyId" = $2${lock ? ` FOR ${lock}` : ''}`, team.id, simplyId);
  if (!rows[0]) throw new NotFoundError('Website template', simplyId);
  return rows[0];
}

/** The source site of `template`, which the caller must edit. */
async function editableSource(ctx: RequestContext, tx: Tx, template: WebsiteTemplate) {
  const source = template.sourceWebsiteId === null ? null : await tx.website.findFirst({ where: { teamId: template.teamId, id: template.sourceWebsiteId }, select: { simplyId: true } });
  if (!source) throw new WebsiteTemplateSourceMissingError(template.simplyId);
  return siteFor(ctx, tx, source.simplyId, 'EDITOR');
}

export async function listTemplates(ctx: RequestContext, args: PageInput & { includeArchived?: boolean | null }): Promise<Page<TemplateView>> {
  requireWebsitesFeature(ctx, 'VIEW');
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const db = ctx.services.prisma;
  const where = { teamId: team.id, ...(args.includeArchived ? {} : { archivedAt: null }) };
  const [rows, total] = await Promise.all([db.websiteTemplate.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: paging.offset, take: paging.limit }), db.websiteTemplate.count({ where })]);
  const sources = await sourceSimplyIds(db, team.id, rows.map((r) => r.sourceWebsiteId));
  const counts = rows.length ? await db.websiteTemplateLink.groupBy({ by: ['templateId'], where: { teamId: team.id, templateId: { in: rows.map((r) => r.id) } }, _count: { _all: true } }) : [];
  const countOf = new Map(counts.map((c) => [c.templateId, c._count._all]));
  return {
    nodes: rows.map((template) => ({
      template,
      sourceWebsiteSimplyId: template.sourceWebsiteId === null ? null : (sources.get(template.sourceWebsiteId) ?? null),
      connectedWebsiteCount: countOf.get(template.id) ?? 0,
      releases: [],
      websites: [],
    })),
    pagination: pagination(total, paging),
  };
}

export async function getTemplate(ctx: RequestContext, simplyId: string): Promise<TemplateView> {
  requireWebsitesFeature(ctx, 'VIEW');
  const db = ctx.services.prisma;
  return detailOf(db, await templateRow(ctx, db, simplyId));
}

export async function createTemplate(ctx: RequestContext, raw: unknown): Promise<TemplateView> {
  requireWebsitesFeature(ctx, 'EDIT');
  const input = parseInput(createTemplateInput, raw, 'Invalid website template');
  const team = requireTeam(ctx);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, input.sourceWebsiteSimplyId, 'EDITOR');
    const template = await tx.websiteTemplate.create({
      data: { simplyId: websiteTemplateId.create(), teamId: team.id, name: input.name, description: input.description ?? null, sourceWebsiteId: site.id, createdByUserId: ctx.principal.userId },
    });
    return detailOf(tx, template);
  });
}

export async function updateTemplate(ctx: RequestContext, simplyId: string, raw: unknown): Promise<TemplateView> {
  requireWebsitesFeature(ctx, 'EDIT');
  const input = parseInput(updateTemplateInput, raw, 'Invalid website template');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const template = await templateRow(ctx, tx, simplyId, 'UPDATE');
    if (template.archivedAt) throw new WebsiteTemplateArchivedError(simplyId);
    const data: Partial<WebsiteTemplate> = {};
    if (input.name !== undefined) data.name = input.name;
    if (input.description !== undefined) data.description = input.description;
    if (input.sourceWebsiteSimplyId !== undefined) data.sourceWebsiteId = (await siteFor(ctx, tx, input.sourceWebsiteSimplyId, 'EDITOR')).site.id;
    const updated = Object.keys(data).length ? await tx.websiteTemplate.update({ where: { id: template.id }, data }) : template;
    return detailOf(tx, updated);
  });
}

/** DELETE archives: releases and connected sites stay; no new sites or releases. */
export async function archiveTemplate(ctx: RequestContext, simplyId: string): Promise<boolean> {
  requireWebsitesFeature(ctx, 'EDIT');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const template = await templateRow(ctx, tx, simplyId, 'UPDATE');
    // a second delete finds nothing to delete, like any other resource
    if (template.archivedAt) throw new NotFoundError('Website template', simplyId);
    await tx.websiteTemplate.update({ where: { id: template.id }, data: { archivedAt: new Date() } });
    return true;
  });
}

/**
 * A new numbered release of the source site as it is now. Every connected site gets it as pending;
 * with applyAutoSites (default), a WEBSITE_TEMPLATE_RELEASE task applies it to the AUTO sites.
 */
export async function releaseTemplate(ctx: RequestContext, simplyId: string, raw: unknown): Promise<ReleaseView> {
  requireWebsitesFeature(ctx, 'EDIT');
  const input = parseInput(releaseTemplateInput, raw ?? {}, 'Invalid template release');
  const applyAutoSites = input.applyAutoSites ?? true;
  const managedPublish = input.managedPublish ?? false;
  return runTransaction(ctx.services.prisma, async (tx) => {
    // one release at a time per template: numbers are dense
    const template = await templateRow(ctx, tx, simplyId, 'UPDATE');
    if (template.archivedAt) throw new WebsiteTemplateArchivedError(simplyId);
    const { site } = await editableSource(ctx, tx, template);
    const content = await snapshotSite(tx, site);
    const number = template.latestReleaseNumber + 1;
    let release = await tx.websiteTemplateRelease.create({
      data: {
        simplyId: websiteTemplateReleaseId.create(),
        teamId: template.teamId,
        templateId: template.id,
        number,
        releaseNotes: input.releaseNotes ?? null,
        content: content as never,
        pageCount: content.pages.length,
        applyAutoSites,
        managedPublish,
        createdByUserId: ctx.principal.userId,
      },
    });
    await tx.websiteTemplate.update({ where: { id: template.id }, data: { latestReleaseNumber: number } });
    // sites still being copied take the newest release when their copy runs
    const pending = await tx.websiteTemplateLink.updateMany({ where: { teamId: template.teamId, templateId: template.id, appliedReleaseNumber: { not: null } }, data: { pendingReleaseNumber: number } });
    const auto = applyAutoSites
      ? await tx.$queryRawUnsafe<{ simplyId: string }[]>(
          `SELECT w."simplyId" FROM "WebsiteTemplateLink" l JOIN "Website" w ON w.id = l."websiteId" AND w."teamId" = l."teamId"
            WHERE l."teamId" = $1 AND l."templateId" = $2 AND l."syncMode" = 'AUTO' AND l."appliedReleaseNumber" IS NOT NULL ORDER BY l.id`,
          template.teamId,
          template.id,
        )
      : [];
    if (auto.length) {
      const queueData: TemplateReleaseQueueData = { teamWebsiteTemplateSimplyId: template.simplyId, releaseNumber: number, managedPublish, websiteSimplyIds: auto.map((a) => a.simplyId) };
      const backgroundTaskSimplyId = await queueTask(ctx, tx, 'WEBSITE_TEMPLATE_RELEASE', { queueData, totalCount: auto.length });
      release = await tx.websiteTemplateRelease.update({ where: { id: release.id }, data: { backgroundTaskSimplyId } });
    }
    const { content: _c, ...row } = release;
    return { release: row, teamWebsiteTemplateSimplyId: template.simplyId, autoWebsiteCount: auto.length, pendingWebsiteCount: pending.count - auto.length };
  });
}

function connectionOf(websiteSimplyId: string, link: WebsiteTemplateLink | null, templateSimplyId: string | null): ConnectionView {
  return {
    websiteSimplyId,
    teamWebsiteTemplateSimplyId: link ? templateSimplyId : null,
    connected: link !== null,
    templateSyncMode: link?.syncMode ?? null,
    enumAppBrandId: link?.enumAppBrandId ?? null,
    appliedReleaseNumber: link?.appliedReleaseNumber ?? null,
    pendingReleaseNumber: link?.pendingReleaseNumber ?? null,
    connectedAt: link?.connectedAt ?? null,
  };
}

/** A new site owned by the caller, connected to the template; a WEBSITE_COPY task copies the newest release into it. */
export async function createWebsiteFromTemplate(ctx: RequestContext, simplyId: string, raw: unknown): Promise<WebsiteFromTemplate> {
  requireWebsitesFeature(ctx, 'EDIT');
  const input = parseInput(websiteFromTemplateInput, raw, 'Invalid website');
  return runTransaction(ctx.services.prisma, async (tx) => {
    // an archive waits for the sites being made from the template, and the other way round
    const template = await templateRow(ctx, tx, simplyId, 'SHARE');
    if (template.archivedAt) throw new WebsiteTemplateArchivedError(simplyId);
    if (template.latestReleaseNumber === 0) throw new WebsiteTemplateNotReleasedError(simplyId);
    const website = await insertWebsite(ctx, tx, { name: input.name, slug: input.slug, defaultLanguageTagId: input.defaultLanguageTagId });
    const syncMode: TemplateSyncMode = input.templateSyncMode ?? 'REVIEW';
    const link = await tx.websiteTemplateLink.create({
      data: { teamId: template.teamId, websiteId: website.site.id, templateId: template.id, syncMode, enumAppBrandId: input.enumAppBrandId ?? null },
    });
    const queueData: WebsiteCopyQueueData = { websiteSimplyId: website.site.simplyId, teamWebsiteTemplateSimplyId: template.simplyId };
    const release = await tx.websiteTemplateRelease.findUniqueOrThrow({ where: { templateId_number: { templateId: template.id, number: template.latestReleaseNumber } }, select: { pageCount: true } });
    const backgroundTaskSimplyId = await queueTask(ctx, tx, 'WEBSITE_COPY', { queueData, totalCount: release.pageCount });
    return { website, connection: connectionOf(website.site.simplyId, link, template.simplyId), releaseNumber: template.latestReleaseNumber, backgroundTaskSimplyId, status: 'QUEUED' };
  });
}

async function linkOf(tx: Pick<Tx, 'websiteTemplateLink'>, teamId: bigint, websiteId: bigint) {
  return tx.websiteTemplateLink.findUnique({ where: { teamId_websiteId: { teamId, websiteId } }, include: { template: { select: { simplyId: true } } } });
}

/** The template a site follows and how (VIEWER); not connected: connected false. */
export async function getConnection(ctx: RequestContext, websiteSimplyId: string): Promise<ConnectionView> {
  const db = ctx.services.prisma;
  const { site } = await siteFor(ctx, db, websiteSimplyId, 'VIEWER');
  const link = await linkOf(db, site.teamId, site.id);
  return connectionOf(site.simplyId, link, link?.template.simplyId ?? null);
}

/** Applies the site's pending release now (EDITOR): the same merge as an AUTO site's, nothing published. */
export async function applyTemplate(ctx: RequestContext, websiteSimplyId: string): Promise<ApplyResult> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'EDITOR', { lock: true });
    const link = await linkOf(tx, site.teamId, site.id);
    if (!link) throw new WebsiteNotFromTemplateError(site.simplyId);
    if (link.appliedReleaseNumber === null || link.pendingReleaseNumber === null) throw new WebsiteTemplateUpToDateError(site.simplyId, link.appliedReleaseNumber === null);
    const release = await tx.websiteTemplateRelease.findUniqueOrThrow({ where: { templateId_number: { templateId: link.templateId, number: link.pendingReleaseNumber } } });
    const outcome = await applyRelease(ctx, tx, site, link, { number: release.number, content: release.content as unknown as TemplateContent }, { publish: false, firstCopy: false });
    const after = await linkOf(tx, site.teamId, site.id);
    return { connection: connectionOf(site.simplyId, after, link.template.simplyId), outcome };
  });
}

/** The site stops following its template (OWNER): its pages stay as they are, its own from now on. */
export async function disconnectTemplate(ctx: RequestContext, websiteSimplyId: string): Promise<ConnectionView> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'OWNER', { lock: true });
    const link = await linkOf(tx, site.teamId, site.id);
    if (!link) throw new WebsiteNotFromTemplateError(site.simplyId);
    await tx.websiteTemplatePage.deleteMany({ where: { teamId: site.teamId, websiteId: site.id } });
    await tx.websiteTemplateLink.delete({ where: { id: link.id } });
    return connectionOf(site.simplyId, null, null);
  });
}

/** The page stops following template releases (EDITOR); the rest of the site still follows. */
export async function detachPageFromTemplate(ctx: RequestContext, pageSimplyId: string): Promise<PageTemplateState> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { page, site } = await pageFor(ctx, tx, pageSimplyId, 'EDITOR', { lockPage: true });
    const row = await tx.websiteTemplatePage.findUnique({ where: { pageId: page.id } });
    if (!row || row.teamId !== page.teamId || row.detachedAt) throw new PageNotFollowingTemplateError(page.simplyId);
    const detached = await tx.websiteTemplatePage.update({ where: { id: row.id }, data: { detachedAt: new Date() } });
    await recordActivity(tx, page, 'TEMPLATE_DETACHED', { userId: ctx.principal.userId, revision: page.draftRevision });
    return { pageSimplyId: page.simplyId, websiteSimplyId: site.simplyId, followsTemplate: false, detachedAt: detached.detachedAt };
  });
}
