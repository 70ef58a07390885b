// Backups of a site (docs/api/websites.md "Backups"): a snapshot of its content settings and every
// page (place in the tree, metadata, draft and published design). Restoring brings the content
// back as it was, as a new draft state: page drafts, the header, footer and campaign chrome drafts
// and the content settings; pages made since the backup are removed and pages deleted since come
// back (with their old ids, so links to them work again). What is published stays published until
// someone publishes again. Before a restore the site is backed up as it is, so a restore can itself
// be undone.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { pagination, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { Prisma, type Website, type WebsiteBackup } from '../../generated/prisma/client.ts';
import { recordActivity } from './page-activity.ts';
import { PageTree } from './page-tree.ts';
import { siteFor } from './website-access.ts';
import { userSimplyId, userSimplyIds } from './website-people.ts';
import { websiteBackupId } from './websites.ids.ts';
import { createBackupInput } from './publishing.input.ts';

/** the most backups a site keeps: beyond it, taking one drops the oldest AUTOMATIC ones */
export const MAX_BACKUPS_PER_SITE = 200;

/** The settings a backup keeps (content, not identity: name and slug stay as they are). */
const SETTINGS = [
  'metaTitle', 'metaDescription', 'socialImageUrl', 'faviconFileSimplyId', 'themeSettings', 'navigationJson', 'headerDesignJson', 'footerDesignJson',
  'campaignChromeConfig', 'googleAnalyticsMeasurementId', 'defaultLanguageTagId', 'availableLanguageTagIds', 'redirectSettings',
] as const;

interface PageSnapshot {
  simplyId: string;
  parentSimplyId: string | null;
  position: number;
  title: string;
  slug: string;
  isHomePage: boolean;
  metaTitle: string | null;
  metaDescription: string | null;
  draftDesign: unknown;
  draftRevision: number;
  publishedDesign: unknown;
}

interface Snapshot {
  version: 1;
  settings: Record<string, unknown>;
  pages: PageSnapshot[];
}

export interface BackupView {
  backup: WebsiteBackup;
  websiteSimplyId: string;
  userSimplyId: string | null;
}

async function snapshotOf(tx: Pick<Tx, 'websitePage'>, site: Website): Promise<Snapshot> {
  const pages = await tx.websitePage.findMany({ where: { teamId: site.teamId, websiteId: site.id }, orderBy: { id: 'asc' } });
  const simplyIdOf = new Map(pages.map((p) => [p.id, p.simplyId]));
  return {
    version: 1,
    settings: Object.fromEntries(SETTINGS.map((key) => [key, site[key] ?? null])),
    pages: pages.map((p) => ({
      simplyId: p.simplyId,
      parentSimplyId: p.parentId === null ? null : (simplyIdOf.get(p.parentId) ?? null),
      position: p.position,
      title: p.title,
      slug: p.slug,
      isHomePage: p.isHomePage,
      metaTitle: p.metaTitle,
      metaDescription: p.metaDescription,
      draftDesign: p.draftDesign,
      draftRevision: p.draftRevision,
      publishedDesign: p.publishedDesign,
    })),
  };
}

/** Takes a backup of `site` in the transaction (the site's row should be locked by the caller). */
export async function captureBackup(tx: Tx, site: Website, summary: string | null, kind: 'MANUAL' | 'AUTOMATIC', by: bigint | null): Promise<WebsiteBackup> {
  const content = await snapshotOf(tx, site);
  const json = JSON.stringify(content);
  const backup = await tx.websiteBackup.create({
    data: { simplyId: websiteBackupId.create(), teamId: site.teamId, websiteId: site.id, kind, summary, content: content as never, pageCount: content.pages.length, byteSize: Buffer.byteLength(json), createdByUserId: by },
  });
  const count = await tx.websiteBackup.count({ where: { teamId: site.teamId, websiteId: site.id } });
  if (count > MAX_BACKUPS_PER_SITE) {
    const oldest = await tx.websiteBackup.findMany({ where: { teamId: site.teamId, websiteId: site.id, kind: 'AUTOMATIC' }, orderBy: { id: 'asc' }, take: count - MAX_BACKUPS_PER_SITE, select: { id: true } });
    await tx.websiteBackup.deleteMany({ where: { teamId: site.teamId, id: { in: oldest.map((b) => b.id) } } });
  }
  return backup;
}

export async function createBackup(ctx: RequestContext, websiteSimplyId: string, raw: unknown): Promise<BackupView> {
  const input = parseInput(createBackupInput, raw ?? {}, 'Invalid backup');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'EDITOR', { lock: true });
    const backup = await captureBackup(tx, site, input.summary ?? null, 'MANUAL', ctx.principal.userId);
    return { backup, websiteSimplyId: site.simplyId, userSimplyId: await userSimplyId(tx, ctx.principal.userId) };
  });
}

export async function listBackups(ctx: RequestContext, websiteSimplyId: string, args: PageInput): Promise<Page<BackupView>> {
  const paging = parsePaging(args);
  const db = ctx.services.prisma;
  const { site } = await siteFor(ctx, db, websiteSimplyId, 'VIEWER');
  const where = { teamId: site.teamId, websiteId: site.id };
  // the list leaves the content out: a backup can be megabytes
  const [rows, total] = await Promise.all([
    db.websiteBackup.findMany({ where, orderBy: { id: 'desc' }, skip: paging.offset, take: paging.limit, omit: { content: true } }),
    db.websiteBackup.count({ where }),
  ]);
  const users = await userSimplyIds(db, rows.map((r) => r.createdByUserId));
  return {
    nodes: rows.map((backup) => ({ backup: { ...backup, content: null } as WebsiteBackup, websiteSimplyId: site.simplyId, userSimplyId: backup.createdByUserId === null ? null : (users.get(backup.createdByUserId) ?? null) })),
    pagination: pagination(total, paging),
  };
}

