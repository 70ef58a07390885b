// Versions of a page (docs/api/websites.md "Versions"): immutable snapshots of its design, taken by
// each publish, by hand, and before a restore replaces the draft, so a restore never loses the
// draft it replaces. Restoring puts a version's design on the draft; it never publishes.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { pagination, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { WebsitePage, WebsitePageVersion } from '../../generated/prisma/client.ts';
import { recordActivity } from './page-activity.ts';
import { pageFor, siteFor, type WebsitesDb } from './website-access.ts';
import type { WebsiteRole } from './website-roles.ts';
import { userSimplyIds } from './website-people.ts';
import { websitePageVersionId } from './websites.ids.ts';
import { checkpointInput, versionMetadataInput } from './publishing.input.ts';

export const VERSION_KINDS = ['PUBLISHED', 'CHECKPOINT', 'BEFORE_RESTORE'] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];

export interface VersionView {
  version: WebsitePageVersion;
  pageSimplyId: string;
  userSimplyId: string | null;
}

/** Takes a version of `page` as it is in the transaction (`design`: its draft unless given). */
export async function takeVersion(tx: Tx, page: WebsitePage, kind: VersionKind, by: bigint | null, extra: { label?: string; note?: string; design?: unknown } = {}): Promise<WebsitePageVersion> {
  const last = await tx.websitePageVersion.findFirst({ where: { teamId: page.teamId, pageId: page.id }, orderBy: { number: 'desc' }, select: { number: true } });
  return tx.websitePageVersion.create({
    data: {
      simplyId: websitePageVersionId.create(),
      teamId: page.teamId,
      pageId: page.id,
      number: (last?.number ?? 0) + 1,
      kind,
      label: extra.label ?? null,
      note: extra.note ?? null,
      design: (extra.design ?? page.draftDesign) as never,
      draftRevision: page.draftRevision,
      createdByUserId: by,
    },
  });
}

export async function listVersions(ctx: RequestContext, pageSimplyId: string, args: PageInput): Promise<Page<VersionView>> {
  const paging = parsePaging(args);
  const db = ctx.services.prisma;
  const { page } = await pageFor(ctx, db, pageSimplyId, 'VIEWER');
  const where = { teamId: page.teamId, pageId: page.id };
  const [rows, total] = await Promise.all([db.websitePageVersion.findMany({ where, orderBy: { number: 'desc' }, skip: paging.offset, take: paging.limit }), db.websitePageVersion.count({ where })]);
  const users = await userSimplyIds(db, rows.map((r) => r.createdByUserId));
  return { nodes: rows.map((version) => ({ version, pageSimplyId, userSimplyId: version.createdByUserId === null ? null : (users.get(version.createdByUserId) ?? null) })), pagination: pagination(total, paging) };
}

export async function createCheckpoint(ctx: RequestContext, pageSimplyId: string, raw: unknown): Promise<VersionView> {
  const input = parseInput(checkpointInput, raw ?? {}, 'Invalid version');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { page: current } = await pageFor(ctx, tx, pageSimplyId, 'EDITOR', { lockPage: true });
    const version = await takeVersion(tx, current, 'CHECKPOINT', ctx.principal.userId, input);
    await recordActivity(tx, current, 'VERSION_SAVED', { userId: ctx.principal.userId, summary: input.label ?? null, revision: current.draftRevision, details: { versionSimplyId: version.simplyId } });
    return { version, pageSimplyId, userSimplyId: (await userSimplyIds(tx, [ctx.principal.userId])).get(ctx.principal.userId ?? -1n) ?? null };
  });
}

/** The version and its page, with the caller's role on the page's site reaching `needed` (404 otherwise). */
async function versionFor(ctx: RequestContext, db: WebsitesDb & Pick<Tx, 'websitePageVersion'>, versionSimplyId: string, needed: WebsiteRole): Promise<{ version: WebsitePageVersion; page: WebsitePage }> {
  websitePageVersionId.assert(versionSimplyId, 'versionSimplyId');
  const team = requireTeam(ctx);
  const version = await db.websitePageVersion.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: versionSimplyId } }, include: { page: { include: { website: { select: { simplyId: true } } } } } });
  if (!version) throw new NotFoundError('Website page version', versionSimplyId);
  try {
    await siteFor(ctx, db, version.page.website.simplyId, needed);
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError('Website page version', versionSimplyId);
    throw error;
  }
  const { page, ...rest } = version;
  const { website: _site, ...pageRow } = page;
  return { version: rest as WebsitePageVersion, page: pageRow as WebsitePage };
}

export async function getVersion(ctx: RequestContext, versionSimplyId: string): Promise<VersionView> {
  const db = ctx.services.prisma;
  const { version, page } = await versionFor(ctx, db, versionSimplyId, 'VIEWER');
  const users = await userSimplyIds(db, [version.createdByUserId]);
  return { version, pageSimplyId: page.simplyId, userSimplyId: version.createdByUserId === null ? null : (users.get(version.createdByUserId) ?? null) };
}

export async function updateVersionMetadata(ctx: RequestContext, versionSimplyId: string, raw: unknown): Promise<VersionView> {
  const input = parseInput(versionMetadataInput, raw, 'Invalid version');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { version, page } = await versionFor(ctx, tx, versionSimplyId, 'EDITOR');
    const updated = await tx.websitePageVersion.update({ where: { id: version.id, teamId: version.teamId }, data: { ...(input.label !== undefined ? { label: input.label } : {}), ...(input.note !== undefined ? { note: input.note } : {}) } });
    const users = await userSimplyIds(tx, [updated.createdByUserId]);
    return { version: updated, pageSimplyId: page.simplyId, userSimplyId: updated.createdByUserId === null ? null : (users.get(updated.createdByUserId) ?? null) };
  });
}

/** Puts the version's design on the draft (a new draft revision), after keeping the draft it replaces as a BEFORE_RESTORE version. */
export async function restoreVersion(ctx: RequestContext, versionSimplyId: string): Promise<{ page: WebsitePage; restoredFrom: VersionView }> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { version, page: found } = await versionFor(ctx, tx, versionSimplyId, 'EDITOR');
    await tx.$queryRawUnsafe('SELECT 1 FROM "WebsitePage" WHERE "teamId" = $1 AND id = $2 FOR UPDATE', found.teamId, found.id);
    const page = await tx.websitePage.findUniqueOrThrow({ where: { id: found.id, teamId: found.teamId } });
    await takeVersion(tx, page, 'BEFORE_RESTORE', ctx.principal.userId, { note: `the draft before version ${version.number} was restored` });
    const updated = await tx.websitePage.update({ where: { id: page.id, teamId: page.teamId }, data: { draftDesign: version.design as never, draftRevision: page.draftRevision + 1 } });
    await recordActivity(tx, page, 'VERSION_RESTORED', { userId: ctx.principal.userId, revision: updated.draftRevision, details: { versionSimplyId: version.simplyId, number: version.number } });
    return { page: updated, restoredFrom: { version, pageSimplyId: page.simplyId, userSimplyId: null } };
  });
}