async function backupFor(ctx: RequestContext, tx: Tx, simplyId: string, needed: 'VIEWER' | 'OWNER', lock = false): Promise<{ backup: WebsiteBackup; site: Website }> {
  websiteBackupId.assert(simplyId, 'websiteBackupSimplyId');
  const team = requireTeam(ctx);
  const backup = await tx.websiteBackup.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, include: { website: { select: { simplyId: true } } } });
  if (!backup) throw new NotFoundError('Website backup', simplyId);
  try {
    const { site } = await siteFor(ctx, tx, backup.website.simplyId, needed, { lock });
    const { website: _w, ...row } = backup;
    return { backup: row, site };
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError('Website backup', simplyId);
    throw error;
  }
}

export async function getBackup(ctx: RequestContext, simplyId: string): Promise<BackupView> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { backup, site } = await backupFor(ctx, tx, simplyId, 'VIEWER');
    return { backup, websiteSimplyId: site.simplyId, userSimplyId: await userSimplyId(tx, backup.createdByUserId) };
  });
}

const json = (value: unknown) => (value === null || value === undefined ? Prisma.DbNull : (value as Prisma.InputJsonValue));

/** Puts the backup's content back as the site's drafts; answers the backup taken of what it replaced. */
export async function restoreBackup(ctx: RequestContext, simplyId: string): Promise<{ restored: BackupView; replaced: BackupView }> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { backup, site } = await backupFor(ctx, tx, simplyId, 'OWNER', true);
    const replaced = await captureBackup(tx, site, `Before restoring the backup ${backup.simplyId}`, 'AUTOMATIC', ctx.principal.userId);
    const snapshot = backup.content as unknown as Snapshot;
    const s = snapshot.settings;
    await tx.website.update({
      where: { id: site.id, teamId: site.teamId },
      data: {
        metaTitle: (s.metaTitle as string | null) ?? null,
        metaDescription: (s.metaDescription as string | null) ?? null,
        socialImageUrl: (s.socialImageUrl as string | null) ?? null,
        faviconFileSimplyId: (s.faviconFileSimplyId as string | null) ?? null,
        googleAnalyticsMeasurementId: (s.googleAnalyticsMeasurementId as string | null) ?? null,
        defaultLanguageTagId: (s.defaultLanguageTagId as string | null) ?? null,
        availableLanguageTagIds: (s.availableLanguageTagIds as string[] | null) ?? [],
        themeSettings: json(s.themeSettings),
        navigationJson: json(s.navigationJson),
        headerDesignJson: json(s.headerDesignJson),
        footerDesignJson: json(s.footerDesignJson),
        campaignChromeConfig: json(s.campaignChromeConfig),
        redirectSettings: json(s.redirectSettings),
      },
    });
    const current = await tx.websitePage.findMany({ where: { teamId: site.teamId, websiteId: site.id } });
    const wanted = new Set(snapshot.pages.map((p) => p.simplyId));
    // pages made since the backup go (children first: the tree has no cascade)
    const gone = current.filter((p) => !wanted.has(p.simplyId));
    if (gone.length) {
      await tx.websitePage.updateMany({ where: { teamId: site.teamId, id: { in: gone.map((p) => p.id) } }, data: { parentId: null } });
      await tx.websitePage.deleteMany({ where: { teamId: site.teamId, id: { in: gone.map((p) => p.id) } } });
    }
    const bySimplyId = new Map(current.filter((p) => wanted.has(p.simplyId)).map((p) => [p.simplyId, p]));
    // every page first at the root, then the tree as it was (parents may come back in any order)
    for (const p of snapshot.pages) {
      const existing = bySimplyId.get(p.simplyId);
      const data = { title: p.title, slug: p.slug, isHomePage: p.isHomePage, metaTitle: p.metaTitle, metaDescription: p.metaDescription, position: p.position, parentId: null, draftDesign: p.draftDesign as never };
      if (existing) {
        await tx.websitePage.update({ where: { id: existing.id, teamId: site.teamId }, data: { ...data, draftRevision: existing.draftRevision + 1 } });
      } else {
        const made = await tx.websitePage.create({ data: { ...data, simplyId: p.simplyId, teamId: site.teamId, websiteId: site.id, draftRevision: 1, createdByUserId: ctx.principal.userId } });
        bySimplyId.set(p.simplyId, made);
      }
    }
    for (const p of snapshot.pages) {
      if (p.parentSimplyId === null) continue;
      const parent = bySimplyId.get(p.parentSimplyId);
      if (parent) await tx.websitePage.update({ where: { id: bySimplyId.get(p.simplyId)!.id, teamId: site.teamId }, data: { parentId: parent.id } });
    }
    const tree = await PageTree.load(tx, site.teamId, site.id);
    for (const page of tree.pages) {
      const fresh = await tx.websitePage.findUniqueOrThrow({ where: { id: page.id, teamId: site.teamId }, select: { id: true, teamId: true, draftRevision: true } });
      await recordActivity(tx, fresh, 'BACKUP_RESTORED', { userId: ctx.principal.userId, revision: fresh.draftRevision, details: { websiteBackupSimplyId: backup.simplyId } });
    }
    const by = await userSimplyId(tx, ctx.principal.userId);
    return {
      restored: { backup, websiteSimplyId: site.simplyId, userSimplyId: await userSimplyId(tx, backup.createdByUserId) },
      replaced: { backup: replaced, websiteSimplyId: site.simplyId, userSimplyId: by },
    };
  });
}
